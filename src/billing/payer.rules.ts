/**
 * Who pays for a caller's metered operations, and which budget holds them (docs/api.md §14,
 * spec 5.2 and 5.4). Pure: the metering service asks it once per charge.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { isTestUserId, personOf } from '../core/principals.rules.js';

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

/**
 * Who answers for bytes at rest (docs/api.md §14.2): a resource's owner for what the resource
 * holds (its bucket's files, its rows, `retain` copies), the creator for a user's own files; null
 * for a resource the app itself owns (`_app`, static resources).
 */
export interface StorageHolder {
  principal: { id: string; kind: 'user' | 'agent'; ownerId: string | null } | null;
  /** The developer of the app the bytes belong to. */
  appDeveloperId: string;
}

/**
 * The wallet that pays for bytes at rest: the holder's own payer, as their calls would be paid
 * (a test user's: the app's developer, who minted them; an agent's: its owner), and the app's
 * developer for what the app itself owns. A resource has no wallet of its own: nothing would fund
 * it, so its owner pays, and uploads into it are refused while that wallet cannot.
 */
export function storagePayerOf({ principal, appDeveloperId }: StorageHolder): Payer['holder'] {
  if (principal === null) return { kind: 'developer', id: appDeveloperId };
  // An agent's bytes are its owner's; a test user's (and its agents') the developer's who minted them.
  const person = personOf(principal);
  return isTestUserId(person) ? { kind: 'developer', id: appDeveloperId } : { kind: 'principal', id: person };
}

/** The month budgetPeriod last answered, as [from, to) in ms: every metered call asks it. */
let lastMonth = { from: 0, to: 0, period: '' };

/** The UTC calendar month a budget's spending counts in. */
export function budgetPeriod(now: Date): string {
  const time = now.getTime();
  // Written so that an invalid date (NaN) recomputes, and throws as toISOString does.
  if (!(time >= lastMonth.from && time < lastMonth.to)) {
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth()];
    lastMonth = { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1), period: now.toISOString().slice(0, 7) };
  }
  return lastMonth.period;
}
