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
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { PrincipalCaller } from '../core/caller.rules.js';
import {
  type ByteRange,
  type FileAction,
  acceptsType,
  etagMatches,
  etagOf,
  fileNotFound,
  fileRule,
  mediaType,
  parseFilePath,
  parsePathPrefix,
} from './files.rules.js';
import type { Role } from '../core/roles.rules.js';
import { canMoveOutOf, readReach, visitorRole } from '../rows/rows.rules.js';
import { effectiveRole, passesAccessRule, reachesEveryRoom } from '../rooms/rooms.rules.js';
import { isPublic } from '../membership/visibility.rules.js';
import { type AppError, fail } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { BucketIR, SchemaIR } from '../schema/index.js';
import type { BlobStore } from '../storage/index.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { ChangeSet } from '../membership/membership-store.service.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import type { MeteringService } from '../billing/metering.service.js';
import { roomRoles } from '../rooms/rooms.service.js';
import { type ResourceRef, type Roles, loadResource, roomOf, writerRoles } from '../membership/writer-standing.service.js';

/** Where a file request points: a user's own bucket, or a resource's (optionally one room of it). */
export type FileScope = { kind: 'user'; bucket: string } | { kind: 'resource'; resourceId: string; bucket: string; roomId?: string };

export interface FileView {
  id: string;
  bucket: string;
  path: string;
  size: number;
  contentType: string;
  etag: string;
  roomId: string | null;
  creatorId: string | null;
  resourceId: string | null;
  linked: boolean;
  createdAt: string;
  updatedAt: string;
}

interface FileRow {
  id: string;
  bucket: string;
  path: string;
  size: bigint;
  contentType: string;
  sha256: string;
  blobKey: string;
  creatorId: string | null;
  resourceId: string | null;
  roomId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A file as the caller reaches it: owned by the scope, or mounted into it at `path`. */
interface Reached {
  file: FileRow;
  path: string;
  mount: boolean;
}

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
/** Blobs no row names are garbage only after this long: an upload in flight has no row yet. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

const view = (reached: Reached, bucket: string): FileView => ({
  id: reached.file.id,
  bucket,
  path: reached.path,
  size: Number(reached.file.size),
  contentType: reached.file.contentType,
  etag: etagOf(reached.file.sha256),
  roomId: reached.mount ? null : reached.file.roomId,
  creatorId: reached.file.creatorId,
  resourceId: reached.mount ? null : reached.file.resourceId,
  linked: reached.mount,
  createdAt: reached.file.createdAt.toISOString(),
  updatedAt: reached.file.updatedAt.toISOString(),
});

const encodeCursor = (path: string) => Buffer.from(path, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const path = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!path || encodeCursor(path) !== cursor) throw fail('invalid_cursor', 'cursor: not a cursor this list returned.');
  return path;
}

export function createFileService(deps: ServiceDeps, apps: AppService, metering: MeteringService, blobs: BlobStore) {
  const { prisma, config } = deps;
  type Db = PrismaClient | Tx;

  async function schemaOf(caller: PrincipalCaller): Promise<SchemaIR> {
    return (await apps.deployment(caller.deployment.id)).schema;
  }

  function bucketOf(schema: SchemaIR, name: string, owner: { kind: 'user' } | { kind: 'resource'; type: string }): BucketIR {
    const bucket = schema.buckets && Object.hasOwn(schema.buckets, name) ? schema.buckets[name] : undefined;
    const known =
      Object.keys(schema.buckets ?? {})
        .sort()
        .join(', ') || 'none';
    if (!bucket) throw fail('unknown_bucket', `This app's deployed schema has no bucket ${JSON.stringify(name)} (its buckets: ${known}).`);
    if (owner.kind === 'user' && bucket.ownedBy !== null) {
      throw fail('bucket_not_in_scope', `Bucket ${name} belongs to resources of type ${bucket.ownedBy}: use /v1/files/resources/<id>/${name}/...`);
    }
    if (owner.kind === 'resource' && bucket.ownedBy !== owner.type) {
      throw fail(
        'bucket_not_in_scope',
        bucket.ownedBy === null
          ? `Bucket ${name} is a user bucket (each user's own files): use /v1/files/me/${name}/..., or link a file into a resource bucket.`
          : `Resources of type ${owner.type} have no bucket ${name} (it belongs to type ${bucket.ownedBy}).`,
      );
    }
    return bucket;
  }

  /** Rule 6: a room-scoped request reaches that room alone (mounts sit in the default room). */
  async function outsideScopeRoom(db: Db, scope: FileScope, reached: Reached): Promise<boolean> {
    if (scope.kind !== 'resource' || scope.roomId === undefined) return false;
    return (reached.mount ? null : reached.file.roomId) !== (await roomOf(db, scope.resourceId, scope.roomId));
  }

