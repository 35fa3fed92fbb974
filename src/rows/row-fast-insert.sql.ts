/**
 * A member's insert into a resource's own table as one statement (row-fast-insert.service.ts):
 * no transaction around it, so one round trip. Its parts run in this order, each gating the next:
 *
 * 1. the resource row FOR KEY SHARE and the caller's active membership FOR SHARE, in one scan
 *    (lockedMembership): a member who just left writes nothing. The role must be one the
 *    table's create rule admits;
 * 2. when metered, the storage payer's headroom and the ledger entry against the lease this
 *    process holds (chargeParts): the payer is found from the resource, or passed in once known
 *    (fastInsertPaidBy), and then the statement checks only that the resource's owner, which
 *    alone decides it, is the same;
 * 3. the rows, only when all of that held.
 *
 * Metered and unmetered are two statements: the unmetered one neither opens the ledger nor
 * plans its parts (a plan's start-up cost grows with every table and index it names).
 *
 * It answers what it found, so the caller can tell a write from a refusal; a refusal changed nothing.
 */
import type { CompiledQuery } from 'kysely';
import type { EntryValues } from '../billing/wallet-leases.service.js';
import type { KnownPayerCheck, PayerValues } from '../billing/metering.service.js';
import { type RawBuilder, prepare, sql } from '../db/sql.js';
import { type StatementCharge, type StatementRow, chargeParts, lockedMembership } from './row-targets.service.js';

/** What the statement found, with its charge's outcome (chargeParts; nulls when unmetered). */
export type FastInsertRow = Pick<StatementRow, 'covered' | 'charged' | 'payer_holder' | 'payer_developer' | 'payer_owner'> & {
  /** The transaction's id (src/bus/commit-order.ts stamps the write's events with it); null: no such resource, or the caller is no active member. */
  xid: string | null;
  /** Whether the caller's role is one the create rule admits. */
  admitted: boolean | null;
  inserted: number;
};

type FastInsertArgs = [
  resourceId: string,
  deploymentId: string,
  type: string,
  me: string,
  roles: readonly string[],
  table: string,
  now: string,
  rows: string,
];
type ChargeArgs = [creditMicros: bigint, ...entry: EntryValues];
/** Where each statement's arguments end: the insert's own, then the charge's, then the known payer's. */
const INSERT_ARITY = 8;
const CHARGED_ARITY = 24;
const PAID_BY_ARITY = 27;

/**
 * The statement: `charge` null when unmetered (the charge's arguments and the payer, if known,
 * otherwise, with how its check decides: knownPayerCheck).
 */
function fastInsertSql(
  [resourceId, deploymentId, type, me, roles, table, now, rows]: readonly unknown[],
  charge: { args: readonly unknown[]; payer: PayerValues | null; check: KnownPayerCheck } | null,
): RawBuilder<FastInsertRow> {
  const admitted = sql<boolean>`EXISTS (SELECT 1 FROM mem WHERE mem.role = ANY(${roles}::text[]))`;
  const [creditMicros, ...entry] = charge?.args ?? [];
  // The parts stand for the values the statement is prepared with (prepare's placeholders).
  const statementCharge =
    charge &&
    ({
      entry,
      creditMicros: charge.check === 'credit' ? creditMicros : null,
      payer: charge.payer,
      holdsLease: charge.check === 'lease',
    } as unknown as StatementCharge);
  // An insert grows the resource: its storage payer must surely cover it.
  const charged = chargeParts(resourceId, statementCharge, sql<boolean>`true`, admitted);
  return sql<FastInsertRow>`
    WITH mem AS MATERIALIZED (${lockedMembership({ id: resourceId, deploymentId, type }, me)})${charged.ctes},
    ins AS (
      INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
      SELECT (x.value ->> 0)::uuid, ${deploymentId}, ${table}, ${me}, mem.id, NULL, x.value -> 1, ${now}::timestamp, ${now}::timestamp
      FROM mem, jsonb_array_elements(${rows}::jsonb) AS x
      WHERE ${charge ? charged.recorded : admitted}
      RETURNING 1)
    SELECT (SELECT xid FROM mem) AS xid, ${admitted} AS admitted, (SELECT count(*) FROM ins)::int AS inserted, s.* FROM ${charged.row}`;
}

/** The unmetered insert. */
export const fastInsert = prepare<FastInsertArgs, FastInsertRow>(INSERT_ARITY, (db, ...args) => ({
  compile: (): CompiledQuery<FastInsertRow> => fastInsertSql(args, null).compile(db),
}));

/** The metered insert, its storage payer found from the resource: [...fastInsert's arguments, creditMicros, ...entry]. */
export const fastInsertCharged = prepare<[...FastInsertArgs, ...ChargeArgs], FastInsertRow>(CHARGED_ARITY, (db, ...args) => ({
  compile: (): CompiledQuery<FastInsertRow> => fastInsertSql(args, { args: args.slice(INSERT_ARITY), payer: null, check: 'credit' }).compile(db),
}));

type PaidByArgs = [...FastInsertArgs, ...ChargeArgs, owner: string | null, holder: string, developer: boolean];

/** The metered insert with its storage payer known, checked as `check` says (knownPayerCheck). */
const paidBy = (check: KnownPayerCheck) =>
  prepare<PaidByArgs, FastInsertRow>(PAID_BY_ARITY, (db, ...args) => ({
    compile: (): CompiledQuery<FastInsertRow> => {
      const [owner, holder, developer] = args.slice(CHARGED_ARITY);
      const charge = { args: args.slice(INSERT_ARITY, CHARGED_ARITY), payer: { owner, holder, developer }, check };
      return fastInsertSql(args, charge).compile(db);
    },
  }));

/**
 * The metered insert with its storage payer known, one statement per check (an unused creditMicros
 * argument stays in): [...fastInsertCharged's arguments, owner, holder, developer].
 */
export const fastInsertPaidBy = { credit: paidBy('credit'), headroom: paidBy('headroom'), lease: paidBy('lease') };
