/**
 * Dashboard resource deletion (docs/api.md §4.2, §6): owner-only, never the reserved `_app`
 * resource. One transition under the resource row lock removes every membership (active and
 * pending), the invite links and the resource itself; after commit every removed member gets the
 * `delete` of their row on the roster feed and on their own feed, exactly as a remove sends it.
 * Deleting the resource row cascades, in the same statement, to its rooms, their grants, the rows
 * it owns (resource-owned tables and `retain` copies) and the context links into it; the rows that
 * were linked stay their creators' (docs/api.md §12). Account deletion deletes the resources an
 * heirless owner leaves behind through the same `deleteLockedResource`.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { MembershipState } from './membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import { fail } from '../errors.js';
import { memberRow } from '../bus/event-bus.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { type ChangeSet, type LockedResource, runTransition } from './membership-store.service.js';
import { grantDeletes } from '../rooms/room-events.service.js';
import { isReservedType } from './resources.rules.js';

const notInApp = (appId: string, resourceId: string) => fail('resource_not_found', `No resource ${resourceId} in app ${appId}.`);
const ownerOnly = () => fail('owner_only', 'Only the owner of a resource can delete it.');

/** After commit: the blob store drops the bytes of files a deletion removed (src/files/files.service.ts). */
export interface DeletionHooks {
  blobsOrphaned?: (keys: string[]) => void;
}

export type ResourceDeletionDeps = Pick<ServiceDeps, 'prisma' | 'now' | 'transaction' | 'bus'> & DeletionHooks;

/**
 * Deletes `resourceId` of app `appId` for the dashboard user `userId`. The checks are made
 * again under the lock, so a concurrent role change or deletion cannot slip past them.
 */
export async function deleteAsOwner(deps: ResourceDeletionDeps, userId: string, appId: string, resourceId: string): Promise<{ ok: true }> {
  const found = await deps.prisma.resource.findUnique({
    where: { id: resourceId },
    select: { deployment: { select: { id: true, appId: true, env: true } } },
  });
  if (!found || found.deployment.appId !== appId) throw notInApp(appId, resourceId);
  // The signed-in person (only people sign in to the dashboard) acting in the resource's environment.
  const caller: PrincipalCaller = {
    type: 'principal',
    principal: { id: userId, kind: 'user', ownerId: null },
    deployment: found.deployment,
    credential: 'session',
    payer: null,
  };

  let orphaned: string[] = [];
  const result = await runTransition(deps, caller, resourceId, async ({ tx, resource, changes }) => {
    if (isReservedType(resource.type)) throw fail('reserved_resource', `The ${resource.type} resource of an app cannot be deleted.`);
    const members = await tx.membership.findMany({
      where: { resourceId: resource.id },
      select: { principalId: true, role: true, state: true },
      orderBy: [{ createdAt: 'asc' }, { principalId: 'asc' }],
    });
    const own = members.find(m => m.principalId === userId);
    if (own?.role !== 'owner' || own.state !== 'active') throw ownerOnly();
    await deleteLockedResource(tx, resource, changes, members);
    orphaned = changes.orphanedBlobs;
    return { ok: true as const };
  });
  if (orphaned.length) deps.blobsOrphaned?.(orphaned);
  return result;
}

/**
 * Deletes a resource whose row the caller has locked, with everything in it, recording every
 * member's `delete` (and the grants' rooms-feed deletes) in `changes` for after commit.
 */
export async function deleteLockedResource(
  tx: Tx,
  resource: LockedResource,
  changes: ChangeSet,
  members: readonly { principalId: string; role: Role; state: MembershipState }[],
): Promise<void> {
  // Rooms-feed deletes for every grant the resource's rooms take with them (docs/api.md §10.4).
  changes.grantEvents.push(...(await grantDeletes(tx, resource.deploymentId, { resourceId: resource.id })));
  await tx.inviteLink.deleteMany({ where: { resourceId: resource.id } });
  await tx.membership.deleteMany({ where: { resourceId: resource.id } });
  const files = await tx.file.findMany({ where: { resourceId: resource.id }, select: { blobKey: true } });
  changes.orphanedBlobs.push(...files.map(f => f.blobKey));
  await tx.wallet.deleteMany({ where: { holderId: resource.id } });
  // Cascades: rooms, room grants, resource-owned rows and files, context links, mounts, wallet entries (prisma/schema.prisma).
  await tx.resource.delete({ where: { id: resource.id } });
  // Recorded straight into the change set (not through apply): the member count is gone with the row.
  for (const m of members) {
    changes.events.push({ op: 'delete', deploymentId: resource.deploymentId, row: memberRow(resource.id, m.principalId, m.role, m.state) });
  }
}

/** What `services.resourceDeletion` offers; src/services.ts binds each to the server's dependencies. */
export const resourceDeletionOperations = { deleteAsOwner };

export type ResourceDeletionService = Bound<typeof resourceDeletionOperations>;
