import { describe, expect, it } from 'vitest';
import type { Role } from '../core/roles.rules.js';
import type { AccessRule } from '../rooms/rooms.rules.js';
import { type Reach, type RoomRoles, moveRefused, reachOf, reachesNothing, refusedIn, roleIn } from './row-access.rules.js';

const roles = (resourceRole: Role | null, grants: Record<string, Role> = {}): RoomRoles => ({
  resourceRole,
  grants: new Map(Object.entries(grants)),
});

describe('roleIn: the effective role in a room', () => {
  it.each<[string, RoomRoles, string | null, Role | null]>([
    ['the default room takes the resource role', roles('writer'), null, 'writer'],
    ['a room without a grant: no role', roles('owner'), 'room_a', null],
    ['a grant below the resource role', roles('admin', { room_a: 'reader' }), 'room_a', 'reader'],
    ['a grant above the resource role is capped by it', roles('reader', { room_a: 'admin' }), 'room_a', 'reader'],
    ['no membership: no role anywhere', roles(null, { room_a: 'admin' }), 'room_a', null],
  ])('%s', (_, r, room, expected) => {
    expect(roleIn(r, room)).toBe(expected);
  });
});

describe('reachOf: what a read reaches (docs/api.md §10 rules 4 and 6, §11.4)', () => {
  const readers: AccessRule[] = ['reader'];
  const creators: AccessRule[] = ['creator'];
  const admins: AccessRule[] = ['admin'];

  it.each<[string, readonly AccessRule[], RoomRoles, Role | null, string | null | undefined, string[], Reach]>([
    [
      'a reader: the default room and the rooms granted',
      readers,
      roles('writer', { b: 'reader', a: 'writer' }),
      'writer',
      undefined,
      [],
      { defaultRoom: 'all', all: ['a', 'b'], own: [] },
    ],
    [
      'creator only: own rows everywhere they hold a role',
      creators,
      roles('writer', { a: 'reader' }),
      'writer',
      undefined,
      [],
      { defaultRoom: 'own', all: [], own: ['a'] },
    ],
    ['no role in the default room (a visitor of nothing)', readers, roles(null), null, undefined, [], { defaultRoom: 'none', all: [], own: [] }],
    [
      'admin visibility: every room of the resource, grant or not',
      admins,
      roles('admin'),
      'admin',
      undefined,
      ['r2', 'r1'],
      { defaultRoom: 'all', all: ['r1', 'r2'], own: [] },
    ],
    [
      'a room and its grant listed once',
      readers,
      roles('admin', { r1: 'reader' }),
      'admin',
      undefined,
      ['r1'],
      { defaultRoom: 'all', all: ['r1'], own: [] },
    ],
    ['narrowed to the default room', readers, roles('reader', { a: 'reader' }), 'reader', null, [], { defaultRoom: 'all', all: [], own: [] }],
    ['narrowed to a granted room', readers, roles('reader', { a: 'reader' }), 'reader', 'a', [], { defaultRoom: 'none', all: ['a'], own: [] }],
    ['narrowed to a room without a grant', readers, roles('reader'), 'reader', 'a', [], { defaultRoom: 'none', all: [], own: [] }],
    ['narrowed to a room, creator only', creators, roles('writer', { a: 'writer' }), 'writer', 'a', [], { defaultRoom: 'none', all: [], own: ['a'] }],
    ['the default room read as a visitor of a public resource', readers, roles(null), 'reader', null, [], { defaultRoom: 'all', all: [], own: [] }],
  ])('%s', (_, rule, r, base, room, everyRoom, expected) => {
    expect(reachOf(rule, r, base, room, everyRoom)).toEqual(expected);
  });

  it('reachesNothing only when neither the default room nor any room is read', () => {
    expect(reachesNothing({ defaultRoom: 'none', all: [], own: [] })).toBe(true);
    expect(reachesNothing({ defaultRoom: 'own', all: [], own: [] })).toBe(false);
    expect(reachesNothing({ defaultRoom: 'none', all: [], own: ['a'] })).toBe(false);
  });
});

describe('refusals', () => {
  it('an access rule: room_forbidden in a room record, access_denied in the default room', () => {
    expect(refusedIn('update', 'tasks', 'reader', 'room_a')).toMatchObject({ code: 'room_forbidden', status: 403 });
    expect(refusedIn('update', 'tasks', null, null)).toMatchObject({ code: 'access_denied', status: 403 });
  });

  it('moveRoom names the source room and the role held there', () => {
    expect(moveRefused('tasks', 'writer', 'room_a')).toMatchObject({
      code: 'room_forbidden',
      status: 403,
      message: 'moveRoom on tasks needs admin in the source room (room room_a): your role there is writer.',
    });
    expect(moveRefused('tasks', null, null)).toMatchObject({
      code: 'access_denied',
      message: 'moveRoom on tasks needs admin in the source room (the default room): you hold no role there.',
    });
  });
});
