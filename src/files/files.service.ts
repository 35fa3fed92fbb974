/**
 * Files (docs/api.md §13): the buckets an app schema declares. A user bucket holds each user's own
 * files; a resource bucket holds the resource's, placed in rooms exactly like rows (§4.4 rule 9:
 * union read, default-room write, moveRoom with the same authority), and mounts of users' own files
 * (rule 10: no room, read as default-room content).
 *
 * The bytes live in the blob store, the truth in `files`: a write streams the body into a fresh
 * key first (synced, or a completed multipart upload), then commits the row and its charge in one
 * transaction; a failed transaction deletes the new blob. A replaced or deleted file's old blob is
 * deleted after commit. A crash in between leaves only blobs no row names, which `sweep` removes.
 *
 * This module: upload, download, list and delete, and `fileOperations`, what `services.files`
 * offers. Who may do what: src/files/file-access.rules.ts; the rows: file-store.service.ts;
 * moving and mounting: file-placement.service.ts; the blobs: file-blobs.service.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type ByteRange, acceptsType, etagMatches, fileNotFound, fileRule, mediaType, parseFilePath, parsePathPrefix } from './files.rules.js';
import { assertPutPreconditions, bucketOf, decodeCursor, encodeCursor, judge, judgePut, listReach } from './file-access.rules.js';
import { reachesEveryRoom } from '../rooms/rooms.rules.js';
import { fail } from '../errors.js';
import type { BlobStore } from '../storage/index.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import type { ChangeSet } from '../membership/membership-store.service.js';
import type { MeteringService } from '../billing/metering.service.js';
import { loadResource, roomOf, writerRoles } from '../membership/writer-standing.service.js';
import {
  type FileRow,
  type FileScope,
  type FileView,
  type ListedFile,
  type Reached,
  findAt,
  outsideScopeRoom,
  readerRoles,
  resourceFilesPage,
  schemaOf,
  userFilesPage,
  view,
} from './file-store.service.js';
import { afterCommit, blobKeysOf, newBlobKey, sweep } from './file-blobs.service.js';
import { link, move } from './file-placement.service.js';

export type { FileScope, FileView } from './file-store.service.js';
export { SWEEP_GRACE_MS } from './file-blobs.service.js';

/** What the file operations use: the database and bus, the deployed schema, metering and the blob store. */
export type FileDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'bus' | 'config' | 'now'> & {
  apps: Pick<AppService, 'deployment'>;
  metering: Pick<MeteringService, 'assertAffordable' | 'assertStorageCovered' | 'charge'>;
  blobs: BlobStore;
};

export interface UploadInput {
  path: string;
  contentType: string | null;
  contentLength: number | null;
  ifNoneMatch: string | null;
  ifMatch: string | null;
  body: AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
}

export const FILES_PAGE_DEFAULT = 100;
export const FILES_PAGE_MAX = 1000;

