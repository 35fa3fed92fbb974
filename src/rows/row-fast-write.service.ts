/**
 * A member's lone write into the default room of a resource's own table in one statement instead
 * of a transaction of three round trips (BEGIN with the facts, the write, COMMIT): an insert
 * (row-fast-insert.service.ts), an update or delete (row-fast-write.sql.ts), or an upsert whose
 * key finds its row (the update of that row).
 *
 * A shortcut, never a second set of rules. In the default room a caller's role is their resource
 * role (no room grant counts there), so what readable and admits judge of them depends on that role
 * alone: the statement gets, for each action, the roles the table's rules admit (defaultRoomRoles),
 * and writes only when the role it finds, locked, is one of them for every row it matched. Anything
 * else answers null before or after the statement, with nothing changed, and the call takes the
 * transaction path, which judges it in full and answers its errors in their order.
 */
import { ROLES } from '../core/roles.rules.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { stampAll } from '../bus/commit-order.js';
import { settledAs } from '../billing/metering.service.js';
import type { SchemaIR } from '../schema/index.js';
import { passesAccessRule } from '../rooms/rooms.rules.js';
import { rolesReaching, ruleFor } from './rows.rules.js';
import { rowTable, shape, type Binding } from './row-binding.service.js';
import { rowEvent } from './row-run.service.js';
import { updateData } from './row-values.rules.js';
import { changesUniqueKey, conflictKey, keyConditions, uniqueKeys } from './row-unique.service.js';
import { upsertItems } from './row-upsert.service.js';
import { type RowPick, type TargetWrite, pick, rowsWritten } from './row-targets.service.js';
import { callUsage, chargedAs, statementCharge } from './row-metering.service.js';
import { forgetStoragePayer, knownDefaultRoom, knownStoragePayer, rememberStoragePayer } from './row-resource-facts.service.js';
import { type DbOperation, ROWS_MAX_WHERE } from './rows-input.service.js';
import { type FastInsert, type FastInsertDeps, afterFailedStatement, fastInsertIn } from './row-fast-insert.service.js';
import { type DefaultRoomRoles, type FastWritten, fastOwnedWrite } from './row-fast-write.sql.js';

/** What the call answers and publishes once the write committed. */
export type FastWrite = FastInsert;

/** The one-statement write of a lone `op`, or null: then the call takes the transaction path. */
export function fastWriteIn(deps: FastInsertDeps, caller: PrincipalCaller, schema: SchemaIR, now: Date, op: DbOperation): Promise<FastWrite | null> {
  switch (op.op) {
    case 'insert':
      return fastInsertIn(deps, caller, schema, now, op);
    case 'update':
    case 'delete':
    case 'upsert':
      return fastUpdateOrDeleteIn(deps, caller, schema, now, op, op.op);
    default:
      return Promise.resolve(null);
  }
}

/**
 * `action`'s roles in a resource's default room, where the caller's role is their resource role:
 * what readable reaches (reachOf's readReach with that role) and what admits admits, role by role.
 */
export function defaultRoomRoles(binding: Binding, action: 'update' | 'delete'): DefaultRoomRoles {
  const read = rolesReaching(ruleFor('read', binding.override, binding.table.access));
  const rule = ruleFor(action, binding.override, binding.table.access);
  return {
    readAll: read.all,
    readOwn: read.own,
    // Reading nothing, a role is refused before matching, whatever the rule.
    writeOwn: [...read.all, ...read.own].filter(role => passesAccessRule(rule, role, true)),
    writeOthers: ROLES.filter(role => passesAccessRule(rule, role, false)),
  };
}

/**
 * The write the transaction path makes in one statement too (writtenWithTargets) and its rows, or
 * null where it judges otherwise or refuses: a table not the resource's own, refused values, a
 * unique key changed, a malformed pick (an upsert: see upsertUpdate).
 */
