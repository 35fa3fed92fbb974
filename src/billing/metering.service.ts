/**
 * Metering (docs/api.md §14): every metered operation charges its payer (src/billing/payer.rules.ts) the
 * price-table cost of its usage (src/billing/pricing.rules.ts), in the same transaction as the write it
 * pays for: no charge without the write, no write without the charge. A charge is its ledger entry,
 * paid from a wallet lease (src/billing/wallet-leases.service.ts): money this process reserved
 * from the payer's wallet and budget, so the write does not queue on those rows; the balance and
 * the month's spend move when the lease closes, and never past zero or the limit. A payer who
 * cannot pay is a 402 `payment_required` and the transaction rolls back, so nothing changes.
 * At-rest storage is settled once a day per holder.
 */
import { LRUCache } from 'lru-cache';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type BudgetKey, type StorageHolder, budgetPeriod, payerOf, storagePayerOf } from './payer.rules.js';
import { type Prices, type Usage, costByClass, costMicros } from './pricing.rules.js';
import { z } from 'zod';
import { usdToMicros } from '../config.js';
import { type AppError, fail, parseInput } from '../errors.js';
import { appNotFound, envNameSchema } from '../apps/apps.rules.js';
import { type RawBuilder, type Sql, prepare, sql, sqlOf } from '../db/sql.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { DEVELOPER_CREDIT_KIND, type Holder, appendEntry, balanceMicros, credit, grantDeveloperCredit, microsToUsd } from './wallet.service.js';
import { TEST_USER_PREFIX } from '../core/principals.rules.js';
import { newId, sha256 } from '../lib/secrets.js';
import {
  type ChargeEntry,
  type EntryParams,
  type EntryValues,
  type HeldCharge,
  type Db,
  type LeaseCharge,
  type LeaseDeps,
  type LeasePayer,
  type Shortfall,
  type WalletLeases,
  closeLeases,
  entryInsertSql,
  entryParamsOf,
  entryValues,
  holdFromOpenLease,
  openChargesOf,
  openSpendOf,
  payFromLease,
  payFromOpenLease,
  renewalFor,
  stopSweeping,
  walletLeases,
  ledgerWithOpenCharges,
} from './wallet-leases.service.js';

export type { Usage, UsageClass } from './pricing.rules.js';

/** Budget ids by key: every metered call names its budget, and its digest was the largest part of a charge's own CPU. */
const budgetIds = new LRUCache<string, string>({ max: 10_000 });

/** A budget's id is derived from its key, so a lazy create needs no lookup. */
export function budgetId(key: BudgetKey): string {
  const name = `${key.kind}\0${key.payerId}\0${key.appId}\0${key.key}`;
  let id = budgetIds.get(name);
  if (id === undefined) budgetIds.set(name, (id = `bud_${sha256(name).slice(0, 24)}`));
  return id;
}

type RefusalReason = 'wallet' | 'env_budget' | 'app_budget' | 'storage';

/** 402 refusals made by this process, by reason (read by /metrics; every refusal is thrown). */
export const meteringRefusals: Record<RefusalReason, number> = { wallet: 0, env_budget: 0, app_budget: 0, storage: 0 };

const paymentRequired = (reason: RefusalReason, message: string, details: Record<string, unknown>) => {
  meteringRefusals[reason]++;
  return fail('payment_required', message, { reason, ...details });
};

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

/** The limit a new budget gets. */
const defaultLimit = (config: ServiceDeps['config'], key: BudgetKey) =>
  key.kind === 'env' ? config.metering.testEnvBudgetMicros : config.metering.appBudgetMicros;

/**
 * Rows this process has seen committed (a conflicting insert found them): budgets and developer
 * credits are created once and never removed while their payer lives, so a charge skips those
 * inserts after the first. A row this process inserted itself is not cached: its transaction may
 * still roll back. One per server (`meteringSeen()`).
 */
export interface MeteringSeen {
  budgets: Set<string>;
  creditedDevelopers: Set<string>;
  /** This process's wallet leases. */
  leases: WalletLeases;
}
export const meteringSeen = (): MeteringSeen => ({ budgets: new Set(), creditedDevelopers: new Set(), leases: walletLeases() });

/** What charging uses: the database, the clock, the price table and what this process has seen committed. */
export type ChargeDeps = Pick<ServiceDeps, 'transaction' | 'sqlTransaction' | 'sql' | 'config' | 'now'> & { meteringSeen: MeteringSeen };

const leaseDeps = (deps: Pick<ServiceDeps, 'sqlTransaction' | 'now'> & { meteringSeen: MeteringSeen }): LeaseDeps => ({
  sqlTransaction: deps.sqlTransaction,
  now: deps.now,
  walletLeases: deps.meteringSeen.leases,
});
/** What the checks before a write use: the SQL layer outside transactions, the clock and the price table. */
export type CheckDeps = Pick<ServiceDeps, 'sql' | 'config' | 'now'>;

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

