/** The pieces of a membership transition that stand alone: who may be named, and the answer's shape. */
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import type { Party } from './membership.rules.js';
import type { StatementScope } from './membership-store.service.js';
import { targetParty, transitionResult } from './membership.service.js';

const actor: Party = { id: 'usr_actor', kind: 'user', ownerId: null, membership: { role: 'writer', state: 'active' } };
const ownAgent: Party = { id: 'agt_own', kind: 'agent', ownerId: 'usr_actor', membership: null };
const stranger: Party = { id: 'usr_other', kind: 'user', ownerId: null, membership: null };

const scopeOf = (access: StatementScope['access'], target: Party | null) =>
  ({ actor, target, access, resource: { id: 'res_1', deploymentId: 'dep_1', type: 'team', visibility: 'members' } }) as StatementScope;

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
  return 'no error';
};

describe('targetParty', () => {
  it('returns the named target a caller who sees the resource may name', () => {
    expect(targetParty(scopeOf('view', stranger), stranger.id)).toBe(stranger);
  });

  it('answers user_not_found for a name that is no principal of the app', () => {
    expect(codeOf(() => targetParty(scopeOf('view', null), 'usr_ghost'))).toBe('user_not_found');
  });

  it('answers resource_not_found, before whether the target exists, to a caller without access', () => {
    expect(codeOf(() => targetParty(scopeOf('none', stranger), stranger.id))).toBe('resource_not_found');
    expect(codeOf(() => targetParty(scopeOf('none', null), 'usr_ghost'))).toBe('resource_not_found');
  });

  it('lets a caller who reaches only its own pending row name itself or an agent it owns', () => {
    expect(targetParty(scopeOf('own_pending', actor), actor.id)).toBe(actor);
    expect(targetParty(scopeOf('own_pending', ownAgent), ownAgent.id)).toBe(ownAgent);
    expect(codeOf(() => targetParty(scopeOf('own_pending', stranger), stranger.id))).toBe('resource_not_found');
  });
});

describe('transitionResult', () => {
  it('carries the outcome, or nulls when the row is gone', () => {
    expect(transitionResult('res_1', { state: 'invited', role: 'writer' })).toEqual({
      ok: true,
      resourceId: 'res_1',
      state: 'invited',
      role: 'writer',
    });
    expect(transitionResult('res_1', null)).toEqual({ ok: true, resourceId: 'res_1', state: null, role: null });
  });
});
