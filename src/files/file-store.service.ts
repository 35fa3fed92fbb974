/**
 * File rows as the file operations read them: the file at a path (owned by the scope or mounted
 * into it), a page of a bucket, the caller's roles for a read, and a row as the API shows it.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { etagOf } from './files.rules.js';
import { isPublic } from '../membership/visibility.rules.js';
import { visitorRole } from '../rows/rows.rules.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { SchemaIR } from '../schema/index.js';
import type { Tx } from '../core/deps.js';
import type { AppService } from '../apps/apps.service.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import { roomRoles } from '../rooms/rooms.service.js';
import { type ResourceRef, type Roles, roomOf } from '../membership/writer-standing.service.js';
import type { ListReach, ReachedFile } from './file-access.rules.js';

export type Db = PrismaClient | Tx;

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

export interface FileRow {
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
export interface Reached extends ReachedFile {
  file: FileRow;
}

export const view = (reached: Reached, bucket: string): FileView => ({
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

/** The schema of the caller's deployment, whose buckets a request names. */
export async function schemaOf(deps: { apps: Pick<AppService, 'deployment'> }, caller: PrincipalCaller): Promise<SchemaIR> {
  return (await deps.apps.deployment(caller.deployment.id)).schema;
}

/** The file at `path` in the scope's bucket, owned or mounted; null when there is none. `lock`: FOR UPDATE. */
export async function findAt(db: Db, caller: PrincipalCaller, scope: FileScope, path: string, lock = false): Promise<Reached | null> {
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

/** Rule 6: a room-scoped request reaches that room alone (mounts sit in the default room). */
export async function outsideScopeRoom(db: Db, scope: FileScope, reached: Reached): Promise<boolean> {
  if (scope.kind !== 'resource' || scope.roomId === undefined) return false;
  return (reached.mount ? null : reached.file.roomId) !== (await roomOf(db, scope.resourceId, scope.roomId));
}

/** Roles for a read: an active member's, a visitor's on a public resource; members-only outsiders see nothing. */
export async function readerRoles(db: Db, schema: SchemaIR, resource: ResourceRef, me: string): Promise<Roles> {
  const roles = await roomRoles(db, resource.id, me);
  if (roles.resourceRole) return roles;
  if (!isPublic(resource)) throw resourceNotFound(resource.id);
  return { resourceRole: visitorRole(resource.visibility, schema.resources[resource.type]?.defaultRole ?? 'reader'), grants: new Map() };
}

/** A listed file: where the page found it (`at`, its path or its mount's), and whether it is a mount. */
export type ListedFile = FileRow & { mount: boolean; at: string };

/** A page query: paths under the `like` pattern after `after`, at most `take` rows, in path order. */
interface PageQuery {
  bucket: string;
  like: string;
  after: string;
  take: number;
}

const LIST_COLUMNS = `f.id, f.path, f.size, f.content_type AS "contentType", f.sha256, f.blob_key AS "blobKey", f.creator_id AS "creatorId",
        f.resource_id AS "resourceId", f.room_id AS "roomId", f.created_at AS "createdAt", f.updated_at AS "updatedAt"`;

/** A page of a user's own bucket. */
export function userFilesPage(db: Db, deploymentId: string, principalId: string, page: PageQuery): Promise<ListedFile[]> {
  return db.$queryRawUnsafe(
    `SELECT ${LIST_COLUMNS}, false AS mount, f.path AS at FROM files f
     WHERE f.deployment_id = $1 AND f.bucket = $2 AND f.scope = $3 AND f.path LIKE $4 AND f.path > $5 ORDER BY f.path LIMIT $6`,
    deploymentId,
    page.bucket,
    `u:${principalId}`,
    page.like,
    page.after,
    page.take,
  );
}

/** A page of a resource bucket: its files in the rooms `reach` names, and its mounts (default-room content). */
export function resourceFilesPage(db: Db, resourceId: string, me: string, reach: ListReach, page: PageQuery): Promise<ListedFile[]> {
  const defaultRoom = reach.default === 'all' ? 'true' : reach.default === 'own' ? 'f.creator_id = $8' : 'false';
  return db.$queryRawUnsafe(
    `SELECT * FROM (
       SELECT ${LIST_COLUMNS}, false AS mount, f.path AS at FROM files f
       WHERE f.resource_id = $1 AND f.bucket = $2 AND f.path LIKE $3 AND f.path > $4
         AND ((f.room_id IS NULL AND ${defaultRoom}) OR f.room_id = ANY($6::text[]) OR (f.room_id = ANY($7::text[]) AND f.creator_id = $8))
       UNION ALL
       SELECT ${LIST_COLUMNS}, true AS mount, l.path AS at FROM file_links l JOIN files f ON f.id = l.file_id
       WHERE l.resource_id = $1 AND l.bucket = $2 AND l.path LIKE $3 AND l.path > $4 AND ${defaultRoom}
     ) page ORDER BY at LIMIT $5`,
    resourceId,
    page.bucket,
    page.like,
    page.after,
    page.take,
    reach.all,
    reach.own,
    me,
  );
}
