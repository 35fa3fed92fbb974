/**
 * Wallet leases (docs/api.md §14.1): how a charge stays exact without every write of one payer
 * queueing on that payer's wallet and budget rows.
 *
 * A lease reserves some of a payer's money (and of its budget for the month) for this process.
 * Granting one locks the wallet row (FOR UPDATE) and counts what the other open leases reserve,
 * so the reservations of all processes together never exceed the balance (nor the budget's limit).
 * A charge then is one statement on no shared row: a row of the lean `wallet_charges`, inserted
 * against the open lease (`INSERT ... SELECT ... FROM wallet_leases ... FOR KEY SHARE`), while the
 * lease's allowance in memory falls synchronously, so concurrent writes of this process never
 * spend more than it reserved. Closing a lease (after LEASE_LIFETIME_MS, when idle, on shutdown, at
 * startup for leases a stopped process left) locks it FOR UPDATE, which waits for the writes still
 * charging it, folds its charges into the ledger (`wallet_entries`), and moves the wallet's balance
 * and the month's spend by their sum: then the balance is the ledger's sum again. A charge can
 * only be inserted while its lease is open, so none is left out.
 *
 * Lock order, the same everywhere: wallet row, then lease row. A lease is granted inside the
 * transaction of the write that needed it (no second connection: the embedded store has one, and
 * a pool could run dry), so it exists only if that write commits.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type DB, type RawBuilder, type Sql, prepare, sql } from '../db/sql.js';
import { asSystemWork } from '../db/fair-queue.js';
import { newId } from '../lib/secrets.js';
import type { AnyTx, ServiceDeps } from '../core/deps.js';
import type { Holder } from './wallet.service.js';
import { LEASE_EXPIRY_MS, type Headroom, closedInUse, leaseDue, leaseGrant, nextLeaseSize, renewDue, runningLow } from './wallet-leases.rules.js';

/** A write's transaction as the callers hold it: a Prisma transaction (or client) or an SQL-layer handle. */
export type Db = AnyTx;

/** One of this process's leases, as its charges see it. */
interface Lease {
  id: string;
  /** The payer it serves (leaseKey). */
  key: string;
  holderId: string;
  /** What it reserved, and what of that this process's charges have not taken yet. */
  reserved: bigint;
  allowance: bigint;
  /** The transaction that granted it: others cannot see it until that one commits. */
  grantedIn: Sql;
  /** A charge from another transaction found it: it committed. */
  confirmed: boolean;
  /** Monotonic ms (performance.now()). */
  openedAt: number;
  lastUsedAt: number;
  /** It could not pay a charge, or stopped serving its payer: close it now. */
  exhausted: boolean;
  /** It closed at its lifetime while still charged: the payer's next lease starts at its size. */
  inUse: boolean;
  closing: boolean;
  /** Who it serves and the charge it was sized by: what its successor is granted for (renew). */
  payer: LeasePayer;
  cost: bigint;
  /** Its successor is being granted: settles once that is usable, or failed. */
  renewal: Promise<void> | null;
}

/** This process's leases; one per server (`walletLeases()`). */
export interface WalletLeases {
  /** Who holds the leases this process grants (wallet_leases.opened_by). */
  instance: string;
  /** The lease each payer charges now. */
  usable: Map<string, Lease>;
  /** Every lease this process granted and has not closed yet, by id. */
  open: Map<string, Lease>;
  /** The lease each payer had last, closed at its lifetime while in use (its successor's size). */
  retired: Map<string, Lease>;
  timer: NodeJS.Timeout | null;
  /** Starts a lease's successor (renew), set by the sweep: a charge that leaves its lease running low calls it at once. */
  renewLow: ((lease: Lease) => void) | null;
  /** Moves on when closeLeases runs: a successor granted across it is closed unused (it reserved under the old balance or limit). */
  epoch: number;
}

export const walletLeases = (): WalletLeases => ({
  instance: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
  usable: new Map(),
  open: new Map(),
  retired: new Map(),
  timer: null,
  renewLow: null,
  epoch: 0,
});

