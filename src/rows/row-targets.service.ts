/**
 * The rows a write changes: named by id or by a `where` filter, matched and locked in the same
 * statement (a row a concurrent write moved out of the filter is skipped), at most ROWS_MAX_WHERE
 * of them, and only rows the caller reads (docs/api.md §11.4), so a write answers exactly as if
 * no other row existed.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type Condition, type RowData, checkSize, parseWhere } from './row-values.rules.js';
import { fail } from '../errors.js';
import { type RawBuilder, type Sql, sql } from '../db/sql.js';
import type { ResourceRef } from '../membership/writer-standing.service.js';
import { type DbOperation, ROWS_MAX_WHERE, rowIds } from './rows-input.service.js';
import { type Fragment, andAll, conditionSql, joined, sameTable, uuidList } from './rows.sql.js';
import { accountDeleted, violatesForeignKey } from '../membership/lifecycle.service.js';
import type { Reach } from './row-access.rules.js';
import { type Binding, rowTable } from './row-binding.service.js';
import { spendWrites, writesLeft } from './row-write-budget.service.js';
import { type StoragePayer, chargeCtes, chargeOutcome, chargeRecorded, payerFound } from '../billing/metering.service.js';
import { type EntryValues, entryParamsOf } from '../billing/wallet-leases.service.js';

/** An update's or delete's rows: by id, or by a filter. */
export type RowPick = { ids: string[] } | { where: Condition[] };

/** A matched row, locked; `via` says whether the resource owns it or it is linked in. */
export interface Target {
  id: string;
  creator_id: string | null;
  resource_id: string | null;
  room_id: string | null;
  data: RowData;
  created_at: Date;
  updated_at: Date;
  via: 'owned' | 'linked';
}

/** The rows an update or delete names: by id or by its `where` filter. */
export function pick(binding: Binding, op: Pick<DbOperation, 'ids' | 'where'>): RowPick {
  if (op.ids) return { ids: rowIds(op.ids) };
  return { where: parseWhere(binding.name, rowTable(binding.table), op.where) };
}

/** The rows `pickOf` names, as a condition on the row id column `col`. */
export function matching(pickOf: RowPick, col: string): Fragment {
  if ('ids' in pickOf) return sql`${sql.raw(col)} IN (${uuidList(pickOf.ids)})`;
  return sql`TRUE ${andAll(pickOf.where.map(c => conditionSql(c)))}`;
}

/**
 * The matched rows as the write takes them, counted against the call's write budget. By filter:
 * refused past ROWS_MAX_WHERE. By id: the rows that are there, in the order named, each once.
 */
export function found(binding: Binding, pickOf: RowPick, rows: Target[]): Target[] {
  spendWrites(rows.length);
  if (!('ids' in pickOf)) {
    if (rows.length > ROWS_MAX_WHERE) {
      throw fail('too_many_rows', `where matches more than ${ROWS_MAX_WHERE} rows of ${binding.name}: narrow the filter, or write in pages by ids.`);
    }
    return rows;
  }
  // By id, a write changes the rows that are there: an id of no row (gone, or one you cannot
  // read) changes nothing, so two devices replaying one change both succeed.
  const byId = new Map(rows.map(t => [t.id, t]));
  return [...new Set(pickOf.ids)].flatMap(id => byId.get(id) ?? []);
}

/** `reach` over a placement's room column: the default room (wholly or own rows), whole rooms, own rows of rooms. */
export function reachSql(reach: Reach, roomCol: string, me: string): Fragment {
  const room = sql.raw(roomCol);
  const mine = sql`r.creator_id = ${me}`;
  const parts: Fragment[] = [];
  if (reach.defaultRoom === 'all') parts.push(sql`${room} IS NULL`);
  if (reach.defaultRoom === 'own') parts.push(sql`(${room} IS NULL AND ${mine})`);
  if (reach.all.length) parts.push(sql`${room} IN (${joined(reach.all)})`);
  if (reach.own.length) parts.push(sql`(${room} IN (${joined(reach.own)}) AND ${mine})`);
  return parts.length ? sql`(${joined(parts, ' OR ')})` : sql`FALSE`;
}

