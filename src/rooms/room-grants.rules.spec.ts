/**
 * docs/api.md §10.2 and §10.3 (spec §2.7, §4.4 rules 2 and 3), row by row: who sees and
 * administers rooms, and who may set or drop whose grant. Refusals assert the AppError's code and
 * status; outcomes assert the grant and ceiling written.
 */
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import {
  type GrantOutcome,
  type RoomActor,
  type RoomMember,
  decideRemoveGrant,
  decideSetGrant,
  grantorReach,
  listsEveryRoom,
  requireRoomAdmin,
  seesRoom,
} from './room-grants.rules.js';
import { DEFAULT_GRANT, type GrantCeilings, type Role } from '../core/roles.rules.js';

/** A member of the resource in the room under test: `resource role / grant / ceiling`. */
const member = (id: string, resourceRole: Role | null, grant: Role | null = null, ceiling: Role | null = null): RoomMember => ({
  id,
  resourceRole,
  grant,
  ceiling,
});
const actor = (id: string, resourceRole: Role, grant: Role | null = null, ceiling: Role | null = null): RoomActor => ({
  id,
  resourceRole,
  grant,
  ceiling,
});

/** The cast: olga owns the resource, ada and abe are admins, wes writes, rita reads, sam is outside. */
const OLGA = actor('olga', 'owner');
const ADA = actor('ada', 'admin');
const WES = actor('wes', 'writer');
const RITA = actor('rita', 'reader');
/** A type overriding `grant` so admins may hand out admin. */
const GENEROUS: GrantCeilings = { owner: 'owner', admin: 'admin', writer: null, reader: null };

function refusal(run: () => unknown): { code: string; status: number } {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error('expected a refusal');
}

const set = (a: RoomActor, target: RoomMember, role: Role, ceilings = DEFAULT_GRANT) =>
  decideSetGrant({ actor: a, target: target.id === a.id ? a : target, role, ceilings, resourceType: 'team' });

describe('docs/api.md §10.3 PUT a grant: who may set whose grant, and what it writes', () => {
  it.each<[string, RoomActor, RoomMember, Role, GrantOutcome, GrantCeilings?]>([
    [
      'rule 3: the owner grants a member up to admin; the grant is their ceiling',
      OLGA,
      member('wes', 'writer'),
      'writer',
      { grant: 'writer', ceiling: 'writer' },
    ],
    [
      'rule 3: an admin grants a writer up to writer; the grant is their ceiling',
      ADA,
      member('wes', 'writer'),
      'reader',
      { grant: 'reader', ceiling: 'reader' },
    ],
    [
      "§2.7: a grant may name a role above the holder's resource role (it only narrows)",
      ADA,
      member('rita', 'reader'),
      'writer',
      { grant: 'writer', ceiling: 'writer' },
    ],
    [
      '§10.3: a grant set again by a superior moves the ceiling with it',
      OLGA,
      member('ada', 'admin', 'reader', 'reader'),
      'writer',
      { grant: 'writer', ceiling: 'writer' },
    ],
    ['§10.3: your own grant is yours: an admin grants themselves into a room', ADA, ADA, 'writer', { grant: 'writer', ceiling: null }],
    [
      '§10.3: your own grant keeps the ceiling set on you: lowering it',
      actor('ada', 'admin', 'writer', 'writer'),
      actor('ada', 'admin', 'writer', 'writer'),
      'reader',
      { grant: 'reader', ceiling: 'writer' },
    ],
    [
      '§10.3: your own grant may rise back up to your ceiling',
      actor('ada', 'admin', 'reader', 'writer'),
      actor('ada', 'admin', 'reader', 'writer'),
      'writer',
      { grant: 'writer', ceiling: 'writer' },
    ],
    [
      '§10.3: after leaving a room, you may come back up to your ceiling',
      actor('ada', 'admin', null, 'reader'),
      actor('ada', 'admin', null, 'reader'),
      'reader',
      { grant: 'reader', ceiling: 'reader' },
    ],
    [
      '§5.1: a type ceiling of admin lets an admin grant admin',
      ADA,
      member('wes', 'writer'),
      'admin',
      { grant: 'admin', ceiling: 'admin' },
      GENEROUS,
    ],
    ['§10.3: the owner grants themselves any role their ceiling allows', OLGA, OLGA, 'admin', { grant: 'admin', ceiling: null }],
  ])('%s', (_, a, target, role, expected, ceilings) => {
    expect(set(a, target, role, ceilings)).toEqual(expected);
  });

  it.each<[string, RoomActor, RoomMember, Role, string, number, GrantCeilings?]>([
    ['§10.3: writers grant nothing', WES, member('rita', 'reader'), 'reader', 'not_admin', 403],
    ['§10.3: readers grant nothing, not even to themselves', RITA, RITA, 'reader', 'not_admin', 403],
    ['§5.1: the owner cannot hand out ownership', OLGA, member('ada', 'admin'), 'owner', 'grant_ceiling', 403],
    ['§5.1: an admin grants at most writer', ADA, member('wes', 'writer'), 'admin', 'grant_ceiling', 403],
    ['§5.1: an admin cannot grant themselves admin either', ADA, ADA, 'admin', 'grant_ceiling', 403],
    [
      '§10.3: narrowed to reader in the room, an admin grants no more than reader',
      actor('ada', 'admin', 'reader', 'reader'),
      member('wes', 'writer'),
      'writer',
      'grant_ceiling',
      403,
    ],
    [
      '§10.3: a self-narrowed admin still grants no more than their grant there',
      actor('ada', 'admin', 'reader'),
      member('wes', 'writer'),
      'writer',
      'grant_ceiling',
      403,
    ],
    [
      '§10.3: a grant set by a superior cannot be raised by its holder',
      actor('ada', 'admin', 'reader', 'reader'),
      actor('ada', 'admin', 'reader', 'reader'),
      'writer',
      'grant_ceiling',
      403,
    ],
    [
      '§10.3: dropping an imposed grant is no way around it: no grant, ceiling reader, self-grant writer',
      actor('ada', 'admin', null, 'reader'),
      actor('ada', 'admin', null, 'reader'),
      'writer',
      'grant_ceiling',
      403,
    ],
    [
      '§10.3: nor is granting others from an empty room: reach is the ceiling',
      actor('ada', 'admin', null, 'reader'),
      member('wes', 'writer'),
      'writer',
      'grant_ceiling',
      403,
    ],
    [
      '§10.3: the ceiling binds under a generous type ceiling too',
      actor('ada', 'admin', null, 'writer'),
      actor('ada', 'admin', null, 'writer'),
      'admin',
      'grant_ceiling',
      403,
      GENEROUS,
    ],
    ['rule 3: granting a non-member is 409 grantee_not_member', OLGA, member('sam', null), 'reader', 'grantee_not_member', 409],
    ["§10.3: peers keep their grants: an admin cannot set another admin's", ADA, member('abe', 'admin'), 'reader', 'outranked', 403],
    ["§10.3: superiors keep their grants: an admin cannot set the owner's", ADA, member('olga', 'owner'), 'reader', 'outranked', 403],
  ])('%s', (_, a, target, role, code, status, ceilings) => {
    expect(refusal(() => set(a, target, role, ceilings))).toEqual({ code, status });
  });
});