  const roleIn = (roles: Roles, room: string | null): Role | null =>
    effectiveRole(roles.resourceRole, room === null ? null : (roles.grants.get(room) ?? null), room === null);

  function refused(action: FileAction, bucket: string, role: Role | null, room: string | null): AppError {
    const who = role ? `your role here (${role})` : 'you hold no role here';
    return fail(
      room === null ? 'access_denied' : 'room_forbidden',
      `The access rule for ${action} on bucket ${bucket} does not admit you${room === null ? '' : ' in this room'}: ${who}.`,
    );
  }

  /** The file at `path` in the scope's bucket, owned or mounted; null when there is none. */
  async function findAt(db: Db, caller: PrincipalCaller, scope: FileScope, path: string, lock = false): Promise<Reached | null> {
    const forUpdate = lock ? 'FOR UPDATE' : '';
    const scopeKey = scope.kind === 'user' ? `u:${caller.principal.id}` : `r:${scope.resourceId}`;
    const [owned] = await db.$queryRawUnsafe<FileRow[]>(
      `SELECT id, bucket, path, size, content_type AS "contentType", sha256, blob_key AS "blobKey", creator_id AS "creatorId",
              resource_id AS "resourceId", room_id AS "roomId", created_at AS "createdAt", updated_at AS "updatedAt"
       FROM files WHERE deployment_id = $1 AND bucket = $2 AND scope = $3 AND path = $4 ${forUpdate}`,
      caller.deployment.id,
      scope.bucket,
      scopeKey,
      path,
    );
    if (owned) return { file: owned, path, mount: false };
    if (scope.kind === 'user') return null;
    const [mounted] = await db.$queryRawUnsafe<FileRow[]>(
      `SELECT f.id, l.bucket, f.path, f.size, f.content_type AS "contentType", f.sha256, f.blob_key AS "blobKey", f.creator_id AS "creatorId",
              f.resource_id AS "resourceId", f.room_id AS "roomId", l.created_at AS "createdAt", f.updated_at AS "updatedAt"
       FROM file_links l JOIN files f ON f.id = l.file_id WHERE l.resource_id = $1 AND l.bucket = $2 AND l.path = $3 ${lock ? 'FOR UPDATE OF l' : ''}`,
      scope.resourceId,
      scope.bucket,
      path,
    );
    return mounted ? { file: mounted, path, mount: true } : null;
  }

  /** Spec rule 9: a file in a room the caller holds nothing in, and that `action`'s rule does not reach through their resource role. */
  function hiddenFrom(action: FileAction, bucket: BucketIR, roles: Roles, reached: Reached): boolean {
    const room = reached.mount ? null : reached.file.roomId;
    return room !== null && roleIn(roles, room) === null && !reachesEveryRoom(fileRule(action, bucket.access), roles.resourceRole);
  }

  /** Whether the caller may `action` the reached file; a room file they hold nothing in is 404, never 403. */
  function judge(action: FileAction, bucket: BucketIR, name: string, roles: Roles, reached: Reached, me: string): void {
    const room = reached.mount ? null : reached.file.roomId;
    const role = roleIn(roles, room);
    if (hiddenFrom(action, bucket, roles, reached)) throw fileNotFound(reached.path);
    if (!passesAccessRule(fileRule(action, bucket.access), role, reached.file.creatorId === me, roles.resourceRole))
      throw refused(action, name, role, room);
  }