/**
 * The rows `pickOf` names inside the resource, locked for the write: its own rows and (shared
 * tables) rows linked in, hidden links excluded. Only rows within `reach` take part; null
 * (reading back rows just linked, for their events) reaches every room.
 */
export async function resourceTargets(
  db: Sql,
  me: string,
  resource: ResourceRef,
  binding: Binding,
  pickOf: RowPick,
  reach: Reach | null,
): Promise<Target[]> {
  const { rows: owned } = await ownedTargets(resource, binding, pickOf, withinReach(reach, me)).execute(db);
  const table = sameTable(resource.deploymentId, binding.name);
  const within = (col: string) => (reach ? reachSql(reach, col, me) : sql`TRUE`);
  const linked =
    binding.kind === 'shared'
      ? await db
          .selectFrom('row_links as l')
          .innerJoin('rows as r', 'r.id', 'l.row_id')
          .select(TARGET_COLUMNS)
          .select(['l.resource_id', 'l.room_id', sql<'linked'>`'linked'`.as('via')])
          .where(
            sql<boolean>`${matching(pickOf, 'l.row_id')} AND l.resource_id = ${resource.id} AND NOT l.hidden AND ${table} AND ${within('l.room_id')}`,
          )
          .limit(ROWS_MAX_WHERE + 1)
          .forUpdate(['r', 'l'])
          .execute()
      : [];
  return found(binding, pickOf, [...owned, ...linked].map(asTarget));
}

/** `reach` over a resource's own row `r` (null: every room). */
const withinReach = (reach: Reach | null, me: string): Fragment => (reach ? reachSql(reach, 'r.room_id', me) : sql`TRUE`);

/**
 * The resource as the caller assumed it (its app environment and type) and their active
 * membership in it, locked in one scan, for a one-statement write: the resource's id, the
 * transaction's id and the caller's role; no row when either is not so. A leave or removal locks
 * the resource FOR UPDATE first, so the write waits for it or it for the write, and a membership
 * removed or changed meanwhile is re-read (READ COMMITTED re-checks a locked row's newest version).
 */
export const lockedMembership = (resource: { id: unknown; deploymentId: unknown; type: unknown }, me: unknown) => sql<{
  id: string;
  xid: string;
  role: string;
}>`
  SELECT r.id, pg_current_xact_id()::text AS xid, m.role::text AS role FROM resources r
  JOIN memberships m ON m.resource_id = r.id AND m.principal_id = ${me} AND m.state = 'active'
  WHERE r.id = ${resource.id} AND r.deployment_id = ${resource.deploymentId} AND r.type = ${resource.type}
  FOR KEY SHARE OF r FOR SHARE OF m`;

/**
 * The resource's own rows `pickOf` names and `within` admits (a condition on the row `r`), locked
 * for the write. A template rather than the query builder: it is built on every update, delete and
 * upsert, and the builder's parsing costs the server more than the statement's text (bench/README.md).
 */
export const ownedTargets = (resource: Pick<ResourceRef, 'id' | 'deploymentId'>, binding: Binding, pickOf: RowPick, within: Fragment) =>
  sql<Target>`SELECT r.id::text AS id, r.creator_id, r.data, r.created_at, r.updated_at, r.resource_id, r.room_id, 'owned' AS via
    FROM rows r
    WHERE ${matching(pickOf, 'r.id')} AND r.resource_id = ${resource.id} AND ${sameTable(resource.deploymentId, binding.name)}
      AND ${within}
    LIMIT ${ROWS_MAX_WHERE + 1} FOR UPDATE OF r`;

/** A resource's own rows a statement takes: those `pickOf` names within `reach`, as `me` reads them. */
export interface OwnedPick {
  me: string;
  resource: ResourceRef;
  binding: Binding;
  pickOf: RowPick;
  reach: Reach;
}