/** PUT: uploads a new file or replaces one (If-None-Match: * only creates, If-Match only replaces that version). */
export async function upload(
  deps: FileDeps,
  caller: PrincipalCaller,
  scope: FileScope,
  input: UploadInput,
): Promise<{ file: FileView; created: boolean }> {
  const { prisma, config, metering, blobs } = deps;
  const path = parseFilePath(input.path);
  const schema = await schemaOf(deps, caller);
  const me = caller.principal.id;
  const resource = scope.kind === 'resource' ? await loadResource(prisma, caller, scope.resourceId) : null;
  const bucket = bucketOf(schema.buckets, scope.bucket, resource ? { kind: 'resource', type: resource.type } : { kind: 'user' });
  // Fail before streaming what could not be stored or paid for; the transaction checks again.
  // RFC 9110 §13.2.1: who may do this, then what is sent, and only then the preconditions.
  const room = resource ? await roomOf(prisma, resource.id, scope.kind === 'resource' ? scope.roomId : undefined) : null;
  let existing = await findAt(prisma, caller, scope, path);
  if (resource) {
    // A non-member of a public resource is judged as the member a first upload would make them.
    existing = judgePut(bucket, scope.bucket, await readerRoles(prisma, schema, resource, me), existing, room, me);
  }
  const contentType = input.contentType ? mediaType(input.contentType) : '';
  if (!input.contentType || !acceptsType(bucket.contentTypes, contentType)) {
    throw fail(
      'unsupported_media_type',
      `Bucket ${scope.bucket} accepts ${bucket.contentTypes.join(', ')}; send the file's Content-Type (got ${input.contentType ? JSON.stringify(contentType) : 'none'}).`,
    );
  }
  const maxBytes = Math.min(bucket.maxBytes, config.files.maxFileBytes);
  if (input.contentLength !== null && input.contentLength > maxBytes) {
    throw fail('file_too_large', `The file is larger than bucket ${scope.bucket} accepts (${maxBytes} bytes).`);
  }
  assertPutPreconditions(input, path, existing);
  await metering.assertAffordable(caller, [
    { class: 'writes', quantity: 1 },
    { class: 'transfer', quantity: input.contentLength ?? 0 },
  ]);
  // A resource's bytes at rest are its owner's to pay (docs/api.md §14.2).
  if (resource) await metering.assertStorageCovered(null, caller, resource.id, input.contentLength ?? 0);

  const fileId = existing?.file.id ?? randomUUID();
  const key = newBlobKey(caller.deployment.id, fileId);
  const stored = await blobs.put(key, input.body, { maxBytes, contentType, signal: input.signal });
  const now = deps.now();
  const joins: ChangeSet[] = [];
  try {
    const result = await deps.transaction(async tx => {
      let placeRoom: string | null = null;
      let current = await findAt(tx, caller, scope, path, true);
      if (resource) {
        const defaultRole = schema.resources[resource.type]?.defaultRole ?? 'reader';
        const writer = await writerRoles(tx, caller, resource, { joining: true, defaultRole, now, joins });
        // Rule 9: a new file goes to the default room, or the room the scope names.
        placeRoom = await roomOf(tx, resource.id, scope.kind === 'resource' ? scope.roomId : undefined);
        current = judgePut(bucket, scope.bucket, writer.roles, current, placeRoom, me);
        await writer.join?.();
      }
      assertPutPreconditions(input, path, current);
      let row: FileRow;
      if (current) {
        row = await tx.file.update({
          where: { id: current.file.id },
          data: { size: BigInt(stored.size), contentType, sha256: stored.sha256, blobKey: key, updatedAt: now },
        });
      } else {
        row = await tx.file.create({
          data: {
            id: fileId,
            deploymentId: caller.deployment.id,
            bucket: scope.bucket,
            scope: resource ? `r:${resource.id}` : `u:${me}`,
            path,
            creatorId: me,
            resourceId: resource?.id ?? null,
            roomId: placeRoom,
            size: BigInt(stored.size),
            contentType,
            sha256: stored.sha256,
            blobKey: key,
            createdAt: now,
            updatedAt: now,
          },
        });
      }
      await metering.charge(
        tx,
        caller,
        [
          { class: 'writes', quantity: 1 },
          { class: 'transfer', quantity: stored.size },
        ],
        current ? 'files.update' : 'files.upload',
      );
      if (resource) await metering.assertStorageCovered(tx, caller, resource.id, stored.size);
      for (const changes of joins) await changes.flush();
      return { row, replaced: current?.file.blobKey ?? null };
    });
    afterCommit(deps, joins, result.replaced ? [result.replaced] : []);
    return { file: view({ file: result.row, path, mount: false }, scope.bucket), created: result.replaced === null };
  } catch (error) {
    await blobs.delete([key]).catch(() => {});
    if ((error as { code?: string }).code === 'P2002')
      throw fail('file_exists', `A file ${JSON.stringify(path)} was created at the same time; retry.`);
    throw error;
  }
}

/** GET/HEAD: the file's metadata and (for GET) its bytes, a range of them, or nothing (304). */
export async function download(
  deps: Pick<FileDeps, 'prisma' | 'apps' | 'metering' | 'blobs'>,
  caller: PrincipalCaller,
  scope: FileScope,
  rawPath: string,
  options: { range: (size: number) => ByteRange | null | 'unsatisfiable'; ifNoneMatch: string | null; head: boolean },
): Promise<{ file: FileView; status: 200 | 206 | 304 | 416; range: ByteRange | null; body: Readable | null }> {
  const { prisma } = deps;
  const path = parseFilePath(rawPath);
  const schema = await schemaOf(deps, caller);
  const me = caller.principal.id;
  let reached: Reached | null;
  if (scope.kind === 'resource') {
    const resource = await loadResource(prisma, caller, scope.resourceId);
    const bucket = bucketOf(schema.buckets, scope.bucket, { kind: 'resource', type: resource.type });
    const roles = await readerRoles(prisma, schema, resource, me);
    reached = await findAt(prisma, caller, scope, path);
    if (!reached) throw fileNotFound(path);
    if (await outsideScopeRoom(prisma, scope, reached)) throw fileNotFound(path);
    judge('read', bucket, scope.bucket, roles, reached, me);
  } else {
    bucketOf(schema.buckets, scope.bucket, { kind: 'user' });
    reached = await findAt(prisma, caller, scope, path);
    if (!reached) throw fileNotFound(path);
  }
  const file = view(reached, scope.bucket);
  if (options.ifNoneMatch && etagMatches(options.ifNoneMatch, file.etag)) return { file, status: 304, range: null, body: null };
  const range = options.range(file.size);
  if (range === 'unsatisfiable') return { file, status: 416, range: null, body: null };
  const bytes = range ? range.end - range.start + 1 : file.size;
  await deps.metering.charge(
    null,
    caller,
    [
      { class: 'reads', quantity: 1 },
      { class: 'transfer', quantity: options.head ? 0 : bytes },
    ],
    'files.download',
  );
  if (options.head) return { file, status: range ? 206 : 200, range, body: null };
  const body = file.size === 0 ? null : await deps.blobs.get(reached.file.blobKey, range ?? undefined);
  return { file, status: range ? 206 : 200, range, body };
}