/** Creates the budget with its default limit if it is new. */
async function ensureBudget(deps: Pick<ChargeDeps, 'config' | 'meteringSeen'>, db: Sql, key: BudgetKey): Promise<void> {
  const id = budgetId(key);
  if (deps.meteringSeen.budgets.has(id)) return;
  const inserted = await db
    .insertInto('budgets')
    .values({ id, kind: key.kind, payer_id: key.payerId, app_id: key.appId, key: key.key, limit_micros: defaultLimit(deps.config, key) })
    .onConflict(conflict => conflict.columns(['kind', 'payer_id', 'app_id', 'key']).doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 0n) deps.meteringSeen.budgets.add(id);
}

/** A charge's amount split by class, signed as the entry's amount (storage is settled apart). */
function chargedByClass(prices: Prices, usage: readonly Usage[]) {
  const parts = costByClass(prices, usage);
  return { reads_micros: -parts.reads, writes_micros: -parts.writes, transfer_micros: -parts.transfer };
}

/** The lease payer and ledger entry of one charge. */
function chargeOf(prices: Prices, caller: PrincipalCaller, usage: readonly Usage[], operation: string, cost: bigint, now: Date) {
  const payer = payerOf(caller);
  const operations = usage.filter(u => u.class === 'reads' || u.class === 'writes').reduce((n, u) => n + BigInt(u.quantity), 0n);
  const leasePayer: LeasePayer = {
    holder: payer.holder,
    budget: payer.budget ? { id: budgetId(payer.budget), period: budgetPeriod(now) } : null,
  };
  const entry: ChargeEntry = {
    principal_id: payer.holder.kind === 'principal' ? payer.holder.id : null,
    developer_id: payer.holder.kind === 'developer' ? payer.holder.id : null,
    amount_micros: -cost,
    kind: `charge:${operation}`,
    app_id: caller.deployment.appId,
    env: caller.deployment.env,
    client_id: payer.budget?.kind === 'app' ? payer.budget.key : null,
    actor_id: caller.principal.id,
    quantity: operations,
    created_at: now,
    ...chargedByClass(prices, usage),
  };
  return { payer, charge: { payer: leasePayer, cost, entry } satisfies LeaseCharge };
}

function refusal(caller: PrincipalCaller, cost: bigint, shortfall: Shortfall): AppError {
  const payer = payerOf(caller);
  if (shortfall.reason === 'budget' && payer.budget) return shortBudget(payer.budget, cost, shortfall.limitMicros);
  return shortWallet(payer.holder, cost, caller);
}

async function chargeIn(deps: ChargeDeps, db: Sql, caller: PrincipalCaller, usage: readonly Usage[], operation: string, cost: bigint): Promise<void> {
  const { meteringSeen } = deps;
  const { payer, charge } = chargeOf(deps.config.metering.prices, caller, usage, operation, cost, deps.now());
  if (payer.holder.kind === 'developer' && !meteringSeen.creditedDevelopers.has(payer.holder.id)) {
    if (!(await grantDeveloperCredit(deps, payer.holder.id, db))) meteringSeen.creditedDevelopers.add(payer.holder.id);
  }
  if (payer.budget) await ensureBudget(deps, db, payer.budget);
  const shortfall = await payFromLease(leaseDeps(deps), db, charge);
  if (shortfall) throw refusal(caller, cost, shortfall);
}

/**
 * What a holder can spend now, as a column of a statement: its balance with what its open leases
 * charged, plus a developer's starting credit while it is still due (`creditKey`: its ledger
 * once key; null for a principal). One statement reads them all, so a first charge or a lease
 * closing meanwhile is seen whole or not at all (two reads could see no credit due and, before
 * it, no balance: a spurious 402).
 */
const spendableSql = (creditMicros: bigint, holder: RawBuilder<string | null>, creditKey: RawBuilder<string | null> | null) =>
  sql<bigint>`(COALESCE((SELECT balance_micros FROM wallets WHERE holder_id = ${holder}), 0) + ${openChargesOf(holder)} + ${
    creditKey ? sql`CASE WHEN EXISTS (SELECT 1 FROM wallet_entries WHERE once_key = ${creditKey}) THEN 0 ELSE ${creditMicros}::bigint END` : sql`0`
  })::bigint`;

/** A developer's starting credit's once key in the ledger, as SQL. */
const creditKeyOf = (developerId: RawBuilder<string | null>) => sql<string>`(${`${DEVELOPER_CREDIT_KIND}:`}::text || ${developerId})`;

/** What the holder can spend now (spendableSql). */
async function spendableMicros(deps: Pick<ServiceDeps, 'sql' | 'config'>, holder: Holder): Promise<bigint> {
  const id = sql<string>`${holder.id}::text`;
  const row = await deps.sql
    .selectNoFrom(spendableSql(deps.config.metering.developerCreditMicros, id, holder.kind === 'developer' ? creditKeyOf(id) : null).as('spendable'))
    .executeTakeFirstOrThrow();
  return BigInt(row.spendable);
}