export type LeaseDeps = Pick<ServiceDeps, 'sqlTransaction' | 'now'> & { walletLeases: WalletLeases };

/** The columns the ledger and the open leases' charges share. */
type ChargeColumn = keyof DB['wallet_charges'] & keyof DB['wallet_entries'];

/**
 * The ledger's entries and the charges of open leases (not folded into it yet) as one relation
 * `e` of `columns`, for the views that sum spend; an at-rest entry's `storage_micros` comes from
 * the ledger alone (a charge is never one). Filters on `e` reach both tables' indexes.
 */
export function ledgerWithOpenCharges<C extends ChargeColumn>(db: Sql, columns: readonly C[], withStorage = false) {
  const storage = (from: 'ledger' | 'charges') =>
    withStorage ? [from === 'ledger' ? sql<bigint | null>`storage_micros` : sql<bigint | null>`NULL::bigint`] : [];
  const entries = db.selectFrom('wallet_entries').select([...columns, ...storage('ledger').map(s => s.as('storage_micros'))]);
  const charges = db.selectFrom('wallet_charges').select([...columns, ...storage('charges').map(s => s.as('storage_micros'))]);
  // The same columns of the same types; Kysely cannot tell for a generic column list.
  return entries.unionAll(charges as unknown as typeof entries).as('e');
}

/** Who a charge draws on: the wallet's holder, and the budget and month it counts in. */
export interface LeasePayer {
  holder: Holder;
  budget: { id: string; period: string } | null;
}

/** A charge's ledger entry, as wallet_entries holds it (id and lease are added here). */
export interface ChargeEntry {
  principal_id: string | null;
  developer_id: string | null;
  amount_micros: bigint;
  kind: string;
  app_id: string;
  env: string;
  client_id: string | null;
  actor_id: string;
  quantity: bigint;
  created_at: Date;
  /** The amount split by price class (src/billing/pricing.rules.ts costByClass). */
  reads_micros?: bigint;
  writes_micros?: bigint;
  transfer_micros?: bigint;
}

/** Why a charge cannot be paid: the wallet, or the budget (with its limit). */
export type Shortfall = { reason: 'wallet' } | { reason: 'budget'; limitMicros: bigint };

const leaseKey = (payer: LeasePayer) => `${payer.holder.id}\0${payer.budget?.id ?? ''}\0${payer.budget?.period ?? ''}`;

/** How often this process looks for leases to close while it holds some. */
const SWEEP_MS = 100;

/** One charge as a lease pays it: who pays, what (micro-dollars), and its ledger entry (its amount is -cost). */
export interface LeaseCharge {
  payer: LeasePayer;
  cost: bigint;
  entry: ChargeEntry;
}

/**
 * Pays `charge` from the payer's lease, granting one in `db` (a transaction) when there is none
 * with enough left. Answers the shortfall when the payer cannot pay; then nothing was written.
 */
export const payFromLease = (deps: LeaseDeps, db: Sql, charge: LeaseCharge): Promise<Shortfall | null> =>
  // Granting, it never answers 'no_lease'.
  pay(deps, db, charge, true) as Promise<Shortfall | null>;

/** As payFromLease with `db` outside a transaction: 'no_lease' where it would grant one (a grant needs a transaction). */
export const payFromOpenLease = (deps: LeaseDeps, db: Sql, charge: LeaseCharge): Promise<Shortfall | null | 'no_lease'> =>
  pay(deps, db, charge, false);

