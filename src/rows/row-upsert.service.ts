/**
 * upsert (docs/api.md §11.3): one atomic insert-or-update per value, found by a unique key
 * (`onConflict`). The key's values are locked first in its scopes, so racing upserts of one key
 * run one after the other and the second finds the first's row. In a resource's own table the
 * lock is its own statement, before the one that reads the rows: in READ COMMITTED a statement's
 * snapshot is taken when it starts, so only a later statement sees the row of an upsert it waited for.
 */
import { type RowData, applyUpdate, insertData, updateData } from './row-values.rules.js';
import { fail } from '../errors.js';
import type { Sql } from '../db/sql.js';
import type { RowEvent } from '../bus/event-bus.js';
import type { DbOperation } from './rows-input.service.js';
import type { SqlRow } from './rows.sql.js';
import { type Reach, reachesNothing } from './row-access.rules.js';
import { type Binding, type RowOut, rowTable, shape } from './row-binding.service.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { readable } from './row-reach.service.js';
import type { DbResult, Run } from './row-run.service.js';
import { resourceTargets, upsertOwnedTarget, userTargets } from './row-targets.service.js';
import {
  type UniqueScope,
  conflictKey,
  holdersOf,
  keyConditions,
  keysToCheck,
  lockUniqueKeys,
  uniqueKeys,
  uniqueLockKeys,
} from './row-unique.service.js';
import { newRowId } from './row-id.service.js';
import { spendWrites, writesLeft } from './row-write-budget.service.js';
import { USER_PLACEMENT, insertRows, placementIn, updateTargets, valueList } from './row-write.service.js';
import { type ResourceWrite, type ResourceWriteOp, admits, recordChanges, refused } from './row-write-scope.service.js';

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

/** Where an upsert in a resource looks for its key: the resource's rows, and (a shared table) the caller's own. */
const resourceScopes = (binding: Binding, resourceId: string, me: string): UniqueScope[] =>
  binding.kind === 'shared'
    ? [
        { kind: 'resource', id: resourceId },
        { kind: 'user', id: me },
      ]
    : [{ kind: 'resource', id: resourceId }];

/** The unique-key locks upsertResource takes for `op` in `binding`, in its order. */
export function upsertLockKeys(caller: PrincipalCaller, binding: Binding, op: ResourceWriteOp): string[] {
  const key = conflictKey(binding, op.onConflict!);
  const scopes = resourceScopes(binding, op.scope.resourceId, caller.principal.id);
  return upsertItems(binding, op.values, key).flatMap(item => uniqueLockKeys(caller.deployment.id, binding, scopes, [key], item.change.set));
}

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
  const scopes = resourceScopes(binding, resource.id, w.me);
  const inserts = oneStatementInserts(w, key, items);
  const rows: RowOut[] = [];
  for (const [i, item] of items.entries()) {
    await lockConflictKey(run, tx, binding, scopes, key, item);
    const written = inserts && (await upsertedInOneStatement(w, key, item, canUpdate ? reach : NO_REACH, canCreate ? inserts[i] : null));
    const out = written ?? (await upsertedStepByStep(w, key, item, canUpdate ? reach : null, canCreate));
    rows.push(...out.map(r => shape(r, binding, 'resource')));
  }
  return { op: 'upsert', rows, nextCursor: null, ok: true };
}

/** A value's row found and updated, or inserted, a statement at a time. */
async function upsertedStepByStep(w: ResourceWrite, key: string[], item: UpsertItem, reach: Reach | null, canCreate: boolean): Promise<SqlRow[]> {
  const { run, tx, binding, resource } = w;
  const targets = reach ? await resourceTargets(tx, w.me, resource, binding, { where: keyConditions(binding, key, item.change.set) }, reach) : [];
  if (targets.length) {
    for (const t of targets) if (!admits(w, 'update', t.creator_id === w.me)) throw refused(w, 'update');
    await w.join?.();
    const updated = await updateTargets(run, tx, binding, targets, item.values);
    recordChanges(w, 'update', updated);
    return updated;
  }
  if (!canCreate) throw refused(w, 'create');
  await w.join?.();
  const inserted = await insertRows(run, tx, binding, item.values, placementIn(binding, resource.id, w.room));
  recordChanges(w, 'insert', inserted);
  return inserted;
}

/** Reaches no row: the update path is closed, so the statement only inserts. */
const NO_REACH: Reach = { defaultRoom: 'none', all: [], own: [] };

/**
 * Each value's row as the insert path would write it, when every value can take the one-statement
 * path: a member's write into a resource's own table whose values take no unique key but the
 * conflict key, within the call's write budget. Null otherwise (and for values an insert refuses:
 * the step-by-step path answers them in their order).
 */
function oneStatementInserts(w: ResourceWrite, key: string[], items: UpsertItem[]): { id: string; data: RowData }[] | null {
  const { binding } = w;
  if (binding.kind !== 'owned' || w.join || items.length > writesLeft()) return null;
  const isKey = (k: readonly string[]) => k.join() === key.join();
  const others = uniqueKeys(binding.table).filter(k => !isKey(k));
  if (items.some(item => others.some(k => k.some(name => Object.hasOwn(item.change.set, name))))) return null;
  try {
    const datas = items.map(item => insertData(binding.name, rowTable(binding.table), item.values));
    if (datas.some(data => keysToCheck(binding.table, data, null).some(k => !isKey(k)))) return null;
    return datas.map(data => ({ id: newRowId(), data }));
  } catch {
    return null;
  }
}

/**
 * A value's row found within `reach` and updated, or `insert`ed, in one statement with the call's
 * charge (upsertOwnedTarget), then judged as the step-by-step path judges it: a refusal throws
 * and the transaction rolls the write back. Null when it wrote nothing (the key is taken out of
 * reach): the step-by-step path answers that (409 unique_violation, as an insert).
 */
async function upsertedInOneStatement(
  w: ResourceWrite,
  key: string[],
  item: UpsertItem,
  reach: Reach,
  insert: { id: string; data: RowData } | null,
): Promise<SqlRow[] | null> {
  const { run, tx, binding, resource, me } = w;
  const pickOf = { where: keyConditions(binding, key, item.change.set) };
  const taken = holdersOf(resource.deploymentId, binding, { kind: 'resource', id: resource.id }, key, item.change.set, []);
  const charge = run.charge?.take(resource.id) ?? null;
  const change = { ...item.change, now: run.now };
  const found = await upsertOwnedTarget(tx, { me, resource, binding, pickOf, reach }, change, insert && { ...insert, roomId: w.room, taken }, charge);
  const wrote = found.target !== null || found.inserted;
  // Nothing written: no charge was recorded, and the call is charged as before, once its work ran.
  if (charge) run.charge?.found(wrote ? found.charge : undefined, true);
  if (found.target) {
    const target = found.target;
    if (!admits(w, 'update', target.creator_id === me)) throw refused(w, 'update');
    const updated = [{ ...target, data: applyUpdate(binding.name, target.data, item.change), updated_at: run.now }];
    recordChanges(w, 'update', updated);
    return updated;
  }
  // No row within reach: the create rule refuses the insert path, as the step-by-step path would.
  if (!insert) throw refused(w, 'create');
  if (!found.inserted) return null;
  spendWrites(1);
  const inserted = [{ ...insert, creator_id: me, resource_id: resource.id, room_id: w.room, created_at: run.now, updated_at: run.now }];
  recordChanges(w, 'insert', inserted);
  return inserted;
}
