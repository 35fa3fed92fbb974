/**
 * Rooms and grants (docs/api.md §10). The default room has no record: its id is the resource id
 * and its "grants" are the memberships. A grant is a role per (room, principal); the effective
 * role is min(resource role, grant), computed on every read, so a resource demotion narrows every
 * room at once. Every change locks the resource row first (as membership transitions do), so
 * racing grant, room and membership changes of one resource run in some serial order.
 */
import { z } from 'zod';
import type { PrincipalCaller } from '../core/caller.rules.js';
import {
  type RoomActor,
  type RoomMember,
  decideRemoveGrant,
  decideSetGrant,
  listsEveryRoom,
  requireRoomAdmin,
  roomNotFound,
  seesRoom,
} from './room-grants.rules.js';
import { type Role, rank } from '../core/roles.rules.js';
import { ROOM_NAME_MAX, effectiveRole, isDefaultRoom, isRoomIdShape } from './rooms.rules.js';
import { type StoredVisibility, rosterAccess } from '../membership/visibility.rules.js';
import { AppError, fail, parseInput } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { newId } from '../lib/secrets.js';
import type { GrantEvent, GrantRowEvent } from '../bus/event-bus.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { type LockedResource, lockResource, resourceNotFound } from '../membership/membership-store.service.js';
import { stampCommit } from '../bus/commit-order.js';
import { grantDeletes, grantEvent } from './room-events.service.js';
import { typeRules } from '../membership/resources.rules.js';
import { BOUNDED_LIST_TAKE, boundedList } from '../core/pages.js';

/** Rooms per resource (docs/api.md §9.6): bounds the room list, which is not paged. */
export const MAX_ROOMS_PER_RESOURCE = 1000;

export interface RoomEntry {
  /** A room record's id, or the resource id for the default room. */
  id: string;
  name: string;
  isDefault: boolean;
  /** The caller's own grant, `{ role }` (spec 2.7; for the default room: their resource role); null when they hold none. */
  currentGrant: { role: Role } | null;
  /** min(resource role, currentGrant): what the access rules see. */
  effectiveRole: Role | null;
  createdAt: Date;
}

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

/**
 * The caller's active resource role and their room grants in `resourceId`, for the row store and
 * the room routes. A pending (invited, requested) member has no role; grants of a non-member
 * cannot exist (their foreign key is the membership).
 */
export async function roomRoles(
  db: PrismaClient | Tx,
  resourceId: string,
  principalId: string,
): Promise<{ resourceRole: Role | null; grants: Map<string, Role> }> {
  const membership = await db.membership.findUnique({
    where: { resourceId_principalId: { resourceId, principalId } },
    select: { role: true, state: true },
  });
  if (membership?.state !== 'active') return { resourceRole: null, grants: new Map() };
  const grants = await db.roomGrant.findMany({ where: { resourceId, principalId }, select: { roomId: true, role: true } });
  return { resourceRole: membership.role, grants: new Map(grants.map(g => [g.roomId, g.role])) };
}

/**
 * `roomRoles` of several principals in one resource, in two statements whatever their number
 * (the live row feed judges one change for many subscribers at once).
 */
export async function roomRolesOf(
  db: PrismaClient | Tx,
  resourceId: string,
  principalIds: readonly string[],
): Promise<Map<string, { resourceRole: Role | null; grants: Map<string, Role> }>> {
  const out = new Map(principalIds.map(id => [id, { resourceRole: null as Role | null, grants: new Map<string, Role>() }]));
  const active = await db.membership.findMany({
    where: { resourceId, principalId: { in: [...principalIds] }, state: 'active' },
    select: { principalId: true, role: true },
  });
  if (active.length === 0) return out;
  for (const m of active) out.get(m.principalId)!.resourceRole = m.role;
  const grants = await db.roomGrant.findMany({
    where: { resourceId, principalId: { in: active.map(m => m.principalId) } },
    select: { principalId: true, roomId: true, role: true },
  });
  for (const g of grants) out.get(g.principalId)!.grants.set(g.roomId, g.role);
  return out;
}

