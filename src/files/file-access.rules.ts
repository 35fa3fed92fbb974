/**
 * Who may do what to a file (docs/api.md §13, §4.4 rules 4, 6, 7, 9, 10): the bucket a request
 * names, the caller's role in a file's room, the access rule's verdict (a room file the caller
 * holds nothing in is 404, never 403), PUT's judgement and preconditions, and what a list reaches.
 * Pure: the files service reads the facts (roles, the file at a path) and asks these.
 */
import { type AppError, fail } from '../errors.js';
import type { Role } from '../core/roles.rules.js';
import { type AccessRule, effectiveRole, passesAccessRule, reachesEveryRoom } from '../rooms/rooms.rules.js';
import { canMoveOutOf, readReach } from '../rows/rows.rules.js';
import { type FileAccess, type FileAction, etagMatches, etagOf, fileNotFound, fileRule } from './files.rules.js';

/** A bucket as the rules see it (src/schema/ir.ts BucketIR). */
export interface BucketRules {
  access: FileAccess | null;
  /** The resource type whose instances hold it; null: a user bucket. */
  ownedBy: string | null;
}

/** The caller's active resource role and room grants (a visitor's role on a public resource). */
export interface FileRoles {
  resourceRole: Role | null;
  grants: Map<string, Role>;
}

/** A file as the caller reaches it: owned by the scope, or mounted into it at `path`. */
export interface ReachedFile {
  file: { roomId: string | null; creatorId: string | null; sha256: string };
  path: string;
  mount: boolean;
}