async function pay(deps: LeaseDeps, db: Sql, { payer, cost, entry }: LeaseCharge, grant: boolean): Promise<Shortfall | null | 'no_lease'> {
  const leases = deps.walletLeases;
  const key = leaseKey(payer);
  for (let attempt = 0; ; attempt++) {
    const lease = leases.usable.get(key);
    if (lease && !lease.closing && lease.allowance >= cost) {
      take(leases, lease, cost);
      if (await insertEntry(db, lease.id, entry)) {
        if (db !== lease.grantedIn) lease.confirmed = true;
        return null;
      }
      // Closed meanwhile, or granted by a transaction that has not committed yet.
      lease.allowance += cost;
      if (lease.confirmed && leases.usable.get(key) === lease) leases.usable.delete(key);
    } else if (lease) lease.exhausted = true;
    // Outside a transaction (a read's charge, one statement): granting needs one.
    if (!grant) return 'no_lease';
    const granted = await grantLease(deps, db, payer, cost, lease ?? leases.retired.get(key) ?? null, attempt < 4);
    if (granted === 'retry') continue;
    if ('reason' in granted) return granted;
    leases.usable.set(key, granted);
  }
}

/**
 * Takes `cost` from the lease's allowance. A payer writing fast can spend a small lease within
 * milliseconds, long before the sweep's next look, so the charge that leaves it running low
 * starts its successor itself.
 */
function take(leases: WalletLeases, lease: Lease, cost: bigint): void {
  lease.allowance -= cost;
  lease.lastUsedAt = performance.now();
  if (runningLow(lease)) leases.renewLow?.(lease);
}

/**
 * A charge taken from this process's open lease before its entry is written, for a write that
 * inserts the entry in its own statement (entryInsertSql): the allowance falls now, as pay's does,
 * and `settle` gives it back unless the statement wrote the entry.
 */
export interface HeldCharge {
  leaseId: string;
  /**
   * What the statement did: wrote the entry; wrote nothing (refused); found the lease closed (or not
   * yet committed); or is not known (its answer was lost: it may have written the entry, so the
   * allowance keeps the charge, and the lease can only end with less spent than it allowed).
   */
  settle(outcome: 'charged' | 'refused' | 'lease_closed' | 'unknown'): void;
}

/** Holds `cost` from the payer's usable lease; null when there is none with enough left (pay then grants one in a transaction). */
export function holdFromOpenLease(leases: WalletLeases, payer: LeasePayer, cost: bigint): HeldCharge | null {
  const key = leaseKey(payer);
  const lease = leases.usable.get(key);
  if (!lease || lease.closing || lease.allowance < cost) return null;
  take(leases, lease, cost);
  let settled = false;
  return {
    leaseId: lease.id,
    settle: outcome => {
      if (settled) return;
      settled = true;
      // The statement ran outside the transaction that granted the lease, so finding it confirms it committed.
      if (outcome === 'charged') lease.confirmed = true;
      else if (outcome !== 'unknown') {
        lease.allowance += cost;
        if (outcome === 'lease_closed' && lease.confirmed && leases.usable.get(key) === lease) leases.usable.delete(key);
      }
    },
  };
}

/** A ledger entry's statement parameters, in the order entryValues passes them. */
const ENTRY_PARAMS = [
  'id',
  'principalId',
  'developerId',
  'amount',
  'kind',
  'appId',
  'env',
  'clientId',
  'actorId',
  'quantity',
  'createdAt',
  'leaseId',
  'readsMicros',
  'writesMicros',
  'transferMicros',
] as const;

/** A ledger entry's values as a statement takes them: values, or `prepare`'s placeholders. */
export type EntryParams = Record<(typeof ENTRY_PARAMS)[number], unknown>;

/**
 * A charge, inserted against its lease while that is open and `gate` holds: the text of a charge's
 * own statement, and of a write that records its charge in its own statement. It goes to the lean
 * `wallet_charges` (one index, no foreign keys: the lease's FOR KEY SHARE already holds what it
 * names), and folds into the ledger when the lease closes (closeLeaseIn). For a batch's items (one
 * charge each), `e`'s values are columns of `batch.from`, and the leases' locks are not waited for
 * (`NOWAIT`: a batch locks several, and a transaction closing several could otherwise close a cycle).
 */