const usdAmount = z
  .union([z.string(), z.number()])
  .transform(v => String(v))
  .pipe(z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a non-negative amount in dollars such as 10 or 2.50 (at most 6 decimals)'));

/** The developer's app, else 404 `app_not_found` (another's app is not disclosed). */
export async function ownedApp(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string) {
  const app = await deps.prisma.app.findUnique({ where: { id: appId }, select: { id: true, name: true, developerId: true } });
  if (!app || app.developerId !== developerId) throw appNotFound(appId);
  return app;
}

/** The operator's top-up of a developer's wallet (`gatehouse wallet credit`; loopback bootstrap route or the database). */
export async function creditDeveloper(
  deps: Pick<ServiceDeps, 'prisma' | 'sql' | 'transaction' | 'config' | 'now'>,
  email: string,
  usd: unknown,
): Promise<{ developerId: string; balanceUsd: string }> {
  const amount = usdToMicros(parseInput(usdAmount, usd, 'usd'));
  const developer = await deps.prisma.developer.findUnique({ where: { email }, select: { id: true } });
  if (!developer) throw fail('developer_not_found', `No developer ${email}: create one with gatehouse dev-token create --developer ${email}.`);
  await deps.transaction(async tx => {
    await grantDeveloperCredit(deps, developer.id, tx);
    await credit(deps, { kind: 'developer', id: developer.id }, amount, tx);
  });
  return { developerId: developer.id, balanceUsd: microsToUsd(await balanceMicros(deps, developer.id)) };
}

/**
 * The developer's view (`gatehouse budget`, GET /dev/budgets): their wallet, and per app each
 * test environment's budget and this month's spend, and what signed-in users spent there by
 * OAuth client this month.
 */
export async function budgets(
  deps: Pick<ServiceDeps, 'prisma' | 'sql' | 'transaction' | 'config' | 'now'>,
  developerId: string,
  appId?: string | null,
) {
  const { config } = deps;
  if (appId) await ownedApp(deps, developerId, appId);
  const period = budgetPeriod(deps.now());
  const monthStart = new Date(`${period}-01T00:00:00.000Z`);
  const apps = await deps.prisma.app.findMany({
    where: { developerId, ...(appId ? { id: appId } : {}) },
    select: { id: true, name: true, deployments: { select: { env: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const ids = apps.map(a => a.id);
  // The month's spend with what open leases have charged, in one statement (one snapshot).
  const budgets =
    ids.length === 0
      ? []
      : await deps.sql
          .selectFrom('budgets as b')
          .leftJoin('budget_spends as s', join => join.onRef('s.budget_id', '=', 'b.id').on('s.period', '=', period))
          .select([
            'b.app_id as appId',
            'b.key',
            'b.limit_micros as limitMicros',
            's.spent_micros as spent',
            openSpendOf(sql.ref('b.id'), period).as('open'),
          ])
          .where('b.kind', '=', 'env')
          .where('b.payer_id', '=', developerId)
          .where('b.app_id', 'in', ids)
          .execute();
  const users =
    ids.length === 0
      ? []
      : await deps.sql
          .selectFrom(ledgerWithOpenCharges(deps.sql, ['app_id', 'client_id', 'principal_id', 'kind', 'created_at', 'amount_micros']))
          .select(['e.app_id as appId', 'e.client_id as clientId', sql<bigint>`COALESCE(-SUM(e.amount_micros), 0)::bigint`.as('spent')])
          .where('e.app_id', 'in', ids)
          .where('e.principal_id', 'is not', null)
          .where('e.kind', 'like', 'charge:%')
          .where('e.created_at', '>=', monthStart)
          .groupBy(['e.app_id', 'e.client_id'])
          .execute();
  await grantDeveloperCredit(deps, developerId);
  return {
    period,
    walletUsd: microsToUsd(await balanceMicros(deps, developerId)),
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
            spentUsd: microsToUsd((budget?.spent ?? 0n) + BigInt(budget?.open ?? 0n)),
          };
        }),
        users: users.filter(u => u.appId === app.id).map(u => ({ clientId: u.clientId, spentUsd: microsToUsd(BigInt(u.spent)) })),
      };
    }),
  };
}

/** Sets a test environment's monthly budget (PUT /dev/apps/:appId/budgets/:env, `gatehouse budget set`). */
export async function setEnvBudget(
  deps: Pick<ServiceDeps, 'prisma' | 'sqlTransaction' | 'now'> & { meteringSeen: MeteringSeen },
  developerId: string,
  appId: string,
  env: string,
  usd: unknown,
) {
  await ownedApp(deps, developerId, appId);
  env = parseInput(envNameSchema, env, 'env');
  if (env === 'prod') throw fail('prod_not_allowed', 'prod has no test budget: test sessions never run there.');
  const limit = usdToMicros(parseInput(usdAmount, usd, 'usd'));
  const key: BudgetKey = { kind: 'env', payerId: developerId, appId, key: env };
  await deps.prisma.budget.upsert({
    where: { kind_payerId_appId_key: { kind: 'env', payerId: developerId, appId, key: env } },
    create: { id: budgetId(key), kind: 'env', payerId: developerId, appId, key: env, limitMicros: limit },
    update: { limitMicros: limit, updatedAt: deps.now() },
  });
  // This process's leases reserved under the old limit: the next charge is granted under the new one.
  // (Another process's take the new limit within a lease's lifetime.)
  await closeLeases(leaseDeps(deps), { holderId: developerId });
  return { appId, env, limitUsd: microsToUsd(limit) };
}

