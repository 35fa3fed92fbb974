/** Developers, agents and blocks between users. */
import { z } from 'zod';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { PrincipalKind } from '../membership/membership.rules.js';
import { isTestUserId, isTestUserOf } from '../core/principals.rules.js';
import { fail, parseInput } from '../errors.js';
import { newId } from '../lib/secrets.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { reserveQuota } from '../billing/quotas.service.js';
import { prepare, sqlOf } from '../db/sql.js';
import type { TokenService } from '../gateway-auth/tokens.service.js';
import { BOUNDED_LIST_TAKE, boundedList } from '../core/pages.js';

export const emailSchema = z.string().trim().toLowerCase().email('must be an email address');
export const agentNameSchema = z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');

export interface AppPrincipal {
  id: string;
  kind: PrincipalKind;
  ownerId: string | null;
}

/** What every route answers for a principal that is unknown, or of another app (the two look the same). */
export const userNotFound = (id: string) => fail('user_not_found', `No user or agent ${id} in this app.`);

/**
 * A principal as seen from `appId`, or null when it does not exist or belongs to another app (the
 * two look the same). Test users belong to the app their id names; an agent to the apps its
 * tokens were minted for (an agent of another app could never act here). People are platform
 * identities: one person signs in to many apps and can be invited into an app before first
 * using it (docs/api.md §4.2, cross-app invitations on `/v1/me/invitations`); their ids are random.
 */
export async function findPrincipalInApp(tx: Tx, id: string, appId: string): Promise<AppPrincipal | null> {
  if (isTestUserId(id)) {
    if (!isTestUserOf(id, appId)) return null;
    return tx.principal.findUnique({ where: { id }, select: { id: true, kind: true, ownerId: true } });
  }
  return tx.principal.findFirst({
    where: { id, OR: [{ kind: 'user' }, { kind: 'agent', tokens: { some: { deployment: { appId } } } }] },
    select: { id: true, kind: true, ownerId: true },
  });
}

/** A principal's own columns, named as Prisma's `Principal` model names them (Pothos' `Principal` type resolves from it). */
const principalById = prepare(1, (db, id: string) =>
  db
    .selectFrom('principals')
    .select([
      'id',
      'kind',
      'owner_id as ownerId',
      'name',
      'handle',
      'display_name as displayName',
      'handle_issued as handleIssued',
      'onboarded_at as onboardedAt',
      'created_at as createdAt',
    ])
    .where('id', '=', id),
);

/**
 * The principal `id` without its relations, or null when there is none: one prepared statement
 * (`me { id }` is the cheapest authenticated query, so it should cost one statement, not an ORM read).
 */
export async function principalRow(deps: Pick<ServiceDeps, 'sql'>, id: string) {
  const [row] = await principalById(deps.sql, id);
  return row ?? null;
}

/** What the principal operations use: the database, the quotas and token minting. */
export type PrincipalDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'config'> & { tokens: Pick<TokenService, 'mint'> };

/** The user `id` of the caller's app; 404 user_not_found for one unknown there, 400 for an agent. */
async function requireUser(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller, id: string, what: string) {
  const principal = await findPrincipalInApp(deps.prisma, id, caller.deployment.appId);
  if (!principal) throw userNotFound(id);
  if (principal.kind !== 'user') throw fail('invalid_argument', `${what} must be a user, not an agent.`);
  return principal;
}

/** Bootstrap: creates the developer if needed and mints a developer token (shown once). */
export async function createDeveloperToken(deps: Pick<PrincipalDeps, 'prisma' | 'tokens'>, email: string) {
  const address = parseInput(emailSchema, email);
  const developer = await deps.prisma.developer.upsert({
    where: { email: address },
    create: { id: newId('dev'), email: address },
    update: {},
  });
  const { token } = await deps.tokens.mint({ kind: 'developer', developerId: developer.id });
  return { developerId: developer.id, email: developer.email, token };
}

/**
 * An agent acts for its owner within the owner's app deployment, with its own token, and
 * spends as the credential that made it: a test user's agent through the minting developer
 * within the environment budget, a session's agent within that app's budget (its OAuth client).
 * At most MAX_AGENTS_PER_PERSON per person and app (429 `too_many_agents`).
 */
export async function createAgent(deps: Pick<PrincipalDeps, 'transaction' | 'config' | 'tokens'>, caller: PrincipalCaller, name: string) {
  if (caller.principal.kind !== 'user') throw fail('agents_cannot_create_agents', 'Only a person can create an agent.');
  const agentName = parseInput(agentNameSchema, name);
  const id = newId('agt');
  const token = await deps.transaction(async tx => {
    await reserveQuota(sqlOf(tx), deps.config.quotas, 'agents', caller);
    await tx.principal.create({ data: { id, kind: 'agent', ownerId: caller.principal.id, name: agentName, displayName: agentName } });
    // In the same transaction: an agent counts in its app from its token on (the quota's count).
    const minted = await deps.tokens.mint(
      { kind: 'agent', principalId: id, deploymentId: caller.deployment.id, developerId: caller.payer, clientId: caller.clientId },
      tx,
    );
    return minted.token;
  });
  return { id, name: agentName, ownerId: caller.principal.id, token };
}

/** The caller's own agents in this app, oldest first (at most MAX_AGENTS_PER_PERSON). */
export async function agents(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller) {
  const rows = await deps.prisma.principal.findMany({
    where: { ownerId: caller.principal.id, kind: 'agent', tokens: { some: { deployment: { appId: caller.deployment.appId } } } },
    select: { id: true, name: true, createdAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: BOUNDED_LIST_TAKE,
  });
  return boundedList(rows, 'agents', 'delete agents you no longer need.').map(a => ({ id: a.id, name: a.name ?? '', createdAt: a.createdAt }));
}

export async function block(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller, userId: string) {
  if (caller.principal.kind !== 'user') throw fail('agents_cannot_block', 'Only a person can block users.');
  if (userId === caller.principal.id) throw fail('invalid_argument', 'userId: you cannot block yourself.');
  await requireUser(deps, caller, userId, 'userId');
  await deps.prisma.block.upsert({
    where: { blockerId_blockedId: { blockerId: caller.principal.id, blockedId: userId } },
    create: { blockerId: caller.principal.id, blockedId: userId },
    update: {},
  });
  return { ok: true as const, userId };
}

export async function unblock(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller, userId: string) {
  await deps.prisma.block.deleteMany({ where: { blockerId: caller.principal.id, blockedId: userId } });
  return { ok: true as const, userId };
}

export async function blocks(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller) {
  const rows = await deps.prisma.block.findMany({
    where: { blockerId: caller.principal.id },
    orderBy: { createdAt: 'asc' },
    take: BOUNDED_LIST_TAKE,
  });
  return boundedList(rows, 'blocks', 'unblock users you no longer need to block.').map(r => ({ userId: r.blockedId, createdAt: r.createdAt }));
}

/** What `services.principals` offers; src/services.ts binds each to the server's dependencies. */
export const principalOperations = { principalRow, createDeveloperToken, createAgent, agents, block, unblock, blocks };

export type PrincipalService = Bound<typeof principalOperations>;
