import { describe, expect, it } from 'vitest';
import { isTestUserId, isTestUserOf, personOf, testUserId } from './principals.rules.js';

describe('docs/api.md §3.1, rule 3: test user ids name their app', () => {
  it('composes test:<appId>:<name>', () => {
    expect(testUserId('app_abc', 'alice')).toBe('test:app_abc:alice');
  });

  it.each<[string, string, string, boolean]>([
    ['a test user of the app', 'test:app_a:alice', 'app_a', true],
    ['a test user of another app', 'test:app_b:alice', 'app_a', false],
    ['an app id that is only a prefix of the named one', 'test:app_ab:alice', 'app_a', false],
    ['no name', 'test:app_a:', 'app_a', false],
    ['an extra segment', 'test:app_a:x:y', 'app_a', false],
    ['no app at all', 'test:nobody', 'app_a', false],
  ])('%s', (_, id, appId, expected) => {
    expect(isTestUserOf(id, appId)).toBe(expected);
  });

  it.each<[string, boolean]>([
    ['test:app_a:alice', true],
    ['test:nobody', true],
    ['usr_123', false],
    ['agt_123', false],
  ])('%s is in the test-user namespace: %s', (id, expected) => {
    expect(isTestUserId(id)).toBe(expected);
  });
});

describe('docs/api.md §5.4: the person a principal acts for', () => {
  it.each<[string, Parameters<typeof personOf>[0], string]>([
    ['a person is themselves', { id: 'usr_1', kind: 'user', ownerId: null }, 'usr_1'],
    ['a test user is themselves', { id: 'test:app_a:alice', kind: 'user', ownerId: null }, 'test:app_a:alice'],
    ['an agent is its owner', { id: 'agt_1', kind: 'agent', ownerId: 'usr_1' }, 'usr_1'],
    ["a test user's agent is that test user", { id: 'agt_2', kind: 'agent', ownerId: 'test:app_a:alice' }, 'test:app_a:alice'],
  ])('%s', (_, principal, person) => {
    expect(personOf(principal)).toBe(person);
  });
});