/**
 * Charges the caller's payer for one call's usage. With `db` (the write's transaction: Prisma's
 * or the SQL layer's) inside it, as its last statement; with null in a transaction of its own
 * (reads). 402 `payment_required` when the wallet or the budget is short; then nothing changes.
 */
export async function charge(deps: ChargeDeps, db: Db | null, caller: PrincipalCaller, usage: readonly Usage[], operation: string): Promise<void> {
  const { config } = deps;
  const prices = config.metering.prices;
  if (!config.metering.enabled) return;
  const cost = costMicros(prices, usage);
  if (cost === 0n) return;
  if (db) return chargeIn(deps, sqlOf(db), caller, usage, operation, cost);
  // A read: its entry alone, outside a transaction, while this process holds a lease that pays it.
  const { charge: leaseCharge } = chargeOf(prices, caller, usage, operation, cost, deps.now());
  const paid = await payFromOpenLease(leaseDeps(deps), deps.sql, leaseCharge);
  if (paid === 'no_lease') await deps.sqlTransaction(tx => chargeIn(deps, tx, caller, usage, operation, cost));
  else if (paid) throw refusal(caller, cost, paid);
}

/** A write's charge held for its own statement to record (holdCharge): the entry's values and the lease hold. */
export interface WriteCharge {
  entry: EntryValues;
  held: HeldCharge;
}

/** The lease charge a one-statement write would hold: 'unmetered' when metering is off; null when it must take the transaction path. */
function heldChargeOf(deps: ChargeDeps, caller: PrincipalCaller, usage: readonly Usage[], operation: string): LeaseCharge | 'unmetered' | null {
  const { config, meteringSeen } = deps;
  if (!config.metering.enabled) return 'unmetered';
  const cost = costMicros(config.metering.prices, usage);
  if (cost === 0n) return null;
  const { payer, charge } = chargeOf(config.metering.prices, caller, usage, operation, cost, deps.now());
  if (payer.holder.kind === 'developer' && !meteringSeen.creditedDevelopers.has(payer.holder.id)) return null;
  if (charge.payer.budget && !meteringSeen.budgets.has(charge.payer.budget.id)) return null;
  return charge;
}

function holdFrom(leases: WalletLeases, charge: LeaseCharge): WriteCharge | null {
  const held = holdFromOpenLease(leases, charge.payer, charge.cost);
  return held && { entry: entryValues(newId('wal'), held.leaseId, charge.entry), held };
}

/**
 * The charge for `usage`, held from this process's open lease for a write that records it in its
 * own statement (entryInsertSql); 'unmetered' when metering is off; null when it cannot be held
 * so (no lease with enough left, a budget or starting credit this process has not seen committed,
 * a free operation whose storage check still applies): the write then takes the transaction path.
 */
export function holdCharge(deps: ChargeDeps, caller: PrincipalCaller, usage: readonly Usage[], operation: string): WriteCharge | 'unmetered' | null {
  const charge = heldChargeOf(deps, caller, usage, operation);
  return charge === null || charge === 'unmetered' ? charge : holdFrom(deps.meteringSeen.leases, charge);
}

/**
 * holdCharge for a write that holds no connection yet: when the payer's lease is spent and its
 * successor is being granted, it waits for that (never inside a transaction: the renewal needs a
 * connection of its own, and a pool of waiting transactions would starve it).
 */
export async function holdChargeSoon(
  deps: ChargeDeps,
  caller: PrincipalCaller,
  usage: readonly Usage[],
  operation: string,
): Promise<WriteCharge | 'unmetered' | null> {
  const charge = heldChargeOf(deps, caller, usage, operation);
  if (charge === null || charge === 'unmetered') return charge;
  const leases = deps.meteringSeen.leases;
  const held = holdFrom(leases, charge);
  if (held) return held;
  const renewal = renewalFor(leases, charge.payer);
  if (!renewal) return null;
  await renewal;
  return holdFrom(leases, charge);
}

/**
 * The wallet that pays for `resourceId`'s bytes at rest, as SQL (storagePayerOf): the app's
 * developer for an app-owned resource or a test user's, else the owner (an agent's owner); with
 * whether that is the developer, and the resource's owner it follows from (the app's developer, an
 * agent's owner and a principal's kind never change, so the owner alone decides the payer).
 */
const storagePayerSql = (resourceId: unknown) => sql<{ holder: string; developer: boolean; owner: string | null }>`
  SELECT CASE WHEN f.developer THEN f.developer_id ELSE f.person END AS holder, f.developer, f.owner
  FROM (SELECT a.developer_id, q.person, r.owner_principal AS owner, (q.person IS NULL OR starts_with(q.person, ${TEST_USER_PREFIX}::text)) AS developer
    FROM resources r JOIN deployments d ON d.id = r.deployment_id JOIN apps a ON a.id = d.app_id
    LEFT JOIN principals p ON p.id = r.owner_principal
    CROSS JOIN LATERAL (SELECT CASE WHEN p.kind::text = 'agent' AND p.owner_id IS NOT NULL THEN p.owner_id ELSE p.id END AS person) q
    WHERE r.id = ${resourceId}) f`;

