/**
 * docs/api.md §10 rules 4 and 6, §11.4: what of a resource a caller reads. Reads and the matching
 * of writes share it: a row outside it takes part in neither (a write cannot probe what a read
 * would not show).
 */
import type { Role } from '../core/roles.rules.js';
import { ruleFor } from './rows.rules.js';
import { reachesEveryRoom } from '../rooms/rooms.rules.js';
import { type Reach, type RoomRoles, reachOf } from './row-access.rules.js';
import type { ResourceRef } from '../membership/writer-standing.service.js';
import type { Binding } from './row-binding.service.js';
import type { Db } from './row-run.service.js';
import { sqlOf } from '../db/sql.js';

/**
 * What the read rule lets the caller read, with `base` as their role in the default room. `room`
 * (a scope's roomId, null for the default room) narrows it to that room; undefined spans the rooms
 * they hold, and every room when the rule names their admin role (admin visibility).
 */
export async function readable(
  db: Db,
  resource: Pick<ResourceRef, 'id'>,
  binding: Binding,
  roles: RoomRoles,
  base: Role | null,
  room: string | null | undefined,
): Promise<Reach> {
  const rule = ruleFor('read', binding.override, binding.table.access);
  const everyRoom =
    room === undefined && reachesEveryRoom(rule, roles.resourceRole)
      ? (await sqlOf(db).selectFrom('rooms').select('id').where('resource_id', '=', resource.id).execute()).map(r => r.id)
      : [];
  return reachOf(rule, roles, base, room, everyRoom);
}