  /** The upload rule in the room a new file goes to; a room the caller holds nothing in is 404. */
  function assertMayUpload(bucket: BucketIR, name: string, roles: Roles, room: string | null): void {
    const role = roleIn(roles, room);
    if (passesAccessRule(fileRule('upload', bucket.access), role, true, roles.resourceRole)) return;
    if (room !== null && role === null) throw fail('room_not_found', `No room ${room} that you hold a grant in.`);
    throw refused('upload', name, role, room);
  }

  /**
   * Who may PUT at a path, judged before any precondition (spec rule 9, RFC 9110 §13.2.1): a file
   * the caller can see is replaced under its `update` rule; a free path, or one held by a file in a
   * room they hold nothing in, is an upload into `room` under its `upload` rule, so a caller who
   * may not upload there gets the refusal a free path gets. Only one who could upload learns that
   * a file they cannot see holds the path: 404 file_not_found, as a GET answers. Answers the file
   * the PUT replaces (null: it creates one).
   */
  function judgePut(bucket: BucketIR, name: string, roles: Roles, existing: Reached | null, room: string | null, me: string): Reached | null {
    if (existing && !hiddenFrom('update', bucket, roles, existing)) {
      judge('update', bucket, name, roles, existing, me);
      return existing;
    }
    assertMayUpload(bucket, name, roles, room);
    if (existing) throw fileNotFound(existing.path);
    return null;
  }

  /** PUT's preconditions, once the caller may act: If-None-Match: * creates only, If-Match replaces only that version; a mount is not replaced here. */
  function assertPutPreconditions(input: UploadInput, path: string, existing: Reached | null): void {
    if (existing && input.ifNoneMatch?.trim() === '*') throw fail('file_exists', `A file ${JSON.stringify(path)} exists already (If-None-Match: *).`);
    if (input.ifMatch && (!existing || !etagMatches(input.ifMatch, etagOf(existing.file.sha256)))) {
      throw fail('precondition_failed', `${JSON.stringify(path)} is not at the version If-Match names: fetch it again.`);
    }
    if (existing?.mount) throw fail('file_is_mounted', `${JSON.stringify(path)} is a mounted user file: its owner replaces it in their own bucket.`);
  }

  /** Roles for a read: an active member's, a visitor's on a public resource; members-only outsiders see nothing. */
  async function readerRoles(db: Db, schema: SchemaIR, resource: ResourceRef, me: string): Promise<Roles> {
    const roles = await roomRoles(db, resource.id, me);
    if (roles.resourceRole) return roles;
    if (!isPublic(resource)) throw resourceNotFound(resource.id);
    return { resourceRole: visitorRole(resource.visibility, schema.resources[resource.type]?.defaultRole ?? 'reader'), grants: new Map() };
  }

  /** After a write: publish auto-join events, drop the blobs nothing names any more. */
  function afterCommit(joins: ChangeSet[], orphanedKeys: string[]) {
    deps.bus.publish(joins.flatMap(c => c.events));
    deps.bus.publishGrants(joins.flatMap(c => c.grantEvents));
    if (orphanedKeys.length) blobs.delete(orphanedKeys).catch(() => {});
  }

  const newBlobKey = (deploymentId: string, fileId: string) => `${deploymentId}/${fileId}/${randomBytes(12).toString('hex')}`;

  return {
    blobs,

    /** PUT: uploads a new file or replaces one (If-None-Match: * only creates, If-Match only replaces that version). */
    async upload(caller: PrincipalCaller, scope: FileScope, input: UploadInput): Promise<{ file: FileView; created: boolean }> {
      const path = parseFilePath(input.path);
      const schema = await schemaOf(caller);
      const me = caller.principal.id;
      const resource = scope.kind === 'resource' ? await loadResource(prisma, caller, scope.resourceId) : null;
      const bucket = bucketOf(schema, scope.bucket, resource ? { kind: 'resource', type: resource.type } : { kind: 'user' });
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
        afterCommit(joins, result.replaced ? [result.replaced] : []);
        return { file: view({ file: result.row, path, mount: false }, scope.bucket), created: result.replaced === null };
      } catch (error) {
        await blobs.delete([key]).catch(() => {});
        if ((error as { code?: string }).code === 'P2002')
          throw fail('file_exists', `A file ${JSON.stringify(path)} was created at the same time; retry.`);
        throw error;
      }
    },

