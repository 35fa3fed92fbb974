/**
 * Where files sit in a resource (docs/api.md §4.4): moving them between rooms (rule 7) and
 * mounting a user's own file into a resource bucket (rule 10).
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { acceptsType, fileNotFound, fileRule, parseFilePath } from './files.rules.js';
import { bucketOf, hiddenFrom, judgeMove, refused, roleIn } from './file-access.rules.js';
import { passesAccessRule } from '../rooms/rooms.rules.js';
import { fail } from '../errors.js';
import type { ChangeSet } from '../membership/membership-store.service.js';
import { loadResource, roomOf, writerRoles } from '../membership/writer-standing.service.js';
import { type FileScope, type FileView, findAt, schemaOf, view } from './file-store.service.js';
import { afterCommit } from './file-blobs.service.js';
import type { FileDeps } from './files.service.js';

/** §4.4 rule 7 for files: admin in each source room, the upload rule in the destination; one call, one charge. */
export async function move(
  deps: Pick<FileDeps, 'prisma' | 'transaction' | 'now' | 'apps' | 'metering'>,
  caller: PrincipalCaller,
  input: { resourceId: string; bucket: string; paths: string[]; roomId: string | null },
): Promise<{ ok: true; moved: number }> {
  if (!Array.isArray(input.paths) || input.paths.length === 0 || input.paths.length > 100)
    throw fail('invalid_argument', 'paths: 1 to 100 file paths.');
  const paths = [...new Set(input.paths.map(parseFilePath))];
  const schema = await schemaOf(deps, caller);
  const me = caller.principal.id;
  const resource = await loadResource(deps.prisma, caller, input.resourceId);
  const bucket = bucketOf(schema.buckets, input.bucket, { kind: 'resource', type: resource.type });
  const scope: FileScope = { kind: 'resource', resourceId: resource.id, bucket: input.bucket };
  await deps.transaction(async tx => {
    const defaultRole = schema.resources[resource.type]?.defaultRole ?? 'reader';
    const writer = await writerRoles(tx, caller, resource, { joining: false, defaultRole, now: deps.now(), joins: [] });
    const destination = await roomOf(tx, resource.id, input.roomId ?? undefined);
    const ids: string[] = [];
    for (const path of paths) {
      const reached = await findAt(tx, caller, scope, path, true);
      if (!reached) throw fileNotFound(path);
      judgeMove(bucket, input.bucket, writer.roles, reached, destination, me);
      ids.push(reached.file.id);
    }
    await tx.file.updateMany({ where: { id: { in: ids } }, data: { roomId: destination } });
    await deps.metering.charge(tx, caller, [{ class: 'writes', quantity: 1 }], 'files.move');
  });
  return { ok: true, moved: paths.length };
}

/** §4.4 rule 10: mounts one of the caller's own user-bucket files into a resource bucket (default-room content). */
export async function link(
  deps: Pick<FileDeps, 'prisma' | 'transaction' | 'bus' | 'now' | 'apps' | 'metering' | 'blobs'>,
  caller: PrincipalCaller,
  input: { resourceId: string; bucket: string; fileId: string; path?: string | null },
): Promise<FileView> {
  const { prisma } = deps;
  const schema = await schemaOf(deps, caller);
  const me = caller.principal.id;
  const resource = await loadResource(prisma, caller, input.resourceId);
  const bucket = bucketOf(schema.buckets, input.bucket, { kind: 'resource', type: resource.type });
  const source = /^[0-9a-f-]{36}$/i.test(input.fileId) ? await prisma.file.findUnique({ where: { id: input.fileId } }) : null;
  if (!source || source.deploymentId !== caller.deployment.id || source.scope !== `u:${me}`) {
    throw fail('file_not_found', `No file ${input.fileId} in your own buckets: only your own files can be linked.`);
  }
  const path = input.path ? parseFilePath(input.path) : source.path;
  if (!acceptsType(bucket.contentTypes, source.contentType)) {
    throw fail('unsupported_media_type', `Bucket ${input.bucket} accepts ${bucket.contentTypes.join(', ')}, not ${source.contentType}.`);
  }
  if (Number(source.size) > bucket.maxBytes) throw fail('file_too_large', `Bucket ${input.bucket} accepts files up to ${bucket.maxBytes} bytes.`);
  const joins: ChangeSet[] = [];
  const now = deps.now();
  await deps.transaction(async tx => {
    const defaultRole = schema.resources[resource.type]?.defaultRole ?? 'reader';
    const writer = await writerRoles(tx, caller, resource, { joining: true, defaultRole, now, joins });
    const role = roleIn(writer.roles, null);
    if (!passesAccessRule(fileRule('upload', bucket.access), role, true, writer.roles.resourceRole))
      throw refused('upload', input.bucket, role, null);
    const taken = await findAt(tx, caller, { kind: 'resource', resourceId: resource.id, bucket: input.bucket }, path, true);
    // Rule 9: a file the caller cannot see is not named to them, not even as a conflict.
    if (taken && hiddenFrom('read', bucket, writer.roles, taken)) throw fileNotFound(path);
    if (taken) {
      throw fail('file_exists', `A file ${JSON.stringify(path)} exists in bucket ${input.bucket} of this resource: link under another path.`);
    }
    await writer.join?.();
    await tx.fileLink.create({ data: { fileId: source.id, resourceId: resource.id, bucket: input.bucket, path, linkedBy: me, createdAt: now } });
    await deps.metering.charge(tx, caller, [{ class: 'writes', quantity: 1 }], 'files.link');
    for (const changes of joins) await changes.flush();
  });
  afterCommit(deps, joins, []);
  return view({ file: { ...source, createdAt: now }, path, mount: true }, input.bucket);
}
