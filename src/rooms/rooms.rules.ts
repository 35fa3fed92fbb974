/**
 * Room rules (docs/api.md §10): which room is the default one, the effective role in a room,
 * whether a role passes a table's access rule, room ids and names as input, and a room as its
 * reader sees it. Pure: the row store and the room service share them.
 */
import { z } from 'zod';
import { ROLES, type Role, rank } from '../core/roles.rules.js';
import { fail, parseInput } from '../errors.js';

/**
 * An access rule entry (docs/api.md §5.5): a role name, `creator` (the row's author) or `none`.
 * Declared here so the domain stays below schema/; src/schema/ir.ts spells the same union.
 */
export const ACCESS_RULE_NAMES = [...ROLES, 'creator', 'none'] as const;
export type AccessRule = (typeof ACCESS_RULE_NAMES)[number];

/** The default room has no room record: its id is the resource id, and rows in it carry `roomId: null`. */
export const isDefaultRoom = (resourceId: string, roomId: string | null | undefined): boolean => !roomId || roomId === resourceId;

/**
 * min(resource role, grant); no grant = no role; the default room is the resource role itself.
 * A grant only narrows, never promotes, and a resource demotion narrows every room at once
 * because this is computed on each read, never stored.
 */
export function effectiveRole(resourceRole: Role | null, grant: Role | null, defaultRoom: boolean): Role | null {
  if (resourceRole == null) return null;
  if (defaultRoom) return resourceRole;
  if (grant == null) return null;
  return rank(grant) < rank(resourceRole) ? grant : resourceRole;
}

/**
 * Whether a caller passes an access rule list (docs/api.md §5.5). A role name is a threshold:
 * `reader` and `writer` admit that effective role in the room or a higher one; `admin` and `owner`
 * also admit a caller whose role in the resource is that high, grant or no grant (the spec's
 * "admin visibility": an owner is not implicitly a reader of every room, but a rule that names
 * admins reaches them everywhere). `creator` admits the row's author while they hold a role there;
 * `none` admits no one. `resourceRole` defaults to `role` (the default room, where they are one).
 */
export function passesAccessRule(rules: readonly AccessRule[], role: Role | null, isCreator: boolean, resourceRole: Role | null = role): boolean {
  for (const rule of rules) {
    if (rule === 'none') return false;
    if (rule === 'creator') {
      if (isCreator && role != null) return true;
    } else if (role != null && rank(role) >= rank(rule)) return true;
    else if (reachesByResourceRole(rule, resourceRole)) return true;
  }
  return false;
}

/** Whether `rule` admits `resourceRole` without a room grant: only rules naming admin or owner do. */
const reachesByResourceRole = (rule: Role, resourceRole: Role | null) =>
  (rule === 'admin' || rule === 'owner') && resourceRole != null && rank(resourceRole) >= rank(rule);

/** Whether `rules` reach every room of the resource for a caller of `resourceRole` (admin visibility). */
export const reachesEveryRoom = (rules: readonly AccessRule[], resourceRole: Role | null): boolean =>
  !rules.includes('none') && rules.some(rule => rule !== 'creator' && rule !== 'none' && reachesByResourceRole(rule, resourceRole));

/** A room id as issued (`room_` + hex, see newId in src/lib/secrets.ts); anything else is `invalid_room`. */
export const ROOM_ID_PATTERN = /^room_[0-9a-f]{8,64}$/;
export const isRoomIdShape = (value: string): boolean => ROOM_ID_PATTERN.test(value);

/** Room names: trimmed, 1..100 characters. */
export const ROOM_NAME_MAX = 100;

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

export const defaultRoomImmutable = (what: string) => fail('default_room_immutable', `The default room cannot be ${what}.`);

/**
 * `roomId` as a reference into `resourceId`: `null` for the default room (the resource id), the
 * id for a well-formed room id, `invalid_room` for anything else (docs/api.md §10.1).
 */
export function roomRef(resourceId: string, roomId: string): string | null {
  if (isDefaultRoom(resourceId, roomId)) return null;
  if (!isRoomIdShape(roomId)) throw invalidRoom(roomId, resourceId);
  return roomId;
}

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

/** A room record as the caller of `resourceRole` holding `grant` in it sees it. */
export const roomEntry = (room: { id: string; name: string; createdAt: Date }, resourceRole: Role, grant: Role | null): RoomEntry => ({
  id: room.id,
  name: room.name,
  isDefault: false,
  currentGrant: grant && { role: grant },
  effectiveRole: effectiveRole(resourceRole, grant, false),
  createdAt: room.createdAt,
});

/** The default room: the resource itself, held with the caller's resource role. */
export const defaultRoomEntry = (resource: { id: string; name: string; createdAt: Date }, role: Role): RoomEntry => ({
  id: resource.id,
  name: resource.name,
  isDefault: true,
  currentGrant: { role },
  effectiveRole: role,
  createdAt: resource.createdAt,
});
