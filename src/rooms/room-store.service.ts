/** Room records, grants and ceilings as the room operations read and write them. */
import type { Role } from '../core/roles.rules.js';
import { type RoomActor, type RoomMember, roomNotFound } from './room-grants.rules.js';
import { invalidRoom } from './rooms.rules.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { GrantEvent } from '../bus/event-bus.js';
import type { Tx } from '../core/deps.js';
import { grantEvent } from './room-events.service.js';

/** The room record `roomId` of `resourceId`: 400 invalid_room when it is another resource's, 404 when none. */
export async function findRoom(db: PrismaClient | Tx, resourceId: string, roomId: string) {
  const room = await db.room.findUnique({ where: { id: roomId }, select: { id: true, resourceId: true, name: true, createdAt: true } });
  if (!room) throw roomNotFound(roomId);
  if (room.resourceId !== resourceId) throw invalidRoom(roomId, resourceId);
  return room;
}

export async function grantOf(db: PrismaClient | Tx, roomId: string, principalId: string): Promise<Role | null> {
  const grant = await db.roomGrant.findUnique({ where: { roomId_principalId: { roomId, principalId } }, select: { role: true } });
  return grant?.role ?? null;
}

/** `principalId` in room `roomId` as the grant rules see them: resource role, grant and ceiling. */
export async function roomMember(tx: Tx, resourceId: string, roomId: string, principalId: string): Promise<RoomMember> {
  const membership = await tx.membership.findUnique({
    where: { resourceId_principalId: { resourceId, principalId } },
    select: {
      role: true,
      state: true,
      grants: { where: { roomId }, select: { role: true } },
      ceilings: { where: { roomId }, select: { role: true } },
    },
  });
  if (membership?.state !== 'active') return { id: principalId, resourceRole: null, grant: null, ceiling: null };
  return {
    id: principalId,
    resourceRole: membership.role,
    grant: membership.grants[0]?.role ?? null,
    ceiling: membership.ceilings[0]?.role ?? null,
  };
}

/** The caller as an actor in the room: their resource role (active, checked by the change), grant and ceiling. */
export async function roomActor(tx: Tx, resourceId: string, roomId: string, principalId: string, resourceRole: Role): Promise<RoomActor> {
  return { ...(await roomMember(tx, resourceId, roomId, principalId)), resourceRole };
}

/** Writes a grant decision: the grant row (with its rooms-feed event when it changed) and the ceiling. */
export async function writeGrant(
  tx: Tx,
  now: Date,
  where: { resourceId: string; deploymentId: string; roomId: string; principalId: string },
  before: RoomMember,
  after: { grant: Role | null; ceiling: Role | null },
  events: GrantEvent[],
): Promise<void> {
  const { resourceId, deploymentId, roomId, principalId } = where;
  const key = { roomId_principalId: { roomId, principalId } };
  if (after.grant === null && before.grant !== null) {
    await tx.roomGrant.delete({ where: key });
    events.push(grantEvent('delete', deploymentId, { resourceId, roomId, principalId, role: before.grant }));
  } else if (after.grant !== null && after.grant !== before.grant) {
    await tx.roomGrant.upsert({
      where: key,
      create: { roomId, principalId, resourceId, role: after.grant, createdAt: now },
      update: { role: after.grant },
    });
    events.push(grantEvent(before.grant ? 'update' : 'insert', deploymentId, { resourceId, roomId, principalId, role: after.grant }));
  }
  if (after.ceiling !== before.ceiling) {
    if (after.ceiling === null) await tx.roomCeiling.delete({ where: key });
    else
      await tx.roomCeiling.upsert({
        where: key,
        create: { roomId, principalId, resourceId, role: after.ceiling, createdAt: now },
        update: { role: after.ceiling },
      });
  }
}
