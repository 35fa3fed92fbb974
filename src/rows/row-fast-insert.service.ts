/**
 * The commonest write, a member's insert into the default room of a resource's own table, in one
 * statement (row-fast-insert.sql.ts) instead of a transaction of several: on a small machine each
 * round trip to the database costs the server CPU, not only latency (bench/README.md). Under load
 * that statement is shared with the event-loop turn's other inserts (row-fast-insert-batch.service.ts).
 *
 * It is a shortcut, never a second set of rules: it writes only when the statement finds
 * everything the transaction path would admit (the resource of the type assumed, an active member
 * whose role the create rule admits, storage surely covered, the charge held from this process's
 * lease). Anything else answers null before or after the statement, with nothing changed, and the
 * call takes the transaction path, which judges it in full and answers its errors in their order.
 */
import { ROLES } from '../core/roles.rules.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { RowEvent } from '../bus/event-bus.js';
import { stampAll } from '../bus/commit-order.js';
import type { Sql } from '../db/sql.js';
import { isOutcomeUnknown } from '../db/outcome.js';
import type { HeldCharge } from '../billing/wallet-leases.service.js';
import { type MeteringService, payerFound } from '../billing/metering.service.js';
import type { SchemaIR } from '../schema/index.js';
import { passesAccessRule } from '../rooms/rooms.rules.js';
import { ruleFor } from './rows.rules.js';
import { insertData } from './row-values.rules.js';
import { type Binding, rowTable, shape } from './row-binding.service.js';
import { newRowId } from './row-id.service.js';
import { keysToCheck } from './row-unique.service.js';
import { type DbResult, rowEvent } from './row-run.service.js';
import { valueList } from './row-write.service.js';
import { callUsage, chargedAs } from './row-metering.service.js';
import { knownDefaultRoom, knownStoragePayer, storagePayerChecked } from './row-resource-facts.service.js';
import type { DbOperation } from './rows-input.service.js';
import type { SqlRow } from './rows.sql.js';
import type { FastInsertRow } from './row-fast-insert.sql.js';
import { insertInTurn } from './row-fast-insert-batch.service.js';

export interface FastInsertDeps {
  sql: Sql;
  /** Where the one statement runs: Database.sqlWrites (its own connections on PostgreSQL). */
  sqlWrites: Sql;
  metering: Pick<MeteringService, 'holdChargeSoon' | 'storageCreditDue' | 'knownPayerCheck'>;
  config: { rows: { maxWritesPerCall: number }; metering: { developerCreditMicros: bigint } };
}

/** What the call answers and publishes once the insert committed. */
export interface FastInsert {
  result: DbResult;
  rowEvents: RowEvent[];
}

/**
 * A one-statement write that failed. Refused by PostgreSQL, it wrote nothing (one statement): the
 * charge goes back and the call takes the transaction path, which meets the same cause and answers
 * it (null). Its answer lost with the connection, it may have committed: the charge stays held and
 * the loss is the answer (503 outcome_unknown), never a second attempt that could write it twice.
 */
export function afterFailedStatement(error: unknown, held: HeldCharge | null): null {
  if (isOutcomeUnknown(error)) {
    held?.settle('unknown');
    throw error;
  }
  held?.settle('refused');
  return null;
}

/** The roles the table's create rule admits for a row of the caller's own in the default room. */
const creatorRoles = (binding: Binding): string[] =>
  ROLES.filter(role => passesAccessRule(ruleFor('create', binding.override, binding.table.access), role, true));

/** The insert's rows, or null where the transaction path must judge it (a shared table, unique keys, too many rows, a refused value). */
function rowsToInsert(deps: FastInsertDeps, binding: Binding, values: unknown): { id: string; data: SqlRow['data'] }[] | null {
  if (binding.kind !== 'owned') return null;
  try {
    const list = valueList(values);
    if (list.length > deps.config.rows.maxWritesPerCall) return null;
    const datas = list.map((v, i) => insertData(binding.name, rowTable(binding.table), v, Array.isArray(values) ? `values[${i}]` : 'values'));
    if (datas.some(data => keysToCheck(binding.table, data, null).length > 0)) return null;
    return datas.map(data => ({ id: newRowId(), data }));
  } catch {
    // A refused value is answered by the transaction path, after the resource and the rule.
    return null;
  }
}

/** The one-statement insert of `op`, or null: then the call takes the transaction path. */
export async function fastInsertIn(
  deps: FastInsertDeps,
  caller: PrincipalCaller,
  schema: SchemaIR,
  now: Date,
  op: DbOperation,
): Promise<FastInsert | null> {
  const target = op.op === 'insert' ? knownDefaultRoom(caller, schema, op) : null;
  if (!target) return null;
  const { resource, binding } = target;
  const resourceId = resource.id;
  const rows = rowsToInsert(deps, binding, op.values);
  const roles = creatorRoles(binding);
  if (!rows || roles.length === 0) return null;
  const charge = await deps.metering.holdChargeSoon(caller, callUsage([op]), chargedAs([op], false));
  if (charge === null) return null;
  const metered = charge !== 'unmetered';
  const me = caller.principal.id;
  const paidBy = metered ? knownStoragePayer(resourceId) : undefined;
  let found: FastInsertRow | undefined;
  try {
    const args = [
      resourceId,
      caller.deployment.id,
      resource.type,
      me,
      roles,
      binding.name,
      now.toISOString(),
      JSON.stringify(rows.map(r => [r.id, r.data])),
    ] as const;
    const db = deps.sqlWrites;
    if (!metered) found = await insertInTurn(db, 'unmetered', args, rows.length);
    else {
      const charged = [...args, deps.config.metering.developerCreditMicros, ...charge.entry] as const;
      if (!paidBy) found = await insertInTurn(db, 'charged', charged, rows.length);
      else {
        const paidByArgs = [...charged, paidBy.owner, paidBy.holder, paidBy.developer] as const;
        found = await insertInTurn(db, deps.metering.knownPayerCheck(paidBy, charge.entry), paidByArgs, rows.length);
      }
    }
  } catch (error) {
    return afterFailedStatement(error, metered ? charge.held : null);
  }
  storagePayerChecked(resourceId, paidBy, found ? payerFound(found) : null);
  if (metered) charge.held.settle(found?.charged ? 'charged' : found?.admitted && found.covered ? 'lease_closed' : 'refused');
  if (!found?.xid || found.inserted !== rows.length) return null;
  const sqlRows: SqlRow[] = rows.map(({ id, data }) => ({
    id,
    creator_id: me,
    resource_id: resourceId,
    room_id: null,
    data,
    created_at: now,
    updated_at: now,
  }));
  const shown = sqlRows.map(r => shape(r, binding, 'resource'));
  const rowEvents = shown.map(row => rowEvent({ caller }, 'insert', binding, resourceId, null, null, row));
  stampAll(found.xid, rowEvents);
  return { result: { op: 'insert', rows: shown, nextCursor: null, ok: true }, rowEvents };
}
