/**
 * Room grants (docs/api.md §10.3): who holds a room, the rooms a caller holds, and setting or
 * removing a grant. The decisions are src/rooms/room-grants.rules.ts; this module reads their
 * inputs under the resource lock and writes their outcome.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { decideRemoveGrant, decideSetGrant, requireRoomAdmin } from './room-grants.rules.js';
import { type Role, rank } from '../core/roles.rules.js';
import { defaultRoomImmutable, roomRef } from './rooms.rules.js';
import type { GrantRowEvent } from '../bus/event-bus.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import { typeRules } from '../membership/resources.rules.js';
import { BOUNDED_LIST_TAKE, boundedList } from '../core/pages.js';
import { changeRooms, readScope } from './room-scope.service.js';
import { findRoom, roomActor, roomMember, writeGrant } from './room-store.service.js';

/** One entry of a room's ACL (spec 2.7): the principal of the path's `:principal`, and their grant. */
export interface RoomGrantEntry {
  principalId: string;
  role: Role;
}

export interface GrantResult {
  ok: true;
  resourceId: string;
  roomId: string;
  principalId: string;
  role: Role | null;
}

/** The rooms-feed row and the `GET /v1/resources/grants` snapshot row are one shape. */
export type HeldRoom = GrantRowEvent;

/** What the grant operations use: the database and bus, and the deployed schema (its type ceilings). */
export type RoomGrantDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'bus' | 'now'> & { apps: Pick<AppService, 'deployment'> };

/** The room's ACL, admin+ only (rule 2). The default room's grants are the active members' roles. */
export async function grants(
  deps: Pick<ServiceDeps, 'prisma'>,
  caller: PrincipalCaller,
  resourceId: string,
  roomId: string,
): Promise<RoomGrantEntry[]> {
  const { prisma } = deps;
  const { resource, role } = await readScope(prisma, caller, resourceId);
  const ref = roomRef(resource.id, roomId);
  requireRoomAdmin(role, 'Only admins and the owner see who holds a room; you can see your own role on the room itself.');
  const byRank = (a: RoomGrantEntry, b: RoomGrantEntry) => rank(b.role) - rank(a.role);
  if (ref === null) {
    const members = await prisma.membership.findMany({
      where: { resourceId: resource.id, state: 'active' },
      select: { principalId: true, role: true },
      orderBy: [{ createdAt: 'asc' }, { principalId: 'asc' }],
      take: BOUNDED_LIST_TAKE,
    });
    const bounded = boundedList(members, 'members hold the default room', 'read their roles a page at a time with the members list.');
    return bounded.map(m => ({ principalId: m.principalId, role: m.role })).sort(byRank);
  }
  await findRoom(prisma, resource.id, ref);
  const found = await prisma.roomGrant.findMany({
    where: { roomId: ref },
    select: { principalId: true, role: true },
    orderBy: [{ createdAt: 'asc' }, { principalId: 'asc' }],
    take: BOUNDED_LIST_TAKE,
  });
  return boundedList(found, 'grants in this room', 'remove grants the room no longer needs.')
    .map(g => ({ principalId: g.principalId, role: g.role }))
    .sort(byRank);
}

/** Every room the caller holds a grant in, across the app environment: the rooms feed's snapshot. */
export async function held(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller): Promise<HeldRoom[]> {
  const found = await deps.prisma.roomGrant.findMany({
    where: { principalId: caller.principal.id, membership: { state: 'active', resource: { deploymentId: caller.deployment.id } } },
    select: { resourceId: true, roomId: true, role: true },
    orderBy: [{ resourceId: 'asc' }, { roomId: 'asc' }],
    take: BOUNDED_LIST_TAKE,
  });
  return boundedList(found, 'room grants', "read each resource's rooms instead.").map(g => ({
    resourceId: g.resourceId,
    roomId: g.roomId,
    role: g.role,
  }));
}

/**
 * PUT a grant: an idempotent upsert of `{ role }` (docs/api.md §10.3), decided by
 * `decideSetGrant` (src/rooms/room-grants.rules.ts): admin+, within your type ceiling and your reach
 * in the room (your own grant: within the ceiling set on you), the subject an active member,
 * someone else's grant only below you. A grant on someone below you is also their ceiling.
 */
export async function setGrant(
  deps: RoomGrantDeps,
  caller: PrincipalCaller,
  resourceId: string,
  roomId: string,
  userId: string,
  role: Role,
): Promise<GrantResult> {
  // Read before the transaction: on the embedded database an outer query inside it would wait on it.
  const deployment = await deps.apps.deployment(caller.deployment.id);
  return changeRooms(deps, caller, resourceId, async ({ tx, resource, role: actorRole, events }) => {
    const ref = roomRef(resource.id, roomId);
    if (ref === null) throw defaultRoomImmutable('granted: its grants are the resource roles (setRole)');
    // Before the room lookup: a writer learns nothing of which room ids exist.
    requireRoomAdmin(actorRole);
    await findRoom(tx, resource.id, ref);
    const actor = await roomActor(tx, resource.id, ref, caller.principal.id, actorRole);
    const target = userId === actor.id ? actor : await roomMember(tx, resource.id, ref, userId);
    const outcome = decideSetGrant({ actor, target, role, ceilings: typeRules(deployment, resource.type).grant, resourceType: resource.type });
    const at = { resourceId: resource.id, deploymentId: resource.deploymentId, roomId: ref, principalId: userId };
    await writeGrant(tx, deps.now(), at, target, outcome, events);
    return { ok: true as const, resourceId: resource.id, roomId: ref, principalId: userId, role };
  });
}

/**
 * DELETE a grant (`decideRemoveGrant`): your own (leaving the room), or admin+ those below you.
 * Idempotent: no grant is fine. A ceiling set on the holder stays. The default room is left
 * by leaving the resource.
 */
export function removeGrant(
  deps: Pick<RoomGrantDeps, 'transaction' | 'bus' | 'now'>,
  caller: PrincipalCaller,
  resourceId: string,
  roomId: string,
  userId: string,
): Promise<GrantResult> {
  return changeRooms(deps, caller, resourceId, async ({ tx, resource, role: actorRole, events }) => {
    const ref = roomRef(resource.id, roomId);
    if (ref === null) throw defaultRoomImmutable('left: leave the resource instead');
    await findRoom(tx, resource.id, ref);
    const actor = await roomActor(tx, resource.id, ref, caller.principal.id, actorRole);
    const target = userId === actor.id ? actor : await roomMember(tx, resource.id, ref, userId);
    const outcome = decideRemoveGrant({ actor, target, roomId });
    if (outcome) {
      const at = { resourceId: resource.id, deploymentId: resource.deploymentId, roomId: ref, principalId: userId };
      await writeGrant(tx, deps.now(), at, target, outcome, events);
    }
    return { ok: true as const, resourceId: resource.id, roomId: ref, principalId: userId, role: null };
  });
}
