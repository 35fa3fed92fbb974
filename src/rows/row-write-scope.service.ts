/**
 * A write into a resource (docs/api.md §10 rules 5 and 6, §5.2): the resource and table it
 * targets, the room it lands in (the default room unless the scope names one), the caller's
 * standing there (with the auto-join a first write to a public resource makes), and how its row
 * changes are recorded. Each write operation (insert, update, delete, upsert, link, unlink,
 * moveRoom) is judged and run against this one value.
 */
import type { Role } from '../core/roles.rules.js';
import { type RowAction, ruleFor } from './rows.rules.js';
import { type AccessRule, passesAccessRule } from '../rooms/rooms.rules.js';
import type { RowEvent } from '../bus/event-bus.js';
import type { Sql } from '../db/sql.js';
import { type ResourceRef, type Roles, type Writer, writerRoles } from '../membership/writer-standing.service.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import { isPublic } from '../membership/visibility.rules.js';
import { resourceFacts } from './row-resource-facts.service.js';
import type { DbOp, DbOperation } from './rows-input.service.js';
import type { SqlRow } from './rows.sql.js';
import { refusedIn, roleIn } from './row-access.rules.js';
import { type Binding, bindingIn, shape } from './row-binding.service.js';
import { type DbResult, NeedsPrismaTransaction, type Run, invalidOperation, rowEvent } from './row-run.service.js';

/** Auto-join, write ops only (docs/api.md §5.2): reads, unlink and moveRoom never join. */
const JOINING_OPS = new Set<DbOp>(['insert', 'update', 'delete', 'upsert', 'link']);

export type ResourceWriteOp = DbOperation & { scope: { kind: 'resource' } };

export interface ResourceWrite {
  run: Run;
  tx: Sql;
  op: ResourceWriteOp;
  me: string;
  resource: ResourceRef;
  binding: Binding;
  /** The scope's room: null for the default room. */
  room: string | null;
  roles: Roles;
  /** The caller's effective role in `room`. */
  role: Role | null;
  /** Makes the caller a member (auto-join); call it only once the write's rule has admitted them. null: no join. */
  join: (() => Promise<void>) | null;
}

/**
 * Loads what a write into a resource is judged by; the resource's table must be its own or shared.
 * `uniqueLocks`: unique-key locks the write will take, taken with its facts on the driver path (resourceFacts).
 */
export async function openResourceWrite(run: Run, tx: Sql, op: ResourceWriteOp, uniqueLocks: readonly string[] = []): Promise<ResourceWrite> {
  // On Prisma's transaction (an auto-join) writerRoles locks the resource FOR UPDATE itself: a
  // KEY SHARE taken before it would let two joiners deadlock on the upgrade.
  const facts = await resourceFacts(tx, run.caller, op.scope.resourceId, op.scope.roomId, {
    lock: !run.prismaTx,
    uniqueLocks,
    held: run.uniqueLocks,
  });
  run.xid ??= facts.xid;
  const { resource } = facts;
  const binding = bindingIn(run.schema, resource.type, op.table);
  if ((op.op === 'link' || op.op === 'unlink') && binding.kind !== 'shared') {
    throw invalidOperation(`${op.op} is for shared tables; resources of type ${resource.type} own ${binding.name}, whose rows are written in place.`);
  }
  // Rule 5 and 6: writes go to the default room unless the scope names a room.
  const room = facts.room();
  const defaultRole = run.schema.resources[resource.type]?.defaultRole ?? 'reader';
  const { roles, join } = run.prismaTx
    ? await writerRoles(run.prismaTx, run.caller, resource, { joining: JOINING_OPS.has(op.op), defaultRole, now: run.now, joins: run.joins })
    : memberStanding(resource, facts.roles);
  return { run, tx, op, me: run.caller.principal.id, resource, binding, room, roles, role: roleIn(roles, room), join };
}

/**
 * A member's standing on the driver path: their write shares the resource row lock a leave or
 * removal takes FOR UPDATE, and their membership and grants were read locked (lockedWriterFacts),
 * so the write sees them as they are when it commits (a member who just left writes nothing).
 * Anyone else writes only into a public resource, through writerRoles's auto-join on Prisma's
 * transaction.
 */
function memberStanding(resource: ResourceRef, roles: Roles): Writer {
  if (roles.resourceRole) return { roles, join: null };
  if (!isPublic(resource)) throw resourceNotFound(resource.id);
  throw new NeedsPrismaTransaction();
}

/** The table's rule for `action` here (the type's override over the table's own). */
export const ruleOf = (w: ResourceWrite, action: RowAction): readonly AccessRule[] => ruleFor(action, w.binding.override, w.binding.table.access);

/** Whether `action`'s rule admits `role` (default: the caller's in the scope's room), for a row of theirs or not. */
export const admits = (w: ResourceWrite, action: RowAction, isCreator: boolean, role: Role | null = w.role): boolean =>
  passesAccessRule(ruleOf(w, action), role, isCreator, w.roles.resourceRole);

/** The refusal of `action` here (default: in the scope's room, with the caller's role there). */
export const refused = (w: ResourceWrite, action: RowAction, role: Role | null = w.role, room: string | null = w.room) =>
  refusedIn(action, w.binding.name, role, room);

/** Records row changes as seen in this resource for the bus; `previous` is the room a moved row left. */
export function recordChanges(w: ResourceWrite, kind: RowEvent['op'], rows: readonly SqlRow[], previous?: (row: SqlRow) => string | null): void {
  for (const r of rows)
    w.run.rowEvents.push(
      rowEvent(w.run, kind, w.binding, w.resource.id, r.room_id, previous ? previous(r) : r.room_id, shape(r, w.binding, 'resource')),
    );
}

/** The answer of an insert, update or delete: the rows as written, recorded for the bus. */
export function writtenIn(w: ResourceWrite, rows: readonly SqlRow[]): DbResult {
  const op = w.op.op;
  if (op === 'insert' || op === 'update' || op === 'delete') recordChanges(w, op, rows);
  return { op, rows: rows.map(r => shape(r, w.binding, 'resource')), nextCursor: null, ok: true };
}
