import { describe, expect, it } from 'vitest';
import type { Role } from '../core/roles.rules.js';
import {
  type AccessRule,
  ROOM_NAME_MAX,
  defaultRoomEntry,
  effectiveRole,
  isDefaultRoom,
  isRoomIdShape,
  parseRoomName,
  passesAccessRule,
  reachesEveryRoom,
  roomEntry,
  roomRef,
} from './rooms.rules.js';

describe('docs/api.md §10 the default room', () => {
  it.each<[string, string | null | undefined, boolean]>([
    ['§10: a null room id is the default room', null, true],
    ['§10: an absent room id is the default room', undefined, true],
    ['§10: an empty room id is the default room', '', true],
    ['§10: the resource id itself is the default room', 'res_1', true],
    ['§10: a room record id is not the default room', 'room_ab12cd34', false],
    ['§10: another resource id is not this default room', 'res_2', false],
  ])('%s', (_, roomId, expected) => {
    expect(isDefaultRoom('res_1', roomId)).toBe(expected);
  });
});

describe('docs/api.md §10 effective role = min(resource role, grant)', () => {
  it.each<[string, Role | null, Role | null, boolean, Role | null]>([
    ['a grant narrows: owner with a reader grant reads', 'owner', 'reader', false, 'reader'],
    ['a grant never promotes: reader with an admin grant stays reader', 'reader', 'admin', false, 'reader'],
    ['equal roles: writer with a writer grant is writer', 'writer', 'writer', false, 'writer'],
    ['admin with a writer grant is writer', 'admin', 'writer', false, 'writer'],
    ['no grant is no role, even for the owner', 'owner', null, false, null],
    ['no grant is no role for a reader', 'reader', null, false, null],
    ['a non-member has no role whatever the grant', null, 'admin', false, null],
    ['a non-member has no role in the default room', null, null, true, null],
    ['the default room is the resource role itself', 'writer', null, true, 'writer'],
    ['the default room ignores any grant', 'admin', 'reader', true, 'admin'],
    ['a resource demotion narrows the room: demoted to reader with a writer grant', 'reader', 'writer', false, 'reader'],
  ])('§10: %s', (_, resourceRole, grant, defaultRoom, expected) => {
    expect(effectiveRole(resourceRole, grant, defaultRoom)).toBe(expected);
  });
});

describe('docs/api.md §10 / §5.5 access rules: role thresholds, admin visibility', () => {
  // [case, rules, effective role in the room, isCreator, resource role, expected]
  it.each<[string, AccessRule[], Role | null, boolean, Role | null, boolean]>([
    ['a role at the threshold passes', ['writer'], 'writer', false, 'writer', true],
    ['a higher role passes (reader means reader and up)', ['reader'], 'owner', false, 'owner', true],
    ['a lower role fails', ['writer'], 'reader', false, 'reader', false],
    ['a grant narrows: an admin holding a reader grant is a reader there', ['writer'], 'reader', false, 'admin', false],
    ['no grant: an owner is not implicitly a reader of the room', ['reader'], null, false, 'owner', false],
    ['admin visibility: a rule naming owner reaches the owner without a grant', ['reader', 'owner'], null, false, 'owner', true],
    ['admin visibility: a rule naming admin reaches admins and owners without a grant', ['admin'], null, false, 'owner', true],
    ['admin visibility does not reach an admin through an owner-only rule', ['owner'], null, false, 'admin', false],
    ['admin visibility is for admins: a writer without a grant fails', ['writer', 'admin'], null, false, 'writer', false],
    ['creator passes for the author', ['creator'], 'reader', true, 'reader', true],
    ['creator fails for someone else', ['creator'], 'admin', false, 'admin', false],
    ['creator with admin passes a non-author admin', ['creator', 'admin'], 'admin', false, 'admin', true],
    ['none admits no one, not even the owner', ['none'], 'owner', true, 'owner', false],
    ['no role never passes a reader rule', ['reader', 'writer'], null, false, null, false],
    ['no role never passes, even as the author', ['creator'], null, true, 'owner', false],
    ['an empty rule list admits no one', [], 'owner', false, 'owner', false],
  ])('§10: %s', (_, rules, role, isCreator, resourceRole, expected) => {
    expect(passesAccessRule(rules, role, isCreator, resourceRole)).toBe(expected);
  });

  it('defaults the resource role to the effective one (the default room)', () => {
    expect(passesAccessRule(['admin'], 'admin', false)).toBe(true);
    expect(passesAccessRule(['admin'], 'writer', false)).toBe(false);
  });

  it.each<[AccessRule[], Role | null, boolean]>([
    [['reader', 'owner'], 'owner', true],
    [['admin'], 'admin', true],
    [['reader'], 'owner', false],
    [['admin', 'none'], 'owner', false],
    [['creator'], 'owner', false],
  ])('reachesEveryRoom(%j, %s) = %s', (rules, resourceRole, expected) => {
    expect(reachesEveryRoom(rules, resourceRole)).toBe(expected);
  });
});

/** What `fn` throws: its code, or null when it returns. */
function thrown(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('docs/api.md §10.1 room ids as input', () => {
  it.each<[string, string, string | null | 'invalid_room']>([
    ['the resource id is the default room', 'res_1', null],
    ['an empty id is the default room', '', null],
    ['a room id as issued', 'room_ab12cd34', 'room_ab12cd34'],
    ['a malformed id', 'room_XYZ', 'invalid_room'],
    ["another resource's id", 'res_2', 'invalid_room'],
  ])('%s', (_, roomId, expected) => {
    if (expected === 'invalid_room') expect(thrown(() => roomRef('res_1', roomId))).toBe('invalid_room');
    else expect(roomRef('res_1', roomId)).toBe(expected);
    expect(isRoomIdShape(roomId)).toBe(expected !== null && expected !== 'invalid_room');
  });
});

describe('room names', () => {
  it.each<[string, unknown, string | null]>([
    ['trimmed', '  Design  ', 'Design'],
    ['at most ROOM_NAME_MAX characters', 'x'.repeat(ROOM_NAME_MAX), 'x'.repeat(ROOM_NAME_MAX)],
    ['longer is refused', 'x'.repeat(ROOM_NAME_MAX + 1), null],
    ['empty after trimming is refused', '   ', null],
    ['control characters are refused', 'a\tb', null],
    ['not a string is refused', 42, null],
  ])('%s', (_, raw, expected) => {
    if (expected === null) expect(thrown(() => parseRoomName(raw))).toBe('invalid_argument');
    else expect(parseRoomName(raw)).toBe(expected);
  });
});

describe('a room as its reader sees it (spec 2.7)', () => {
  const createdAt = new Date(0);
  it('a room record: the caller’s grant, and min(resource role, grant)', () => {
    expect(roomEntry({ id: 'room_1', name: 'R', createdAt }, 'writer', 'admin')).toEqual({
      id: 'room_1',
      name: 'R',
      isDefault: false,
      currentGrant: { role: 'admin' },
      effectiveRole: 'writer',
      createdAt,
    });
    expect(roomEntry({ id: 'room_1', name: 'R', createdAt }, 'owner', null)).toMatchObject({ currentGrant: null, effectiveRole: null });
  });

  it('the default room: the resource, held with the resource role', () => {
    expect(defaultRoomEntry({ id: 'res_1', name: 'Team', createdAt }, 'reader')).toEqual({
      id: 'res_1',
      name: 'Team',
      isDefault: true,
      currentGrant: { role: 'reader' },
      effectiveRole: 'reader',
      createdAt,
    });
  });
});
