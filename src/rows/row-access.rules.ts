/**
 * The row store's access judgements over facts already read (docs/api.md §10 rules 4, 6 and 7,
 * §11.4): a caller's role in a room, how much of a resource a read reaches, and moveRoom's
 * refusal. Pure: src/rows/row-reach.service.ts reads the rooms and roles and asks these.
 */
import { type AppError, fail } from '../errors.js';
import type { Role } from '../core/roles.rules.js';
import { type AccessRule, effectiveRole } from '../rooms/rooms.rules.js';
import { type ReadReach, type RowAction, accessRefused, readReach } from './rows.rules.js';

/** A caller's roles in one resource: the resource's own (null: not an active member) and their room grants. */
export interface RoomRoles {
  resourceRole: Role | null;
  grants: ReadonlyMap<string, Role>;
}

/** The caller's effective role in `room` (null: the default room). */
export const roleIn = (roles: RoomRoles, room: string | null): Role | null =>
  effectiveRole(roles.resourceRole, room === null ? null : (roles.grants.get(room) ?? null), room === null);

/** What of a resource a caller reads: the default room's reach, and the rooms read wholly or only as their rows' creator. */
export interface Reach {
  defaultRoom: ReadReach;
  all: string[];
  own: string[];
}

export const reachesNothing = (reach: Reach): boolean => reach.defaultRoom === 'none' && reach.all.length === 0 && reach.own.length === 0;

/**
 * What the read `rule` lets the caller read, with `base` as their role in the default room.
 * `room` (a scope's roomId, null for the default room) narrows it to that room; undefined spans
 * the rooms they hold a grant in and `everyRoom` (the resource's rooms, read when the rule names
 * their admin role: admin visibility; empty otherwise).
 */
export function reachOf(
  rule: readonly AccessRule[],
  roles: RoomRoles,
  base: Role | null,
  room: string | null | undefined,
  everyRoom: readonly string[],
): Reach {
  const reach: Reach = { defaultRoom: 'none', all: [], own: [] };
  if (room !== undefined) {
    const role = room === null ? base : roleIn(roles, room);
    const r = readReach(rule, role, room === null ? role : roles.resourceRole);
    if (room === null) reach.defaultRoom = r;
    else if (r !== 'none') reach[r].push(room);
    return reach;
  }
  reach.defaultRoom = readReach(rule, base);
  for (const roomId of [...new Set([...roles.grants.keys(), ...everyRoom])].sort()) {
    const r = readReach(rule, effectiveRole(roles.resourceRole, roles.grants.get(roomId) ?? null, false), roles.resourceRole);
    if (r !== 'none') reach[r].push(roomId);
  }
  return reach;
}

/** moveRoom's refusal when the caller is not admin in a source room (rule 7). */
export function moveRefused(table: string, role: Role | null, room: string | null): AppError {
  const who = role ? `your role there is ${role}` : 'you hold no role there';
  const where = room === null ? 'the default room' : `room ${room}`;
  return fail(room === null ? 'access_denied' : 'room_forbidden', `moveRoom on ${table} needs admin in the source room (${where}): ${who}.`);
}

/** The refusal of an access rule for `table` in `room` (null: the default room). */
export const refusedIn = (action: RowAction, table: string, role: Role | null, room: string | null): AppError =>
  accessRefused(action, table, role, room === null ? 'default' : 'room');
