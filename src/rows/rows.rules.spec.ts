import { describe, expect, it } from 'vitest';
import type { MembershipState } from '../membership/membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import type { AccessRule } from '../rooms/rooms.rules.js';
import { DEFAULT_ACCESS, type RowAction, canMoveOutOf, readReach, rolesReaching, ruleFor, visitorRole, writeStanding } from './rows.rules.js';
import type { StoredVisibility } from '../membership/visibility.rules.js';

describe('docs/api.md §11.4 which rule an action is judged by', () => {
  it.each<
    [string, RowAction, Partial<Record<RowAction, AccessRule[]>> | null, Partial<Record<RowAction, AccessRule[]>> | null, readonly AccessRule[]]
  >([
    ['no rules anywhere: the default', 'create', null, null, DEFAULT_ACCESS.create],
    ["the table's rule", 'read', null, { read: ['owner'] }, ['owner']],
    ["the type's override wins over the table", 'read', { read: ['admin'] }, { read: ['owner'] }, ['admin']],
    ['an override naming other actions keeps the table rule', 'update', { read: ['admin'] }, { update: ['creator'] }, ['creator']],
    ['an override naming other actions falls back to the default', 'delete', { read: ['admin'] }, { read: ['owner'] }, DEFAULT_ACCESS.delete],
  ])('§11.4: %s', (_, action, override, table, expected) => {
    expect(ruleFor(action, override, table)).toEqual(expected);
  });

  it('§11.4: the defaults: members read, writers create, the creator or admin+ change', () => {
    expect(DEFAULT_ACCESS).toEqual({
      read: ['reader'],
      create: ['writer'],
      update: ['creator', 'admin'],
      delete: ['creator', 'admin'],
      unlink: ['creator', 'admin'],
    });
  });
});

describe('docs/api.md §10 rule 4: how much of a room a read reaches', () => {
  it.each<[string, AccessRule[], Role | null, 'all' | 'own' | 'none']>([
    ['a listed role reads every row', ['reader', 'writer'], 'reader', 'all'],
    ['a higher role than the one listed reads every row', ['reader'], 'owner', 'all'],
    ['a role below the one listed reads nothing', ['writer'], 'reader', 'none'],
    ['creator alone: own rows, for anyone holding a role', ['creator'], 'owner', 'own'],
    ['creator and a role: that role reads all', ['creator', 'admin'], 'admin', 'all'],
    ['creator and a role: others read their own', ['creator', 'admin'], 'reader', 'own'],
    ['no role: nothing, whatever the rule', ['creator', 'reader'], null, 'none'],
    ['none: nothing', ['none'], 'owner', 'none'],
  ])('§10: %s', (_, rule, role, expected) => {
    expect(readReach(rule, role)).toBe(expected);
  });

  it('§10 rule 8: the roles a type-scoped read admits, in full and to their own rows', () => {
    expect(rolesReaching(['creator', 'admin', 'owner'])).toEqual({ all: ['owner', 'admin'], own: ['writer', 'reader'] });
    expect(rolesReaching(['none'])).toEqual({ all: [], own: [] });
  });
});

describe('docs/api.md §10 rule 7: moving rows out of a room needs admin there', () => {
  it.each<[Role | null, boolean]>([
    ['owner', true],
    ['admin', true],
    ['writer', false],
    ['reader', false],
    [null, false],
  ])('§10 rule 7: effective role %s moves out: %s', (role, expected) => {
    expect(canMoveOutOf(role)).toBe(expected);
  });
});

describe('docs/api.md §5.2 auto-join: how a caller stands for a write', () => {
  it.each<[string, StoredVisibility, { state: MembershipState } | null, 'member' | 'join' | 'outsider']>([
    ['an active member writes as one', 'members', { state: 'active' }, 'member'],
    ['a stranger to a public resource joins with the write', 'public', null, 'join'],
    ['never on members resources', 'members', null, 'outsider'],
    ['never with a pending invite', 'public', { state: 'invited' }, 'outsider'],
    ['never with a pending request', 'public', { state: 'requested' }, 'outsider'],
  ])('§5.2: %s', (_, visibility, membership, expected) => {
    expect(writeStanding(visibility, membership)).toBe(expected);
  });

  it('§5.2: reads never join; a visitor of a public resource reads as its default role would', () => {
    expect(visitorRole('public', 'writer')).toBe('writer');
    expect(visitorRole('members', 'writer')).toBeNull();
  });
});
