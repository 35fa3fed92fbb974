import { describe, expect, it } from 'vitest';
import { DEFAULT_GRANT, type GrantCeilings, ROLES, type Role, isAdminPlus, isRole, outranks, rank, withinCeiling } from './roles.rules.js';

describe('docs/api.md §5.1 role order', () => {
  it('docs/api.md §5.1: roles run owner > admin > writer > reader', () => {
    expect(ROLES).toEqual(['owner', 'admin', 'writer', 'reader']);
    const ranks = ROLES.map(rank);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
    expect(new Set(ranks).size).toBe(ROLES.length);
  });

  it.each<[string, unknown, boolean]>([
    ['§5.1: "owner" is a role', 'owner', true],
    ['§5.1: "reader" is a role', 'reader', true],
    ['§5.1: "member" is not a role', 'member', false],
    ['§5.1: a non-string is not a role', 4, false],
  ])('%s', (_, value, expected) => {
    expect(isRole(value)).toBe(expected);
  });

  it('docs/api.md §5.1: a prototype key ("toString") is not a role', () => {
    expect(isRole('toString')).toBe(false);
  });
});

describe('docs/api.md §5.1 admin+', () => {
  it.each<[string, Role | null | undefined, boolean]>([
    ['§5.1: owner is admin+', 'owner', true],
    ['§5.1: admin is admin+', 'admin', true],
    ['§5.1: writer is not admin+', 'writer', false],
    ['§5.1: reader is not admin+', 'reader', false],
    ['§5.1: no role is not admin+', null, false],
    ['§5.1: an unknown role is not admin+', undefined, false],
  ])('%s', (_, role, expected) => {
    expect(isAdminPlus(role)).toBe(expected);
  });
});

describe('docs/api.md §5.2 outranking: the actor must strictly outrank the target', () => {
  // Every (actor, target) pair: only a strictly higher rank outranks; peers never do.
  const pairs = ROLES.flatMap(actor => ROLES.map(target => [actor, target] as const));
  it.each(
    pairs.map(
      ([actor, target]) =>
        [
          `§5.2: ${actor} ${rank(actor) > rank(target) ? 'outranks' : 'does not outrank'} ${target}`,
          actor,
          target,
          rank(actor) > rank(target),
        ] as const,
    ),
  )('%s', (_, actor, target, expected) => {
    expect(outranks(actor, target)).toBe(expected);
  });

  it.each(ROLES.map(role => [`§5.2: peers cannot act on peers (${role} vs ${role})`, role] as const))('%s', (_, role) => {
    expect(outranks(role, role)).toBe(false);
  });

  it('docs/api.md §5.2: nobody outranks the owner', () => {
    expect(ROLES.filter(actor => outranks(actor, 'owner'))).toEqual([]);
  });
});

describe('docs/api.md §5.1 grant ceilings', () => {
  it('docs/api.md §5.1: default ceilings are owner -> admin, admin -> writer, writer and reader -> nothing', () => {
    expect(DEFAULT_GRANT).toEqual({ owner: 'admin', admin: 'writer', writer: null, reader: null });
  });

  // The full default table, one row per (actor, assigned role).
  it.each<[string, Role, Role, boolean]>([
    ['§5.1: default: owner may not grant owner (ownership is not handed out by grant)', 'owner', 'owner', false],
    ['§5.1: default: owner may grant admin', 'owner', 'admin', true],
    ['§5.1: default: owner may grant writer', 'owner', 'writer', true],
    ['§5.1: default: owner may grant reader', 'owner', 'reader', true],
    ['§5.1: default: admin may not grant owner', 'admin', 'owner', false],
    ['§5.1: default: admin may not grant admin', 'admin', 'admin', false],
    ['§5.1: default: admin may grant writer', 'admin', 'writer', true],
    ['§5.1: default: admin may grant reader', 'admin', 'reader', true],
    ['§5.1: default: writer may not grant owner', 'writer', 'owner', false],
    ['§5.1: default: writer may not grant admin', 'writer', 'admin', false],
    ['§5.1: default: writer may not grant writer', 'writer', 'writer', false],
    ['§5.1: default: writer may not grant reader', 'writer', 'reader', false],
    ['§5.1: default: reader may not grant owner', 'reader', 'owner', false],
    ['§5.1: default: reader may not grant admin', 'reader', 'admin', false],
    ['§5.1: default: reader may not grant writer', 'reader', 'writer', false],
    ['§5.1: default: reader may not grant reader', 'reader', 'reader', false],
  ])('%s', (_, actor, role, expected) => {
    expect(withinCeiling(DEFAULT_GRANT, actor, role)).toBe(expected);
  });

  // A type overriding `grant`: owners may hand out ownership, admins admin, writers reader.
  const overridden: GrantCeilings = { owner: 'owner', admin: 'admin', writer: 'reader', reader: null };
  it.each<[string, Role, Role, boolean]>([
    ['§5.1: overridden grant: owner may grant owner', 'owner', 'owner', true],
    ['§5.1: overridden grant: admin may grant admin', 'admin', 'admin', true],
    ['§5.1: overridden grant: admin still may not grant owner', 'admin', 'owner', false],
    ['§5.1: overridden grant: writer may grant reader', 'writer', 'reader', true],
    ['§5.1: overridden grant: writer still may not grant writer', 'writer', 'writer', false],
    ['§5.1: overridden grant: reader still may grant nothing', 'reader', 'reader', false],
  ])('%s', (_, actor, role, expected) => {
    expect(withinCeiling(overridden, actor, role)).toBe(expected);
  });

  it('docs/api.md §5.1: an override can also narrow the default (owner -> writer)', () => {
    const narrow: GrantCeilings = { ...DEFAULT_GRANT, owner: 'writer' };
    expect(withinCeiling(narrow, 'owner', 'admin')).toBe(false);
    expect(withinCeiling(narrow, 'owner', 'writer')).toBe(true);
  });
});