/** One page of the bucket by path: the caller's own files, or a resource's across the rooms they may read plus mounts. */
export async function list(
  deps: Pick<FileDeps, 'prisma' | 'apps' | 'metering'>,
  caller: PrincipalCaller,
  scope: FileScope,
  options: { prefix?: string | null; limit?: number | null; cursor?: string | null },
): Promise<{ files: FileView[]; nextCursor: string | null }> {
  const { prisma } = deps;
  const prefix = parsePathPrefix(options.prefix);
  const limit = options.limit ?? FILES_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > FILES_PAGE_MAX) throw fail('invalid_argument', `limit: 1 to ${FILES_PAGE_MAX}.`);
  const after = options.cursor ? decodeCursor(options.cursor) : '';
  const schema = await schemaOf(deps, caller);
  const me = caller.principal.id;
  const page = { bucket: scope.bucket, like: `${prefix.replace(/[\\%_]/g, m => `\\${m}`)}%`, after, take: limit + 1 };
  let rows: ListedFile[];
  if (scope.kind === 'user') {
    bucketOf(schema.buckets, scope.bucket, { kind: 'user' });
    rows = await userFilesPage(prisma, caller.deployment.id, me, page);
  } else {
    const resource = await loadResource(prisma, caller, scope.resourceId);
    const bucket = bucketOf(schema.buckets, scope.bucket, { kind: 'resource', type: resource.type });
    const roles = await readerRoles(prisma, schema, resource, me);
    const rule = fileRule('list', bucket.access);
    const room = scope.roomId !== undefined ? await roomOf(prisma, resource.id, scope.roomId) : undefined;
    const everyRoom =
      room === undefined && reachesEveryRoom(rule, roles.resourceRole)
        ? (await prisma.room.findMany({ where: { resourceId: resource.id }, select: { id: true } })).map(r => r.id)
        : [];
    rows = await resourceFilesPage(prisma, resource.id, me, listReach(rule, scope.bucket, roles, room, everyRoom), page);
  }
  await deps.metering.charge(null, caller, [{ class: 'reads', quantity: 1 }], 'files.list');
  const more = rows.length > limit;
  const files = rows.slice(0, limit).map(r => view({ file: r, path: r.at, mount: r.mount }, scope.bucket));
  return { files, nextCursor: more ? encodeCursor(files[files.length - 1].path) : null };
}

/** DELETE: the file (its blob after commit); a mount is unmounted under the `unlink` rule, the user's file untouched. */
export async function remove(deps: FileDeps, caller: PrincipalCaller, scope: FileScope, rawPath: string): Promise<{ ok: true }> {
  const { prisma, metering } = deps;
  const path = parseFilePath(rawPath);
  const schema = await schemaOf(deps, caller);
  const me = caller.principal.id;
  const resource = scope.kind === 'resource' ? await loadResource(prisma, caller, scope.resourceId) : null;
  const bucket = bucketOf(schema.buckets, scope.bucket, resource ? { kind: 'resource', type: resource.type } : { kind: 'user' });
  const joins: ChangeSet[] = [];
  const removed = await deps.transaction(async tx => {
    if (resource) {
      const defaultRole = schema.resources[resource.type]?.defaultRole ?? 'reader';
      const writer = await writerRoles(tx, caller, resource, { joining: true, defaultRole, now: deps.now(), joins });
      const reached = await findAt(tx, caller, scope, path, true);
      if (!reached || (await outsideScopeRoom(tx, scope, reached))) throw fileNotFound(path);
      judge(reached.mount ? 'unlink' : 'delete', bucket, scope.bucket, writer.roles, reached, me);
      await writer.join?.();
      await metering.charge(tx, caller, [{ class: 'writes', quantity: 1 }], reached.mount ? 'files.unlink' : 'files.delete');
      for (const changes of joins) await changes.flush();
      if (reached.mount) {
        await tx.fileLink.deleteMany({ where: { resourceId: resource.id, bucket: scope.bucket, path } });
        return null;
      }
      await tx.file.delete({ where: { id: reached.file.id } });
      return reached.file.blobKey;
    }
    const reached = await findAt(tx, caller, scope, path, true);
    if (!reached) throw fileNotFound(path);
    await metering.charge(tx, caller, [{ class: 'writes', quantity: 1 }], 'files.delete');
    await tx.file.delete({ where: { id: reached.file.id } });
    return reached.file.blobKey;
  });
  afterCommit(deps, joins, removed ? [removed] : []);
  return { ok: true };
}

/** What `services.files` offers (beside the blob store); src/services.ts binds each to the server's dependencies. */
export const fileOperations = { upload, download, list, delete: remove, move, link, blobKeysOf, sweep };

export type FileService = Bound<typeof fileOperations> & { blobs: BlobStore };
