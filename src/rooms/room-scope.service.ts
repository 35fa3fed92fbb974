/**
 * The two ways a room operation reaches its resource: a read (no lock) and a change (the resource
 * row locked first, as membership transitions do, so racing grant, room and membership changes of
 * one resource run in some serial order). Both require an active member.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { Role } from '../core/roles.rules.js';
import { type StoredVisibility, rosterAccess } from '../membership/visibility.rules.js';
import { fail } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { GrantEvent } from '../bus/event-bus.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { type LockedResource, lockResource, resourceNotFound } from '../membership/membership-store.service.js';
import { stampCommit } from '../bus/commit-order.js';

interface Member {
  role: Role;
  state: 'active' | 'invited' | 'requested';
}

/** What a change works in: its transaction, the locked resource, the caller's role, the events to publish. */
export interface RoomChangeScope {
  tx: Tx;
  resource: LockedResource;
  /** The caller's active resource role. */
  role: Role;
  /** Rooms-feed events to publish after commit. */
  events: GrantEvent[];
}

/** The roster gate (docs/api.md §5.3): active members; 403 on a public resource; 404 otherwise. */
export function requireActive(resourceId: string, visibility: StoredVisibility, own: Member | null): Role {
  const access = rosterAccess(visibility, own);
  if (access === 'hidden') throw resourceNotFound(resourceId);
  if (access === 'not_member') throw fail('not_resource_member', 'Rooms are for active members of the resource.');
  return own!.role;
}

/** A read: the resource (in the caller's deployment) and the caller's active role, no lock. */
export async function readScope(prisma: PrismaClient, caller: PrincipalCaller, resourceId: string) {
  const resource = await prisma.resource.findUnique({
    where: { id: resourceId },
    select: {
      id: true,
      deploymentId: true,
      name: true,
      createdAt: true,
      visibility: true,
      memberships: { where: { principalId: caller.principal.id }, select: { role: true, state: true } },
    },
  });
  if (!resource || resource.deploymentId !== caller.deployment.id) throw resourceNotFound(resourceId);
  const role = requireActive(resourceId, resource.visibility, resource.memberships[0] ?? null);
  return { resource, role };
}

/**
 * A change: lock the resource row, require an active caller, run `work`, commit, then publish
 * its rooms-feed events (never for a refused or rolled-back change).
 */
export async function changeRooms<T>(
  deps: Pick<ServiceDeps, 'transaction' | 'bus'>,
  caller: PrincipalCaller,
  resourceId: string,
  work: (scope: RoomChangeScope) => Promise<T>,
): Promise<T> {
  const { result, events } = await deps.transaction(async tx => {
    const resource = await lockResource(tx, caller.deployment.id, resourceId);
    const own = await tx.membership.findUnique({
      where: { resourceId_principalId: { resourceId: resource.id, principalId: caller.principal.id } },
      select: { role: true, state: true },
    });
    const role = requireActive(resource.id, resource.visibility, own);
    const scope: RoomChangeScope = { tx, resource, role, events: [] };
    const result = await work(scope);
    await stampCommit(tx, scope.events);
    return { result, events: scope.events };
  });
  deps.bus.publishGrants(events);
  return result;
}
