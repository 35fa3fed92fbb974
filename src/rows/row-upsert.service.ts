/**
 * upsert (docs/api.md §11.3): one atomic insert-or-update per value, found by a unique key
 * (`onConflict`). The key's values are locked first in its scopes, so racing upserts of one key
 * run one after the other and the second finds the first's row.
 */
import { type RowData, updateData } from './row-values.rules.js';
import { fail } from '../errors.js';
import type { Sql } from '../db/sql.js';
import type { RowEvent } from '../bus/event-bus.js';
import type { DbOperation } from './rows-input.service.js';
import type { SqlRow } from './rows.sql.js';
import { reachesNothing } from './row-access.rules.js';
import { type Binding, type RowOut, rowTable, shape } from './row-binding.service.js';
import { readable } from './row-reach.service.js';
import type { DbResult, Run } from './row-run.service.js';
import { resourceTargets, userTargets } from './row-targets.service.js';
import { type UniqueScope, conflictKey, keyConditions, lockUniqueKeys, uniqueLockKeys } from './row-unique.service.js';
import { USER_PLACEMENT, insertRows, placementIn, updateTargets, valueList } from './row-write.service.js';
import { type ResourceWrite, admits, recordChanges, refused } from './row-write-scope.service.js';

export interface UpsertItem {
  values: unknown;
  /** The values in stored form: the update path's change, and the key the row is found by. */
  change: { set: RowData; unset: string[] };
}

/** An upsert's values (one object or 1-100), each checked as an update would be and naming every key column. */
export function upsertItems(binding: Binding, values: unknown, key: readonly string[]): UpsertItem[] {
  return valueList(values).map((item, i) => {
    const where = Array.isArray(values) ? `values[${i}]` : 'values';
    const change = updateData(binding.name, rowTable(binding.table), item, where);
    const missing = key.find(name => change.set[name] === undefined);
    if (missing) {
      throw fail('missing_value', `${where}.${missing}: upsert finds its row by onConflict (${key.join(', ')}): give each of them a value.`, {
        table: binding.name,
        column: missing,
      });
    }
    return { values: item, change };
  });
}

/** Racing upserts of one key's values run one after the other, and the second finds the first's row. */
const lockConflictKey = (run: Run, tx: Sql, binding: Binding, scopes: UniqueScope[], key: string[], item: UpsertItem) =>
  lockUniqueKeys(tx, run.uniqueLocks, uniqueLockKeys(run.caller.deployment.id, binding, scopes, [key], item.change.set));

/** An upsert among the caller's own rows; `seen` records and shapes what it wrote. */
export async function upsertUser(
  run: Run,
  tx: Sql,
  binding: Binding,
  op: DbOperation,
  seen: (kind: RowEvent['op'], rows: SqlRow[]) => RowOut[],
): Promise<DbResult> {
  const key = conflictKey(binding, op.onConflict!);
  const rows: RowOut[] = [];
  for (const item of upsertItems(binding, op.values, key)) {
    await lockConflictKey(run, tx, binding, [{ kind: 'user', id: run.caller.principal.id }], key, item);
    const targets = await userTargets(tx, run.caller, binding, { where: keyConditions(binding, key, item.change.set) });
    if (targets.length) rows.push(...seen('update', await updateTargets(run, tx, binding, targets, item.values)));
    else rows.push(...seen('insert', await insertRows(run, tx, binding, item.values, USER_PLACEMENT)));
  }
  return { op: 'upsert', rows, nextCursor: null, ok: true };
}

/**
 * An upsert in a resource's room. A conflicting row takes the update path only where an update of
 * this scope reaches it and the caller reads it; anywhere else (another room, a row they cannot
 * read) the insert path meets it as an insert would: 409 unique_violation.
 */
export async function upsertResource(w: ResourceWrite): Promise<DbResult> {
  const { run, tx, op, binding, resource, roles } = w;
  const key = conflictKey(binding, op.onConflict!);
  const items = upsertItems(binding, op.values, key);
  // Judged before matching, as update and delete are: with neither path open, refused whatever rows there are.
  const canCreate = admits(w, 'create', true);
  const reach = await readable(tx, resource, binding, roles, roles.resourceRole, w.room);
  const canUpdate = !reachesNothing(reach) && admits(w, 'update', true);
  if (!canCreate && !canUpdate) throw refused(w, 'create');
  const place = placementIn(binding, resource.id, w.room);
  const scopes: UniqueScope[] = [{ kind: 'resource', id: resource.id }];
  if (binding.kind === 'shared') scopes.push({ kind: 'user', id: w.me });
  const rows: RowOut[] = [];
  for (const item of items) {
    await lockConflictKey(run, tx, binding, scopes, key, item);
    const targets = canUpdate
      ? await resourceTargets(tx, w.me, resource, binding, { where: keyConditions(binding, key, item.change.set) }, reach)
      : [];
    if (targets.length) {
      for (const t of targets) if (!admits(w, 'update', t.creator_id === w.me)) throw refused(w, 'update');
      await w.join?.();
      const updated = await updateTargets(run, tx, binding, targets, item.values);
      recordChanges(w, 'update', updated);
      rows.push(...updated.map(r => shape(r, binding, 'resource')));
    } else {
      if (!canCreate) throw refused(w, 'create');
      await w.join?.();
      const inserted = await insertRows(run, tx, binding, item.values, place);
      recordChanges(w, 'insert', inserted);
      rows.push(...inserted.map(r => shape(r, binding, 'resource')));
    }
  }
  return { op: 'upsert', rows, nextCursor: null, ok: true };
}