/** What the statement that matches a write's rows also does to them: delete them, or set and unset columns. */
export type TargetWrite = { kind: 'delete' } | { kind: 'update'; set: RowData; unset: string[]; now: Date };

/** A matched row as the write left it: `data` is its new data for an update (unchanged for a delete). */
export interface Written {
  target: Target;
  data: RowData;
}

/**
 * resourceTargets and then the write, in one statement, for a resource's own table: the rows
 * `pickOf` names within `reach`, matched, locked and deleted or changed (targetChange), and the
 * call's charge when one is held for it (chargeCtes: an update grows the resource, a delete does
 * not). Answers each row as it was, with its new data for an update, and what the charge found.
 * The caller judges the rows as before and throws to refuse: the transaction rolls the write and
 * its charge back.
 */
export async function writeOwnedTargets(
  db: Sql,
  { me, resource, binding, pickOf, reach }: OwnedPick,
  write: TargetWrite,
  charge: StatementCharge | null,
): Promise<{ written: Written[]; charge: ChargeFound | undefined }> {
  const matched = ownedTargets(resource, binding, pickOf, withinReach(reach, me));
  // More rows than the call may write are written by no one: found() refuses them, as before the write.
  const fits = atMost(Math.min(ROWS_MAX_WHERE, writesLeft()));
  const grows = write.kind === 'update' ? sql<boolean>`EXISTS (SELECT 1 FROM c)` : sql<boolean>`false`;
  const charged = chargeParts(resource.id, charge, grows);
  const { rows } = await sql<WrittenRow>`
    WITH t AS MATERIALIZED (${matched}), c AS (${targetChange(write, fits)})${charged.ctes}
    ${writtenSelect(charged.row)}`.execute(db);
  return { written: writtenOf(binding, pickOf, rows), charge: charged.found(rows) };
}

/**
 * The write of the matched rows `t`, when `when` holds: deleted, or changed (`data || set - unset`,
 * the merge applyUpdate makes); returning each row of `t` with its data after (a delete's: as it
 * was). Found again by id, not by ctid: a `t` whose lock waited on a racing write can carry the
 * ctid of the row version before it (the race tests of rows-fast-update fail so).
 */
export const targetChange = (write: TargetWrite, when: Fragment): Fragment =>
  write.kind === 'delete'
    ? sql`DELETE FROM rows AS w USING t WHERE w.id = t.id::uuid AND ${when} RETURNING t.*, w.data AS new_data`
    : sql`UPDATE rows AS w SET data = ${mergedData('w.data', write)}, updated_at = ${write.now.toISOString()}::timestamp
        FROM t WHERE w.id = t.id::uuid AND ${when} RETURNING t.*, w.data AS new_data`;

/** Whether the matched rows `t` are at most `limit`: read no further than one row past it. */
export const atMost = (limit: number): Fragment => sql`NOT EXISTS (SELECT 1 FROM t OFFSET ${limit}::int)`;

/** The jsonb column `data` as an update leaves it: its columns set and unset. */
export const mergedData = (data: string, { set, unset }: { set: RowData; unset: string[] }): Fragment =>
  sql`(${sql.raw(data)} || ${JSON.stringify(set)}::jsonb) - ${unset}::text[]`;

/** A row of a statement that writes the matched rows `t` (targetChange as `c`): the row as it was and its new data. */
export type WrittenRow = StatementRow & { new_data: RowData | null };

/**
 * The answer of such a statement: each matched row with its new data (the rows `c` wrote, which are
 * every row `t` matched, or else those rows with none), and the charge's outcome (`charged` is
 * chargeParts' row); `extra` columns after. No join of `t` and `c`: `c` returns `t`'s columns.
 */
export const writtenSelect = (charged: Fragment, extra: Fragment = sql``): Fragment =>
  sql`SELECT x.*, s.*${extra} FROM ${charged}
    LEFT JOIN (SELECT * FROM c UNION ALL SELECT t.*, NULL::jsonb AS new_data FROM t WHERE NOT EXISTS (SELECT 1 FROM c)) x ON true`;

