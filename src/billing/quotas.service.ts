/**
 * Quotas per person and app (docs/api.md §9.6): the resources a person owns in one app (theirs and
 * their agents'), and the agents they own there. Creates are otherwise free (not metered), so one
 * caller could make thousands a minute. The check runs in the create's own transaction under a
 * transaction-scoped advisory lock per (quota, person, app), so racing creates end as some serial
 * order would: never past the quota. The lock is an advisory one, not a row lock on the person,
 * so the person's other writes (which take key-share locks on their principal row) never wait on it.
 */
import type { QuotaConfig } from '../config.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { personOf } from '../core/principals.rules.js';
import { type AppError, fail } from '../errors.js';
import type { SqlTx } from '../core/deps.js';

export type Quota = 'resources' | 'agents';

/**
 * How many of `quota` the person holds in the app, counted with their agents, up to `limit` (the
 * count stops there: a check costs at most the quota, whatever someone holds past it).
 */
async function held(tx: SqlTx, quota: Quota, person: string, appId: string, limit: number): Promise<number> {
  const [row] =
    quota === 'resources'
      ? await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM (
            SELECT 1 FROM memberships m
            JOIN resources r ON r.id = m.resource_id
            JOIN deployments d ON d.id = r.deployment_id
            WHERE m.principal_id IN (SELECT id FROM principals WHERE id = ${person} OR owner_id = ${person})
              AND m.state = 'active' AND m.role = 'owner' AND d.app_id = ${appId}
            LIMIT ${limit}) owned`
      : // An agent belongs to the apps its tokens were minted for (findPrincipalInApp).
        await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM (
            SELECT 1 FROM principals a
            WHERE a.owner_id = ${person} AND a.kind = 'agent'
              AND EXISTS (SELECT 1 FROM api_tokens t JOIN deployments d ON d.id = t.deployment_id WHERE t.principal_id = a.id AND d.app_id = ${appId})
            LIMIT ${limit}) owned`;
  return row.n;
}

function exceeded(quota: Quota, limit: number): AppError {
  const message =
    quota === 'resources'
      ? `You own ${limit} resources in this app, the most one person may (with their agents): delete one you no longer need, or ask the operator to raise MAX_RESOURCES_PER_PERSON.`
      : `You own ${limit} agents in this app, the most one person may: delete one you no longer need (DELETE /v1/agents/:id), or ask the operator to raise MAX_AGENTS_PER_PERSON.`;
  return fail(quota === 'resources' ? 'too_many_resources' : 'too_many_agents', message, { limit });
}

/**
 * Takes the caller's person's place in `quota` for the rest of `tx`: 429 `too_many_resources` /
 * `too_many_agents` when they already hold the limit. Call it before the insert it guards, in the
 * same transaction.
 */
export async function reserveQuota(tx: SqlTx, quotas: QuotaConfig, quota: Quota, caller: PrincipalCaller): Promise<void> {
  const person = personOf(caller.principal);
  const appId = caller.deployment.appId;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`quota:${quota}:${appId}:${person}`}, 0))`;
  const limit = quota === 'resources' ? quotas.resourcesPerPerson : quotas.agentsPerPerson;
  if ((await held(tx, quota, person, appId, limit)) >= limit) throw exceeded(quota, limit);
}
