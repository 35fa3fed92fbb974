/**
 * The row store's writes of rows already judged: inserts (with their link for a shared table),
 * updates of matched targets, and deletes, each checked against the table's unique keys.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type RowData, applyUpdate, insertData, updateData } from './row-values.rules.js';
import { fail } from '../errors.js';
import type { Sql } from '../db/sql.js';
import { accountDeleted, violatesForeignKey } from '../membership/lifecycle.service.js';
import type { SqlRow } from './rows.sql.js';
import { type Binding, rowTable } from './row-binding.service.js';
import { newRowId } from './row-id.service.js';
import type { Target } from './row-targets.service.js';
import { type UniqueScope, checkUnique, keysToCheck, scopesOf, uniqueLockKeys } from './row-unique.service.js';
import { deleteRowList, insertLinkList, insertRowList, updateRowList } from './row-write.sql.js';
import { spendWrites } from './row-write-budget.service.js';

/** Who writes and when: the call's caller and clock, and the unique keys' locks it holds. */
export interface Writing {
  caller: PrincipalCaller;
  now: Date;
  uniqueLocks: Set<string>;
}

/** Where inserted rows go: a resource's room, a user's own rows, or (a shared table) the user's own rows linked into a resource's room. */
export interface RowPlacement {
  resourceId: string | null;
  roomId: string | null;
  link: { resourceId: string; roomId: string | null } | null;
}

export const USER_PLACEMENT: RowPlacement = { resourceId: null, roomId: null, link: null };

/** Rows written into `room` of a resource: in place for its own tables, linked for shared ones. */
export const placementIn = (binding: Binding, resourceId: string, roomId: string | null): RowPlacement =>
  binding.kind === 'shared' ? { resourceId: null, roomId: null, link: { resourceId, roomId } } : { resourceId, roomId, link: null };

/** An insert's or upsert's values: one object, or an array of 1 to 100. */
export function valueList(values: unknown): unknown[] {
  const list = Array.isArray(values) ? values : [values];
  if (list.length === 0 || list.length > 100) throw fail('invalid_value', 'values: one object, or an array of 1 to 100 objects.');
  return list;
}

/**
 * Inserts `values` (one object or 1 to 100) at `place`. Without a unique key to check, one
 * statement for all of them (and one for their links); with one, each row is checked and
 * inserted in turn, so a later row of the same call meets an earlier one as a taken key.
 */
export async function insertRows(w: Writing, tx: Sql, binding: Binding, values: unknown, place: RowPlacement): Promise<SqlRow[]> {
  const list = valueList(values);
  spendWrites(list.length);
  const datas = insertDatas(binding, values, list);
  const me = w.caller.principal.id;
  const scopes = insertScopes(place, me);
  const rows = datas.map(data => ({ id: newRowId(), data }));
  const checked = datas.some(data => keysToCheck(binding.table, data, null).length > 0);
  for (const batch of checked ? rows.map(row => [row]) : [rows]) {
    for (const row of batch) await checkUnique(tx, w.uniqueLocks, w.caller.deployment.id, binding, scopes, row.data, null, []);
    await insertBatch(w, tx, binding, place, batch);
  }
  return rows.map(({ id, data }) => ({
    id,
    creator_id: me,
    resource_id: place.resourceId ?? place.link?.resourceId ?? null,
    room_id: place.link ? place.link.roomId : place.roomId,
    data,
    created_at: w.now,
    updated_at: w.now,
  }));
}

/** An insert's values as stored, each checked (insertData). */
const insertDatas = (binding: Binding, values: unknown, list: unknown[] = valueList(values)): RowData[] =>
  list.map((v, i) => insertData(binding.name, rowTable(binding.table), v, Array.isArray(values) ? `values[${i}]` : 'values'));

/** Where an insert at `place` checks its rows' unique keys: their own scope, and (linked into a resource) the resource's. */
function insertScopes(place: RowPlacement, me: string): UniqueScope[] {
  const scopes: UniqueScope[] = place.resourceId ? [{ kind: 'resource', id: place.resourceId }] : [{ kind: 'user', id: me }];
  if (place.link) scopes.push({ kind: 'resource', id: place.link.resourceId });
  return scopes;
}

/** The unique-key locks insertRows takes for `values` at `place` (checkUnique's, row by row), in its order. */
export function insertLockKeys(caller: PrincipalCaller, binding: Binding, values: unknown, place: RowPlacement): string[] {
  const scopes = insertScopes(place, caller.principal.id);
  return insertDatas(binding, values).flatMap(data => {
    const keys = keysToCheck(binding.table, data, null);
    return keys.length ? uniqueLockKeys(caller.deployment.id, binding, scopes, keys, data) : [];
  });
}

/** One INSERT of `rows` (and one of their links, for a shared table). */
async function insertBatch(w: Writing, tx: Sql, binding: Binding, place: RowPlacement, rows: { id: string; data: RowData }[]): Promise<void> {
  const me = w.caller.principal.id;
  const now = w.now.toISOString();
  const list = JSON.stringify(rows.map(r => [r.id, r.data]));
  await insertRowList(tx, w.caller.deployment.id, binding.name, me, place.resourceId, place.roomId, now, list).catch(error => {
    // The caller's account was deleted while this write ran (docs/api.md §12).
    throw violatesForeignKey(error, 'rows_creator_id_fkey') ? accountDeleted() : error;
  });
  if (place.link) await insertLinkList(tx, place.link.resourceId, place.link.roomId, me, now, JSON.stringify(rows.map(r => r.id)));
}

/**
 * Writes `values` over `targets`. Without a unique key the change touches, one statement for
 * all of them; with one, each row is checked and written in turn (as inserts are).
 */
export async function updateTargets(w: Writing, tx: Sql, binding: Binding, targets: Target[], values: unknown): Promise<SqlRow[]> {
  const change = updateData(binding.name, rowTable(binding.table), values);
  const out: SqlRow[] = [];
  const pending: SqlRow[] = [];
  for (const target of targets) {
    const data = applyUpdate(binding.name, target.data, change);
    // A key whose values the row keeps takes nothing new (an upsert's update sets its key again).
    const changed = Object.keys(change.set).filter(name => JSON.stringify(data[name]) !== JSON.stringify(target.data[name]));
    const row = { ...target, data, updated_at: w.now };
    if (keysToCheck(binding.table, data, changed).length > 0) {
      await flushUpdates(tx, w.now, pending.splice(0));
      const scopes = await scopesOf(tx, { ...target, resource_id: target.via === 'owned' ? target.resource_id : null });
      await checkUnique(tx, w.uniqueLocks, w.caller.deployment.id, binding, scopes, data, changed, [target.id]);
      await flushUpdates(tx, w.now, [row]);
    } else pending.push(row);
    out.push(row);
  }
  await flushUpdates(tx, w.now, pending);
  return out;
}

async function flushUpdates(tx: Sql, now: Date, rows: readonly SqlRow[]): Promise<void> {
  if (rows.length) await updateRowList(tx, now.toISOString(), JSON.stringify(rows.map(r => [r.id, r.data])));
}

/** Deletes `targets` wherever they are (a shared row is its creator's: deleted here, it is gone everywhere it is linked). */
export async function deleteTargets(tx: Sql, targets: readonly Target[]): Promise<void> {
  if (targets.length) await deleteRowList(tx, JSON.stringify(targets.map(t => t.id)));
}
