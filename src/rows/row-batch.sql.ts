/**
 * What the batch statements share (row-fast-insert-batch.sql.ts, row-fast-write-batch.sql.ts): their
 * calls as rows `i` of one JSON parameter, read by position, so a statement's text and plan do not
 * depend on how many calls it carries; and each metered call's charge, as the single
 * statement's chargeCtes records it, per call.
 */
import { entryInsertSql, entryParamsOf } from '../billing/wallet-leases.service.js';
import { type KnownPayerCheck, payerCovers, storageCheck } from '../billing/metering.service.js';
import { type RawBuilder, sql } from '../db/sql.js';
import { textParameter } from '../db/sql-values.js';

/** A batch's column: its name and SQL type. */
export type BatchColumn = readonly [name: string, type: string];

/** How a batch's calls are charged: unmetered, metered with their payer found, or known and checked as said (knownPayerCheck). */
export type BatchChargeKind = 'unmetered' | 'charged' | KnownPayerCheck;

/** A metered call's columns, in its single statement's argument order: the storage check's starting credit, the ledger entry (entryValues'), the known payer's. */
export const CHARGE_COLUMNS = [
  ['credit_micros', 'bigint'],
  ['entry_id', 'text'],
  ['principal_id', 'text'],
  ['developer_id', 'text'],
  ['amount', 'bigint'],
  ['kind', 'text'],
  ['app_id', 'text'],
  ['env', 'text'],
  ['client_id', 'text'],
  ['actor_id', 'text'],
  ['quantity', 'bigint'],
  ['created_at', 'timestamp(3)'],
  ['lease_id', 'text'],
  ['reads_micros', 'bigint'],
  ['writes_micros', 'bigint'],
  ['transfer_micros', 'bigint'],
  ['owner', 'text'],
  ['holder', 'text'],
  ['developer', 'boolean'],
] as const satisfies readonly BatchColumn[];

/** A column of the calls `i`. */
export const callColumn = (name: string) => sql.ref(`i.${name}`);

/**
 * A call's column as the statement reads it from the call's JSON array (batchCallsJson): by
 * position, `->>` and a cast (each value in its type's text form), which PostgreSQL reads several
 * times faster than jsonb_to_recordset matching every call's keys (bench/README.md).
 */
function columnSql([name, type]: BatchColumn, k: number): string {
  if (type === 'jsonb') return `x.value -> ${k} AS ${name}`;
  return type === 'text' ? `x.value ->> ${k} AS ${name}` : `(x.value ->> ${k})::${type} AS ${name}`;
}

/** The calls `i`, numbered `n` from 0 in their order, from the statement's one parameter. */
export const batchCalls = (columns: readonly BatchColumn[], calls: unknown) =>
  sql`i AS MATERIALIZED (SELECT (x.ord - 1)::int AS n, ${sql.raw(columns.map(columnSql).join(', '))}
      FROM jsonb_array_elements(${calls}::jsonb) WITH ORDINALITY AS x(value, ord))`;

/**
 * The calls as the statement's one parameter: a JSON array of calls, each the array of its
 * arguments in `columns`' order (null where a kind has fewer). A `jsonb` column's value goes in as
 * JSON (as it is when named in `json`: JSON text already); any other as the text a parameter of its
 * type would be (textParameter: arrays as array literals, bigints and dates as text).
 */
export function batchCallsJson(
  columns: readonly BatchColumn[],
  calls: readonly (readonly unknown[])[],
  json: ReadonlySet<string> = new Set(),
): string {
  const value = ([name, type]: BatchColumn, arg: unknown): string => {
    if (arg === undefined || arg === null) return 'null';
    if (json.has(name)) return String(arg);
    return JSON.stringify(type === 'jsonb' ? arg : textParameter(arg));
  };
  return `[${calls.map(args => `[${columns.map((column, i) => value(column, args[i])).join(',')}]`).join(',')}]`;
}

/**
 * `mem`: each call's caller's active membership in its resource (of the app environment and type
 * the call assumed), with its role and the resource's owner, locked as the single statements lock
 * it (lockedMembership), in one order (by resource, then member) and without waiting (NOWAIT): a
 * transition in flight holds its resource FOR UPDATE, and one call waiting for it would hold up
 * every other in the batch.
 */
