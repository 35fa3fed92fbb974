/**
 * Rooms-feed events for grants that disappear with something else (docs/api.md §10.4): a member
 * leaving or removed (the membership foreign key drops their grants), a room or a whole resource
 * deleted. Read just before the delete, inside the same transaction, and published after commit.
 */
import type { Role } from '../domain/roles.js';
import type { GrantEvent } from '../realtime/event-bus.js';
import type { Tx } from './deps.js';

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
