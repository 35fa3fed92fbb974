/**
 * File rows as the file operations read them: the file at a path (owned by the scope or mounted
 * into it), a page of a bucket, the caller's roles for a read, and a row as the API shows it.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { etagOf } from './files.rules.js';
import { isPublic } from '../membership/visibility.rules.js';
import { visitorRole } from '../rows/rows.rules.js';
import type { File, PrismaClient } from '../generated/prisma/client.js';
import { sql, sqlOf } from '../db/sql.js';
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

/** A file row as the file operations use it (Prisma's `tx.file` answers and the SQL below alike); its bucket is the request's. */
export type FileRow = Pick<
  File,
  'id' | 'path' | 'size' | 'contentType' | 'sha256' | 'blobKey' | 'creatorId' | 'resourceId' | 'roomId' | 'createdAt' | 'updatedAt'
>;

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

/** The columns of a file row, as FileRow names them. */
const FILE_COLUMNS = [
  'f.id',
  'f.path',
  'f.size',
  'f.content_type as contentType',
  'f.sha256',
  'f.blob_key as blobKey',
  'f.creator_id as creatorId',
  'f.resource_id as resourceId',
  'f.room_id as roomId',
  'f.updated_at as updatedAt',
] as const;

/** The file at `path` in the scope's bucket, owned or mounted; null when there is none. `lock`: FOR UPDATE. */
export async function findAt(db: Db, caller: PrincipalCaller, scope: FileScope, path: string, lock = false): Promise<Reached | null> {
  const sql = sqlOf(db);
  const scopeKey = scope.kind === 'user' ? `u:${caller.principal.id}` : `r:${scope.resourceId}`;
  const owned: FileRow | undefined = await sql
    .selectFrom('files as f')
    .select([...FILE_COLUMNS, 'f.created_at as createdAt'])
    .where('f.deployment_id', '=', caller.deployment.id)
    .where('f.bucket', '=', scope.bucket)
    .where('f.scope', '=', scopeKey)
    .where('f.path', '=', path)
    .$if(lock, qb => qb.forUpdate())
    .executeTakeFirst();
  if (owned) return { file: owned, path, mount: false };
  if (scope.kind === 'user') return null;
  // A mount: the file as its link places it (linked when the link was made).
  const mounted: FileRow | undefined = await sql
    .selectFrom('file_links as l')
    .innerJoin('files as f', 'f.id', 'l.file_id')
    .select([...FILE_COLUMNS, 'l.created_at as createdAt'])
    .where('l.resource_id', '=', scope.resourceId)
    .where('l.bucket', '=', scope.bucket)
    .where('l.path', '=', path)
    .$if(lock, qb => qb.forUpdate('l'))
    .executeTakeFirst();
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

/** A page of a user's own bucket. */
export function userFilesPage(db: Db, deploymentId: string, principalId: string, page: PageQuery): Promise<ListedFile[]> {
  return sqlOf(db)
    .selectFrom('files as f')
    .select([...FILE_COLUMNS, 'f.created_at as createdAt', sql<boolean>`false`.as('mount'), 'f.path as at'])
    .where('f.deployment_id', '=', deploymentId)
    .where('f.bucket', '=', page.bucket)
    .where('f.scope', '=', `u:${principalId}`)
    .where('f.path', 'like', page.like)
    .where('f.path', '>', page.after)
    .orderBy('f.path')
    .limit(page.take)
    .execute();
}

/** A page of a resource bucket: its files in the rooms `reach` names, and its mounts (default-room content). */
export function resourceFilesPage(db: Db, resourceId: string, me: string, reach: ListReach, page: PageQuery): Promise<ListedFile[]> {
  const query = sqlOf(db);
  const roomList = (ids: string[]) => sql<string[]>`${ids}::text[]`;
  // What the default room's rule lets the caller list there: every file, their own, or none.
  const inDefaultRoom = reach.default === 'own' ? sql<boolean>`${sql.ref('f.creator_id')} = ${me}` : sql.lit(reach.default === 'all');
  const owned = query
    .selectFrom('files as f')
    .select([...FILE_COLUMNS, 'f.created_at as createdAt', sql<boolean>`false`.as('mount'), 'f.path as at'])
    .where('f.resource_id', '=', resourceId)
    .where('f.bucket', '=', page.bucket)
    .where('f.path', 'like', page.like)
    .where('f.path', '>', page.after)
    .where(eb =>
      eb.or([
        eb.and([eb('f.room_id', 'is', null), inDefaultRoom]),
        eb('f.room_id', '=', eb.fn.any(roomList(reach.all))),
        eb.and([eb('f.room_id', '=', eb.fn.any(roomList(reach.own))), eb('f.creator_id', '=', me)]),
      ]),
    );
  // Mounts are default-room content: listed as the default room is.
  const mounts = query
    .selectFrom('file_links as l')
    .innerJoin('files as f', 'f.id', 'l.file_id')
    .select([...FILE_COLUMNS, 'f.created_at as createdAt', sql<boolean>`true`.as('mount'), 'l.path as at'])
    .where('l.resource_id', '=', resourceId)
    .where('l.bucket', '=', page.bucket)
    .where('l.path', 'like', page.like)
    .where('l.path', '>', page.after)
    .where(inDefaultRoom);
  return query.selectFrom(owned.unionAll(mounts).as('page')).selectAll().orderBy('at').limit(page.take).execute();
}