export const entryInsertSql = (e: EntryParams, gate: RawBuilder<boolean>, batch?: { from: RawBuilder<unknown> }) => sql<{ id: string }>`
  INSERT INTO wallet_charges (lease_id, id, principal_id, developer_id, amount_micros, kind, app_id, env, client_id, actor_id, quantity, created_at,
    reads_micros, writes_micros, transfer_micros)
  SELECT l.id, ${e.id}::text, ${e.principalId}::text, ${e.developerId}::text, ${e.amount}::bigint, ${e.kind}::text,
    ${e.appId}::text, ${e.env}::text, ${e.clientId}::text, ${e.actorId}::text, ${e.quantity}::bigint, ${e.createdAt}::timestamp(3),
    ${e.readsMicros}::bigint, ${e.writesMicros}::bigint, ${e.transferMicros}::bigint
  FROM ${batch?.from ?? sql``} wallet_leases l WHERE l.id = ${e.leaseId} AND l.closed_at IS NULL AND ${gate} FOR KEY SHARE OF l${batch ? sql` NOWAIT` : sql``}
  RETURNING id`;

/** An entry's parameters in the order a statement passes them (entryParamsOf builds the object back). */
export const entryValues = (id: string, leaseId: string, e: ChargeEntry) =>
  [
    id,
    e.principal_id,
    e.developer_id,
    e.amount_micros,
    e.kind,
    e.app_id,
    e.env,
    e.client_id,
    e.actor_id,
    e.quantity,
    e.created_at,
    leaseId,
    e.reads_micros ?? null,
    e.writes_micros ?? null,
    e.transfer_micros ?? null,
  ] as const;

export type EntryValues = ReturnType<typeof entryValues>;

/** The values of entryValues (or placeholders standing for them) as entryInsertSql takes them. */
export const entryParamsOf = (values: readonly unknown[]): EntryParams =>
  Object.fromEntries(ENTRY_PARAMS.map((name, i) => [name, values[i]])) as EntryParams;

/** A charge's ledger entry against an open lease, built once (the hot path of every metered write). */
const insertEntryStatement = prepare<EntryValues, { id: string }>(15, (db, ...values) => ({
  compile: () => entryInsertSql(entryParamsOf(values), sql<boolean>`true`).compile(db),
}));

async function insertEntry(db: Sql, leaseId: string, e: ChargeEntry): Promise<boolean> {
  const rows = await insertEntryStatement(db, ...entryValues(newId('wal'), leaseId, e));
  return rows.length === 1;
}

/** The payer's headroom now, and its budget's limit. Read after the wallet row is locked. */
async function headroomOf(db: Sql, payer: LeasePayer): Promise<Headroom & { limit: bigint }> {
  const holder = payer.holder.id;
  const budget = payer.budget?.id ?? null;
  const period = payer.budget?.period ?? null;
  const { rows } = await sql<{ balance: bigint | null; reserved: bigint; limit: bigint | null; spent: bigint | null; budget_reserved: bigint }>`
    SELECT (SELECT balance_micros FROM wallets WHERE holder_id = ${holder}) AS balance,
      (SELECT COALESCE(SUM(reserved_micros), 0)::bigint FROM wallet_leases WHERE holder_id = ${holder} AND closed_at IS NULL) AS reserved,
      (SELECT limit_micros FROM budgets WHERE id = ${budget}::text) AS limit,
      (SELECT spent_micros FROM budget_spends WHERE budget_id = ${budget}::text AND period = ${period}::text) AS spent,
      (SELECT COALESCE(SUM(reserved_micros), 0)::bigint FROM wallet_leases
        WHERE budget_id = ${budget}::text AND period = ${period}::text AND closed_at IS NULL) AS budget_reserved`.execute(db);
  const row = rows[0];
  const limit = row.limit ?? 0n;
  return {
    wallet: (row.balance ?? 0n) - BigInt(row.reserved),
    budget: budget === null ? null : limit - (row.spent ?? 0n) - BigInt(row.budget_reserved),
    limit,
  };
}