describe('docs/api.md §10.3 DELETE a grant', () => {
  it.each<[string, RoomActor, RoomMember, GrantOutcome | null]>([
    [
      '§10.3: anyone drops their own grant (leaving the room)',
      actor('rita', 'reader', 'reader'),
      actor('rita', 'reader', 'reader'),
      { grant: null, ceiling: null },
    ],
    [
      '§10.3: leaving a room keeps the ceiling a superior set',
      actor('ada', 'admin', 'reader', 'reader'),
      actor('ada', 'admin', 'reader', 'reader'),
      { grant: null, ceiling: 'reader' },
    ],
    [
      '§10.3: an admin drops the grant of a member below them; the ceiling stays',
      ADA,
      member('wes', 'writer', 'writer', 'writer'),
      { grant: null, ceiling: 'writer' },
    ],
    ['§10.3: idempotent: an admin dropping a grant that is not there changes nothing', ADA, member('wes', 'writer'), null],
    ["§10.3: idempotent for an admin's own missing grant", ADA, ADA, null],
  ])('%s', (_, a, target, expected) => {
    expect(decideRemoveGrant({ actor: a, target: target.id === a.id ? a : target, roomId: 'room_1' })).toEqual(expected);
  });

  it.each<[string, RoomActor, RoomMember, string, number]>([
    ['rule 2: a member with no grant learns nothing of the room (own grant)', RITA, RITA, 'room_not_found', 404],
    ["rule 2: a member with no grant learns nothing of the room (another's grant)", RITA, member('wes', 'writer', 'reader'), 'room_not_found', 404],
    [
      "§10.3: a holder who is not admin+ drops no one else's grant",
      actor('rita', 'reader', 'reader'),
      member('wes', 'writer', 'reader'),
      'not_admin',
      403,
    ],
    ['§10.3: peers keep their grants', ADA, member('abe', 'admin', 'writer'), 'outranked', 403],
    ['§10.3: the owner keeps theirs', ADA, member('olga', 'owner', 'admin'), 'outranked', 403],
  ])('%s', (_, a, target, code, status) => {
    expect(refusal(() => decideRemoveGrant({ actor: a, target, roomId: 'room_1' }))).toEqual({ code, status });
  });
});

describe("docs/api.md §10.3 a grantor's reach", () => {
  it.each<[string, RoomActor, Role]>([
    ['no grant and no ceiling: the resource role', ADA, 'admin'],
    ['a grant narrows it', actor('ada', 'admin', 'reader'), 'reader'],
    ['a grant never widens it', actor('wes', 'writer', 'admin'), 'writer'],
    ['with no grant, the ceiling narrows it', actor('ada', 'admin', null, 'reader'), 'reader'],
    ['the grant, not the ceiling, while one is held', actor('ada', 'admin', 'reader', 'writer'), 'reader'],
  ])('%s', (_, a, expected) => {
    expect(grantorReach(a)).toBe(expected);
  });
});

describe('docs/api.md §10.2 seeing and administering rooms', () => {
  it.each<[string, Role, Role | null, boolean]>([
    ['rule 2: a holder sees the room', 'reader', 'reader', true],
    ['rule 2: a member with no grant does not', 'writer', null, false],
    ['§2.7: the owner administers every room without holding it', 'owner', null, true],
    ['§2.7: so do admins', 'admin', null, true],
  ])('%s', (_, role, grant, expected) => {
    expect(seesRoom(role, grant)).toBe(expected);
    if (grant === null) expect(listsEveryRoom(role)).toBe(expected);
  });

  it.each<[Role, boolean]>([
    ['owner', true],
    ['admin', true],
    ['writer', false],
    ['reader', false],
  ])('§10.2: %s administers rooms: %s', (role, allowed) => {
    if (allowed) expect(() => requireRoomAdmin(role)).not.toThrow();
    else expect(refusal(() => requireRoomAdmin(role))).toEqual({ code: 'not_admin', status: 403 });
  });
});