/** The rows of such a statement as the write takes them (found), each with its new data. */
export function writtenOf(binding: Binding, pickOf: RowPick, rows: readonly WrittenRow[]): Written[] {
  const data = new Map(rows.map(row => [row.id, row.new_data]));
  return found(binding, pickOf, targetsIn(rows)).map(target => ({ target, data: data.get(target.id)! }));
}

/** The rows as the write left them: a deleted one as it was; an updated one with its new data (size-checked) and time. */
export const rowsWritten = (binding: Binding, written: readonly Written[], write: TargetWrite): Target[] =>
  written.map(({ target, data }) => (write.kind === 'update' ? { ...target, data: checkSize(binding.name, data), updated_at: write.now } : target));

/** An upsert's row where the key finds none within reach: inserted at `roomId` unless `taken` (the key's holders in its scope) finds one. */
export interface UpsertInsert {
  id: string;
  data: RowData;
  roomId: string | null;
  taken: Fragment;
}

/**
 * One upsert value of a resource's own table in one statement, once its key is locked: the row
 * `pickOf` (the key's values) finds within `reach`, locked and changed as writeOwnedTargets
 * changes it; else `insert` (null: the create rule refuses it), when no row anywhere in the key's
 * scope holds the key; and the call's charge when one is held for it, recorded only when a row
 * was written (so a key taken out of reach, answered on the step-by-step path, has no charge yet).
 * Answers the row found as it was (null: none), whether the row was inserted, and what the charge
 * found. The caller judges the row found as upsert does and throws to refuse: the transaction rolls
 * the write and its charge back.
 */
export async function upsertOwnedTarget(
  db: Sql,
  { me, resource, binding, pickOf, reach }: OwnedPick,
  change: { set: RowData; unset: string[]; now: Date },
  insert: UpsertInsert | null,
  charge: StatementCharge | null,
): Promise<{ target: Target | null; inserted: boolean; charge: ChargeFound | undefined }> {
  const matched = ownedTargets(resource, binding, pickOf, withinReach(reach, me));
  const now = change.now.toISOString();
  const inserting = insert
    ? sql`INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
        SELECT ${insert.id}::uuid, ${resource.deploymentId}, ${binding.name}, ${me}, ${resource.id}, ${insert.roomId}::text,
          ${JSON.stringify(insert.data)}::jsonb, ${now}::timestamp, ${now}::timestamp
        WHERE NOT EXISTS (SELECT 1 FROM t) AND NOT EXISTS (${insert.taken}) RETURNING id`
    : sql`SELECT NULL::uuid AS id WHERE false`;
  const written = sql<boolean>`(EXISTS (SELECT 1 FROM c) OR EXISTS (SELECT 1 FROM i))`;
  const charged = chargeParts(resource.id, charge, written, written);
  const { rows } = await sql<StatementRow & { inserted: boolean }>`
    WITH t AS MATERIALIZED (${matched}),
      c AS (UPDATE rows AS w SET data = ${mergedData('w.data', change)}, updated_at = ${now}::timestamp
        FROM t WHERE w.id = t.id::uuid RETURNING w.id),
      i AS (${inserting})${charged.ctes}
    SELECT t.*, EXISTS (SELECT 1 FROM i) AS inserted, s.* FROM ${charged.row} LEFT JOIN t ON true`
    .execute(db)
    .catch(error => {
      // The caller's account was deleted while this write ran (docs/api.md §12).
      throw violatesForeignKey(error, 'rows_creator_id_fkey') ? accountDeleted() : error;
    });
  const [target = null] = found(binding, pickOf, targetsIn(rows));
  return { target, inserted: Boolean(rows[0]?.inserted), charge: charged.found(rows) };
}

/** A row of a statement that answers one row even when it matched none (the target's columns null then), with its charge's outcome. */
export type StatementRow = { [K in keyof Target]: Target[K] | null } & {
  covered: boolean | null;
  charged: boolean | null;
  payer_holder: string | null;
  payer_developer: boolean | null;
  payer_owner: string | null;
};

