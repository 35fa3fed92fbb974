import { describe, expect, it } from 'vitest';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type StorageHolder, budgetPeriod, payerOf, storagePayerOf } from './payer.rules.js';

const deployment = { id: 'dep_1', appId: 'app_1', env: 'dev' };
const caller = (over: Partial<PrincipalCaller> & { principal?: PrincipalCaller['principal'] }): PrincipalCaller => ({
  type: 'principal',
  principal: { id: 'usr_1', kind: 'user', ownerId: null },
  deployment,
  credential: 'provider',
  payer: null,
  ...over,
});

/** Spec 5.2 and 5.4 as a table: who pays, and which budget holds it. */
describe('payerOf', () => {
  it.each<[string, PrincipalCaller, ReturnType<typeof payerOf>]>([
    [
      'a test session: the minting developer, within the env budget',
      caller({ principal: { id: 'test:app_1:alice', kind: 'user', ownerId: null }, credential: 'test_session', payer: 'dev_9' }),
      { holder: { kind: 'developer', id: 'dev_9' }, budget: { kind: 'env', payerId: 'dev_9', appId: 'app_1', key: 'dev' } },
    ],
    [
      'a provider token whose client is known: the person, within the app budget',
      caller({ clientId: 'client_a' }),
      { holder: { kind: 'principal', id: 'usr_1' }, budget: { kind: 'app', payerId: 'usr_1', appId: 'app_1', key: 'client_a' } },
    ],
    [
      'a session cookie whose client is known: the same',
      caller({ credential: 'session', clientId: 'client_a' }),
      { holder: { kind: 'principal', id: 'usr_1' }, budget: { kind: 'app', payerId: 'usr_1', appId: 'app_1', key: 'client_a' } },
    ],
    ['userinfo (no client id): the person, no budget', caller({ clientId: null }), { holder: { kind: 'principal', id: 'usr_1' }, budget: null }],
    [
      "an agent a session made: its owner's wallet, within that session's app budget",
      caller({ principal: { id: 'agt_1', kind: 'agent', ownerId: 'usr_1' }, credential: 'agent', clientId: 'client_a' }),
      { holder: { kind: 'principal', id: 'usr_1' }, budget: { kind: 'app', payerId: 'usr_1', appId: 'app_1', key: 'client_a' } },
    ],
    [
      "an agent made where no client was known: its owner's wallet, no budget",
      caller({ principal: { id: 'agt_1', kind: 'agent', ownerId: 'usr_1' }, credential: 'agent' }),
      { holder: { kind: 'principal', id: 'usr_1' }, budget: null },
    ],
    [
      "a test user's agent: the test user's developer, within the env budget",
      caller({ principal: { id: 'agt_2', kind: 'agent', ownerId: 'test:app_1:alice' }, credential: 'agent', payer: 'dev_9' }),
      { holder: { kind: 'developer', id: 'dev_9' }, budget: { kind: 'env', payerId: 'dev_9', appId: 'app_1', key: 'dev' } },
    ],
  ])('%s', (_what, who, expected) => {
    expect(payerOf(who)).toEqual(expected);
  });

  it('budget periods are UTC months', () => {
    expect(budgetPeriod(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(budgetPeriod(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
    // Remembered month by month, in either direction.
    expect(budgetPeriod(new Date('2026-11-01T00:00:00Z'))).toBe('2026-11');
    expect(budgetPeriod(new Date('2026-10-31T23:59:59.999Z'))).toBe('2026-10');
    expect(() => budgetPeriod(new Date(Number.NaN))).toThrow(RangeError);
  });
});

/** docs/api.md §14.2 at rest, as a table: whose wallet pays for stored bytes. */
describe('storagePayerOf', () => {
  it.each<[string, StorageHolder, ReturnType<typeof storagePayerOf>]>([
    [
      "a person's resource, or their own files: the person",
      { principal: { id: 'usr_1', kind: 'user', ownerId: null }, appDeveloperId: 'dev_9' },
      { kind: 'principal', id: 'usr_1' },
    ],
    [
      "a test user's resource: the app's developer, who mints test users",
      { principal: { id: 'test:app_1:alice', kind: 'user', ownerId: null }, appDeveloperId: 'dev_9' },
      { kind: 'developer', id: 'dev_9' },
    ],
    [
      "an agent's resource: the agent's owner",
      { principal: { id: 'agt_1', kind: 'agent', ownerId: 'usr_1' }, appDeveloperId: 'dev_9' },
      { kind: 'principal', id: 'usr_1' },
    ],
    [
      "a test user's agent's resource or files: the app's developer, as for the test user",
      { principal: { id: 'agt_2', kind: 'agent', ownerId: 'test:app_1:alice' }, appDeveloperId: 'dev_9' },
      { kind: 'developer', id: 'dev_9' },
    ],
    ['a resource the app owns (_app, static): the developer', { principal: null, appDeveloperId: 'dev_9' }, { kind: 'developer', id: 'dev_9' }],
  ])('%s', (_what, holder, expected) => {
    expect(storagePayerOf(holder)).toEqual(expected);
  });
});
