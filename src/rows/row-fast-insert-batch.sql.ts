/**
 * Several calls' one-statement inserts (row-fast-insert.sql.ts) as one statement: what each would
 * do alone, item by item, in one plan, one round trip and one commit. PostgreSQL's cost of a small
 * statement is mostly setting up its plan and committing, paid here once for all of them
 * (bench/README.md).
 *
 * Each item keeps its own gates, in the single statement's order: its resource and active
 * membership locked (an item whose caller just left writes nothing), its role admitted by its
 * table's create rule, then, when metered, its storage payer's check and its ledger entry against
 * its lease, and its rows only when all of that held. The answer is the single statement's row for
 * each item, in the items' order.
 *
 * A batch never waits on those locks, nor on its leases' (NOWAIT): a membership transition in
 * flight holds its resource FOR UPDATE, and one item waiting for it would hold up every other
 * caller's insert in the batch; and a batch locks several resources and leases, which could close
 * a cycle with a transaction that locks several too (closing a holder's leases). The batch is
 * refused at once instead (55P03), and its inserts run alone, each waiting only for its own
 * resource and lease, as before.
 *
 * The items are one parameter, a JSON array read by jsonb_to_recordset: a statement's text and
 * plan do not depend on how many there are.
 */
import type { CompiledQuery } from 'kysely';
import { entryInsertSql, entryParamsOf } from '../billing/wallet-leases.service.js';
import { type KnownPayerCheck, type PayerValues, storageCheck } from '../billing/metering.service.js';
import { type RawBuilder, prepare, sql } from '../db/sql.js';
import type { FastInsertRow } from './row-fast-insert.sql.js';

/** The statements a batch may be: as the single statement, unmetered, metered with its payer found, or known and checked as said. */
export type InsertBatchKind = 'unmetered' | 'charged' | KnownPayerCheck;

/** Every item's columns: fastInsert's arguments, then the charge's (creditMicros, the entry), then the known payer's. */
const ITEM_COLUMNS = [
  ['resource_id', 'text'],
  ['deployment_id', 'text'],
  ['type', 'text'],
  ['me', 'text'],
  ['roles', 'text[]'],
  ['table_name', 'text'],
  ['now', 'timestamp'],
  ['rows', 'jsonb'],
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
] as const;

/**
 * The items as the statement's one parameter: each item's arguments, in the single statement's
 * order (fastInsertPaidBy's; shorter for the unmetered and the found payer's), named by column.
 * The rows argument is JSON text already and goes in as it is; bigints go as text, which
 * jsonb_to_recordset reads back exactly.
 */
export function insertBatchItems(items: readonly (readonly unknown[])[]): string {
  const item = (args: readonly unknown[], n: number) => {
    const fields = [`"n":${n}`];
    ITEM_COLUMNS.forEach(([name], i) => {
      const value = args[i];
      if (value === undefined) return;
      const json = name === 'rows' ? String(value) : JSON.stringify(typeof value === 'bigint' ? value.toString() : value);
      fields.push(`"${name}":${json}`);
    });
    return `{${fields.join(',')}}`;
  };
  return `[${items.map(item).join(',')}]`;
}

/** Where the entry's columns start (after fastInsert's 8 arguments and creditMicros). */
const ENTRY_START = 9;

const column = (name: (typeof ITEM_COLUMNS)[number][0]) => sql.ref(`i.${name}`);

function insertBatchSql(kind: InsertBatchKind, items: unknown): RawBuilder<FastInsertRow & { n: number }> {
  const columns = sql.raw(ITEM_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', '));
  const metered = kind !== 'unmetered';
  // The entry's columns, in entryValues' order: the arguments after creditMicros.
  const entry = entryParamsOf(ITEM_COLUMNS.slice(ENTRY_START, ENTRY_START + 15).map(([name]) => column(name)));
  const payer: PayerValues | null =
    kind === 'charged' || kind === 'unmetered' ? null : { owner: column('owner'), holder: column('holder'), developer: column('developer') };
  const credit = kind === 'charged' || kind === 'credit' ? column('credit_micros') : null;
  const admitted = sql<boolean>`EXISTS (SELECT 1 FROM mem WHERE mem.n = i.n AND mem.admitted)`;
  const charge = sql`,
    cov AS MATERIALIZED (SELECT i.n, COALESCE(p.ok, false) AS ok, p.holder, p.developer, p.owner FROM i
      LEFT JOIN LATERAL (${storageCheck(column('resource_id'), credit, entry, payer, kind === 'lease')}) p ON true),
    e AS (${entryInsertSql(entry, sql<boolean>`${admitted} AND (SELECT ok FROM cov WHERE cov.n = i.n)`, { from: sql`i,` })})`;
  return sql<FastInsertRow & { n: number }>`
    WITH i AS MATERIALIZED (SELECT * FROM jsonb_to_recordset(${items}::jsonb) AS i(n int, ${columns})),
    mem AS MATERIALIZED (
      SELECT i.n, m.role::text = ANY(i.roles) AS admitted FROM i
      JOIN resources r ON r.id = i.resource_id AND r.deployment_id = i.deployment_id AND r.type = i.type
      JOIN memberships m ON m.resource_id = r.id AND m.principal_id = i.me AND m.state = 'active'
      ORDER BY r.id, m.principal_id
      FOR KEY SHARE OF r NOWAIT FOR SHARE OF m NOWAIT)${metered ? charge : sql``},
    ins AS (
      INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
      SELECT (x.value ->> 0)::uuid, i.deployment_id, i.table_name, i.me, i.resource_id, NULL, x.value -> 1, i.now, i.now
      FROM i CROSS JOIN LATERAL jsonb_array_elements(i.rows) AS x
      WHERE ${metered ? sql`EXISTS (SELECT 1 FROM e WHERE e.id = i.entry_id)` : admitted}
      RETURNING id)
    SELECT i.n,
      CASE WHEN EXISTS (SELECT 1 FROM mem WHERE mem.n = i.n) THEN pg_current_xact_id()::text END AS xid,
      COALESCE((SELECT mem.admitted FROM mem WHERE mem.n = i.n), false) AS admitted,
      (SELECT count(*) FROM ins WHERE ins.id IN (SELECT (x.value ->> 0)::uuid FROM jsonb_array_elements(i.rows) AS x))::int AS inserted,
      ${
        metered
          ? sql`cov.ok AS covered, EXISTS (SELECT 1 FROM e WHERE e.id = i.entry_id) AS charged,
              cov.holder AS payer_holder, cov.developer AS payer_developer, cov.owner AS payer_owner`
          : sql`NULL::boolean AS covered, NULL::boolean AS charged, NULL::text AS payer_holder, NULL::boolean AS payer_developer, NULL::text AS payer_owner`
      }
    FROM i${metered ? sql` LEFT JOIN cov ON cov.n = i.n` : sql``}
    ORDER BY i.n`;
}

const statement = (kind: InsertBatchKind) =>
  prepare<[items: string], FastInsertRow & { n: number }>(1, (db, items) => ({
    compile: (): CompiledQuery<FastInsertRow & { n: number }> => insertBatchSql(kind, items).compile(db),
  }));

/** The batch statement of each kind, run with insertBatchItems' parameter. */
export const fastInsertBatch: Record<InsertBatchKind, ReturnType<typeof statement>> = {
  unmetered: statement('unmetered'),
  charged: statement('charged'),
  credit: statement('credit'),
  headroom: statement('headroom'),
  lease: statement('lease'),
};