/** Who pays for a resource's bytes at rest, as storagePayerSql found it, and the owner it follows from. */
export interface StoragePayer {
  owner: string | null;
  holder: string;
  developer: boolean;
}

/** The payer's columns, as values or as a statement's placeholders for them. */
export type PayerValues = { [K in keyof StoragePayer]: unknown };

/**
 * The payer of `resourceId`'s bytes at rest as SQL: found from the resource (storagePayerSql), or
 * one found before, kept only while the resource's owner, which alone decides it, is the same (no
 * row otherwise: the write is not surely covered and takes the exact path).
 */
export const payerSql = (resourceId: unknown, known: PayerValues | null) =>
  known
    ? sql<StoragePayer>`SELECT ${known.holder}::text AS holder, ${known.developer}::boolean AS developer, ${known.owner}::text AS owner
        WHERE EXISTS (SELECT 1 FROM resources r WHERE r.id = ${resourceId} AND r.owner_principal IS NOT DISTINCT FROM ${known.owner}::text)`
    : storagePayerSql(resourceId);

/**
 * Whether `holder`'s wallet surely covers zero bytes more (assertStorageCovered with 0 bytes), as
 * SQL: its balance less all its open leases reserve (what a lease charges never exceeds that; the
 * wallet row keeps their total), plus a developer's starting credit still due. A lower bound of
 * spendableSql that sums no ledger entries: false only sends the write to the exact check. The
 * credit's ledger lookup runs only when the headroom alone is short (PostgreSQL evaluates OR's
 * operands in order and stops at the first true); with `creditMicros` null (storageCreditDue) the
 * statement leaves it out, and its plan no longer opens the ledger's once-key index on every run.
 */
export const holderSurelyCovers = (holder: unknown, developer: unknown, creditMicros: unknown | null) => {
  const headroom = sql<bigint>`COALESCE((SELECT w.balance_micros - w.reserved_micros FROM wallets w WHERE w.holder_id = ${holder}::text), 0)`;
  if (creditMicros === null) return sql<boolean>`(${headroom} >= 0)`;
  return sql<boolean>`(
  SELECT h.headroom >= 0
    OR (${developer}::boolean AND h.headroom + ${creditMicros}::bigint >= 0
      AND NOT EXISTS (SELECT 1 FROM wallet_entries e WHERE e.once_key = ${`${DEVELOPER_CREDIT_KIND}:`}::text || ${holder}::text))
  FROM (SELECT ${headroom} AS headroom) h)`;
};

/**
 * The starting credit a statement's storage check may still add (holderSurelyCovers): a
 * developer's credit, for a payer not known yet (the statement finds it) or a developer this
 * process has not seen credited; null for a known person, or a developer seen credited (the
 * credit's entry stays while the developer lives, so the lookup could only find it and add nothing).
 */
function storageCreditDue(deps: ChargeDeps, payer: StoragePayer | null | undefined): bigint | null {
  return !payer || (payer.developer && !deps.meteringSeen.creditedDevelopers.has(payer.holder)) ? deps.config.metering.developerCreditMicros : null;
}

/**
 * Whether the known storage payer is the holder of the lease the charge is paid from: then the
 * lease, open when the statement charges it, proves the wallet's headroom (appendEntry closes a
 * holder's open leases when an entry takes its wallet below what they reserve), and the storage
 * check reads no wallet (chargeCtes).
 */
export function payerHoldsLease(payer: StoragePayer | null | undefined, entry: EntryValues): boolean {
  const [, principalId, developerId] = entry;
  return !!payer && (payer.holder === principalId || payer.holder === developerId);
}

/**
 * A write's charge as two CTEs of a statement, `cov` and `e`: its ledger entry, recorded when the
 * write does not grow the resource or the resource's storage payer surely covers it (`grows` is
 * evaluated in the statement: assertStorageCovered's 0 bytes, then charge, as chargeAddingBytes),
 * and only when `when` holds (a write that may end up elsewhere records it only once it wrote).
 * With `payer` (found by an earlier statement) the check reads that payer's wallet and the
 * resource's owner only (payerSql); with `holdsLease` too (payerHoldsLease) only the owner, the
 * payer then covering it when it is the entry's holder. `cov` answers the payer it checked.
 */
export const chargeCtes = (
  resourceId: unknown,
  creditMicros: unknown | null,
  entry: EntryParams,
  grows: RawBuilder<boolean>,
  when: RawBuilder<boolean> = sql<boolean>`true`,
  payer: PayerValues | null = null,
  holdsLease = false,
) => sql`
  cov AS MATERIALIZED (SELECT COALESCE(p.ok, false) AS ok, p.holder, p.developer, p.owner FROM (SELECT 1) one
    LEFT JOIN LATERAL (${storageCheck(resourceId, creditMicros, entry, payer, holdsLease)}) p ON true),
  e AS (${entryInsertSql(entry, sql<boolean>`${when} AND (NOT ${grows} OR (SELECT ok FROM cov))`)})`;

/**
 * Whether the storage payer `holder` surely covers the write, as SQL: it holds the lease the charge
 * is paid from (payerHoldsLease: the open lease proves its headroom), or its wallet does (holderSurelyCovers).
 */
