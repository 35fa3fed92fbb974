/**
 * moveRoom (docs/api.md §10 rule 7): rows move between a resource's rooms when the caller is admin
 * in every source room and the create rule admits them in the destination; one call.
 */
import { canMoveOutOf } from './rows.rules.js';
import { sql } from '../db/sql.js';
import { uuidList } from './rows.sql.js';
import { roomIn } from './row-resource-facts.service.js';
import { rowIds } from './rows-input.service.js';
import { moveRefused, reachesNothing, roleIn } from './row-access.rules.js';
import { readable } from './row-reach.service.js';
import { type DbResult, okResult } from './row-run.service.js';
import { resourceTargets } from './row-targets.service.js';
import { type ResourceWrite, admits, recordChanges, refused } from './row-write-scope.service.js';

export async function moveRows(w: ResourceWrite): Promise<DbResult> {
  const { tx, op, binding, resource, roles, me } = w;
  // What does not depend on rows is judged before matching: the destination, and a named source room.
  const destination = await roomIn(tx, resource.id, op.destination);
  const destRole = roleIn(roles, destination);
  if (!admits(w, 'create', true, destRole)) throw refused(w, 'create', destRole, destination);
  const source = op.scope.roomId === undefined ? undefined : w.room;
  const reach = await readable(tx, resource, binding, roles, roles.resourceRole, source);
  if (source !== undefined && (reachesNothing(reach) || !canMoveOutOf(w.role))) throw moveRefused(binding.name, w.role, source);
  // Only rows the caller reads take part, so a refusal names a room they read in.
  const targets = await resourceTargets(tx, me, resource, binding, { ids: rowIds(op.ids!) }, reach);
  for (const t of targets) {
    const sourceRole = roleIn(roles, t.room_id);
    if (!canMoveOutOf(sourceRole)) throw moveRefused(binding.name, sourceRole, t.room_id);
    if (!admits(w, 'create', t.creator_id === me, destRole)) throw refused(w, 'create', destRole, destination);
  }
  const owned = targets.filter(t => t.via === 'owned').map(t => t.id);
  const linked = targets.filter(t => t.via === 'linked').map(t => t.id);
  if (owned.length)
    await tx
      .updateTable('rows')
      .set({ room_id: destination })
      .where(sql<boolean>`id IN (${uuidList(owned)})`)
      .execute();
  if (linked.length)
    await tx
      .updateTable('row_links')
      .set({ room_id: destination })
      .where('resource_id', '=', resource.id)
      .where(sql<boolean>`row_id IN (${uuidList(linked)})`)
      .execute();
  const from = new Map(targets.map(t => [t.id, t.room_id]));
  recordChanges(
    w,
    'update',
    targets.map(t => ({ ...t, room_id: destination })),
    r => from.get(r.id) ?? null,
  );
  return okResult('moveRoom');
}
