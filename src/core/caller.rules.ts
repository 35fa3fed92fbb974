/**
 * Who is calling. Every credential (developer, test-session, agent token; later provider
 * tokens and session cookies) resolves to one of these, so routes never care which it was.
 */
import type { PrincipalKind } from '../membership/membership.rules.js';
import { AUTHENTICATION_REQUIRED, fail } from '../errors.js';

export interface DeploymentRef {
  id: string;
  appId: string;
  env: string;
}

export interface PrincipalCaller {
  type: 'principal';
  principal: { id: string; kind: PrincipalKind; ownerId: string | null };
  deployment: DeploymentRef;
  credential: 'test_session' | 'agent' | 'session' | 'provider';
  /** Who is billed when it is a developer: the minting developer for test users and their agents. */
  payer: string | null;
  /**
   * The OAuth client the credential was issued to, when the gateway could learn it (introspection
   * or a verified JWT), or, for an agent, the one of the session that created it: per-app budgets
   * key on it (docs/api.md §14). null/absent with userinfo.
   */
  clientId?: string | null;
  /** When the credential stops working (ms since epoch); live feeds end then. */
  expiresAt?: number | null;
}

export interface DeveloperCaller {
  type: 'developer';
  developerId: string;
}

export type Caller = PrincipalCaller | DeveloperCaller;

export function requirePrincipal(caller: Caller | null): PrincipalCaller {
  if (!caller) throw fail('unauthenticated', AUTHENTICATION_REQUIRED);
  if (caller.type !== 'principal') {
    throw fail('wrong_credential', 'This route acts as a user of an app: use a session, test-session or agent token, not a developer token.');
  }
  return caller;
}

export function requireDeveloper(caller: Caller | null): DeveloperCaller {
  if (!caller) throw fail('unauthenticated', 'A developer token is required: Authorization: Bearer <developer token>.');
  if (caller.type !== 'developer') throw fail('wrong_credential', 'This route needs a developer token.');
  return caller;
}