export const payerCovers = (holder: unknown, developer: unknown, creditMicros: unknown | null, entry: EntryParams, holdsLease: boolean) =>
  holdsLease
    ? sql<boolean>`${holder} IN (${entry.principalId}::text, ${entry.developerId}::text)`
    : holderSurelyCovers(holder, developer, creditMicros);

/**
 * chargeCtes' storage check: the payer it checks (none when a payer passed in no longer is), and
 * whether that payer surely covers the write (`ok`). Its values may be columns of the statement's
 * own (a batch's items, src/rows/row-fast-insert-batch.sql.ts).
 */
export const storageCheck = (resourceId: unknown, creditMicros: unknown | null, entry: EntryParams, payer: PayerValues | null, holdsLease: boolean) =>
  sql<StoragePayer & { ok: boolean }>`SELECT s.holder, s.developer, s.owner, ${payerCovers(
    sql.ref('s.holder'),
    sql.ref('s.developer'),
    creditMicros,
    entry,
    !!payer && holdsLease,
  )} AS ok
    FROM (${payerSql(resourceId, payer)}) s`;

/** Whether a statement with chargeCtes recorded the entry (a write gated on it happens only when charged). */
export const chargeRecorded = sql<boolean>`EXISTS (SELECT 1 FROM e)`;

/**
 * What a statement with chargeCtes found: whether the storage payer surely covers the write, and
 * whether the entry was recorded; and the payer it checked (none when a payer passed in no longer is).
 */
export const chargeOutcome = sql<{ covered: boolean; charged: boolean }>`(SELECT ok FROM cov) AS covered, ${chargeRecorded} AS charged,
  (SELECT holder FROM cov) AS payer_holder, (SELECT developer FROM cov) AS payer_developer, (SELECT owner FROM cov) AS payer_owner`;

/** The storage payer a statement's chargeOutcome found, if it did. */
export const payerFound = (row: {
  payer_holder?: string | null;
  payer_developer?: boolean | null;
  payer_owner?: string | null;
}): StoragePayer | null =>
  row.payer_holder ? { holder: row.payer_holder, developer: row.payer_developer === true, owner: row.payer_owner ?? null } : null;

/** How HeldCharge.settle reads a statement's chargeCtes: recorded; refused by the storage check; or the lease was found closed. */
export const settledAs = (found: { covered: boolean; charged: boolean } | undefined, grows: boolean) =>
  found?.charged ? 'charged' : found && (found.covered || !grows) ? 'lease_closed' : 'refused';

/** What a charge's statement found (chargeOutcome): the storage check, the entry, and the payer it checked. */
type ChargeOutcomeRow = {
  covered: boolean;
  charged: boolean;
  payer_holder: string | null;
  payer_developer: boolean | null;
  payer_owner: string | null;
};

/** A charge's entry and its storage check in one statement (chargeAddingBytes), the storage payer found from the resource. */
const coveredEntry = prepare<[resourceId: string, creditMicros: bigint, ...entry: EntryValues], ChargeOutcomeRow>(
  17,
  (db, resourceId, creditMicros, ...entry) => ({
    compile: () =>
      sql<ChargeOutcomeRow>`WITH ${chargeCtes(resourceId, creditMicros, entryParamsOf(entry), sql<boolean>`true`)} SELECT ${chargeOutcome}`.compile(
        db,
      ),
  }),
);

type PaidEntryArgs = [resourceId: string, creditMicros: bigint, ...entry: EntryValues, owner: string | null, holder: string, developer: boolean];

/**
 * As coveredEntry, with the storage payer found before (its owner checked), the check as `check`
 * says: with the starting credit (storageCreditDue), the headroom alone, or the lease (payerHoldsLease).
 */
const paidEntry = (check: KnownPayerCheck) =>
  prepare<PaidEntryArgs, ChargeOutcomeRow>(20, (db, resourceId, creditMicros, ...rest) => ({
    compile: () => {
      const entry = rest.slice(0, 15);
      const [owner, holder, developer] = rest.slice(15);
      const payer = { owner, holder, developer };
      const credit = check === 'credit' ? creditMicros : null;
      const ctes = chargeCtes(resourceId, credit, entryParamsOf(entry), sql<boolean>`true`, undefined, payer, check === 'lease');
      return sql<ChargeOutcomeRow>`WITH ${ctes} SELECT ${chargeOutcome}`.compile(db);
    },
  }));
const coveredEntryPaidBy = { credit: paidEntry('credit'), headroom: paidEntry('headroom'), lease: paidEntry('lease') };

/** How a statement checks that a known storage payer surely covers a write (knownPayerCheck). */
export type KnownPayerCheck = 'credit' | 'headroom' | 'lease';

/** The check for a known payer: by the charge's own lease, else the headroom, with the starting credit when it may be due. */
export function knownPayerCheck(deps: ChargeDeps, payer: StoragePayer, entry: EntryValues): KnownPayerCheck {
  return payerHoldsLease(payer, entry) ? 'lease' : storageCreditDue(deps, payer) === null ? 'headroom' : 'credit';
}

