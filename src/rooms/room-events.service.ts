/**
 * Rooms-feed events for grants that disappear with something else (docs/api.md §10.4): a member
 * leaving or removed (the membership foreign key drops their grants), a room or a whole resource
 * deleted. Read just before the delete, inside the same transaction, and published after commit.
 */
import type { Role } from '../core/roles.rules.js';
import { sql } from '../db/sql.js';
import type { GrantEvent } from '../bus/event-bus.js';
import type { Tx } from '../core/deps.js';

export const grantEvent = (
  op: GrantEvent['op'],
  deploymentId: string,
  grant: { resourceId: string; roomId: string; principalId: string; role: Role },
): GrantEvent => ({
  op,
  deploymentId,
  principalId: grant.principalId,
  row: { resourceId: grant.resourceId, roomId: grant.roomId, role: grant.role },
});

/** `delete` events for every grant the coming delete will cascade away. */
export async function grantDeletes(
  tx: Tx,
  deploymentId: string,
  where: { resourceId: string; principalId?: string; roomId?: string },
): Promise<GrantEvent[]> {
  const grants = await tx.roomGrant.findMany({
    where,
    select: { resourceId: true, roomId: true, principalId: true, role: true },
    orderBy: [{ roomId: 'asc' }, { principalId: 'asc' }],
  });
  return grants.map(g => grantEvent('delete', deploymentId, g));
}

/**
 * `grantDeletes` as a column of a write statement: the grants as the statement found them (its
 * snapshot, before the membership delete cascades), in the same order, as JSON.
 */
export const grantsJson = (resourceId: string, principalId: string) => sql<unknown>`
  (SELECT json_agg(json_build_object('resourceId', g.resource_id, 'roomId', g.room_id, 'principalId', g.principal_id, 'role', g.role::text)
     ORDER BY g.room_id, g.principal_id)
   FROM room_grants g WHERE g.resource_id = ${resourceId} AND g.principal_id = ${principalId})`;

/** The `delete` events of a `grantsJson` column. */
export const grantDeletesOf = (deploymentId: string, json: unknown): GrantEvent[] =>
  ((typeof json === 'string' ? JSON.parse(json) : json) as Parameters<typeof grantEvent>[2][] | null)?.map(g =>
    grantEvent('delete', deploymentId, g),
  ) ?? [];
