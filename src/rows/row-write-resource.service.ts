/**
 * Writes into a resource (docs/api.md §10, §11): each operation judged against the caller's
 * effective role in the targeted room before any row is matched, so the answer cannot depend on
 * rows the caller does not read.
 */
import type { Sql } from '../db/sql.js';
import { reachesNothing } from './row-access.rules.js';
import { readable } from './row-reach.service.js';
import { type DbResult, type Run, invalidOperation } from './row-run.service.js';
import { pick, resourceTargets, rowsWritten, writeOwnedTargets } from './row-targets.service.js';
import type { Reach } from './row-access.rules.js';
import { type RowChange, updateData } from './row-values.rules.js';
import { rowTable } from './row-binding.service.js';
import { knownBinding } from './row-resource-facts.service.js';
import { changesUniqueKey } from './row-unique.service.js';
import { upsertLockKeys, upsertResource } from './row-upsert.service.js';
import { deleteTargets, insertLockKeys, insertRows, placementIn, updateTargets } from './row-write.service.js';
import { type ResourceWrite, type ResourceWriteOp, admits, openResourceWrite, refused, writtenIn } from './row-write-scope.service.js';
import { linkRows, unlinkRows } from './row-links.service.js';
import { moveRows } from './row-move.service.js';

export async function writeResource(run: Run, tx: Sql, op: ResourceWriteOp): Promise<DbResult> {
  const w = await openResourceWrite(run, tx, op, uniqueLocksAhead(run, op));
  switch (op.op) {
    case 'insert':
      return insertIn(w);
    case 'upsert':
      return upsertResource(w);
    case 'update':
    case 'delete':
      return updateOrDeleteIn(w, op.op);
    case 'link':
      return linkRows(w);
    case 'unlink':
      return unlinkRows(w);
    case 'moveRoom':
      return moveRows(w);
    default:
      throw invalidOperation(`${op.op} is not a write.`);
  }
}

/**
 * The unique-key locks an insert or upsert will take, when they can be told before the write's
 * facts are read: the caller wrote to this resource as a member before (knownResource gives its
 * type, so its table). The transaction then takes them in the facts' statement, a round trip
 * fewer (openResourceWrite). Empty otherwise (a resource not known so, values an insert refuses):
 * the write takes its locks itself, or refuses. Locks taken for a write then refused are released
 * with it.
 */
function uniqueLocksAhead(run: Run, op: ResourceWriteOp): string[] {
  if (run.prismaTx || (op.op !== 'insert' && op.op !== 'upsert')) return [];
  const known = knownBinding(run.caller, run.schema, op.scope.resourceId, op.table);
  if (!known) return [];
  try {
    if (op.op === 'upsert') return upsertLockKeys(run.caller, known.binding, op);
    // The room does not take part in a key's scope.
    return insertLockKeys(run.caller, known.binding, op.values, placementIn(known.binding, op.scope.resourceId, null));
  } catch {
    return [];
  }
}

async function insertIn(w: ResourceWrite): Promise<DbResult> {
  if (!admits(w, 'create', true)) throw refused(w, 'create');
  await w.join?.();
  return writtenIn(w, await insertRows(w.run, w.tx, w.binding, w.op.values, placementIn(w.binding, w.resource.id, w.room)));
}

async function updateOrDeleteIn(w: ResourceWrite, action: 'update' | 'delete'): Promise<DbResult> {
  const { run, tx, binding, resource, roles, me } = w;
  // Judged before matching, so the answer cannot depend on rows: reading nothing in the room,
  // or a rule that admits the caller for no row at all, refuses whatever rows are there.
  const reach = await readable(tx, resource, binding, roles, roles.resourceRole, w.room);
  if (reachesNothing(reach) || !admits(w, action, true)) throw refused(w, action);
  const change = action === 'update' ? changeOf(w) : null;
  if (binding.kind === 'owned' && !w.join && change !== undefined && !(change && changesUniqueKey(binding.table, change.set)))
    return writtenWithTargets(w, action, reach, change);
  const targets = await resourceTargets(tx, me, resource, binding, pick(binding, w.op), reach);
  for (const t of targets) if (!admits(w, action, t.creator_id === me)) throw refused(w, action);
  // A write that changes no row makes no one a member.
  if (targets.length) await w.join?.();
  if (action === 'update') return writtenIn(w, await updateTargets(run, tx, binding, targets, w.op.values));
  // A shared row is its creator's: deleting it here deletes it everywhere it is linked (docs/api.md §11.2).
  await deleteTargets(tx, targets);
  return writtenIn(w, targets);
}

/** An update's change, or undefined when its values are refused: the path that refuses them keeps its order of errors. */
function changeOf(w: ResourceWrite): RowChange | undefined {
  try {
    return updateData(w.binding.name, rowTable(w.binding.table), w.op.values);
  } catch {
    return undefined;
  }
}

/**
 * An update or delete of a resource's own rows that changes no unique key: matched and written in
 * one statement (writeOwnedTargets) with a lone write's charge, then judged as above; a refusal
 * throws and the transaction rolls the write back, so the answer is the same.
 */
async function writtenWithTargets(w: ResourceWrite, action: 'update' | 'delete', reach: Reach, change: RowChange | null): Promise<DbResult> {
  const { tx, binding, resource, me, run } = w;
  const write = change ? { kind: 'update' as const, ...change, now: run.now } : { kind: 'delete' as const };
  const { written, charge } = await writeOwnedTargets(
    tx,
    { me, resource, binding, pickOf: pick(binding, w.op), reach },
    write,
    run.charge?.take(resource.id) ?? null,
  );
  run.charge?.found(charge, write.kind === 'update' && written.length > 0);
  for (const { target } of written) if (!admits(w, action, target.creator_id === me)) throw refused(w, action);
  return writtenIn(w, rowsWritten(binding, written, write));
}