/** The matched rows of such a statement, as targets. */
const targetsIn = (rows: readonly StatementRow[]): Target[] =>
  rows.flatMap(({ id, creator_id, data, created_at, updated_at, resource_id, room_id, via }) =>
    id === null ? [] : [asTarget({ id, creator_id, data, created_at, updated_at, resource_id, room_id, via })],
  );

/**
 * The call's charge as parts of the statement that writes its rows: its CTEs (after those they
 * read; none without a charge), whether its entry was recorded (false without a charge), the
 * one-row relation `s` the statement selects from, so it answers a row even when nothing matched,
 * carrying the charge's outcome, and that outcome read back.
 */
export function chargeParts(resourceId: unknown, charge: StatementCharge | null, grows: RawBuilder<boolean>, when?: RawBuilder<boolean>) {
  return {
    ctes: charge
      ? sql`, ${chargeCtes(resourceId, charge.creditMicros, entryParamsOf(charge.entry), grows, when, charge.payer, charge.holdsLease)}`
      : sql``,
    recorded: charge ? chargeRecorded : sql<boolean>`false`,
    row: sql`(SELECT ${
      charge
        ? chargeOutcome
        : sql`NULL::boolean AS covered, NULL::boolean AS charged, NULL::text AS payer_holder, NULL::boolean AS payer_developer, NULL::text AS payer_owner`
    }) s`,
    found: (rows: readonly StatementRow[]) => chargeFound(charge, rows),
  };
}

/** What a statement with chargeParts' charge found, from its rows (undefined without a charge). */
export const chargeFound = (charge: StatementCharge | null, rows: readonly StatementRow[]): ChargeFound | undefined =>
  charge && rows[0] ? { covered: Boolean(rows[0].covered), charged: Boolean(rows[0].charged), payer: payerFound(rows[0]) } : undefined;

/** A call's charge for the statement that writes its rows to record: its ledger entry, and the storage check's starting credit. */
export interface StatementCharge {
  entry: EntryValues;
  /** Null only with a `payer` that can have no credit due (storageCreditDue): the check then leaves the credit out. */
  creditMicros: bigint | null;
  /** The resource's storage payer, when an earlier statement found it (chargeCtes checks its owner only). */
  payer?: StoragePayer | null;
  /** That payer holds the lease the entry is paid from (payerHoldsLease): the check reads no wallet. */
  holdsLease?: boolean;
}

/** What a statement with the call's charge found (chargeOutcome). */
export interface ChargeFound {
  covered: boolean;
  charged: boolean;
  /** The resource's storage payer, when the statement found it (none was passed in). */
  payer?: StoragePayer | null;
}

/** The columns of a matched row but its placement (its own, or its link's). */
const TARGET_COLUMNS = [sql<string>`r.id::text`.as('id'), 'r.creator_id', 'r.data', 'r.created_at', 'r.updated_at'] as const;

/** A selected row as a target: `data` is the jsonb object every row holds. */
const asTarget = <T extends { data: unknown }>(row: T): Target => ({ ...row, data: row.data as RowData }) as unknown as Target;

/** The rows `pickOf` names among the caller's own rows of a top-level table, locked for the write. */
export async function userTargets(db: Sql, caller: PrincipalCaller, binding: Binding, pickOf: RowPick): Promise<Target[]> {
  const rows = await db
    .selectFrom('rows as r')
    .select(TARGET_COLUMNS)
    .select(['r.resource_id', 'r.room_id', sql<'owned'>`'owned'`.as('via')])
    .where(
      sql<boolean>`${matching(pickOf, 'r.id')} AND ${sameTable(caller.deployment.id, binding.name)} AND r.creator_id = ${caller.principal.id} AND r.resource_id IS NULL`,
    )
    .limit(ROWS_MAX_WHERE + 1)
    .forUpdate('r')
    .execute();
  return found(binding, pickOf, rows.map(asTarget));
}
