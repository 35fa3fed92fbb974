/**
 * What the batch statements share (row-fast-insert-batch.sql.ts, row-fast-write-batch.sql.ts): their
 * calls as rows `i` of one JSON parameter read by jsonb_to_recordset, so a statement's text and
 * plan do not depend on how many calls it carries; and each metered call's charge, as the single
 * statement's chargeCtes records it, per call.
 */
import { entryInsertSql, entryParamsOf } from '../billing/wallet-leases.service.js';
import { type KnownPayerCheck, type PayerValues, storageCheck } from '../billing/metering.service.js';
import { type RawBuilder, sql } from '../db/sql.js';

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

/** The calls `i`, numbered `n` in their order, from the statement's one parameter. */
export const batchCalls = (columns: readonly BatchColumn[], calls: unknown) =>
  sql`i AS MATERIALIZED (SELECT * FROM jsonb_to_recordset(${calls}::jsonb) AS i(n int, ${sql.raw(columns.map(([name, type]) => `${name} ${type}`).join(', '))}))`;

/**
 * The calls as the statement's one parameter: each call's arguments, in `columns`' order (shorter
 * when a kind has fewer), named by column. `json` columns are JSON text already and go in as they
 * are; bigints go as text, which jsonb_to_recordset reads back exactly.
 */
export function batchCallsJson(
  columns: readonly BatchColumn[],
  calls: readonly (readonly unknown[])[],
  json: ReadonlySet<string> = new Set(),
): string {
  const call = (args: readonly unknown[], n: number) => {
    const fields = [`"n":${n}`];
    columns.forEach(([name], i) => {
      const value = args[i];
      if (value === undefined) return;
      const text = json.has(name) ? String(value) : JSON.stringify(typeof value === 'bigint' ? value.toString() : value);
      fields.push(`"${name}":${text}`);
    });
    return `{${fields.join(',')}}`;
  };
  return `[${calls.map(call).join(',')}]`;
}

/**
 * `mem`: each call's caller's active membership in its resource (of the app environment and type
 * the call assumed), with its role, locked as the single statements lock it (lockedMembership), in
 * one order (by resource, then member) and without waiting (NOWAIT): a transition in flight holds
 * its resource FOR UPDATE, and one call waiting for it would hold up every other in the batch.
 */
export const lockedMembers = sql`mem AS MATERIALIZED (
      SELECT i.n, m.role::text AS role FROM i
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
  const payer: PayerValues | null =
    kind === 'charged' ? null : { owner: callColumn('owner'), holder: callColumn('holder'), developer: callColumn('developer') };
  const credit = kind === 'charged' || kind === 'credit' ? callColumn('credit_micros') : null;
  const covered = sql<boolean>`(SELECT ok FROM cov WHERE cov.n = i.n)`;
  return sql`
    cov AS MATERIALIZED (SELECT i.n, COALESCE(p.ok, false) AS ok, p.holder, p.developer, p.owner FROM i
      LEFT JOIN LATERAL (${storageCheck(callColumn('resource_id'), credit, entry, payer, kind === 'lease')}) p ON true),
    e AS (${entryInsertSql(entry, grows ? sql<boolean>`${when} AND ${covered}` : when, { from: sql`i,` })})`;
}

/** Whether the call `i`'s entry was recorded (batchChargeCtes). */
export const callCharged = sql<boolean>`EXISTS (SELECT 1 FROM e WHERE e.id = i.entry_id)`;

/** A call's charge outcome as chargeOutcome's columns (`cov` joined on the call; nulls unmetered). */
export const batchChargeOutcome = (kind: BatchChargeKind) =>
  kind === 'unmetered'
    ? sql`NULL::boolean AS covered, NULL::boolean AS charged, NULL::text AS payer_holder, NULL::boolean AS payer_developer, NULL::text AS payer_owner`
    : sql`cov.ok AS covered, ${callCharged} AS charged, cov.holder AS payer_holder, cov.developer AS payer_developer, cov.owner AS payer_owner`;
