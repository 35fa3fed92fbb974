/**
 * Wallets: an append-only ledger per holder (a person, a developer or a resource) in integer
 * micro-dollars ($1 = 1_000_000), and the holder's balance in `wallets`, kept in step in the same
 * transaction as every entry, except charges: those move the balance when the wallet lease they
 * were paid from closes (src/billing/wallet-leases.service.ts), and balance views add them meanwhile. One-time entries carry a `onceKey`, whose unique index makes them
 * race-safe: concurrent attempts insert one row between them.
 */
import { sql, sqlOf } from '../db/sql.js';
import type { UsageClass } from './pricing.rules.js';
import { newId } from '../lib/secrets.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { type Db, balanceWithOpenCharges, closeLeasesOverdrawn } from './wallet-leases.service.js';

export const WELCOME_CREDIT_KIND = 'welcome_credit';
export const DEVELOPER_CREDIT_KIND = 'developer_credit';

export type HolderKind = 'principal' | 'developer' | 'resource';
export interface Holder {
  kind: HolderKind;
  id: string;
}

/** The entry's metadata beyond holder and amount (charges). */
export interface EntryFacts {
  kind: string;
  onceKey?: string | null;
  appId?: string | null;
  env?: string | null;
  clientId?: string | null;
  actorId?: string | null;
  quantity?: bigint | null;
  /** The metered calls a charge entry sums (site transfer: the responses); null for credits and storage. */
  calls?: number | null;
  /** The amount split by price class (charges and at-rest entries), signed as the amount. */
  byClass?: Partial<Record<UsageClass, bigint>>;
}

/** Entries a wallet statement lists (the newest). */
export const STATEMENT_ENTRIES = 50;

