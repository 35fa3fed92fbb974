/**
 * Several calls' one-statement inserts (row-fast-insert.sql.ts) as one statement: what each would
 * do alone, call by call, in one plan, one round trip and one commit. PostgreSQL's cost of a small
 * statement is mostly setting up its plan and committing, paid here once for all of them
 * (bench/README.md).
 *
 * Each call keeps its own gates, in the single statement's order: its resource and active
 * membership locked (a call whose caller just left writes nothing), its role admitted by its
 * table's create rule, then, when metered, its storage payer's check and its ledger entry against
 * its lease, and its rows only when all of that held. The answer is the single statement's row for
 * each call, in the calls' order.
 *
 * A batch never waits on those locks, nor on its leases' (NOWAIT): a membership transition in
 * flight holds its resource FOR UPDATE, and one call waiting for it would hold up every other
 * caller's insert in the batch; and a batch locks several resources and leases, which could close
 * a cycle with a transaction that locks several too (closing a holder's leases). The batch is
 * refused at once instead (55P03), and its inserts run alone, each waiting only for its own
 * resource and lease, as before.
 */
import type { CompiledQuery } from 'kysely';
import { type RawBuilder, prepare, sql } from '../db/sql.js';
import type { FastInsertRow } from './row-fast-insert.sql.js';
import {
  type BatchChargeKind,
  CHARGE_COLUMNS,
  batchCalls,
  batchCallsJson,
  batchChargeCtes,
  batchChargeOutcome,
  callCharged,
  callXid,
  lockedMembers,
} from './row-batch.sql.js';

/** The statements a batch may be: as the single statement, unmetered, metered with its payer found, or known and checked as said. */
export type InsertBatchKind = BatchChargeKind;

/** Every call's columns: fastInsert's arguments, then the charge's (fastInsertPaidBy's). */
const INSERT_COLUMNS = [
  ['resource_id', 'text'],
  ['deployment_id', 'text'],
  ['type', 'text'],
  ['me', 'text'],
  ['roles', 'text[]'],
  ['table_name', 'text'],
  ['now', 'timestamp'],
  ['rows', 'jsonb'],
  ...CHARGE_COLUMNS,
] as const;

/** The calls as the statement's one parameter; the rows argument is JSON text already. */
export const insertBatchItems = (calls: readonly (readonly unknown[])[]): string => batchCallsJson(INSERT_COLUMNS, calls, new Set(['rows']));

function insertBatchSql(kind: InsertBatchKind, calls: unknown): RawBuilder<FastInsertRow & { n: number }> {
  const metered = kind !== 'unmetered';
  const admitted = sql<boolean>`EXISTS (SELECT 1 FROM mem WHERE mem.n = i.n AND mem.role = ANY(i.roles))`;
  return sql<FastInsertRow & { n: number }>`
    WITH ${batchCalls(INSERT_COLUMNS, calls)},
    ${lockedMembers}${metered ? sql`,${batchChargeCtes(kind, admitted, true)}` : sql``},
    ins AS (
      INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
      SELECT (x.value ->> 0)::uuid, i.deployment_id, i.table_name, i.me, i.resource_id, NULL, x.value -> 1, i.now, i.now
      FROM i CROSS JOIN LATERAL jsonb_array_elements(i.rows) AS x
      WHERE ${metered ? callCharged : admitted}
      RETURNING id)
    SELECT i.n,
      ${callXid}, ${admitted} AS admitted,
      (SELECT count(*) FROM ins WHERE ins.id IN (SELECT (x.value ->> 0)::uuid FROM jsonb_array_elements(i.rows) AS x))::int AS inserted,
      ${batchChargeOutcome(kind)}
    FROM i${metered ? sql` LEFT JOIN cov ON cov.n = i.n` : sql``}
    ORDER BY i.n`;
}

const statement = (kind: InsertBatchKind) =>
  prepare<[calls: string], FastInsertRow & { n: number }>(1, (db, calls) => ({
    compile: (): CompiledQuery<FastInsertRow & { n: number }> => insertBatchSql(kind, calls).compile(db),
  }));

/** The batch statement of each kind, run with insertBatchItems' parameter. */
export const fastInsertBatch: Record<InsertBatchKind, ReturnType<typeof statement>> = {
  unmetered: statement('unmetered'),
  charged: statement('charged'),
  credit: statement('credit'),
  headroom: statement('headroom'),
  lease: statement('lease'),
};