    /** GET/HEAD: the file's metadata and (for GET) its bytes, a range of them, or nothing (304). */
    async download(
      caller: PrincipalCaller,
      scope: FileScope,
      rawPath: string,
      options: { range: (size: number) => ByteRange | null | 'unsatisfiable'; ifNoneMatch: string | null; head: boolean },
    ): Promise<{ file: FileView; status: 200 | 206 | 304 | 416; range: ByteRange | null; body: Readable | null }> {
      const path = parseFilePath(rawPath);
      const schema = await schemaOf(caller);
      const me = caller.principal.id;
      let reached: Reached | null;
      if (scope.kind === 'resource') {
        const resource = await loadResource(prisma, caller, scope.resourceId);
        const bucket = bucketOf(schema, scope.bucket, { kind: 'resource', type: resource.type });
        const roles = await readerRoles(prisma, schema, resource, me);
        reached = await findAt(prisma, caller, scope, path);
        if (!reached) throw fileNotFound(path);
        if (await outsideScopeRoom(prisma, scope, reached)) throw fileNotFound(path);
        judge('read', bucket, scope.bucket, roles, reached, me);
      } else {
        bucketOf(schema, scope.bucket, { kind: 'user' });
        reached = await findAt(prisma, caller, scope, path);
        if (!reached) throw fileNotFound(path);
      }
      const file = view(reached, scope.bucket);
      if (options.ifNoneMatch && etagMatches(options.ifNoneMatch, file.etag)) return { file, status: 304, range: null, body: null };
      const range = options.range(file.size);
      if (range === 'unsatisfiable') return { file, status: 416, range: null, body: null };
      const bytes = range ? range.end - range.start + 1 : file.size;
      await metering.charge(
        null,
        caller,
        [
          { class: 'reads', quantity: 1 },
          { class: 'transfer', quantity: options.head ? 0 : bytes },
        ],
        'files.download',
      );
      if (options.head) return { file, status: range ? 206 : 200, range, body: null };
      const body = file.size === 0 ? null : await blobs.get(reached.file.blobKey, range ?? undefined);
      return { file, status: range ? 206 : 200, range, body };
    },

