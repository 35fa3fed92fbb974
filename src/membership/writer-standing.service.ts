/**
 * Where a row-store or file request lands (the resource, the room) and the caller's standing for a
 * write into it, shared by the row store and files
 * (docs/api.md §5.2 auto-join): an active member writes with their roles; a non-member of a public
 * resource with no pending row writes as the type's default role and joins in the same
 * transaction once the access rule has admitted the write. The resource row is locked first (as
 * every membership transition does), so racing first writes leave one membership.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { Role } from '../core/roles.rules.js';
import { writeStanding } from '../rows/rows.rules.js';
import { type StoredVisibility, isPublic } from './visibility.rules.js';
import { fail } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Tx } from '../core/deps.js';
import { ChangeSet, lockResource, resourceNotFound } from './membership-store.service.js';
import { invalidRoom, roomRef, roomRoles } from '../rooms/rooms.service.js';

export type Roles = Awaited<ReturnType<typeof roomRoles>>;

type Db = PrismaClient | Tx;

/** A resource of the caller's app environment, as the row store and files read it; 404 otherwise. */
export interface ResourceRef {
  id: string;
  deploymentId: string;
  type: string;
  visibility: StoredVisibility;
}

export async function loadResource(db: Db, caller: PrincipalCaller, resourceId: string): Promise<ResourceRef> {
  const row = await db.resource.findUnique({ where: { id: resourceId }, select: { id: true, deploymentId: true, type: true, visibility: true } });
  if (!row || row.deploymentId !== caller.deployment.id) throw resourceNotFound(resourceId);
  return row;
}

/** `roomId` of a scope or a destination: null for the default room, else a room record of this resource. */
export async function roomOf(db: Db, resourceId: string, roomId: string | undefined): Promise<string | null> {
  if (roomId === undefined) return null;
  const ref = roomRef(resourceId, roomId);
  if (ref === null) return null;
  const room = await db.room.findUnique({ where: { id: ref }, select: { resourceId: true } });
  // docs/api.md §10.1: another resource's room is invalid_room; a well-formed id of no room is room_not_found.
  if (!room) throw fail('room_not_found', `No room ${ref} in resource ${resourceId}.`);
  if (room.resourceId !== resourceId) throw invalidRoom(roomId, resourceId);
  return ref;
}

export interface WriteTarget {
  id: string;
  visibility: StoredVisibility;
}

export interface Writer {
  roles: Roles;
  /** Makes the caller a member; call it only once the write's rule has admitted them. null: no join. */
  join: (() => Promise<void>) | null;
}

/**
 * `joining`: whether this write may auto-join (reads, unlink and moveRoom never do); `joins`
 * collects the change set whose events the caller publishes after commit.
 */
export async function writerRoles(
  tx: Tx,
  caller: PrincipalCaller,
  resource: WriteTarget,
  options: { joining: boolean; defaultRole: Role; now: Date; joins: ChangeSet[] },
): Promise<Writer> {
  const me = caller.principal.id;
  const unlocked = await roomRoles(tx, resource.id, me);
  if (unlocked.resourceRole) {
    // A member's write shares the resource row lock a leave or removal takes FOR UPDATE, so the
    // write sees the membership as it is when it commits: a member who just left writes nothing.
    await tx.$executeRaw`SELECT 1 FROM resources WHERE id = ${resource.id} FOR KEY SHARE`;
    const roles = await roomRoles(tx, resource.id, me);
    if (roles.resourceRole) return { roles, join: null };
  }
  if (!isPublic(resource)) throw resourceNotFound(resource.id);
  const locked = await lockResource(tx, caller.deployment.id, resource.id);
  const changes = new ChangeSet(tx, locked, options.now, caller.deployment.appId);
  options.joins.push(changes);
  const party = await changes.party(me, caller.principal);
  const standing = writeStanding(locked.visibility, party?.membership ?? null);
  if (standing === 'member') return { roles: await roomRoles(tx, resource.id, me), join: null };
  const none: Roles = { resourceRole: null, grants: new Map() };
  if (standing === 'outsider' || !options.joining) return { roles: none, join: null };
  let joined = false;
  return {
    roles: { resourceRole: options.defaultRole, grants: new Map() },
    join: async () => {
      if (joined) return;
      joined = true;
      await changes.apply(me, null, { state: 'active', role: options.defaultRole });
    },
  };
}