/**
 * A write's charge when it adds bytes to `resourceId`, in its transaction `db`: assertStorageCovered
 * (0 bytes) then charge, but one statement when the payer's lease is held here and the storage
 * payer surely covers it (holderSurelyCovers); otherwise those two, which decide exactly. With the
 * resource's storage payer found before (`known`), the statement checks only its owner. Answers
 * the storage payer that statement checked: null when `known` no longer is; undefined when no
 * such statement ran.
 */
export async function chargeAddingBytes(
  deps: ChargeDeps,
  db: Db,
  caller: PrincipalCaller,
  usage: readonly Usage[],
  operation: string,
  resourceId: string,
  known?: StoragePayer | null,
): Promise<StoragePayer | null | undefined> {
  const held = holdCharge(deps, caller, usage, operation);
  let checked: StoragePayer | null | undefined;
  if (held !== null && held !== 'unmetered') {
    let found: ChargeOutcomeRow | undefined;
    try {
      const args = [resourceId, deps.config.metering.developerCreditMicros, ...held.entry] as const;
      if (!known) [found] = await coveredEntry(sqlOf(db), ...args);
      else
        [found] = await coveredEntryPaidBy[knownPayerCheck(deps, known, held.entry)](sqlOf(db), ...args, known.owner, known.holder, known.developer);
    } finally {
      held.held.settle(settledAs(found, true));
    }
    checked = found && payerFound(found);
    if (found?.charged) return checked;
  }
  await assertStorageCovered(deps, db, caller, resourceId, 0);
  await charge(deps, db, caller, usage, operation);
  return checked;
}

/**
 * Closes this process's wallet leases, so `wallets` and `budget_spends` hold every charge (before
 * reading them straight from the tables; on shutdown); with `everyProcess` every open lease
 * (startup: what a stopped process left). Answers how many closed.
 */
export function closeWalletLeases(deps: Pick<ServiceDeps, 'sqlTransaction' | 'now'> & { meteringSeen: MeteringSeen }, everyProcess = false) {
  return closeLeases(leaseDeps(deps), { everyProcess });
}

/** Stops closing leases in the background (server stop, after closeWalletLeases). */
export function stopLeaseSweep(deps: { meteringSeen: MeteringSeen }): void {
  stopSweeping({ walletLeases: deps.meteringSeen.leases });
}

/** The 402 `charge` would answer now, without charging: checked before streaming a large upload. */
export async function assertAffordable(deps: CheckDeps, caller: PrincipalCaller, usage: readonly Usage[]): Promise<void> {
  const { config } = deps;
  const prices = config.metering.prices;
  if (!config.metering.enabled) return;
  const cost = costMicros(prices, usage);
  if (cost === 0n) return;
  const payer = payerOf(caller);
  if (payer.budget) {
    const period = budgetPeriod(deps.now());
    const row = await deps.sql
      .selectFrom('budgets as b')
      .leftJoin('budget_spends as s', join => join.onRef('s.budget_id', '=', 'b.id').on('s.period', '=', period))
      .select(['b.limit_micros', 's.spent_micros as spent', openSpendOf(sql.ref('b.id'), period).as('open')])
      .where('b.id', '=', budgetId(payer.budget))
      .executeTakeFirst();
    const limit = row?.limit_micros ?? defaultLimit(config, payer.budget);
    if ((row?.spent ?? 0n) + BigInt(row?.open ?? 0n) + cost > limit) throw shortBudget(payer.budget, cost, limit);
  }
  if ((await spendableMicros(deps, payer.holder)) < cost) throw shortWallet(payer.holder, cost, caller);
}

/**
 * The storage check's one statement, built once: the resource's holder and what each wallet that
 * may pay for its bytes can spend (storagePayerOf picks the one).
 */
const storageFacts = prepare(2, (db, resourceId: string, creditMicros: bigint) =>
  db
    .selectFrom('resources as r')
    .innerJoin('deployments as d', 'd.id', 'r.deployment_id')
    .innerJoin('apps as a', 'a.id', 'd.app_id')
    .leftJoin('principals as p', 'p.id', 'r.owner_principal')
    .select([
      'a.developer_id as appDeveloperId',
      'p.id as principalId',
      'p.kind as principalKind',
      'p.owner_id as ownerId',
      spendableSql(creditMicros, sql.ref('a.developer_id'), creditKeyOf(sql.ref('a.developer_id'))).as('developerSpendable'),
      spendableSql(creditMicros, sql.ref('p.id'), null).as('principalSpendable'),
      spendableSql(creditMicros, sql.ref('p.owner_id'), null).as('ownerSpendable'),
    ])
    .where('r.id', '=', resourceId),
);

/**
 * 402 `payment_required` (reason `storage`) when the wallet that pays for `resourceId`'s bytes
 * at rest (its owner's, storagePayerOf) cannot cover one day of `bytes` more, or is in debt: a
 * file upload checks it before it reads the body and again in its transaction, a row write that
 * adds to the resource in its transaction. Nothing is charged here; the daily settlement charges
 * what is held.
 */
