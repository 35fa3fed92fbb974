/**
 * Who pays for a caller's metered operations, and which budget holds them (docs/api.md §14,
 * spec 5.2 and 5.4). Pure: the metering service asks it once per charge.
 */
import type { PrincipalCaller } from './caller.js';
import { personOf } from './principals.js';

export interface BudgetKey {
  /** `env`: a developer's test sessions in one environment; `app`: one app's spending of a person's wallet. */
  kind: 'env' | 'app';
  /** The developer (env) or the person (app) whose wallet pays. */
  payerId: string;
  appId: string;
  /** The environment (env) or the OAuth client_id (app). */
  key: string;
}

export interface Payer {
  holder: { kind: 'principal' | 'developer'; id: string };
  budget: BudgetKey | null;
}

export function payerOf(caller: PrincipalCaller): Payer {
  const appId = caller.deployment.appId;
  // Test users have no wallet: the minting developer pays, within the environment's budget (5.4);
  // so do the agents a test user made (their tokens carry the same payer).
  if (caller.payer) {
    return {
      holder: { kind: 'developer', id: caller.payer },
      budget: { kind: 'env', payerId: caller.payer, appId, key: caller.deployment.env },
    };
  }
  // An agent acts for its owner, who pays, within the app budget of the session that made it (its
  // token carries that OAuth client): an agent never spends past a budget its maker could not.
  const person = personOf(caller.principal);
  const clientId = caller.clientId ?? null;
  return {
    holder: { kind: 'principal', id: person },
    budget: clientId ? { kind: 'app', payerId: person, appId, key: clientId } : null,
  };
}

/** The UTC calendar month a budget's spending counts in. */
export const budgetPeriod = (now: Date): string => now.toISOString().slice(0, 7);