/**
 * Grants the payer a lease in `db`, under the wallet row's lock. Refused: first this process's own
 * leases of the payer and any expired one are closed (their unused reservations must not be what
 * refuses it), then it is decided again. 'retry' when, while it waited for the lock, the
 * transaction that held it granted a lease this charge can use.
 */
async function grantLease(
  deps: LeaseDeps,
  db: Sql,
  payer: LeasePayer,
  cost: bigint,
  previous: Lease | null,
  mayRetry: boolean,
): Promise<Lease | Shortfall | 'retry'> {
  const leases = deps.walletLeases;
  const key = leaseKey(payer);
  await db.selectFrom('wallets').select('holder_id').where('holder_id', '=', payer.holder.id).forUpdate().execute();
  const current = leases.usable.get(key);
  // A lease this charge could not use because the transaction granting it had not committed: that
  // transaction held this lock, so it has ended now; try the lease again before granting another.
  const unconfirmed = current === previous && !current?.confirmed;
  if (mayRetry && current && (current !== previous || unconfirmed) && !current.closing && current.allowance >= cost) return 'retry';
  const wanted = nextLeaseSize(cost, previous ? { reserved: previous.reserved, exhausted: previous.exhausted, inUse: previous.inUse } : null);
  let headroom = await headroomOf(db, payer);
  let decision = leaseGrant(cost, wanted, headroom);
  if ('refused' in decision && (await reclaim(deps, db, payer))) {
    headroom = await headroomOf(db, payer);
    decision = leaseGrant(cost, wanted, headroom);
  }
  if ('refused' in decision) return decision.refused === 'budget' ? { reason: 'budget', limitMicros: headroom.limit } : { reason: 'wallet' };
  const id = newId('wls');
  await db
    .insertInto('wallet_leases')
    .values({
      id,
      holder_id: payer.holder.id,
      principal_id: payer.holder.kind === 'principal' ? payer.holder.id : null,
      developer_id: payer.holder.kind === 'developer' ? payer.holder.id : null,
      budget_id: payer.budget?.id ?? null,
      period: payer.budget?.period ?? null,
      reserved_micros: decision.granted,
      opened_by: leases.instance,
      opened_at: deps.now(),
    })
    .execute();
  // The wallet's total of open reservations, under the lock taken above (leaseGrant needs a positive balance: the row exists).
  await db
    .updateTable('wallets')
    .set(eb => ({ reserved_micros: eb('reserved_micros', '+', decision.granted) }))
    .where('holder_id', '=', payer.holder.id)
    .execute();
  const at = performance.now();
  const lease: Lease = {
    id,
    key,
    holderId: payer.holder.id,
    reserved: decision.granted,
    allowance: decision.granted,
    grantedIn: db,
    payer,
    cost,
    renewal: null,
    confirmed: false,
    openedAt: at,
    lastUsedAt: at,
    exhausted: false,
    inUse: false,
    closing: false,
  };
  leases.open.set(id, lease);
  leases.retired.delete(key);
  if (previous) previous.exhausted = true;
  sweepWhileOpen(deps);
  return lease;
}

/**
 * Grants the payer's next lease in a transaction of its own while `lease` still pays (it runs
 * low: twice its size; or it nears its lifetime in use: its size), so charges keep finding an
 * open, committed lease: a one-statement write (holdFromOpenLease) takes no other, and writes that
 * grant one in their own transaction queue on the wallet row. `lease` then closes as usual.
 * Started by the sweep, or by the charge that leaves `lease` running low (take); a process whose
 * sweep stopped renews nothing.
 */