    /** One page of the bucket by path: the caller's own files, or a resource's across the rooms they may read plus mounts. */
    async list(
      caller: PrincipalCaller,
      scope: FileScope,
      options: { prefix?: string | null; limit?: number | null; cursor?: string | null },
    ): Promise<{ files: FileView[]; nextCursor: string | null }> {
      const prefix = parsePathPrefix(options.prefix);
      const limit = options.limit ?? FILES_PAGE_DEFAULT;
      if (!Number.isInteger(limit) || limit < 1 || limit > FILES_PAGE_MAX) throw fail('invalid_argument', `limit: 1 to ${FILES_PAGE_MAX}.`);
      const after = options.cursor ? decodeCursor(options.cursor) : '';
      const schema = await schemaOf(caller);
      const me = caller.principal.id;
      const like = `${prefix.replace(/[\\%_]/g, m => `\\${m}`)}%`;
      const columns = `f.id, f.path, f.size, f.content_type AS "contentType", f.sha256, f.blob_key AS "blobKey", f.creator_id AS "creatorId",
        f.resource_id AS "resourceId", f.room_id AS "roomId", f.created_at AS "createdAt", f.updated_at AS "updatedAt"`;
      let rows: (FileRow & { mount: boolean; at: string })[];
      if (scope.kind === 'user') {
        bucketOf(schema, scope.bucket, { kind: 'user' });
        rows = await prisma.$queryRawUnsafe(
          `SELECT ${columns}, false AS mount, f.path AS at FROM files f
           WHERE f.deployment_id = $1 AND f.bucket = $2 AND f.scope = $3 AND f.path LIKE $4 AND f.path > $5 ORDER BY f.path LIMIT $6`,
          caller.deployment.id,
          scope.bucket,
          `u:${me}`,
          like,
          after,
          limit + 1,
        );
      } else {
        const resource = await loadResource(prisma, caller, scope.resourceId);
        const bucket = bucketOf(schema, scope.bucket, { kind: 'resource', type: resource.type });
        const roles = await readerRoles(prisma, schema, resource, me);
        const rule = fileRule('list', bucket.access);
        // Rule 4 for files: every room the rule admits the caller in (all files, or only their own).
        const reach = { default: 'none' as 'all' | 'own' | 'none', all: [] as string[], own: [] as string[] };
        if (scope.roomId !== undefined) {
          const room = await roomOf(prisma, resource.id, scope.roomId);
          const role = roleIn(roles, room);
          const r = readReach(rule, role, room === null ? role : roles.resourceRole);
          if (r === 'none') {
            if (room !== null && role === null) throw fail('room_not_found', `No room ${room} that you hold a grant in.`);
            throw refused('list', scope.bucket, role, room);
          }
          if (room === null) reach.default = r;
          else reach[r].push(room);
        } else {
          reach.default = readReach(rule, roles.resourceRole);
          const everyRoom = reachesEveryRoom(rule, roles.resourceRole)
            ? (await prisma.room.findMany({ where: { resourceId: resource.id }, select: { id: true } })).map(r => r.id)
            : [];
          for (const roomId of new Set([...roles.grants.keys(), ...everyRoom])) {
            const r = readReach(rule, effectiveRole(roles.resourceRole, roles.grants.get(roomId) ?? null, false), roles.resourceRole);
            if (r !== 'none') reach[r].push(roomId);
          }
          if (reach.default === 'none' && !reach.all.length && !reach.own.length) throw refused('list', scope.bucket, roles.resourceRole, null);
        }
        const defaultRoom = reach.default === 'all' ? 'true' : reach.default === 'own' ? 'f.creator_id = $8' : 'false';
        rows = await prisma.$queryRawUnsafe(
          `SELECT * FROM (
             SELECT ${columns}, false AS mount, f.path AS at FROM files f
             WHERE f.resource_id = $1 AND f.bucket = $2 AND f.path LIKE $3 AND f.path > $4
               AND ((f.room_id IS NULL AND ${defaultRoom}) OR f.room_id = ANY($6::text[]) OR (f.room_id = ANY($7::text[]) AND f.creator_id = $8))
             UNION ALL
             SELECT ${columns}, true AS mount, l.path AS at FROM file_links l JOIN files f ON f.id = l.file_id
             WHERE l.resource_id = $1 AND l.bucket = $2 AND l.path LIKE $3 AND l.path > $4 AND ${defaultRoom}
           ) page ORDER BY at LIMIT $5`,
          resource.id,
          scope.bucket,
          like,
          after,
          limit + 1,
          reach.all,
          reach.own,
          me,
        );
      }
      await metering.charge(null, caller, [{ class: 'reads', quantity: 1 }], 'files.list');
      const more = rows.length > limit;
      const page = rows.slice(0, limit).map(r => view({ file: r, path: r.at, mount: r.mount }, scope.bucket));
      return { files: page, nextCursor: more ? encodeCursor(page[page.length - 1].path) : null };
    },

    /** DELETE: the file (its blob after commit); a mount is unmounted under the `unlink` rule, the user's file untouched. */
    async delete(caller: PrincipalCaller, scope: FileScope, rawPath: string): Promise<{ ok: true }> {
      const path = parseFilePath(rawPath);
      const schema = await schemaOf(caller);
      const me = caller.principal.id;
      const resource = scope.kind === 'resource' ? await loadResource(prisma, caller, scope.resourceId) : null;
      const bucket = bucketOf(schema, scope.bucket, resource ? { kind: 'resource', type: resource.type } : { kind: 'user' });
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
      afterCommit(joins, removed ? [removed] : []);
      return { ok: true };
    },