export async function assertStorageCovered(
  deps: Pick<ServiceDeps, 'sql' | 'config'>,
  db: Db | null,
  caller: PrincipalCaller,
  resourceId: string,
  bytes: number,
): Promise<void> {
  const { config } = deps;
  const prices = config.metering.prices;
  if (!config.metering.enabled) return;
  const cost = costMicros(prices, [{ class: 'storage', quantity: bytes }]);
  const [facts] = await storageFacts(db ? sqlOf(db) : deps.sql, resourceId, config.metering.developerCreditMicros);
  if (!facts) return;
  const payer = storagePayerOf(storageHolderOf(facts));
  const spendable =
    payer.kind === 'developer' ? facts.developerSpendable : payer.id === facts.principalId ? facts.principalSpendable : facts.ownerSpendable;
  if (BigInt(spendable) >= cost) return;
  const own = payer.id === payerOf(caller).holder.id;
  throw paymentRequired(
    'storage',
    own
      ? `Your wallet pays for this resource's data at rest and is short of $${microsToUsd(cost)} for a day of it: top it up, or delete files or rows, to store more.`
      : "This resource's data at rest is paid for by its owner's wallet, which cannot cover more: the owner tops it up, or deletes files or rows, before more can be stored.",
    { resourceId, costUsd: microsToUsd(cost) },
  );
}

/**
 * At-rest cost for one day (`now`'s UTC date), once per payer and app environment per day (the
 * ledger's once key). Every stored byte has one payer (storagePayerOf): a resource's bytes (its
 * files, its rows, retain copies) its owner's, a user's own files that user's, an app-owned
 * resource's and a published site's the app's developer. At-rest cost accrues whatever the balance: the next metered
 * operation of an empty wallet is refused, and so is an upload into a resource it pays for.
 */
export async function settleStorage(
  deps: Pick<ServiceDeps, 'sql' | 'transaction' | 'config' | 'now'>,
  now: Date = deps.now(),
): Promise<{ holders: number; chargedMicros: bigint }> {
  const { config } = deps;
  const prices = config.metering.prices;
  if (!config.metering.enabled) return { holders: 0, chargedMicros: 0n };
  const day = now.toISOString().slice(0, 10);
  const held = await deps.sql
    .with('stored', db =>
      db
        .selectFrom('files')
        .select([
          'deployment_id',
          'resource_id',
          sql<string | null>`CASE WHEN resource_id IS NULL THEN creator_id END`.as('creator_id'),
          'size as bytes',
          sql<boolean>`false`.as('site'),
        ])
        .unionAll(
          db
            .selectFrom('rows')
            .select([
              'deployment_id',
              'resource_id',
              sql<string | null>`NULL`.as('creator_id'),
              sql<bigint>`octet_length(data::text)::bigint`.as('bytes'),
              sql<boolean>`false`.as('site'),
            ])
            .where('resource_id', 'is not', null),
        )
        // A published site's files (every version's, stored once each): the app's developer pays.
        .unionAll(
          db
            .selectFrom('site_blobs')
            .select([
              'deployment_id',
              sql<string | null>`NULL`.as('resource_id'),
              sql<string | null>`NULL`.as('creator_id'),
              'size as bytes',
              sql<boolean>`true`.as('site'),
            ]),
        ),
    )
    .with('held', db =>
      db
        .selectFrom('stored')
        .select(['deployment_id', 'resource_id', 'creator_id', sql<bigint>`SUM(bytes)::bigint`.as('bytes')])
        .where(eb => eb.or([eb('resource_id', 'is not', null), eb('creator_id', 'is not', null), eb('site', '=', true)]))
        .groupBy(['deployment_id', 'resource_id', 'creator_id']),
    )
    .selectFrom('held as h')
    .innerJoin('deployments as d', 'd.id', 'h.deployment_id')
    .innerJoin('apps as a', 'a.id', 'd.app_id')
    .leftJoin('resources as r', 'r.id', 'h.resource_id')
    .leftJoin('principals as p', join => join.on(eb => eb('p.id', '=', eb.fn.coalesce('r.owner_principal', 'h.creator_id'))))
    .select([
      'h.deployment_id as deploymentId',
      'd.app_id as appId',
      'd.env',
      'a.developer_id as appDeveloperId',
      'p.id as principalId',
      'p.kind as principalKind',
      'p.owner_id as ownerId',
      'h.bytes',
    ])
    .execute();
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
    const facts = {
      kind: 'storage',
      onceKey: `storage:${holder.id}:${deploymentId}:${day}`,
      appId,
      env,
      quantity: bytes,
      byClass: { storage: -cost },
    };
    const inserted = await deps.transaction(tx => appendEntry(tx, holder, -cost, facts, now));
    if (inserted) {
      holders++;
      charged += cost;
    }
  }
  return { holders, chargedMicros: charged };
}

/** What `services.metering` offers; src/services.ts binds each to the server's dependencies. */
export const meteringOperations = {
  creditDeveloper,
  budgets,
  setEnvBudget,
  charge,
  holdCharge,
  holdChargeSoon,
  storageCreditDue,
  knownPayerCheck,
  chargeAddingBytes,
  assertAffordable,
  assertStorageCovered,
  settleStorage,
  closeWalletLeases,
  stopLeaseSweep,
};

export type MeteringService = Bound<typeof meteringOperations>;
