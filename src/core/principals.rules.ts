/**
 * Which app a principal belongs to, as far as its id tells (docs/api.md §3.1, rule 3): test users are
 * `test:<appId>:<name>`, composed server-side, so the id alone names their app. Agents and
 * people carry no app in their id; the service decides those from stored facts. And the person a
 * principal acts for, which caps, quotas and payers count by.
 */
import type { PrincipalKind } from '../membership/membership.rules.js';

export const TEST_USER_PREFIX = 'test:';

export const testUserId = (appId: string, name: string) => `${TEST_USER_PREFIX}${appId}:${name}`;

/** Ids in the test-user namespace; provider subjects can never take one (see assertPersonSubject). */
export const isTestUserId = (id: string) => id.startsWith(TEST_USER_PREFIX);

/** Whether a principal id of the test-user namespace is a test user of `appId`. */
export function isTestUserOf(id: string, appId: string): boolean {
  const prefix = `${TEST_USER_PREFIX}${appId}:`;
  return id.startsWith(prefix) && id.length > prefix.length && !id.slice(prefix.length).includes(':');
}

/**
 * The person a principal acts for: an agent's owner, anyone else themselves. Live-feed caps,
 * quotas and wallets count per person, so creating agents multiplies none of them (docs/api.md §5.4).
 */
export function personOf(principal: { id: string; kind: PrincipalKind; ownerId: string | null }): string {
  return principal.kind === 'agent' && principal.ownerId ? principal.ownerId : principal.id;
}
