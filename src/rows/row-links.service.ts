/**
 * link and unlink (docs/api.md §11.2): a shared table's rows are their creators' own, linked into
 * resources' rooms; linking again is a no-op and a hidden link comes back.
 */
import type { RowData } from './row-values.rules.js';
import { fail } from '../errors.js';
import { sql } from '../db/sql.js';
import { uuidList } from './rows.sql.js';
import { rowIds } from './rows-input.service.js';
import { reachesNothing } from './row-access.rules.js';
import { readable } from './row-reach.service.js';
import { type DbResult, invalidOperation, okResult } from './row-run.service.js';
import { resourceTargets } from './row-targets.service.js';
import { checkUnique } from './row-unique.service.js';
import { type ResourceWrite, admits, recordChanges, refused } from './row-write-scope.service.js';

/** Links the caller's own rows (by id) into the scope's room. */
export async function linkRows(w: ResourceWrite): Promise<DbResult> {
  const { run, tx, binding, resource, me } = w;
  if (!admits(w, 'create', true)) throw refused(w, 'create');
  const ids = rowIds(w.op.ids!);
  const own = await tx
    .selectFrom('rows')
    .select([sql<string>`id::text`.as('id'), 'data'])
    .where(sql<boolean>`id IN (${uuidList(ids)})`)
    .where('deployment_id', '=', run.caller.deployment.id)
    .where('table_name', '=', binding.name)
    .where('creator_id', '=', me)
    .where('resource_id', 'is', null)
    .execute();
  const missing = ids.filter(id => !own.some(r => r.id === id));
  if (missing.length)
    throw fail('row_not_found', `Only your own rows of ${binding.name} can be linked; not yours or not there: ${missing.slice(0, 5).join(', ')}.`);
  await w.join?.();
  for (const row of own) {
    await checkUnique(tx, run.uniqueLocks, run.caller.deployment.id, binding, [{ kind: 'resource', id: resource.id }], row.data as RowData, null, [
      row.id,
    ]);
    // Linking again is a no-op (moveRoom moves a link); a hidden link comes back.
    await tx
      .insertInto('row_links')
      .values({ row_id: row.id, resource_id: resource.id, room_id: w.room, linked_by: me, hidden: false, created_at: run.now })
      .onConflict(oc => oc.columns(['row_id', 'resource_id']).doUpdateSet({ hidden: false }))
      .execute();
  }
  recordChanges(w, 'insert', await resourceTargets(tx, me, resource, binding, { ids }, null));
  return okResult('link');
}

/** Unlinks rows (by id) from the resource: what is linked is unlinked, an id of nothing linked changes nothing. */
export async function unlinkRows(w: ResourceWrite): Promise<DbResult> {
  const { tx, binding, resource, roles, me } = w;
  const reach = await readable(tx, resource, binding, roles, roles.resourceRole, w.room);
  if (reachesNothing(reach) || !admits(w, 'unlink', true)) throw refused(w, 'unlink');
  const targets = await resourceTargets(tx, me, resource, binding, { ids: rowIds(w.op.ids!) }, reach);
  const owned = targets.filter(t => t.via === 'owned').map(t => t.id);
  if (owned.length)
    throw invalidOperation(
      `${owned.slice(0, 5).join(', ')}: the resource's own rows (copies a member left behind, docs/api.md §12.1) are not linked: delete them instead.`,
    );
  for (const t of targets) if (!admits(w, 'unlink', t.creator_id === me)) throw refused(w, 'unlink');
  if (targets.length)
    await tx
      .deleteFrom('row_links')
      .where('resource_id', '=', resource.id)
      .where(sql<boolean>`row_id IN (${uuidList(targets.map(t => t.id))})`)
      .execute();
  recordChanges(w, 'delete', targets);
  return okResult('unlink');
}