/** 5_250_000n -> "5.25", -1n -> "-0.000001": exact, at least two decimals. */
export function microsToUsd(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const fraction = (abs % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}${abs / 1_000_000n}.${fraction}`;
}

/** The entry's holder column set, the others null. */
export const holderColumns = (holder: Holder) => ({
  principal_id: holder.kind === 'principal' ? holder.id : null,
  developer_id: holder.kind === 'developer' ? holder.id : null,
  resource_id: holder.kind === 'resource' ? holder.id : null,
});

/**
 * Appends one entry and moves the holder's balance by its amount, in `tx`. With a `onceKey` that
 * already exists nothing happens and it answers false. A debit that leaves the balance below what
 * the holder's open leases reserve closes them (closeLeasesOverdrawn).
 */
export async function appendEntry(tx: Db, holder: Holder, amountMicros: bigint, facts: EntryFacts, now: Date): Promise<boolean> {
  const db = sqlOf(tx);
  const inserted = await db
    .insertInto('wallet_entries')
    .values({
      id: newId('wal'),
      ...holderColumns(holder),
      amount_micros: amountMicros,
      kind: facts.kind,
      once_key: facts.onceKey ?? null,
      app_id: facts.appId ?? null,
      env: facts.env ?? null,
      client_id: facts.clientId ?? null,
      actor_id: facts.actorId ?? null,
      quantity: facts.quantity ?? null,
      calls: facts.calls ?? null,
      created_at: now,
      reads_micros: facts.byClass?.reads ?? null,
      writes_micros: facts.byClass?.writes ?? null,
      transfer_micros: facts.byClass?.transfer ?? null,
      storage_micros: facts.byClass?.storage ?? null,
    })
    // The unique index is partial (once_key IS NOT NULL): the conflict target names its predicate.
    .onConflict(conflict => conflict.column('once_key').where('once_key', 'is not', null).doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows !== 1n) return false;
  await db
    .insertInto('wallets')
    .values({ holder_id: holder.id, balance_micros: amountMicros, updated_at: now })
    .onConflict(conflict =>
      conflict.column('holder_id').doUpdateSet(eb => ({
        balance_micros: eb('wallets.balance_micros', '+', eb.ref('excluded.balance_micros')),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  if (amountMicros < 0n) await closeLeasesOverdrawn(db, holder.id, now);
  return true;
}

type WalletDeps = Pick<ServiceDeps, 'transaction' | 'config' | 'now'>;

/** Runs `fn` in the caller's transaction `tx`, else in one of its own. */
const inTx = <T>(deps: Pick<ServiceDeps, 'transaction'>, tx: Db | undefined, fn: (tx: Db) => Promise<T>) =>
  tx ? fn(tx) : deps.transaction((t: Tx) => fn(t));

/** docs/api.md §4.7, consent rule 3: the welcome credit, at most once per user ever. */
export function grantWelcomeCredit(deps: WalletDeps, principalId: string, tx?: Db): Promise<boolean> {
  return inTx(deps, tx, t =>
    appendEntry(
      t,
      { kind: 'principal', id: principalId },
      deps.config.auth.welcomeCreditMicros,
      { kind: WELCOME_CREDIT_KIND, onceKey: `${WELCOME_CREDIT_KIND}:${principalId}` },
      deps.now(),
    ),
  );
}

/** A developer's starting credit (DEVELOPER_CREDIT_USD), once, on their first metered use. */
export function grantDeveloperCredit(deps: WalletDeps, developerId: string, tx?: Db): Promise<boolean> {
  return inTx(deps, tx, t =>
    appendEntry(
      t,
      { kind: 'developer', id: developerId },
      deps.config.metering.developerCreditMicros,
      { kind: DEVELOPER_CREDIT_KIND, onceKey: `${DEVELOPER_CREDIT_KIND}:${developerId}` },
      deps.now(),
    ),
  );
}

/** An operator's top-up (`gatehouse wallet credit`). */
export function credit(deps: Pick<ServiceDeps, 'transaction' | 'now'>, holder: Holder, amountMicros: bigint, tx?: Db): Promise<boolean> {
  return inTx(deps, tx, t => appendEntry(t, holder, amountMicros, { kind: 'credit' }, deps.now()));
}

/** The holder's balance: the `wallets` column plus what its open leases have charged so far. */
export async function balanceMicros(deps: Pick<ServiceDeps, 'sql'>, holderId: string): Promise<bigint> {
  return balanceWithOpenCharges(deps.sql, holderId);
}

/** A statement's columns, as the ledger and a lease's pending charges both hold them. */
const STATEMENT_COLUMNS = ['id', 'kind', 'amount_micros', 'app_id', 'env', 'client_id', 'actor_id', 'quantity', 'created_at'] as const;

/**
 * The holder's view: balance and the newest entries, amounts as exact decimal strings. The charges
 * of its open leases are listed one by one; once a lease closes they are one entry per kind, app,
 * environment, client, actor and day (closeLeaseIn).
 */
export async function statement(deps: Pick<ServiceDeps, 'sql'>, holder: Holder, limit = STATEMENT_ENTRIES) {
  const holderColumn = holder.kind === 'principal' ? 'principal_id' : holder.kind === 'developer' ? 'developer_id' : 'resource_id';
  const pending = deps.sql
    .selectFrom('wallet_charges as c')
    .innerJoin('wallet_leases as l', 'l.id', 'c.lease_id')
    .select([...STATEMENT_COLUMNS.map(column => `c.${column}` as const), sql<number>`1`.as('calls')])
    .where('l.holder_id', '=', holder.id)
    .where('l.closed_at', 'is', null);
  const [balance, entries] = await Promise.all([
    balanceMicros(deps, holder.id),
    deps.sql
      .selectFrom('wallet_entries')
      .select([...STATEMENT_COLUMNS, 'calls'])
      .where(holderColumn, '=', holder.id)
      .unionAll(pending)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    balanceUsd: microsToUsd(balance),
    entries: entries.map(e => ({
      id: e.id,
      kind: e.kind,
      amountUsd: microsToUsd(BigInt(e.amount_micros)),
      appId: e.app_id,
      env: e.env,
      clientId: e.client_id,
      actorId: e.actor_id,
      quantity: e.quantity === null ? null : Number(e.quantity),
      calls: e.calls,
      createdAt: new Date(e.created_at).toISOString(),
    })),
  };
}

/** What `services.wallet` offers; src/services.ts binds each to the server's dependencies. */
export const walletOperations = { grantWelcomeCredit, grantDeveloperCredit, credit, balanceMicros, statement };

export type WalletService = Bound<typeof walletOperations>;