export const lockedMembers = sql`mem AS MATERIALIZED (
      SELECT i.n, m.role::text AS role, r.owner_principal AS owner FROM i
      JOIN resources r ON r.id = i.resource_id AND r.deployment_id = i.deployment_id AND r.type = i.type
      JOIN memberships m ON m.resource_id = r.id AND m.principal_id = i.me AND m.state = 'active'
      ORDER BY r.id, m.principal_id
      FOR KEY SHARE OF r NOWAIT FOR SHARE OF m NOWAIT)`;

/** The call's transaction id when its resource and membership were as it assumed (null: not), as the single statements answer it. */
export const callXid = sql`CASE WHEN EXISTS (SELECT 1 FROM mem WHERE mem.n = i.n) THEN pg_current_xact_id()::text END AS xid`;

/** The entry's columns, in entryValues' order. */
const entry = entryParamsOf(CHARGE_COLUMNS.slice(1, 16).map(([name]) => callColumn(name)));

/**
 * Each metered call's `cov` (its storage check, by `n`) and `e` (its ledger entry against its
 * lease): chargeCtes per call. The entry is recorded when `when` holds for the call and, for a
 * write that `grows` its resource, the storage payer surely covers it.
 */
export function batchChargeCtes(kind: Exclude<BatchChargeKind, 'unmetered'>, when: RawBuilder<boolean>, grows: boolean) {
  const credit = kind === 'charged' || kind === 'credit' ? callColumn('credit_micros') : null;
  const covered = sql<boolean>`(SELECT ok FROM cov WHERE cov.n = i.n)`;
  return sql`
    cov AS MATERIALIZED (${kind === 'charged' ? payerFoundCheck(credit) : knownPayerCheck(kind, credit)}),
    e AS (${entryInsertSql(entry, grows ? sql<boolean>`${when} AND ${covered}` : when, { from: sql`i,` })})`;
}

/** `cov` for calls whose storage payer the statement finds from the resource (storageCheck). */
const payerFoundCheck = (credit: RawBuilder<unknown> | null) => sql`SELECT i.n, COALESCE(p.ok, false) AS ok, p.holder, p.developer, p.owner FROM i
      LEFT JOIN LATERAL (${storageCheck(callColumn('resource_id'), credit, entry, null, false)}) p ON true`;

/**
 * `cov` for calls with their storage payer known (storageCheck's with one): the payer stands while
 * the resource's owner is the one it followed from, as `mem` read it with the resource's lock (no
 * second lookup of the resource). A call without its membership (whose `mem` read nothing) keeps
 * its payer as known: the statement writes nothing for it, and the transaction path judges it.
 */
function knownPayerCheck(kind: KnownPayerCheck, credit: RawBuilder<unknown> | null) {
  const [holder, developer, owner] = [callColumn('holder'), callColumn('developer'), callColumn('owner')];
  return sql`SELECT i.n, o.same AND ${payerCovers(holder, developer, credit, entry, kind === 'lease')} AS ok,
        CASE WHEN o.same THEN ${holder} END AS holder, CASE WHEN o.same THEN ${developer} END AS developer, CASE WHEN o.same THEN ${owner} END AS owner
      FROM i LEFT JOIN mem ON mem.n = i.n
      CROSS JOIN LATERAL (SELECT mem.n IS NULL OR mem.owner IS NOT DISTINCT FROM ${owner} AS same) o`;
}

/** Whether the call `i`'s entry was recorded (batchChargeCtes). */
export const callCharged = sql<boolean>`EXISTS (SELECT 1 FROM e WHERE e.id = i.entry_id)`;

/** A call's charge outcome as chargeOutcome's columns (`cov` joined on the call; nulls unmetered). */
export const batchChargeOutcome = (kind: BatchChargeKind) =>
  kind === 'unmetered'
    ? sql`NULL::boolean AS covered, NULL::boolean AS charged, NULL::text AS payer_holder, NULL::boolean AS payer_developer, NULL::text AS payer_owner`
    : sql`cov.ok AS covered, ${callCharged} AS charged, cov.holder AS payer_holder, cov.developer AS payer_developer, cov.owner AS payer_owner`;
