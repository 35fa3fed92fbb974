import { describe, expect, it } from 'vitest';
import {
  type Heir,
  type MemberRemovePolicy,
  type OwnerDeletePolicy,
  type SharePolicy,
  DELETED_USER,
  accountExit,
  authorOf,
  heirOf,
  isAccountDeletionConfirmed,
  memberRemovalPlan,
  ownerDeletionPlan,
} from './lifecycle.rules.js';
import type { MemberRow } from './membership.rules.js';

const shares: SharePolicy[] = [
  { table: 'notes', onMemberRemove: 'remove' },
  { table: 'posts', onMemberRemove: 'hide' },
  { table: 'photos', onMemberRemove: 'retain' },
];

describe('docs/api.md §12 onMemberRemove: which policy each linked table gets', () => {
  it.each<[string, string[], Record<MemberRemovePolicy, string[]>]>([
    ['each shared table gets its own policy', ['notes', 'posts', 'photos'], { remove: ['notes'], hide: ['posts'], retain: ['photos'] }],
    ['a table the type no longer shares gets the default, remove', ['legacy'], { remove: ['legacy'], hide: [], retain: [] }],
    ['a table named twice is planned once', ['posts', 'posts'], { remove: [], hide: ['posts'], retain: [] }],
    ['no linked tables, nothing to do', [], { remove: [], hide: [], retain: [] }],
  ])('§12: %s', (_, linked, expected) => {
    expect(memberRemovalPlan(shares, linked)).toEqual(expected);
  });
});

describe('docs/api.md §12 onOwnerDelete: which policy each table with rows gets', () => {
  const tables = {
    notes: { onOwnerDelete: 'remove' as const },
    posts: { onOwnerDelete: 'tombstone' as const },
    photos: { onOwnerDelete: 'retain' as const },
  };
  it.each<[string, string[], Record<OwnerDeletePolicy, string[]>]>([
    ['each table gets its own policy', ['notes', 'posts', 'photos'], { remove: ['notes'], tombstone: ['posts'], retain: ['photos'] }],
    ['a table the schema no longer declares gets the default, remove', ['gone'], { remove: ['gone'], tombstone: [], retain: [] }],
    ['an inherited object key is no table', ['toString'], { remove: ['toString'], tombstone: [], retain: [] }],
  ])('§12: %s', (_, rowTables, expected) => {
    expect(ownerDeletionPlan(tables, rowTables)).toEqual(expected);
  });

  it('§5.5: a table stored without a policy (an IR written before it) gets the default, remove', () => {
    expect(ownerDeletionPlan({ old: {} }, ['old'])).toEqual({ remove: ['old'], tombstone: [], retain: [] });
  });
});

describe('docs/api.md §12 the deleted-user profile', () => {
  it.each<[string, string | null, unknown]>([
    ['a live author is their id', 'usr_1', { id: 'usr_1', displayName: null }],
    ['no creator is the reserved deleted-user profile: null id, fixed display name', null, { id: null, displayName: 'Deleted user' }],
  ])('§12: %s', (_, creatorId, expected) => {
    expect(authorOf(creatorId)).toEqual(expected);
  });

  it('§12: the profile cannot be changed by a caller that holds it', () => {
    expect(Object.isFrozen(DELETED_USER)).toBe(true);
  });
});

describe('docs/api.md §12 DELETE /v1/me confirmation', () => {
  it.each<[string, unknown, boolean]>([
    ['the exact phrase confirms', 'delete my account', true],
    ['another case does not', 'Delete my account', false],
    ['extra spaces do not', ' delete my account', false],
    ['a missing field does not', undefined, false],
    ['a boolean does not', true, false],
  ])('§12: %s', (_, confirm, expected) => {
    expect(isAccountDeletionConfirmed(confirm)).toBe(expected);
  });
});

describe('docs/api.md §12 who inherits an owned resource', () => {
  const at = (day: number) => new Date(Date.UTC(2026, 0, day));
  const m = (principalId: string, role: Heir['role'], day: number, extra: Partial<Heir> = {}): Heir => ({
    principalId,
    role,
    state: 'active',
    kind: 'user',
    since: at(day),
    ...extra,
  });
  const owner = m('owner', 'owner', 1);

  it.each<[string, Heir[], string[], string | null]>([
    ['the longest-standing admin inherits', [owner, m('late', 'admin', 5), m('early', 'admin', 3)], ['owner'], 'early'],
    ['admins who joined together: the smaller id, so the choice is stable', [owner, m('b', 'admin', 3), m('a', 'admin', 3)], ['owner'], 'a'],
    ['writers and readers never inherit', [owner, m('w', 'writer', 2), m('r', 'reader', 2)], ['owner'], null],
    ['an agent admin never inherits', [owner, m('bot', 'admin', 2, { kind: 'agent' })], ['owner'], null],
    ['a pending admin invite does not inherit', [owner, m('invitee', 'admin', 2, { state: 'invited' })], ['owner'], null],
    [
      'an admin deleted along with the account (its agent) does not inherit',
      [owner, m('mine', 'admin', 2), m('next', 'admin', 4)],
      ['owner', 'mine'],
      'next',
    ],
    ['nobody else: no heir, the resource is deleted', [owner], ['owner'], null],
  ])('§12: %s', (_, members, leaving, expected) => {
    expect(heirOf(members, new Set(leaving))).toBe(expected);
  });
});

describe('docs/api.md §12 what account deletion does to each membership', () => {
  it.each<[string, MemberRow, string | null, string]>([
    ['an invite is withdrawn', { role: 'writer', state: 'invited' }, null, 'withdraw'],
    ['a request is withdrawn', { role: 'reader', state: 'requested' }, null, 'withdraw'],
    ['an active member leaves', { role: 'admin', state: 'active' }, null, 'leave'],
    ['an owner with an heir hands the resource over', { role: 'owner', state: 'active' }, 'heir', 'transfer'],
    ['an owner without one: the resource is deleted', { role: 'owner', state: 'active' }, null, 'delete_resource'],
  ])('§12: %s', (_, membership, heir, expected) => {
    expect(accountExit(membership, heir)).toBe(expected);
  });
});
