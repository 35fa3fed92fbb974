/**
 * Metering (docs/api.md §14): every metered operation charges its payer (src/billing/payer.rules.ts) the
 * price-table cost of its usage (src/billing/pricing.rules.ts), in the same transaction as the write it
 * pays for: no charge without the write, no write without the charge. A charge is two guarded
 * statements under row locks, budget first then wallet (one order, so charges never deadlock):
 * the budget's spend for the month rises only while it stays within the limit, the wallet's
 * balance falls only while it stays >= 0. Either refusal is a 402 `payment_required` and the
 * transaction rolls back, so nothing changes. At-rest storage is settled once a day per holder.
 */
import { createHash } from 'node:crypto';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type BudgetKey, type StorageHolder, budgetPeriod, payerOf, storagePayerOf } from './payer.rules.js';
import { type Usage, costMicros } from './pricing.rules.js';
import { z } from 'zod';
import { usdToMicros } from '../config.js';
import { type AppError, fail, parseInput } from '../errors.js';
import { appNotFound, envNameSchema } from '../apps/apps.service.js';
import { Prisma } from '../generated/prisma/client.js';
import { newId } from '../lib/secrets.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { DEVELOPER_CREDIT_KIND, type Holder, type WalletService, appendEntry, microsToUsd } from './wallet.service.js';

export type { Usage, UsageClass } from './pricing.rules.js';

/** A budget's id is derived from its key, so a lazy create needs no lookup. */
export const budgetId = (key: BudgetKey): string =>
  `bud_${createHash('sha256').update(`${key.kind}\0${key.payerId}\0${key.appId}\0${key.key}`).digest('hex').slice(0, 24)}`;

const paymentRequired = (reason: 'wallet' | 'env_budget' | 'app_budget' | 'storage', message: string, details: Record<string, unknown>) =>
  fail('payment_required', message, { reason, ...details });

/** A stored-bytes holder as SQL reads it: the answerable principal (null: the app) and the app's developer. */
interface HolderFacts {
  appDeveloperId: string;
  principalId: string | null;
  principalKind: string | null;
  ownerId: string | null;
}

const storageHolderOf = (row: HolderFacts): StorageHolder => ({
  principal: row.principalId ? { id: row.principalId, kind: row.principalKind === 'agent' ? 'agent' : 'user', ownerId: row.ownerId } : null,
  appDeveloperId: row.appDeveloperId,
});

