/**
 * The row store's writes of rows already judged: inserts (with their link for a shared table),
 * updates of matched targets, and deletes, each checked against the table's unique keys.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { applyUpdate, insertData, updateData } from './row-values.rules.js';
import { fail } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../core/deps.js';
import { accountDeleted, violatesForeignKey } from '../membership/lifecycle.service.js';
import type { SqlRow } from './rows.sql.js';
import { type Binding, rowTable } from './row-binding.service.js';
import { newRowId } from './row-id.service.js';
import type { Target } from './row-targets.service.js';
import { type UniqueScope, checkUnique, scopesOf } from './row-unique.service.js';
import { spendWrites } from './row-write-budget.service.js';

/** Who writes and when: the call's caller and clock. */
export interface Writing {
  caller: PrincipalCaller;
  now: Date;
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

export async function insertRows(w: Writing, tx: Tx, binding: Binding, values: unknown, place: RowPlacement): Promise<SqlRow[]> {
  const list = valueList(values);
  spendWrites(list.length);
  const datas = list.map((v, i) => insertData(binding.name, rowTable(binding.table), v, Array.isArray(values) ? `values[${i}]` : 'values'));
  const me = w.caller.principal.id;
  const scopes: UniqueScope[] = place.resourceId ? [{ kind: 'resource', id: place.resourceId }] : [{ kind: 'user', id: me }];
  if (place.link) scopes.push({ kind: 'resource', id: place.link.resourceId });
  const out: SqlRow[] = [];
  for (const data of datas) {
    await checkUnique(tx, w.caller.deployment.id, binding, scopes, data, null, []);
    const id = newRowId();
    await tx.row
      .create({
        data: {
          id,
          deploymentId: w.caller.deployment.id,
          tableName: binding.name,
          creatorId: me,
          resourceId: place.resourceId,
          roomId: place.roomId,
          data: data as Prisma.InputJsonValue,
          createdAt: w.now,
          updatedAt: w.now,
        },
      })
      .catch(error => {
        // The caller's account was deleted while this write ran (docs/api.md §12).
        throw violatesForeignKey(error, 'rows_creator_id_fkey') ? accountDeleted() : error;
      });
    if (place.link)
      await tx.rowLink.create({
        data: { rowId: id, resourceId: place.link.resourceId, roomId: place.link.roomId, linkedBy: me, createdAt: w.now },
      });
    out.push({
      id,
      creator_id: me,
      resource_id: place.resourceId ?? place.link?.resourceId ?? null,
      room_id: place.link ? place.link.roomId : place.roomId,
      data,
      created_at: w.now,
      updated_at: w.now,
    });
  }
  return out;
}

export async function updateTargets(w: Writing, tx: Tx, binding: Binding, targets: Target[], values: unknown): Promise<SqlRow[]> {
  const change = updateData(binding.name, rowTable(binding.table), values);
  const out: SqlRow[] = [];
  for (const target of targets) {
    const data = applyUpdate(binding.name, target.data, change);
    await checkUnique(
      tx,
      w.caller.deployment.id,
      binding,
      await scopesOf(tx, { ...target, resource_id: target.via === 'owned' ? target.resource_id : null }),
      data,
      Object.keys(change.set),
      [target.id],
    );
    await tx.row.update({ where: { id: target.id }, data: { data: data as Prisma.InputJsonValue, updatedAt: w.now } });
    out.push({ ...target, data, updated_at: w.now });
  }
  return out;
}

/** Deletes `targets` wherever they are (a shared row is its creator's: deleted here, it is gone everywhere it is linked). */
export async function deleteTargets(tx: Tx, targets: readonly Target[]): Promise<void> {
  await tx.row.deleteMany({ where: { id: { in: targets.map(t => t.id) } } });
}