/** The bucket `name` of the deployed schema, if a request with this owner may use it. */
export function bucketOf<B extends BucketRules>(
  buckets: Record<string, B> | undefined,
  name: string,
  owner: { kind: 'user' } | { kind: 'resource'; type: string },
): B {
  const bucket = buckets && Object.hasOwn(buckets, name) ? buckets[name] : undefined;
  const known =
    Object.keys(buckets ?? {})
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

/** The caller's role in `room` (null: the default room). */
export const roleIn = (roles: FileRoles, room: string | null): Role | null =>
  effectiveRole(roles.resourceRole, room === null ? null : (roles.grants.get(room) ?? null), room === null);

/** The room a reached file counts as in: its own, or the default room for a mount. */
const roomOfReached = (reached: ReachedFile): string | null => (reached.mount ? null : reached.file.roomId);

export function refused(action: FileAction, bucket: string, role: Role | null, room: string | null): AppError {
  const who = role ? `your role here (${role})` : 'you hold no role here';
  return fail(
    room === null ? 'access_denied' : 'room_forbidden',
    `The access rule for ${action} on bucket ${bucket} does not admit you${room === null ? '' : ' in this room'}: ${who}.`,
  );
}

/** Spec rule 9: a file in a room the caller holds nothing in, and that `action`'s rule does not reach through their resource role. */
export function hiddenFrom(action: FileAction, bucket: BucketRules, roles: FileRoles, reached: ReachedFile): boolean {
  const room = roomOfReached(reached);
  return room !== null && roleIn(roles, room) === null && !reachesEveryRoom(fileRule(action, bucket.access), roles.resourceRole);
}

/** Whether the caller may `action` the reached file; a room file they hold nothing in is 404, never 403. */
export function judge(action: FileAction, bucket: BucketRules, name: string, roles: FileRoles, reached: ReachedFile, me: string): void {
  const room = roomOfReached(reached);
  const role = roleIn(roles, room);
  if (hiddenFrom(action, bucket, roles, reached)) throw fileNotFound(reached.path);
  if (!passesAccessRule(fileRule(action, bucket.access), role, reached.file.creatorId === me, roles.resourceRole))
    throw refused(action, name, role, room);
}

/** The upload rule in the room a new file goes to; a room the caller holds nothing in is 404. */
export function assertMayUpload(bucket: BucketRules, name: string, roles: FileRoles, room: string | null): void {
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
export function judgePut<R extends ReachedFile>(
  bucket: BucketRules,
  name: string,
  roles: FileRoles,
  existing: R | null,
  room: string | null,
  me: string,
): R | null {
  if (existing && !hiddenFrom('update', bucket, roles, existing)) {
    judge('update', bucket, name, roles, existing, me);
    return existing;
  }
  assertMayUpload(bucket, name, roles, room);
  if (existing) throw fileNotFound(existing.path);
  return null;
}

/** PUT's preconditions, once the caller may act: If-None-Match: * creates only, If-Match replaces only that version; a mount is not replaced here. */
export function assertPutPreconditions(
  input: { ifNoneMatch: string | null; ifMatch: string | null },
  path: string,
  existing: ReachedFile | null,
): void {
  if (existing && input.ifNoneMatch?.trim() === '*') throw fail('file_exists', `A file ${JSON.stringify(path)} exists already (If-None-Match: *).`);
  if (input.ifMatch && (!existing || !etagMatches(input.ifMatch, etagOf(existing.file.sha256)))) {
    throw fail('precondition_failed', `${JSON.stringify(path)} is not at the version If-Match names: fetch it again.`);
  }
  if (existing?.mount) throw fail('file_is_mounted', `${JSON.stringify(path)} is a mounted user file: its owner replaces it in their own bucket.`);
}

/** §4.4 rule 7 for one file of a move: admin in its source room, the upload rule in the destination. */
export function judgeMove(bucket: BucketRules, name: string, roles: FileRoles, reached: ReachedFile, destination: string | null, me: string): void {
  const path = reached.path;
  if (reached.mount) throw fail('file_is_mounted', `${JSON.stringify(path)} is a mount: mounts carry no room (§4.4 rule 10).`);
  const source = reached.file.roomId;
  const sourceRole = roleIn(roles, source);
  if (source !== null && sourceRole === null) throw fileNotFound(path);
  if (!canMoveOutOf(sourceRole)) {
    throw fail(source === null ? 'access_denied' : 'room_forbidden', `moveRoom needs admin in the source room of ${JSON.stringify(path)}.`);
  }
  const destRole = roleIn(roles, destination);
  if (!passesAccessRule(fileRule('upload', bucket.access), destRole, reached.file.creatorId === me, roles.resourceRole)) {
    throw refused('upload', name, destRole, destination);
  }
}

/** Which files of a resource bucket a list reaches: in the default room (all, own, none) and per room. */
export interface ListReach {
  default: 'all' | 'own' | 'none';
  /** Rooms whose files it lists. */
  all: string[];
  /** Rooms where it lists only the caller's own files. */
  own: string[];
}

/**
 * Rule 4 for files: every room the `list` rule admits the caller in (all files, or only their
 * own). `room`: a room-scoped list (undefined: the whole resource; null: the default room alone).
 * `everyRoom`: the resource's rooms, read only when the rule reaches them all (`reachesEveryRoom`).
 */
export function listReach(
  rule: readonly AccessRule[],
  name: string,
  roles: FileRoles,
  room: string | null | undefined,
  everyRoom: readonly string[],
): ListReach {
  const reach: ListReach = { default: 'none', all: [], own: [] };
  if (room !== undefined) {
    const role = roleIn(roles, room);
    const r = readReach(rule, role, room === null ? role : roles.resourceRole);
    if (r === 'none') {
      if (room !== null && role === null) throw fail('room_not_found', `No room ${room} that you hold a grant in.`);
      throw refused('list', name, role, room);
    }
    if (room === null) reach.default = r;
    else reach[r].push(room);
    return reach;
  }
  reach.default = readReach(rule, roles.resourceRole);
  for (const roomId of new Set([...roles.grants.keys(), ...everyRoom])) {
    const r = readReach(rule, effectiveRole(roles.resourceRole, roles.grants.get(roomId) ?? null, false), roles.resourceRole);
    if (r !== 'none') reach[r].push(roomId);
  }
  if (reach.default === 'none' && !reach.all.length && !reach.own.length) throw refused('list', name, roles.resourceRole, null);
  return reach;
}

/** A list cursor: the last path of a page, opaque to the client. */
export const encodeCursor = (path: string) => Buffer.from(path, 'utf8').toString('base64url');
export function decodeCursor(cursor: string): string {
  const path = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!path || encodeCursor(path) !== cursor) throw fail('invalid_cursor', 'cursor: not a cursor this list returned.');
  return path;
}
