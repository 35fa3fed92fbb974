/**
 * A member's insert into a resource's own table as one statement (row-fast-insert.service.ts):
 * no transaction around it, so one round trip. Its parts run in this order, each gating the next:
 *
 * 1. the resource row FOR KEY SHARE (a leave or removal locks it FOR UPDATE first, so the write
 *    waits for it or it for the write), checked against the deployment and type the caller assumed;
 * 2. the caller's membership FOR SHARE, active and in a role the table's create rule admits: a
 *    role change or removal committed while the write waited is re-read (READ COMMITTED re-checks
 *    a locked row's newest version), so a member who just left writes nothing;
 * 3. the storage payer's headroom (holderSurelyCovers) and the ledger entry against the lease
 *    this process holds (entryInsertSql), when metered. The payer is found from the resource
 *    (payerSql) and answered; once known, it is passed in (fastInsertPaidBy), and the
 *    statement checks only that the resource's owner, which alone decides it, is the same;
 * 4. the rows, only when all of that held.
 *
 * It answers what it found, so the caller can tell a write from a refusal; a refusal changed nothing.
 */
import type { CompiledQuery } from 'kysely';
import { entryInsertSql, entryParamsOf, type EntryValues } from '../billing/wallet-leases.service.js';
import { type PayerValues, holderSurelyCovers, payerSql } from '../billing/metering.service.js';
import { type RawBuilder, prepare, sql } from '../db/sql.js';

export interface FastInsertRow {
  /** The transaction's id (src/bus/commit-order.ts stamps the write's events with it); null: no such resource. */
  xid: string | null;
  member: boolean | null;
  covered: boolean | null;
  charged: boolean;
  inserted: number;
  /** The storage payer the statement checked (metered, the resource found). */
  payer_holder: string | null;
  payer_developer: boolean | null;
  payer_owner: string | null;
}

type FastInsertArgs = [
  resourceId: string,
  deploymentId: string,
  type: string,
  me: string,
  roles: readonly string[],
  metered: boolean,
  creditMicros: bigint,
  table: string,
  now: string,
  rows: string,
  /** The charge's entry (entryValues), or as many nulls when unmetered. */
  ...entry: EntryValues | typeof NO_ENTRY,
];

export const NO_ENTRY = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null] as const;

/** The statement, with its storage payer found from the resource, or passed in (payerSql). */
function fastInsertSql(
  [resourceId, deploymentId, type, me, roles, metered, creditMicros, table, now, rows, ...entry]: unknown[],
  known: PayerValues | null,
): RawBuilder<FastInsertRow> {
  return sql<FastInsertRow>`
      WITH res AS MATERIALIZED (
        SELECT r.id, pg_current_xact_id()::text AS xid FROM resources r
        WHERE r.id = ${resourceId} AND r.deployment_id = ${deploymentId} AND r.type = ${type}
        FOR KEY SHARE),
      mem AS MATERIALIZED (
        SELECT 1 FROM memberships m
        WHERE m.resource_id = (SELECT id FROM res) AND m.principal_id = ${me} AND m.state = 'active' AND m.role::text = ANY(${roles}::text[])
        FOR SHARE),
      payer AS MATERIALIZED (SELECT * FROM (${payerSql(resourceId, known)}) s WHERE ${metered}::boolean),
      gate AS MATERIALIZED (
        SELECT EXISTS (SELECT 1 FROM mem) AS member,
          (NOT ${metered}::boolean
            OR COALESCE((SELECT ${holderSurelyCovers(sql.ref('payer.holder'), sql.ref('payer.developer'), creditMicros)} FROM payer), false)) AS covered),
      entry AS (${entryInsertSql(entryParamsOf(entry), sql<boolean>`${metered}::boolean AND (SELECT member AND covered FROM gate)`)}),
      ins AS (
        INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
        SELECT (x.value ->> 0)::uuid, ${deploymentId}, ${table}, ${me}, ${resourceId}, NULL, x.value -> 1, ${now}::timestamp, ${now}::timestamp
        FROM jsonb_array_elements(${rows}::jsonb) AS x
        WHERE (SELECT member AND covered FROM gate) AND (NOT ${metered}::boolean OR EXISTS (SELECT 1 FROM entry))
        RETURNING 1)
      SELECT (SELECT xid FROM res) AS xid, (SELECT member FROM gate) AS member, (SELECT covered FROM gate) AS covered,
        EXISTS (SELECT 1 FROM entry) AS charged, (SELECT count(*) FROM ins)::int AS inserted,
        (SELECT holder FROM payer) AS payer_holder, (SELECT developer FROM payer) AS payer_developer, (SELECT owner FROM payer) AS payer_owner`;
}

export const fastInsert = prepare<FastInsertArgs, FastInsertRow>(25, (db, ...args) => ({
  compile: (): CompiledQuery<FastInsertRow> => fastInsertSql(args, null).compile(db),
}));

/** fastInsert with the storage payer known (metered only): [...fastInsert's arguments, owner, holder, developer]. */
export const fastInsertPaidBy = prepare<[...FastInsertArgs, owner: string | null, holder: string, developer: boolean], FastInsertRow>(
  28,
  (db, ...args) => ({
    compile: (): CompiledQuery<FastInsertRow> => {
      const [owner, holder, developer] = args.slice(25);
      return fastInsertSql(args.slice(0, 25), { owner, holder, developer }).compile(db);
    },
  }),
);