    /** §4.4 rule 7 for files: admin in each source room, the upload rule in the destination; one call, one charge. */
    async move(
      caller: PrincipalCaller,
      input: { resourceId: string; bucket: string; paths: string[]; roomId: string | null },
    ): Promise<{ ok: true; moved: number }> {
      if (!Array.isArray(input.paths) || input.paths.length === 0 || input.paths.length > 100)
        throw fail('invalid_argument', 'paths: 1 to 100 file paths.');
      const paths = [...new Set(input.paths.map(parseFilePath))];
      const schema = await schemaOf(caller);
      const me = caller.principal.id;
      const resource = await loadResource(prisma, caller, input.resourceId);
      const bucket = bucketOf(schema, input.bucket, { kind: 'resource', type: resource.type });
      const scope: FileScope = { kind: 'resource', resourceId: resource.id, bucket: input.bucket };
      await deps.transaction(async tx => {
        const defaultRole = schema.resources[resource.type]?.defaultRole ?? 'reader';
        const writer = await writerRoles(tx, caller, resource, { joining: false, defaultRole, now: deps.now(), joins: [] });
        const destination = await roomOf(tx, resource.id, input.roomId ?? undefined);
        const destRole = roleIn(writer.roles, destination);
        const ids: string[] = [];
        for (const path of paths) {
          const reached = await findAt(tx, caller, scope, path, true);
          if (!reached) throw fileNotFound(path);
          if (reached.mount) throw fail('file_is_mounted', `${JSON.stringify(path)} is a mount: mounts carry no room (§4.4 rule 10).`);
          const source = reached.file.roomId;
          const sourceRole = roleIn(writer.roles, source);
          if (source !== null && sourceRole === null) throw fileNotFound(path);
          if (!canMoveOutOf(sourceRole)) {
            throw fail(source === null ? 'access_denied' : 'room_forbidden', `moveRoom needs admin in the source room of ${JSON.stringify(path)}.`);
          }
          if (!passesAccessRule(fileRule('upload', bucket.access), destRole, reached.file.creatorId === me, writer.roles.resourceRole)) {
            throw refused('upload', input.bucket, destRole, destination);
          }
          ids.push(reached.file.id);
        }
        await tx.file.updateMany({ where: { id: { in: ids } }, data: { roomId: destination } });
        await metering.charge(tx, caller, [{ class: 'writes', quantity: 1 }], 'files.move');
      });
      return { ok: true, moved: paths.length };
    },

    /** §4.4 rule 10: mounts one of the caller's own user-bucket files into a resource bucket (default-room content). */
    async link(caller: PrincipalCaller, input: { resourceId: string; bucket: string; fileId: string; path?: string | null }): Promise<FileView> {
      const schema = await schemaOf(caller);
      const me = caller.principal.id;
      const resource = await loadResource(prisma, caller, input.resourceId);
      const bucket = bucketOf(schema, input.bucket, { kind: 'resource', type: resource.type });
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
        await metering.charge(tx, caller, [{ class: 'writes', quantity: 1 }], 'files.link');
        for (const changes of joins) await changes.flush();
      });
      afterCommit(joins, []);
      return view({ file: { ...source, createdAt: now }, path, mount: true }, input.bucket);
    },

    /** Blob keys of what deleting a resource or an account removes; delete them after that commits. */
    async blobKeysOf(owner: { resourceId: string } | { accountId: string }, db: Db = prisma): Promise<string[]> {
      const rows = await db.file.findMany({
        where: 'resourceId' in owner ? { resourceId: owner.resourceId } : { scope: `u:${owner.accountId}` },
        select: { blobKey: true },
      });
      return rows.map(r => r.blobKey);
    },

    /** Deletes blobs no file row names, older than the grace period (uploads in flight have no row yet). */
    async sweep(now: Date = new Date()): Promise<{ deleted: number }> {
      const stale: string[] = [];
      for await (const blob of blobs.list()) {
        if (now.getTime() - blob.modifiedAt.getTime() < SWEEP_GRACE_MS) continue;
        stale.push(blob.key);
      }
      const named = new Set<string>();
      for (let i = 0; i < stale.length; i += 1000) {
        const rows = await prisma.file.findMany({ where: { blobKey: { in: stale.slice(i, i + 1000) } }, select: { blobKey: true } });
        for (const r of rows) named.add(r.blobKey);
      }
      const garbage = stale.filter(key => !named.has(key));
      await blobs.delete(garbage);
      return { deleted: garbage.length };
    },
  };
}

export type FileService = ReturnType<typeof createFileService>;
