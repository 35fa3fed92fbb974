/**
 * Room rules (docs/api.md §10): which room is the default one, the effective role in a room, and
 * whether a role passes a table's access rule. Pure: the row store and the room service share them.
 */
import { ROLES, type Role, rank } from '../core/roles.rules.js';

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