function renew(deps: LeaseDeps, lease: Lease, low: boolean): void {
  const leases = deps.walletLeases;
  if (lease.renewal || lease.closing || leases.usable.get(lease.key) !== lease) return;
  const epoch = leases.epoch;
  // Sized as if it had run out (low) or closed in use; a copy, so `lease` is not marked exhausted before its successor is usable.
  const sizing: Lease = { ...lease, exhausted: low, inUse: !low };
  lease.renewal = asSystemWork(() => deps.sqlTransaction(tx => grantLease(deps, tx, lease.payer, lease.cost, sizing, false)))
    .then(next => {
      if (typeof next === 'string' || !('id' in next)) return;
      next.confirmed = true;
      // Granted across a closeLeases: under a balance or limit that may have changed since. Never used.
      if (leases.epoch !== epoch) return closeOwn(deps, next);
      leases.usable.set(lease.key, next);
      lease.exhausted = true;
    })
    .catch(() => {
      // A busy database: the writes grant one themselves, as without renewal.
    })
    .finally(() => {
      lease.renewal = null;
    });
}

/**
 * The renewal under way of the payer's usable lease, if any: a write holding no connection that
 * found the lease spent waits for its successor (milliseconds) instead of granting one in a
 * transaction of its own, which would queue on the wallet row behind that very renewal.
 */
export const renewalFor = (leases: WalletLeases, payer: LeasePayer): Promise<void> | null => leases.usable.get(leaseKey(payer))?.renewal ?? null;

/**
 * Closes, in `db`, this process's open leases of the payer's wallet and any of its leases left
 * open past LEASE_EXPIRY_MS; true when one was closed. Should `db` roll back, those of this
 * process are closed again by the sweep (they are marked exhausted: no charge uses them now).
 */
async function reclaim(deps: LeaseDeps, db: Sql, payer: LeasePayer): Promise<boolean> {
  const leases = deps.walletLeases;
  const ids = new Set<string>();
  for (const lease of leases.open.values()) {
    if (lease.holderId !== payer.holder.id) continue;
    lease.exhausted = true;
    if (leases.usable.get(lease.key) === lease) leases.usable.delete(lease.key);
    ids.add(lease.id);
  }
  const expired = await db
    .selectFrom('wallet_leases')
    .select('id')
    .where('holder_id', '=', payer.holder.id)
    .where('closed_at', 'is', null)
    .where('opened_at', '<', new Date(deps.now().getTime() - LEASE_EXPIRY_MS))
    .execute();
  for (const { id } of expired) ids.add(id);
  let closed = false;
  for (const id of ids) if ((await closeLeaseIn(db, id, deps.now())) === 'closed') closed = true;
  return closed;
}

/**
 * Moves a closing lease's charges into the ledger, one entry per holder, kind, app, environment,
 * client, actor and UTC day (quantities, amounts and calls summed; named by the group's first
 * charge, at its last one's time), and answers what they came to (positive micros).
 */
const foldCharges = (leaseId: string) => sql<{ used: bigint }>`
  WITH moved AS (DELETE FROM wallet_charges WHERE lease_id = ${leaseId} RETURNING *),
  folded AS (
    INSERT INTO wallet_entries (id, principal_id, developer_id, amount_micros, kind, app_id, env, client_id, actor_id, quantity, created_at, lease_id,
      reads_micros, writes_micros, transfer_micros, calls)
    SELECT MIN(id), principal_id, developer_id, SUM(amount_micros)::bigint, kind, app_id, env, client_id, actor_id, SUM(quantity)::bigint,
      MAX(created_at), ${leaseId}, SUM(reads_micros)::bigint, SUM(writes_micros)::bigint, SUM(transfer_micros)::bigint, COUNT(*)::int
    FROM moved GROUP BY principal_id, developer_id, kind, app_id, env, client_id, actor_id, date_trunc('day', created_at))
  SELECT COALESCE(-SUM(amount_micros), 0)::bigint AS used FROM moved`;

/**
 * Closes one lease in `db`: its charges fold into the ledger, and the wallet's balance and the
 * month's spend move by their sum. Waits for the writes still charging it (their FOR KEY SHARE).
 * 'absent' when it is already closed or not (yet) there.
 */
