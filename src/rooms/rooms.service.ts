/**
 * Rooms and grants (docs/api.md §10). The default room has no record: its id is the resource id
 * and its "grants" are the memberships. A grant is a role per (room, principal); the effective
 * role is min(resource role, grant), computed on every read, so a resource demotion narrows every
 * room at once. Every change locks the resource row first (src/rooms/room-scope.service.ts).
 *
 * This module: listing, reading, creating, renaming and deleting rooms, and `roomOperations`, what
 * `services.rooms` offers. Grants are src/rooms/room-grants.service.ts.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { listsEveryRoom, requireRoomAdmin, roomNotFound, seesRoom } from './room-grants.rules.js';
import { type RoomEntry, defaultRoomEntry, defaultRoomImmutable, parseRoomName, roomEntry, roomRef } from './rooms.rules.js';
import { AppError, fail } from '../errors.js';
import { newId } from '../lib/secrets.js';
import { sqlOf } from '../db/sql.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { grantDeletes } from './room-events.service.js';
import { changeRooms, readScope } from './room-scope.service.js';
import { findRoom, grantOf } from './room-store.service.js';
import { grants, held, removeGrant, setGrant } from './room-grants.service.js';

// What other features import from rooms.
export { roomRoles, roomRolesOf } from './room-roles.service.js';
export { invalidRoom, parseRoomName, roomRef, type RoomEntry } from './rooms.rules.js';
export type { GrantResult, HeldRoom, RoomGrantDeps, RoomGrantEntry } from './room-grants.service.js';

/** Rooms per resource (docs/api.md §9.6): bounds the room list, which is not paged. */
export const MAX_ROOMS_PER_RESOURCE = 1000;

type RoomDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'bus' | 'now'>;

const isForeignKeyViolation = (error: unknown) =>
  (error as { code?: string }).code === 'P2003' || /foreign key/i.test(String((error as { message?: string }).message ?? ''));

/** Rooms you hold, each with `currentGrant`; admin+ also see rooms they hold nothing in. The default room comes first. */
export async function list(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller, resourceId: string): Promise<RoomEntry[]> {
  const { resource, role } = await readScope(deps.prisma, caller, resourceId);
  const principalId = caller.principal.id;
  const rooms = await deps.prisma.room.findMany({
    where: { resourceId: resource.id, ...(listsEveryRoom(role) ? {} : { grants: { some: { principalId } } }) },
    select: { id: true, name: true, createdAt: true, grants: { where: { principalId }, select: { role: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return [defaultRoomEntry(resource, role), ...rooms.map(room => roomEntry(room, role, room.grants[0]?.role ?? null))];
}

/** One room: 404 room_not_found when you hold no grant in it and are not admin+. */
export async function get(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller, resourceId: string, roomId: string): Promise<RoomEntry> {
  const { prisma } = deps;
  const { resource, role } = await readScope(prisma, caller, resourceId);
  const ref = roomRef(resource.id, roomId);
  if (ref === null) return defaultRoomEntry(resource, role);
  const room = await findRoom(prisma, resource.id, ref);
  const grant = await grantOf(prisma, room.id, caller.principal.id);
  if (!seesRoom(role, grant)) throw roomNotFound(roomId);
  return roomEntry(room, role, grant);
}

/** Admin+. A new room holds no grants, the creator's included. */
export function create(deps: RoomDeps, caller: PrincipalCaller, resourceId: string, rawName: unknown): Promise<RoomEntry> {
  const name = parseRoomName(rawName);
  return changeRooms(deps, caller, resourceId, async ({ tx, resource, role }) => {
    requireRoomAdmin(role);
    const count = await tx.room.count({ where: { resourceId: resource.id } });
    if (count >= MAX_ROOMS_PER_RESOURCE) {
      throw fail('room_limit', `A resource holds at most ${MAX_ROOMS_PER_RESOURCE} rooms; delete an empty one first.`);
    }
    const room = await tx.room.create({
      data: { id: newId('room'), resourceId: resource.id, name, createdAt: deps.now() },
      select: { id: true, name: true, createdAt: true },
    });
    return roomEntry(room, role, null);
  });
}

/** Admin+. The default room keeps the resource's name. */
export function rename(deps: RoomDeps, caller: PrincipalCaller, resourceId: string, roomId: string, rawName: unknown): Promise<RoomEntry> {
  const name = parseRoomName(rawName);
  return changeRooms(deps, caller, resourceId, async ({ tx, resource, role }) => {
    const ref = roomRef(resource.id, roomId);
    if (ref === null) throw defaultRoomImmutable('renamed');
    requireRoomAdmin(role);
    await findRoom(tx, resource.id, ref);
    const room = await tx.room.update({ where: { id: ref }, data: { name }, select: { id: true, name: true, createdAt: true } });
    return roomEntry(room, role, await grantOf(tx, ref, caller.principal.id));
  });
}

/**
 * Admin+. 409 room_not_empty while rows, row links or files sit in the room: checked under the
 * room row's lock, which an insert or move into the room (its foreign-key check) waits on; the
 * NO ACTION foreign keys of rows, row_links and files are the backstop.
 */
export async function remove(deps: RoomDeps, caller: PrincipalCaller, resourceId: string, roomId: string): Promise<{ ok: true }> {
  const notEmpty = () =>
    fail('room_not_empty', `Room ${roomId} still holds rows or files: move them out (moveRoom) or delete them, then delete the room.`);
  try {
    return await changeRooms(deps, caller, resourceId, async ({ tx, resource, role, events }) => {
      const ref = roomRef(resource.id, roomId);
      if (ref === null) throw defaultRoomImmutable('deleted');
      requireRoomAdmin(role);
      await findRoom(tx, resource.id, ref);
      await sqlOf(tx).selectFrom('rooms').select('id').where('id', '=', ref).forUpdate().execute();
      const row = await tx.row.findFirst({ where: { roomId: ref }, select: { id: true } });
      const link = row ? null : await tx.rowLink.findFirst({ where: { roomId: ref }, select: { rowId: true } });
      const file = row || link ? null : await tx.file.findFirst({ where: { roomId: ref }, select: { id: true } });
      if (row || link || file) throw notEmpty();
      events.push(...(await grantDeletes(tx, resource.deploymentId, { resourceId: resource.id, roomId: ref })));
      await tx.room.delete({ where: { id: ref } });
      return { ok: true as const };
    });
  } catch (error) {
    if (!(error instanceof AppError) && isForeignKeyViolation(error)) throw notEmpty();
    throw error;
  }
}

/** What `services.rooms` offers; src/services.ts binds each to the server's dependencies. */
export const roomOperations = { list, get, grants, held, create, rename, remove, setGrant, removeGrant };

export type RoomService = Bound<typeof roomOperations>;