function ownedWrite(binding: Binding, op: DbOperation, action: FastAction, now: Date): { write: TargetWrite; pickOf: RowPick } | null {
  if (binding.kind !== 'owned') return null;
  try {
    if (action === 'upsert') return upsertUpdate(binding, op, now);
    const pickOf = pick(binding, op);
    if (action === 'delete') return { write: { kind: 'delete' }, pickOf };
    const change = updateData(binding.name, rowTable(binding.table), op.values);
    return changesUniqueKey(binding.table, change.set) ? null : { write: { kind: 'update', ...change, now }, pickOf };
  } catch {
    // Refused input is answered by the transaction path, after the resource and the rule.
    return null;
  }
}

/**
 * A lone upsert's value as the update of the row its key finds, when that is all it can be: one
 * value, setting no unique key but the conflict key (whose values the row found already holds).
 * The statement then writes and charges only if it matched the row; with none, the call takes the
 * transaction path, which locks the key and inserts.
 */
function upsertUpdate(binding: Binding, op: DbOperation, now: Date): { write: TargetWrite; pickOf: RowPick } | null {
  const key = conflictKey(binding, op.onConflict ?? []);
  const items = upsertItems(binding, op.values, key);
  if (items.length !== 1) return null;
  const [{ change }] = items;
  const others = uniqueKeys(binding.table).filter(other => other.join() !== key.join());
  if (others.some(other => other.some(name => Object.hasOwn(change.set, name)))) return null;
  return { write: { kind: 'update', ...change, now }, pickOf: { where: keyConditions(binding, key, change.set) } };
}

/** The calls the one-statement path serves besides an insert: an upsert only as the update of its row. */
type FastAction = 'update' | 'delete' | 'upsert';

async function fastUpdateOrDeleteIn(
  deps: FastInsertDeps,
  caller: PrincipalCaller,
  schema: SchemaIR,
  now: Date,
  op: DbOperation,
  action: FastAction,
): Promise<FastWrite | null> {
  const known = knownDefaultRoom(caller, schema, op);
  const owned = known && ownedWrite(known.binding, op, action, now);
  if (!known || !owned) return null;
  const { resource, binding } = known;
  const { write, pickOf } = owned;
  const upsert = action === 'upsert';
  const writes = upsert ? 'update' : action;
  const charge = await deps.metering.holdChargeSoon(caller, callUsage([op]), chargedAs([op], false));
  if (charge === null) return null;
  const metered = charge !== 'unmetered';
  const payer = metered ? (knownStoragePayer(resource.id) ?? null) : null;
  let found: FastWritten;
  try {
    found = await fastOwnedWrite(deps.sqlWrites, {
      me: caller.principal.id,
      resource,
      binding,
      pickOf,
      roles: defaultRoomRoles(binding, writes),
      write,
      charge: metered ? statementCharge(deps.metering, charge.entry, payer) : null,
      // A lone operation's write budget: the call's whole limit (withWriteBudget, spendWrites).
      limit: Math.min(ROWS_MAX_WHERE, deps.config.rows.maxWritesPerCall),
      onlyMatched: upsert,
    });
  } catch (error) {
    return afterFailedStatement(error, metered ? charge.held : null);
  }
  // Refused, the statement recorded nothing: the hold goes back (never 'lease_closed', which the lease may not be).
  // An upsert that matched no row recorded nothing either.
  const wrote = found.admitted && !(upsert && found.written.length === 0);
  if (metered) charge.held.settle(settledAs(wrote ? found.charge : undefined, write.kind === 'update'));
  // Not covered by the payer found before: its owner changed, or it fell short; the next write finds it again.
  if (payer && found.charge && !found.charge.covered) forgetStoragePayer(resource.id);
  else if (found.xid && found.charge?.payer) rememberStoragePayer(resource.id, found.charge.payer);
  if (!found.xid || !wrote || (metered && !found.charge?.charged)) return null;
  const rows = rowsWritten(binding, found.written, write).map(row => shape(row, binding, 'resource'));
  const rowEvents = rows.map(row => rowEvent({ caller }, writes, binding, resource.id, null, null, row));
  stampAll(found.xid, rowEvents);
  return { result: { op: action, rows, nextCursor: null, ok: true }, rowEvents };
}