export async function closeLeaseIn(db: Sql, id: string, now: Date): Promise<'closed' | 'absent'> {
  const found = await db.selectFrom('wallet_leases').select('holder_id').where('id', '=', id).where('closed_at', 'is', null).executeTakeFirst();
  if (!found) return 'absent';
  // Wallet row first, then the lease: the order every lease statement takes them in.
  await db.selectFrom('wallets').select('holder_id').where('holder_id', '=', found.holder_id).forUpdate().execute();
  const lease = await db
    .selectFrom('wallet_leases')
    .select(['holder_id', 'budget_id', 'period', 'reserved_micros'])
    .where('id', '=', id)
    .where('closed_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!lease) return 'absent';
  const { rows } = await foldCharges(id).execute(db);
  const used = BigInt(rows[0].used);
  // The balance moves by what the lease charged; its reservation leaves the wallet's open total.
  await db
    .updateTable('wallets')
    .set(eb => ({
      balance_micros: eb('balance_micros', '-', used),
      reserved_micros: eb('reserved_micros', '-', lease.reserved_micros),
      ...(used !== 0n ? { updated_at: now } : {}),
    }))
    .where('holder_id', '=', lease.holder_id)
    .execute();
  if (used !== 0n) {
    if (lease.budget_id && lease.period) {
      // The budget may be gone (its app deleted): then there is no spend to count.
      await sql`
        INSERT INTO budget_spends (budget_id, period, spent_micros)
        SELECT id, ${lease.period}::text, ${used}::bigint FROM budgets WHERE id = ${lease.budget_id}
        ON CONFLICT (budget_id, period) DO UPDATE SET spent_micros = budget_spends.spent_micros + EXCLUDED.spent_micros`.execute(db);
    }
  }
  await db.updateTable('wallet_leases').set({ closed_at: now, used_micros: used }).where('id', '=', id).execute();
  return 'closed';
}

/**
 * Closes the holder's open leases, in any process, when its wallet's balance is below what they
 * reserve (an entry outside leases took it there: the at-rest settlement, site transfer), in the
 * transaction of that entry, which holds the wallet row. So an open lease proves its holder's
 * headroom, which a write's storage check takes as read (payerHoldsLease); their processes' next
 * charges find them closed and take new leases, which the headroom then refuses.
 */
export async function closeLeasesOverdrawn(db: Sql, holderId: string, now: Date): Promise<void> {
  const overdrawn = await db
    .selectFrom('wallet_leases as l')
    .innerJoin('wallets as w', 'w.holder_id', 'l.holder_id')
    .select('l.id')
    .where('l.holder_id', '=', holderId)
    .where('l.closed_at', 'is', null)
    .whereRef('w.balance_micros', '<', 'w.reserved_micros')
    .execute();
  for (const { id } of overdrawn) await closeLeaseIn(db, id, now);
}

/** Closes one of this process's leases in a transaction of its own; it stays listed if that fails. */
async function closeOwn(deps: LeaseDeps, lease: Lease): Promise<void> {
  const leases = deps.walletLeases;
  lease.closing = true;
  if (leases.usable.get(lease.key) === lease) leases.usable.delete(lease.key);
  try {
    const result = await deps.sqlTransaction(tx => closeLeaseIn(tx, lease.id, deps.now()));
    // Absent and never seen committed: the transaction that granted it may still be running
    // (close it later) or rolled back (forget it once no transaction can still be running).
    if (result === 'closed' || lease.confirmed || performance.now() - lease.openedAt > LEASE_EXPIRY_MS) leases.open.delete(lease.id);
    else lease.exhausted = true;
  } catch {
    // A deadlock victim or a lost connection: the next sweep tries again.
  } finally {
    lease.closing = false;
  }
}

function sweepWhileOpen(deps: LeaseDeps): void {
  const leases = deps.walletLeases;
  if (leases.timer) return;
  leases.renewLow = lease => renew(deps, lease, true);
  // Started by whichever charge opened the first lease: its closes are upkeep, not that caller's turns.
  leases.timer = asSystemWork(() =>
    setInterval(() => {
      const now = performance.now();
      for (const lease of leases.open.values()) {
        if (runningLow(lease)) renew(deps, lease, true);
        else if (renewDue(lease, now)) renew(deps, lease, false);
        if (lease.closing || !leaseDue(lease, now)) continue;
        if (closedInUse(lease, now) && leases.usable.get(lease.key) === lease) {
          lease.inUse = true;
          leases.retired.set(lease.key, lease);
        }
        void closeOwn(deps, lease);
      }
      if (leases.open.size === 0 && leases.timer) {
        leases.retired.clear();
        leases.renewLow = null;
        clearInterval(leases.timer);
        leases.timer = null;
      }
    }, SWEEP_MS),
  );
  leases.timer.unref();
}

/**
 * Closes every lease this process holds (shutdown, and before reading balances straight from the
 * tables); with `everyProcess`, every open lease in the database too (startup: leases a stopped
 * process left). Safe while other processes run: a lease closed under them is replaced.
 */
export async function closeLeases(deps: LeaseDeps, options: { everyProcess?: boolean; holderId?: string } = {}): Promise<number> {
  const leases = deps.walletLeases;
  leases.epoch++;
  const ids = new Set<string>();
  for (const lease of leases.open.values()) {
    if (options.holderId && lease.holderId !== options.holderId) continue;
    ids.add(lease.id);
    lease.exhausted = true;
    if (leases.usable.get(lease.key) === lease) leases.usable.delete(lease.key);
  }
  if (options.everyProcess) {
    const rows = await deps.sqlTransaction(tx => tx.selectFrom('wallet_leases').select('id').where('closed_at', 'is', null).execute());
    for (const { id } of rows) ids.add(id);
  }
  let closed = 0;
  for (const id of ids) {
    if ((await deps.sqlTransaction(tx => closeLeaseIn(tx, id, deps.now()))) === 'closed') closed++;
    leases.open.delete(id);
  }
  return closed;
}

/** Stops the sweep (server stop); what is still open is closed by closeLeases or the next startup. */
export function stopSweeping(deps: Pick<LeaseDeps, 'walletLeases'>): void {
  const leases = deps.walletLeases;
  if (leases.timer) clearInterval(leases.timer);
  leases.timer = null;
  leases.renewLow = null;
}

/**
 * What the holder's open leases have charged so far (negative micros), not yet in `wallets`: a
 * fragment for a statement that also reads the balance, so both come from one snapshot (a lease
 * closing between two reads would count its entries twice or not at all).
 */
export const openChargesOf = (holderId: RawBuilder<string | null> | string) =>
  sql<bigint>`(SELECT COALESCE(SUM(c.amount_micros), 0)::bigint FROM wallet_leases l JOIN wallet_charges c ON c.lease_id = l.id
    WHERE l.holder_id = ${holderId} AND l.closed_at IS NULL)`;

/** The holder's balance with its open leases' charges, in one statement. */
export async function balanceWithOpenCharges(db: Sql, holderId: string): Promise<bigint> {
  const row = await db
    .selectNoFrom(eb => [
      eb.selectFrom('wallets').select('balance_micros').where('holder_id', '=', holderId).as('balance'),
      openChargesOf(holderId).as('open'),
    ])
    .executeTakeFirstOrThrow();
  return (row.balance ?? 0n) + BigInt(row.open);
}

/**
 * What the budget's open leases have spent in `period` (positive micros), not yet in
 * `budget_spends`: a fragment for the statement that reads the spend (one snapshot, as above).
 */
export const openSpendOf = (budgetId: RawBuilder<string> | string, period: string) =>
  sql<bigint>`(SELECT COALESCE(-SUM(c.amount_micros), 0)::bigint FROM wallet_leases l JOIN wallet_charges c ON c.lease_id = l.id
    WHERE l.budget_id = ${budgetId} AND l.period = ${period} AND l.closed_at IS NULL)`;
