import { describe, expect, it } from 'vitest';
import type { Role } from '../core/roles.rules.js';
import { type AccessRule, effectiveRole, isDefaultRoom, isRoomIdShape, passesAccessRule, reachesEveryRoom } from './rooms.rules.js';

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