export function createMeteringService(deps: ServiceDeps, wallet: WalletService) {
  const { config } = deps;
  const prices = config.metering.prices;
  const defaultLimit = (key: BudgetKey) => (key.kind === 'env' ? config.metering.testEnvBudgetMicros : config.metering.appBudgetMicros);

  function shortWallet(holder: Holder, cost: bigint, caller: PrincipalCaller): AppError {
    if (holder.kind === 'developer') {
      return paymentRequired(
        'wallet',
        `The developer wallet paying for this test session is short of $${microsToUsd(cost)}: top it up (gatehouse wallet credit --developer <email> --usd <amount>).`,
        { payer: holder.id, costUsd: microsToUsd(cost) },
      );
    }
    return paymentRequired('wallet', `Your wallet is short of $${microsToUsd(cost)} for this operation in app ${caller.deployment.appId}.`, {
      payer: holder.id,
      costUsd: microsToUsd(cost),
    });
  }

  function shortBudget(key: BudgetKey, cost: bigint, limit: bigint): AppError {
    if (key.kind === 'env') {
      return paymentRequired(
        'env_budget',
        `The ${key.key} environment's monthly budget ($${microsToUsd(limit)}) for app ${key.appId} is spent: raise it (gatehouse budget set --app ${key.appId} --env ${key.key} --usd <amount>) or wait for next month.`,
        { appId: key.appId, env: key.key, limitUsd: microsToUsd(limit), costUsd: microsToUsd(cost) },
      );
    }
    return paymentRequired('app_budget', `This app's monthly budget on your wallet ($${microsToUsd(limit)}) is spent.`, {
      appId: key.appId,
      clientId: key.key,
      limitUsd: microsToUsd(limit),
      costUsd: microsToUsd(cost),
    });
  }

  /**
   * Rows this process has seen committed (a conflicting insert found them): budgets and developer
   * credits are created once and never removed while their payer lives, so a charge skips those
   * inserts after the first. A row this process inserted itself is not cached: its transaction may
   * still roll back.
   */
  const knownBudgets = new Set<string>();
  const creditedDevelopers = new Set<string>();

  /** Creates the budget with its default limit if it is new. */
  async function ensureBudget(tx: Tx, key: BudgetKey): Promise<void> {
    const id = budgetId(key);
    if (knownBudgets.has(id)) return;
    const inserted = await tx.$executeRaw`
      INSERT INTO budgets (id, kind, payer_id, app_id, key, limit_micros) VALUES (${id}, ${key.kind}, ${key.payerId}, ${key.appId}, ${key.key}, ${defaultLimit(key)})
      ON CONFLICT (kind, payer_id, app_id, key) DO NOTHING`;
    if (inserted === 0) knownBudgets.add(id);
  }

  async function chargeIn(tx: Tx, caller: PrincipalCaller, usage: readonly Usage[], operation: string, cost: bigint): Promise<void> {
    const payer = payerOf(caller);
    const now = deps.now();
    if (payer.holder.kind === 'developer' && !creditedDevelopers.has(payer.holder.id)) {
      if (!(await wallet.grantDeveloperCredit(payer.holder.id, tx))) creditedDevelopers.add(payer.holder.id);
    }
    if (payer.budget) {
      await ensureBudget(tx, payer.budget);
      const id = budgetId(payer.budget);
      // One guarded upsert: the month's spend rises only while it stays within the limit.
      const raised = await tx.$executeRaw`
        INSERT INTO budget_spends (budget_id, period, spent_micros)
        SELECT b.id, ${budgetPeriod(now)}, ${cost}::bigint FROM budgets b WHERE b.id = ${id} AND ${cost}::bigint <= b.limit_micros
        ON CONFLICT (budget_id, period) DO UPDATE SET spent_micros = budget_spends.spent_micros + EXCLUDED.spent_micros
        WHERE budget_spends.spent_micros + EXCLUDED.spent_micros <= (SELECT limit_micros FROM budgets WHERE id = ${id})`;
      if (raised !== 1) {
        const [budget] = await tx.$queryRaw<{ limit_micros: bigint }[]>`SELECT limit_micros FROM budgets WHERE id = ${id}`;
        throw shortBudget(payer.budget, cost, budget?.limit_micros ?? defaultLimit(payer.budget));
      }
    }
    const paid = await tx.$executeRaw`
      UPDATE wallets SET balance_micros = balance_micros - ${cost}, updated_at = ${now}
      WHERE holder_id = ${payer.holder.id} AND balance_micros >= ${cost}`;
    if (paid !== 1) throw shortWallet(payer.holder, cost, caller);
    const column = Prisma.raw(payer.holder.kind === 'developer' ? 'developer_id' : 'principal_id');
    const operations = usage.filter(u => u.class === 'reads' || u.class === 'writes').reduce((n, u) => n + BigInt(u.quantity), 0n);
    // The balance moved in the guarded UPDATE above; the entry records it.
    await tx.$executeRaw`
      INSERT INTO wallet_entries (id, ${column}, amount_micros, kind, app_id, env, client_id, actor_id, quantity, created_at)
      VALUES (${newId('wal')}, ${payer.holder.id}, ${-cost}, ${`charge:${operation}`}, ${caller.deployment.appId}, ${caller.deployment.env},
              ${payer.budget?.kind === 'app' ? payer.budget.key : null}, ${caller.principal.id}, ${operations}, ${now})`;
  }

  /**
   * What the holder can spend now: its balance, plus a developer's starting credit while it is
   * still due. One statement reads both, so a first charge committing meanwhile is seen whole or
   * not at all (two reads could see no credit due and, before it, no balance: a spurious 402).
   */
  async function spendableMicros(holder: Holder, db: Tx | null = null): Promise<bigint> {
    const creditKey = holder.kind === 'developer' ? `${DEVELOPER_CREDIT_KIND}:${holder.id}` : null;
    const [row] = await (db ?? deps.prisma).$queryRaw<{ balance: bigint | null; credited: boolean }[]>`
      SELECT (SELECT balance_micros FROM wallets WHERE holder_id = ${holder.id}) AS balance,
             EXISTS (SELECT 1 FROM wallet_entries WHERE once_key = ${creditKey}) AS credited`;
    const due = creditKey !== null && !row.credited ? config.metering.developerCreditMicros : 0n;
    return (row.balance ?? 0n) + due;
  }

  const usdAmount = z
    .union([z.string(), z.number()])
    .transform(v => String(v))
    .pipe(z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a non-negative amount in dollars such as 10 or 2.50 (at most 6 decimals)'));

  async function ownedApp(developerId: string, appId: string) {
    const app = await deps.prisma.app.findUnique({ where: { id: appId }, select: { id: true, name: true, developerId: true } });
    if (!app || app.developerId !== developerId) throw appNotFound(appId);
    return app;
  }

  return {
    /** The operator's top-up of a developer's wallet (`gatehouse wallet credit`; loopback bootstrap route or the database). */
    async creditDeveloper(email: string, usd: unknown): Promise<{ developerId: string; balanceUsd: string }> {
      const amount = usdToMicros(parseInput(usdAmount, usd, 'usd'));
      const developer = await deps.prisma.developer.findUnique({ where: { email }, select: { id: true } });
      if (!developer) throw fail('developer_not_found', `No developer ${email}: create one with gatehouse dev-token create --developer ${email}.`);
      await deps.transaction(async tx => {
        await wallet.grantDeveloperCredit(developer.id, tx);
        await wallet.credit({ kind: 'developer', id: developer.id }, amount, tx);
      });
      return { developerId: developer.id, balanceUsd: microsToUsd(await wallet.balanceMicros(developer.id)) };
    },

    /**
     * The developer's view (`gatehouse budget`, GET /dev/budgets): their wallet, and per app each
     * test environment's budget and this month's spend, and what signed-in users spent there by
     * OAuth client this month.
     */
    async budgets(developerId: string, appId?: string | null) {
      if (appId) await ownedApp(developerId, appId);
      const period = budgetPeriod(deps.now());
      const monthStart = new Date(`${period}-01T00:00:00.000Z`);
      const apps = await deps.prisma.app.findMany({
        where: { developerId, ...(appId ? { id: appId } : {}) },
        select: { id: true, name: true, deployments: { select: { env: true } } },
        orderBy: { createdAt: 'asc' },
      });
      const ids = apps.map(a => a.id);
      const budgets = await deps.prisma.budget.findMany({
        where: { kind: 'env', payerId: developerId, appId: { in: ids } },
        include: { spends: { where: { period } } },
      });
      const users = await deps.prisma.walletEntry.groupBy({
        by: ['appId', 'clientId'],
        where: { appId: { in: ids }, principalId: { not: null }, kind: { startsWith: 'charge:' }, createdAt: { gte: monthStart } },
        _sum: { amountMicros: true },
      });
      await wallet.grantDeveloperCredit(developerId);
      return {
        period,
        walletUsd: microsToUsd(await wallet.balanceMicros(developerId)),
        apps: apps.map(app => {
          const envs = new Set([
            ...app.deployments.map(d => d.env).filter(env => env !== 'prod'),
            ...budgets.filter(b => b.appId === app.id).map(b => b.key),
          ]);
          return {
            appId: app.id,
            name: app.name,
            envs: [...envs].sort().map(env => {
              const budget = budgets.find(b => b.appId === app.id && b.key === env);
              return {
                env,
                limitUsd: microsToUsd(budget?.limitMicros ?? config.metering.testEnvBudgetMicros),
                spentUsd: microsToUsd(budget?.spends[0]?.spentMicros ?? 0n),
              };
            }),
            users: users.filter(u => u.appId === app.id).map(u => ({ clientId: u.clientId, spentUsd: microsToUsd(-(u._sum.amountMicros ?? 0n)) })),
          };
        }),
      };
    },

    /** Sets a test environment's monthly budget (PUT /dev/apps/:appId/budgets/:env, `gatehouse budget set`). */
    async setEnvBudget(developerId: string, appId: string, env: string, usd: unknown) {
      await ownedApp(developerId, appId);
      env = parseInput(envNameSchema, env, 'env');
      if (env === 'prod') throw fail('prod_not_allowed', 'prod has no test budget: test sessions never run there.');
      const limit = usdToMicros(parseInput(usdAmount, usd, 'usd'));
      const key: BudgetKey = { kind: 'env', payerId: developerId, appId, key: env };
      await deps.prisma.budget.upsert({
        where: { kind_payerId_appId_key: { kind: 'env', payerId: developerId, appId, key: env } },
        create: { id: budgetId(key), kind: 'env', payerId: developerId, appId, key: env, limitMicros: limit },
        update: { limitMicros: limit, updatedAt: deps.now() },
      });
      return { appId, env, limitUsd: microsToUsd(limit) };
    },

    /**
     * Charges the caller's payer for one call's usage. With `db` (the write's transaction) inside
     * it, as its last statements; with null in a transaction of its own (reads). 402
     * `payment_required` when the wallet or the budget is short; then nothing changes.
     */
    async charge(db: Tx | null, caller: PrincipalCaller, usage: readonly Usage[], operation: string): Promise<void> {
      if (!config.metering.enabled) return;
      const cost = costMicros(prices, usage);
      if (cost === 0n) return;
      if (db) await chargeIn(db, caller, usage, operation, cost);
      else await deps.transaction(tx => chargeIn(tx, caller, usage, operation, cost));
    },

    /** The 402 `charge` would answer now, without charging: checked before streaming a large upload. */
    async assertAffordable(caller: PrincipalCaller, usage: readonly Usage[]): Promise<void> {
      if (!config.metering.enabled) return;
      const cost = costMicros(prices, usage);
      if (cost === 0n) return;
      const payer = payerOf(caller);
      if (payer.budget) {
        const [row] = await deps.prisma.$queryRaw<{ limit_micros: bigint; spent: bigint | null }[]>`
          SELECT b.limit_micros, s.spent_micros AS spent FROM budgets b
          LEFT JOIN budget_spends s ON s.budget_id = b.id AND s.period = ${budgetPeriod(deps.now())} WHERE b.id = ${budgetId(payer.budget)}`;
        const limit = row?.limit_micros ?? defaultLimit(payer.budget);
        if ((row?.spent ?? 0n) + cost > limit) throw shortBudget(payer.budget, cost, limit);
      }
      if ((await spendableMicros(payer.holder)) < cost) throw shortWallet(payer.holder, cost, caller);
    },

    /**
     * 402 `payment_required` (reason `storage`) when the wallet that pays for `resourceId`'s bytes
     * at rest (its owner's, storagePayerOf) cannot cover one day of `bytes` more, or is in debt: a
     * file upload checks it before it reads the body and again in its transaction, a row write that
     * adds to the resource in its transaction. Nothing is charged here; the daily settlement charges
     * what is held.
     */
    async assertStorageCovered(db: Tx | null, caller: PrincipalCaller, resourceId: string, bytes: number): Promise<void> {
      if (!config.metering.enabled) return;
      const cost = costMicros(prices, [{ class: 'storage', quantity: bytes }]);
      const [facts] = await (db ?? deps.prisma).$queryRaw<HolderFacts[]>`
        SELECT a.developer_id AS "appDeveloperId", p.id AS "principalId", p.kind::text AS "principalKind", p.owner_id AS "ownerId"
        FROM resources r JOIN deployments d ON d.id = r.deployment_id JOIN apps a ON a.id = d.app_id
        LEFT JOIN principals p ON p.id = r.owner_principal
        WHERE r.id = ${resourceId}`;
      if (!facts) return;
      const payer = storagePayerOf(storageHolderOf(facts));
      if ((await spendableMicros(payer, db)) >= cost) return;
      const own = payer.id === payerOf(caller).holder.id;
      throw paymentRequired(
        'storage',
        own
          ? `Your wallet pays for this resource's data at rest and is short of $${microsToUsd(cost)} for a day of it: top it up, or delete files or rows, to store more.`
          : "This resource's data at rest is paid for by its owner's wallet, which cannot cover more: the owner tops it up, or deletes files or rows, before more can be stored.",
        { resourceId, costUsd: microsToUsd(cost) },
      );
    },

    /**
     * At-rest cost for one day (`now`'s UTC date), once per payer and app environment per day (the
     * ledger's once key). Every stored byte has one payer (storagePayerOf): a resource's bytes (its
     * files, its rows, retain copies) its owner's, a user's own files that user's, an app-owned
     * resource's the app's developer. At-rest cost accrues whatever the balance: the next metered
     * operation of an empty wallet is refused, and so is an upload into a resource it pays for.
     */
    async settleStorage(now: Date = deps.now()): Promise<{ holders: number; chargedMicros: bigint }> {
      if (!config.metering.enabled) return { holders: 0, chargedMicros: 0n };
      const day = now.toISOString().slice(0, 10);
      const held = await deps.prisma.$queryRaw<(HolderFacts & { deploymentId: string; appId: string; env: string; bytes: bigint })[]>`
        WITH stored AS (
          SELECT deployment_id, resource_id, CASE WHEN resource_id IS NULL THEN creator_id END AS creator_id, size AS bytes FROM files
          UNION ALL SELECT deployment_id, resource_id, NULL, octet_length(data::text)::bigint FROM rows WHERE resource_id IS NOT NULL
        ), held AS (
          SELECT deployment_id, resource_id, creator_id, SUM(bytes)::bigint AS bytes FROM stored
          WHERE resource_id IS NOT NULL OR creator_id IS NOT NULL GROUP BY deployment_id, resource_id, creator_id
        )
        SELECT h.deployment_id AS "deploymentId", d.app_id AS "appId", d.env, a.developer_id AS "appDeveloperId",
               p.id AS "principalId", p.kind::text AS "principalKind", p.owner_id AS "ownerId", h.bytes
        FROM held h JOIN deployments d ON d.id = h.deployment_id JOIN apps a ON a.id = d.app_id
        LEFT JOIN resources r ON r.id = h.resource_id
        LEFT JOIN principals p ON p.id = COALESCE(r.owner_principal, h.creator_id)`;
      const bills = new Map<string, { holder: ReturnType<typeof storagePayerOf>; appId: string; env: string; deploymentId: string; bytes: bigint }>();
      for (const row of held) {
        const holder = storagePayerOf(storageHolderOf(row));
        const key = `${holder.id}:${row.deploymentId}`;
        const bill = bills.get(key) ?? { holder, appId: row.appId, env: row.env, deploymentId: row.deploymentId, bytes: 0n };
        bill.bytes += BigInt(row.bytes);
        bills.set(key, bill);
      }
      let holders = 0;
      let charged = 0n;
      for (const { holder, appId, env, deploymentId, bytes } of bills.values()) {
        const cost = costMicros(prices, [{ class: 'storage', quantity: bytes }]);
        if (cost === 0n) continue;
        const facts = { kind: 'storage', onceKey: `storage:${holder.id}:${deploymentId}:${day}`, appId, env, quantity: bytes };
        const inserted = await deps.transaction(tx => appendEntry(tx, holder, -cost, facts, now));
        if (inserted) {
          holders++;
          charged += cost;
        }
      }
      return { holders, chargedMicros: charged };
    },
  };
}

export type MeteringService = ReturnType<typeof createMeteringService>;
