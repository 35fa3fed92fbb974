/** Writes among the caller's own rows of a top-level table (docs/api.md §11.2): insert, upsert, update, delete. */
import type { RowEvent } from '../bus/event-bus.js';
import type { Sql } from '../db/sql.js';
import type { DbOperation } from './rows-input.service.js';
import type { SqlRow } from './rows.sql.js';
import { type RowOut, shape, userBinding } from './row-binding.service.js';
import { type DbResult, type Run, invalidOperation, rowEvent } from './row-run.service.js';
import { pick, userTargets } from './row-targets.service.js';
import { upsertUser } from './row-upsert.service.js';
import { USER_PLACEMENT, deleteTargets, insertRows, updateTargets } from './row-write.service.js';

export async function writeUser(run: Run, tx: Sql, op: DbOperation): Promise<DbResult> {
  const binding = userBinding(run.schema, op.table);
  const seen = (kind: RowEvent['op'], rows: SqlRow[]): RowOut[] => {
    const shaped = rows.map(r => shape(r, binding, 'user'));
    for (const row of shaped) run.rowEvents.push(rowEvent(run, kind, binding, null, null, null, row));
    return shaped;
  };
  const written = (kind: 'insert' | 'update' | 'delete', rows: SqlRow[]): DbResult => ({
    op: kind,
    rows: seen(kind, rows),
    nextCursor: null,
    ok: true,
  });
  switch (op.op) {
    case 'insert':
      return written('insert', await insertRows(run, tx, binding, op.values, USER_PLACEMENT));
    case 'upsert':
      return upsertUser(run, tx, binding, op, seen);
    case 'update':
      return written('update', await updateTargets(run, tx, binding, await userTargets(tx, run.caller, binding, pick(binding, op)), op.values));
    case 'delete': {
      const targets = await userTargets(tx, run.caller, binding, pick(binding, op));
      await deleteTargets(tx, targets);
      return written('delete', targets);
    }
    default:
      throw invalidOperation(`${op.op} works on a resource's rows: use scope { kind: 'resource', resourceId }.`);
  }
}