const roomName = z
  .string({ message: 'is required and must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(ROOM_NAME_MAX, `must be at most ${ROOM_NAME_MAX} characters`)
  // Control characters (NUL is refused earlier, at the edge) have no place in a display name.
  .refine(name => !/\p{Cc}/u.test(name), 'must not contain control characters');

export const parseRoomName = (value: unknown, field = 'name'): string => parseInput(roomName, value, field);

export const invalidRoom = (roomId: string, resourceId: string) =>
  fail(
    'invalid_room',
    `${JSON.stringify(roomId.slice(0, 80))} is not a room of resource ${resourceId}: pass a room id from GET /v1/resources/${resourceId}/rooms.`,
  );
const defaultRoomImmutable = (what: string) => fail('default_room_immutable', `The default room cannot be ${what}.`);

/**
 * `roomId` as a reference into `resourceId`: `null` for the default room (the resource id), the
 * id for a well-formed room id, `invalid_room` for anything else (docs/api.md §10.1).
 */
export function roomRef(resourceId: string, roomId: string): string | null {
  if (isDefaultRoom(resourceId, roomId)) return null;
  if (!isRoomIdShape(roomId)) throw invalidRoom(roomId, resourceId);
  return roomId;
}

const isForeignKeyViolation = (error: unknown) =>
  (error as { code?: string }).code === 'P2003' || /foreign key/i.test(String((error as { message?: string }).message ?? ''));

interface Member {
  role: Role;
  state: 'active' | 'invited' | 'requested';
}

interface Scope {
  tx: Tx;
  resource: LockedResource;
  /** The caller's active resource role. */
  role: Role;
  /** Rooms-feed events to publish after commit. */
  events: GrantEvent[];
}

export function createRoomService(deps: ServiceDeps, apps: AppService) {
  const { prisma } = deps;

  /** The roster gate (docs/api.md §5.3): active members; 403 on a public resource; 404 otherwise. */
  function requireActive(resourceId: string, visibility: StoredVisibility, own: Member | null): Role {
    const access = rosterAccess(visibility, own);
    if (access === 'hidden') throw resourceNotFound(resourceId);
    if (access === 'not_member') throw fail('not_resource_member', 'Rooms are for active members of the resource.');
    return own!.role;
  }

  /** A read: the resource (in the caller's deployment) and the caller's active role, no lock. */
  async function readScope(caller: PrincipalCaller, resourceId: string) {
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
  async function change<T>(caller: PrincipalCaller, resourceId: string, work: (scope: Scope) => Promise<T>): Promise<T> {
    const { result, events } = await deps.transaction(async tx => {
      const resource = await lockResource(tx, caller.deployment.id, resourceId);
      const own = await tx.membership.findUnique({
        where: { resourceId_principalId: { resourceId: resource.id, principalId: caller.principal.id } },
        select: { role: true, state: true },
      });
      const role = requireActive(resource.id, resource.visibility, own);
      const scope: Scope = { tx, resource, role, events: [] };
      const result = await work(scope);
      await stampCommit(tx, scope.events);
      return { result, events: scope.events };
    });
    deps.bus.publishGrants(events);
    return result;
  }

  /** The room record `roomId` of `resourceId`: 400 invalid_room when it is another resource's, 404 when none. */
  async function findRoom(db: PrismaClient | Tx, resourceId: string, roomId: string) {
    const room = await db.room.findUnique({ where: { id: roomId }, select: { id: true, resourceId: true, name: true, createdAt: true } });
    if (!room) throw roomNotFound(roomId);
    if (room.resourceId !== resourceId) throw invalidRoom(roomId, resourceId);
    return room;
  }

  async function grantOf(db: PrismaClient | Tx, roomId: string, principalId: string): Promise<Role | null> {
    const grant = await db.roomGrant.findUnique({ where: { roomId_principalId: { roomId, principalId } }, select: { role: true } });
    return grant?.role ?? null;
  }

  const entry = (room: { id: string; name: string; createdAt: Date }, resourceRole: Role, grant: Role | null): RoomEntry => ({
    id: room.id,
    name: room.name,
    isDefault: false,
    currentGrant: grant && { role: grant },
    effectiveRole: effectiveRole(resourceRole, grant, false),
    createdAt: room.createdAt,
  });

  const defaultEntry = (resource: { id: string; name: string; createdAt: Date }, role: Role): RoomEntry => ({
    id: resource.id,
    name: resource.name,
    isDefault: true,
    currentGrant: { role },
    effectiveRole: role,
    createdAt: resource.createdAt,
  });

  /** `principalId` in room `roomId` as the grant rules see them: resource role, grant and ceiling. */
  async function roomMember(tx: Tx, resourceId: string, roomId: string, principalId: string): Promise<RoomMember> {
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

  /** The caller as an actor in the room: their resource role (active, checked by `change`), grant and ceiling. */
  async function roomActor(tx: Tx, resourceId: string, roomId: string, principalId: string, resourceRole: Role): Promise<RoomActor> {
    return { ...(await roomMember(tx, resourceId, roomId, principalId)), resourceRole };
  }

  /** Writes a grant decision: the grant row (with its rooms-feed event when it changed) and the ceiling. */
  async function writeGrant(
    tx: Tx,
    where: { resourceId: string; deploymentId: string; roomId: string; principalId: string },
    before: RoomMember,
    after: { grant: Role | null; ceiling: Role | null },
    events: GrantEvent[],
  ): Promise<void> {
    const { resourceId, deploymentId, roomId, principalId } = where;
    const key = { roomId_principalId: { roomId, principalId } };
    const now = deps.now();
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

  return {
    /** Rooms you hold, each with `currentGrant`; admin+ also see rooms they hold nothing in. The default room comes first. */
    async list(caller: PrincipalCaller, resourceId: string): Promise<RoomEntry[]> {
      const { resource, role } = await readScope(caller, resourceId);
      const principalId = caller.principal.id;
      const rooms = await prisma.room.findMany({
        where: { resourceId: resource.id, ...(listsEveryRoom(role) ? {} : { grants: { some: { principalId } } }) },
        select: { id: true, name: true, createdAt: true, grants: { where: { principalId }, select: { role: true } } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return [defaultEntry(resource, role), ...rooms.map(room => entry(room, role, room.grants[0]?.role ?? null))];
    },

    /** One room: 404 room_not_found when you hold no grant in it and are not admin+. */
    async get(caller: PrincipalCaller, resourceId: string, roomId: string): Promise<RoomEntry> {
      const { resource, role } = await readScope(caller, resourceId);
      const ref = roomRef(resource.id, roomId);
      if (ref === null) return defaultEntry(resource, role);
      const room = await findRoom(prisma, resource.id, ref);
      const grant = await grantOf(prisma, room.id, caller.principal.id);
      if (!seesRoom(role, grant)) throw roomNotFound(roomId);
      return entry(room, role, grant);
    },

    /** The room's ACL, admin+ only (rule 2). The default room's grants are the active members' roles. */
    async grants(caller: PrincipalCaller, resourceId: string, roomId: string): Promise<RoomGrantEntry[]> {
      const { resource, role } = await readScope(caller, resourceId);
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
      const grants = await prisma.roomGrant.findMany({
        where: { roomId: ref },
        select: { principalId: true, role: true },
        orderBy: [{ createdAt: 'asc' }, { principalId: 'asc' }],
        take: BOUNDED_LIST_TAKE,
      });
      return boundedList(grants, 'grants in this room', 'remove grants the room no longer needs.')
        .map(g => ({ principalId: g.principalId, role: g.role }))
        .sort(byRank);
    },

    /** Every room the caller holds a grant in, across the app environment: the rooms feed's snapshot. */
    async held(caller: PrincipalCaller): Promise<HeldRoom[]> {
      const grants = await prisma.roomGrant.findMany({
        where: { principalId: caller.principal.id, membership: { state: 'active', resource: { deploymentId: caller.deployment.id } } },
        select: { resourceId: true, roomId: true, role: true },
        orderBy: [{ resourceId: 'asc' }, { roomId: 'asc' }],
        take: BOUNDED_LIST_TAKE,
      });
      return boundedList(grants, 'room grants', "read each resource's rooms instead.").map(g => ({
        resourceId: g.resourceId,
        roomId: g.roomId,
        role: g.role,
      }));
    },

    /** Admin+. A new room holds no grants, the creator's included. */
    create(caller: PrincipalCaller, resourceId: string, rawName: unknown): Promise<RoomEntry> {
      const name = parseRoomName(rawName);
      return change(caller, resourceId, async ({ tx, resource, role }) => {
        requireRoomAdmin(role);
        const count = await tx.room.count({ where: { resourceId: resource.id } });
        if (count >= MAX_ROOMS_PER_RESOURCE) {
          throw fail('room_limit', `A resource holds at most ${MAX_ROOMS_PER_RESOURCE} rooms; delete an empty one first.`);
        }
        const room = await tx.room.create({
          data: { id: newId('room'), resourceId: resource.id, name, createdAt: deps.now() },
          select: { id: true, name: true, createdAt: true },
        });
        return entry(room, role, null);
      });
    },

    /** Admin+. The default room keeps the resource's name. */
    rename(caller: PrincipalCaller, resourceId: string, roomId: string, rawName: unknown): Promise<RoomEntry> {
      const name = parseRoomName(rawName);
      return change(caller, resourceId, async ({ tx, resource, role }) => {
        const ref = roomRef(resource.id, roomId);
        if (ref === null) throw defaultRoomImmutable('renamed');
        requireRoomAdmin(role);
        await findRoom(tx, resource.id, ref);
        const room = await tx.room.update({ where: { id: ref }, data: { name }, select: { id: true, name: true, createdAt: true } });
        return entry(room, role, await grantOf(tx, ref, caller.principal.id));
      });
    },

    /**
     * Admin+. 409 room_not_empty while rows, row links or files sit in the room: checked under the
     * room row's lock, which an insert or move into the room (its foreign-key check) waits on; the
     * NO ACTION foreign keys of rows, row_links and files are the backstop.
     */
    async remove(caller: PrincipalCaller, resourceId: string, roomId: string): Promise<{ ok: true }> {
      const notEmpty = () =>
        fail('room_not_empty', `Room ${roomId} still holds rows or files: move them out (moveRoom) or delete them, then delete the room.`);
      try {
        return await change(caller, resourceId, async ({ tx, resource, role, events }) => {
          const ref = roomRef(resource.id, roomId);
          if (ref === null) throw defaultRoomImmutable('deleted');
          requireRoomAdmin(role);
          await findRoom(tx, resource.id, ref);
          await tx.$queryRaw`SELECT id FROM rooms WHERE id = ${ref} FOR UPDATE`;
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
    },

    /**
     * PUT a grant: an idempotent upsert of `{ role }` (docs/api.md §10.3), decided by
     * `decideSetGrant` (src/rooms/room-grants.rules.ts): admin+, within your type ceiling and your reach
     * in the room (your own grant: within the ceiling set on you), the subject an active member,
     * someone else's grant only below you. A grant on someone below you is also their ceiling.
     */
    async setGrant(caller: PrincipalCaller, resourceId: string, roomId: string, userId: string, role: Role): Promise<GrantResult> {
      // Read before the transaction: on the embedded database an outer query inside it would wait on it.
      const deployment = await apps.deployment(caller.deployment.id);
      return change(caller, resourceId, async ({ tx, resource, role: actorRole, events }) => {
        const ref = roomRef(resource.id, roomId);
        if (ref === null) throw defaultRoomImmutable('granted: its grants are the resource roles (setRole)');
        // Before the room lookup: a writer learns nothing of which room ids exist.
        requireRoomAdmin(actorRole);
        await findRoom(tx, resource.id, ref);
        const actor = await roomActor(tx, resource.id, ref, caller.principal.id, actorRole);
        const target = userId === actor.id ? actor : await roomMember(tx, resource.id, ref, userId);
        const outcome = decideSetGrant({ actor, target, role, ceilings: typeRules(deployment, resource.type).grant, resourceType: resource.type });
        const at = { resourceId: resource.id, deploymentId: resource.deploymentId, roomId: ref, principalId: userId };
        await writeGrant(tx, at, target, outcome, events);
        return { ok: true as const, resourceId: resource.id, roomId: ref, principalId: userId, role };
      });
    },

    /**
     * DELETE a grant (`decideRemoveGrant`): your own (leaving the room), or admin+ those below you.
     * Idempotent: no grant is fine. A ceiling set on the holder stays. The default room is left
     * by leaving the resource.
     */
    removeGrant(caller: PrincipalCaller, resourceId: string, roomId: string, userId: string): Promise<GrantResult> {
      return change(caller, resourceId, async ({ tx, resource, role: actorRole, events }) => {
        const ref = roomRef(resource.id, roomId);
        if (ref === null) throw defaultRoomImmutable('left: leave the resource instead');
        await findRoom(tx, resource.id, ref);
        const actor = await roomActor(tx, resource.id, ref, caller.principal.id, actorRole);
        const target = userId === actor.id ? actor : await roomMember(tx, resource.id, ref, userId);
        const outcome = decideRemoveGrant({ actor, target, roomId });
        if (outcome) {
          const at = { resourceId: resource.id, deploymentId: resource.deploymentId, roomId: ref, principalId: userId };
          await writeGrant(tx, at, target, outcome, events);
        }
        return { ok: true as const, resourceId: resource.id, roomId: ref, principalId: userId, role: null };
      });
    },
  };
}

export type RoomService = ReturnType<typeof createRoomService>;
