import { describe, expect, it } from 'vitest';
import {
  type AccessInput,
  type ResourceAccess,
  VISIBILITY_NAMES,
  type VisibilityName,
  type StoredVisibility,
  type VisibilityPair,
  canTarget,
  canView,
  compileVisibility,
  isPublic,
  isVisibilityName,
  resourceAccess,
  rosterAccess,
} from './visibility.rules.js';

describe('docs/api.md §5.1 visibility: stored pair compiled from the schema enum', () => {
  it('docs/api.md §5.1: the schema enum is members, unlisted, discoverable', () => {
    expect([...VISIBILITY_NAMES].sort()).toEqual(['discoverable', 'members', 'unlisted']);
  });

  it.each<[string, VisibilityName, VisibilityPair, boolean]>([
    [
      '§5.1: members gives (members, false): hidden from non-members, not self-joinable',
      'members',
      { visibility: 'members', discoverable: false },
      false,
    ],
    [
      '§5.1: unlisted gives (public, false): viewable and joinable by id, not listed in browse',
      'unlisted',
      { visibility: 'public', discoverable: false },
      true,
    ],
    [
      '§5.1: discoverable gives (public, true): listed in browse and self-joinable',
      'discoverable',
      { visibility: 'public', discoverable: true },
      true,
    ],
  ])('%s', (_, name, pair, isPublicResource) => {
    expect(compileVisibility(name)).toEqual(pair);
    expect(isPublic(compileVisibility(name))).toBe(isPublicResource);
  });

  it.each<[string, unknown, boolean]>([
    ['§5.1: "members" is a visibility name', 'members', true],
    ['§5.1: "unlisted" is a visibility name', 'unlisted', true],
    ['§5.1: "discoverable" is a visibility name', 'discoverable', true],
    ['§2.2: the stored value "public" is not a schema visibility name', 'public', false],
    ['§5.1: a non-string is not a visibility name', true, false],
  ])('%s', (_, value, expected) => {
    expect(isVisibilityName(value)).toBe(expected);
  });

  it('docs/api.md §5.1: a prototype key ("constructor") is not a visibility name', () => {
    expect(isVisibilityName('constructor')).toBe(false);
  });
});

describe('docs/api.md §5.3 resource access: who reaches a resource, and who sees it', () => {
  const own = (state: 'active' | 'invited' | 'requested') => ({ state });

  it.each<[string, AccessInput, ResourceAccess, boolean]>([
    [
      '§5.3: public, stranger -> view (unlisted and discoverable are viewable by id)',
      { visibility: 'public', own: null, agentInvited: false },
      'view',
      true,
    ],
    ['§5.3: public, pending invitee -> view', { visibility: 'public', own: own('invited'), agentInvited: false }, 'view', true],
    ['§5.3: members, active member -> view', { visibility: 'members', own: own('active'), agentInvited: false }, 'view', true],
    ['§5.3: members, stranger -> none (404 like a missing resource)', { visibility: 'members', own: null, agentInvited: false }, 'none', false],
    [
      '§5.3: members, invitee -> own_pending (accepts or declines; fetch stays 404)',
      { visibility: 'members', own: own('invited'), agentInvited: false },
      'own_pending',
      false,
    ],
    [
      '§5.3: members, requester -> own_pending (withdraws by reject)',
      { visibility: 'members', own: own('requested'), agentInvited: false },
      'own_pending',
      false,
    ],
    [
      '§5.3: members, owner of an invited agent -> own_pending (answers for the agent)',
      { visibility: 'members', own: null, agentInvited: true },
      'own_pending',
      false,
    ],
  ])('%s', (_, input, access, viewable) => {
    expect(resourceAccess(input)).toBe(access);
    expect(canView(input.visibility, input.own)).toBe(viewable);
  });

  const me = 'usr_me';
  const person = { id: 'usr_other', kind: 'user' as const, ownerId: null };
  const myAgent = { id: 'agt_mine', kind: 'agent' as const, ownerId: me };
  const theirAgent = { id: 'agt_theirs', kind: 'agent' as const, ownerId: 'usr_other' };
  const self = { id: me, kind: 'user' as const, ownerId: null };

  it.each<[string, ResourceAccess, Parameters<typeof canTarget>[2], boolean]>([
    ['view: any target may be named (unknown ones answer user_not_found)', 'view', person, true],
    ['view: an unknown target is left to user_not_found', 'view', null, true],
    ['own_pending: yourself', 'own_pending', self, true],
    ['own_pending: an agent you own', 'own_pending', myAgent, true],
    ['own_pending: another person answers resource_not_found (no roster probing)', 'own_pending', person, false],
    ["own_pending: someone else's agent answers resource_not_found", 'own_pending', theirAgent, false],
    ['own_pending: an unknown target answers resource_not_found too', 'own_pending', null, false],
    ['none: nobody', 'none', self, false],
  ])('%s', (_, access, target, expected) => {
    expect(canTarget(access, me, target)).toBe(expected);
  });
});

describe('docs/api.md §5.3 and §6: who sees the roster and its live feed', () => {
  it.each<[string, StoredVisibility, { state: string } | null, ReturnType<typeof rosterAccess>]>([
    ['an active member of a members resource sees it', 'members', { state: 'active' }, 'roster'],
    ['an active member of a public resource sees it', 'public', { state: 'active' }, 'roster'],
    ['a non-member of a public resource is told it is for members', 'public', null, 'not_member'],
    ['an invitee of a public resource is told it is for members', 'public', { state: 'invited' }, 'not_member'],
    ['an invitee of a members resource sees no resource', 'members', { state: 'invited' }, 'hidden'],
    ['a stranger to a members resource sees no resource', 'members', null, 'hidden'],
  ])('%s', (_, visibility, own, expected) => {
    expect(rosterAccess(visibility, own)).toBe(expected);
  });
});
