import { describe, expect, it } from 'vitest';
import type { Role } from '../core/roles.rules.js';
import {
  type BucketRules,
  type FileRoles,
  type ReachedFile,
  assertPutPreconditions,
  bucketOf,
  decodeCursor,
  encodeCursor,
  hiddenFrom,
  judge,
  judgeMove,
  judgePut,
  listReach,
  roleIn,
} from './file-access.rules.js';
import { DEFAULT_FILE_ACCESS } from './files.rules.js';

const ME = 'usr_me';
const OTHER = 'usr_other';
/** A resource bucket with the default rules (§13): members list and read, writers upload, creator or admin+ change. */
const bucket: BucketRules = { access: null, ownedBy: 'project' };
const roles = (resourceRole: Role | null, grants: Record<string, Role> = {}): FileRoles => ({
  resourceRole,
  grants: new Map(Object.entries(grants)),
});
const file = (roomId: string | null, creatorId: string | null = OTHER, mount = false): ReachedFile => ({
  file: { roomId, creatorId, sha256: 'abc' },
  path: 'a.txt',
  mount,
});
/** What a judgement throws: its code, or null when it passes. */
function outcome(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('bucketOf: the bucket a request names, in its scope', () => {
  const buckets = { avatars: { access: null, ownedBy: null }, docs: { access: null, ownedBy: 'project' } };
  it.each<[string, string, { kind: 'user' } | { kind: 'resource'; type: string }, string | null]>([
    ['a user bucket from /me', 'avatars', { kind: 'user' }, null],
    ['a resource bucket from its type', 'docs', { kind: 'resource', type: 'project' }, null],
    ['a resource bucket from /me', 'docs', { kind: 'user' }, 'bucket_not_in_scope'],
    ['a user bucket from a resource', 'avatars', { kind: 'resource', type: 'project' }, 'bucket_not_in_scope'],
    ["another type's bucket", 'docs', { kind: 'resource', type: 'team' }, 'bucket_not_in_scope'],
    ['no such bucket', 'nope', { kind: 'user' }, 'unknown_bucket'],
    ['an inherited property is no bucket', 'constructor', { kind: 'user' }, 'unknown_bucket'],
  ])('%s', (_, name, owner, code) => {
    expect(outcome(() => bucketOf(buckets, name, owner))).toBe(code);
  });

  it('a schema deployed before files existed has no buckets', () => {
    expect(outcome(() => bucketOf(undefined, 'docs', { kind: 'user' }))).toBe('unknown_bucket');
  });
});

describe('roleIn: min(resource role, grant); the default room is the resource role', () => {
  it.each<[string, FileRoles, string | null, Role | null]>([
    ['default room: the resource role', roles('writer'), null, 'writer'],
    ['a room without a grant: none', roles('owner'), 'room_1', null],
    ['a grant below the resource role', roles('owner', { room_1: 'reader' }), 'room_1', 'reader'],
    ['a grant above the resource role is capped', roles('reader', { room_1: 'admin' }), 'room_1', 'reader'],
    ['no resource role: nothing anywhere', roles(null, { room_1: 'admin' }), 'room_1', null],
  ])('%s', (_, r, room, expected) => {
    expect(roleIn(r, room)).toBe(expected);
  });
});

describe('judge: who may act on a reached file (rule 9: a room file you hold nothing in is 404)', () => {
  it.each<[string, Parameters<typeof judge>[0], FileRoles, ReachedFile, string | null]>([
    ['a reader reads a default-room file', 'read', roles('reader'), file(null), null],
    ['a reader may not delete it', 'delete', roles('reader'), file(null), 'access_denied'],
    ['its creator deletes it', 'delete', roles('writer'), file(null, ME), null],
    ['an admin deletes anyone’s', 'delete', roles('admin'), file(null), null],
    ['a room file without a grant is hidden', 'read', roles('writer'), file('room_1'), 'file_not_found'],
    ['an owner without a grant does not read a room (reader rule)', 'read', roles('owner'), file('room_1'), 'file_not_found'],
    ['an admin without a grant deletes in any room (the rule names admin)', 'delete', roles('admin'), file('room_1'), null],
    ['a reader grant in the room reads', 'read', roles('writer', { room_1: 'reader' }), file('room_1'), null],
    ['a reader grant may not update: room_forbidden', 'update', roles('writer', { room_1: 'reader' }), file('room_1'), 'room_forbidden'],
    ['a mount counts as default-room content', 'read', roles('reader'), file('room_1', OTHER, true), null],
  ])('%s', (_, action, r, reached, code) => {
    expect(outcome(() => judge(action, bucket, 'docs', r, reached, ME))).toBe(code);
  });

  it('hiddenFrom is the 404 half of judge', () => {
    expect(hiddenFrom('read', bucket, roles('writer'), file('room_1'))).toBe(true);
    expect(hiddenFrom('read', bucket, roles('writer'), file(null))).toBe(false);
    expect(hiddenFrom('read', bucket, roles('writer'), file('room_1', OTHER, true))).toBe(false);
  });
});

describe('judgePut: replace what you can see, else upload (RFC 9110 §13.2.1: who, before preconditions)', () => {
  it.each<[string, FileRoles, ReachedFile | null, string | null, string | null | 'replaces']>([
    ['a writer creates at a free path', roles('writer'), null, null, null],
    ['a reader may not upload', roles('reader'), null, null, 'access_denied'],
    ['a writer replaces their own file', roles('writer'), file(null, ME), null, 'replaces'],
    ["a writer may not replace another's", roles('writer'), file(null), null, 'access_denied'],
    ['a room without a grant: room_not_found, as for a free path', roles('writer'), null, 'room_2', 'room_not_found'],
    ['a hidden file at the path, for one who could upload: file_not_found', roles('writer'), file('room_1'), null, 'file_not_found'],
    ['a hidden file at the path, for one who could not: the upload refusal', roles('reader'), file('room_1'), null, 'access_denied'],
  ])('%s', (_, r, existing, room, expected) => {
    let replaced: ReachedFile | null = null;
    const code = outcome(() => {
      replaced = judgePut(bucket, 'docs', r, existing, room, ME);
    });
    if (expected === 'replaces') {
      expect(code).toBeNull();
      expect(replaced).toBe(existing);
    } else expect(code).toBe(expected);
  });
});

describe("assertPutPreconditions: If-None-Match, If-Match, and a mount is its owner's to replace", () => {
  it.each<[string, { ifNoneMatch: string | null; ifMatch: string | null }, ReachedFile | null, string | null]>([
    ['no headers, no file', { ifNoneMatch: null, ifMatch: null }, null, null],
    ['If-None-Match: * on a free path', { ifNoneMatch: '*', ifMatch: null }, null, null],
    ['If-None-Match: * on a taken path', { ifNoneMatch: ' * ', ifMatch: null }, file(null), 'file_exists'],
    ['If-Match at the version', { ifNoneMatch: null, ifMatch: '"abc"' }, file(null), null],
    ['If-Match at another version', { ifNoneMatch: null, ifMatch: '"def"' }, file(null), 'precondition_failed'],
    ['If-Match on a free path', { ifNoneMatch: null, ifMatch: '*' }, null, 'precondition_failed'],
    ['a mount', { ifNoneMatch: null, ifMatch: null }, file(null, ME, true), 'file_is_mounted'],
  ])('%s', (_, headers, existing, code) => {
    expect(outcome(() => assertPutPreconditions(headers, 'a.txt', existing))).toBe(code);
  });
});

describe('judgeMove: admin in the source room, the upload rule in the destination (§4.4 rule 7)', () => {
  it.each<[string, FileRoles, ReachedFile, string | null, string | null]>([
    ['an admin moves from the default room into a room they write in', roles('admin', { room_1: 'writer' }), file(null), 'room_1', null],
    ['a writer may not move out of the default room', roles('writer', { room_1: 'writer' }), file(null), 'room_1', 'access_denied'],
    ['a writer in the source room: room_forbidden', roles('admin', { room_1: 'writer' }), file('room_1'), null, 'room_forbidden'],
    ['a source room without a grant is hidden', roles('admin'), file('room_1'), null, 'file_not_found'],
    ['a destination without a grant: the upload refusal', roles('admin'), file(null), 'room_2', 'room_forbidden'],
    ['a mount has no room', roles('owner'), file(null, ME, true), 'room_1', 'file_is_mounted'],
  ])('%s', (_, r, reached, destination, code) => {
    expect(outcome(() => judgeMove(bucket, 'docs', r, reached, destination, ME))).toBe(code);
  });
});

describe('listReach: what a list reaches (rule 4 for files)', () => {
  const rule = DEFAULT_FILE_ACCESS.list;

  it('across the resource: the default room and every room with a grant', () => {
    expect(listReach(rule, 'docs', roles('writer', { room_1: 'reader' }), undefined, [])).toEqual({ default: 'all', all: ['room_1'], own: [] });
  });

  it('a creator rule lists only your own files', () => {
    expect(listReach(['creator'], 'docs', roles('writer', { room_1: 'writer' }), undefined, [])).toEqual({
      default: 'own',
      all: [],
      own: ['room_1'],
    });
  });

  it('a rule naming admin reaches every room of the resource for an admin', () => {
    expect(listReach(['admin'], 'docs', roles('admin'), undefined, ['room_1', 'room_2'])).toEqual({
      default: 'all',
      all: ['room_1', 'room_2'],
      own: [],
    });
  });

  it('one room: that room alone; none of it is room_not_found, a refused default room access_denied', () => {
    expect(listReach(rule, 'docs', roles('writer', { room_1: 'reader' }), 'room_1', [])).toEqual({ default: 'none', all: ['room_1'], own: [] });
    expect(listReach(rule, 'docs', roles('writer'), null, [])).toEqual({ default: 'all', all: [], own: [] });
    expect(outcome(() => listReach(rule, 'docs', roles('writer'), 'room_1', []))).toBe('room_not_found');
    expect(outcome(() => listReach(['admin'], 'docs', roles('writer'), null, []))).toBe('access_denied');
  });

  it('nothing reachable anywhere is access_denied', () => {
    expect(outcome(() => listReach(['admin'], 'docs', roles('reader', { room_1: 'reader' }), undefined, []))).toBe('access_denied');
  });
});

describe('list cursors', () => {
  it('round-trip a path, and refuse anything this list did not return', () => {
    expect(decodeCursor(encodeCursor('dir/ü.txt'))).toBe('dir/ü.txt');
    expect(outcome(() => decodeCursor(''))).toBe('invalid_cursor');
    expect(outcome(() => decodeCursor('not a cursor!'))).toBe('invalid_cursor');
  });
});
