/**
 * Who may do what with rows (docs/api.md §11): the access rule an operation is judged by, which
 * rooms a read reaches, moveRoom's authority and the auto-join decision. Pure: the row store
 * service reads the facts inside its transaction and asks these.
 */
import { type AppError, fail } from '../errors.js';
import type { MembershipState } from '../membership/membership.rules.js';
import { ROLES, type Role, isAdminPlus } from '../core/roles.rules.js';
import { type AccessRule, passesAccessRule } from '../rooms/rooms.rules.js';
import { type StoredVisibility, isPublic } from '../membership/visibility.rules.js';

/** The actions a table's `access({...})` names (docs/api.md §5.5); src/schema/ir.ts spells the same list. */
export const ROW_ACTIONS = ['read', 'create', 'update', 'delete', 'unlink'] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];
export type AccessRules = Partial<Record<RowAction, readonly AccessRule[]>>;

/**
 * The rule of an action nobody declared (docs/api.md §11.4): every member reads, writers and up
 * create, a row's author or an admin+ changes, deletes or unlinks it.
 */
export const DEFAULT_ACCESS: Readonly<Record<RowAction, readonly AccessRule[]>> = {
  read: ['reader'],
  create: ['writer'],
  update: ['creator', 'admin'],
  delete: ['creator', 'admin'],
  unlink: ['creator', 'admin'],
};

/**
 * The rule list for `action`: the resource type's `shares`/`owns` override first, then the table's
 * own `access`, then DEFAULT_ACCESS, action by action (an override naming only `read` keeps the
 * table's other rules).
 */
export function ruleFor(action: RowAction, override: AccessRules | null | undefined, table: AccessRules | null | undefined): readonly AccessRule[] {
  return override?.[action] ?? table?.[action] ?? DEFAULT_ACCESS[action];
}

/**
 * How much of one room a read reaches: every row, only the caller's own (`creator` is what
 * admits them), or nothing.
 */
export type ReadReach = 'all' | 'own' | 'none';

export function readReach(rule: readonly AccessRule[], role: Role | null, resourceRole: Role | null = role): ReadReach {
  if (passesAccessRule(rule, role, false, resourceRole)) return 'all';
  return passesAccessRule(rule, role, true, resourceRole) ? 'own' : 'none';
}

/** Every role for which `rule` admits all rows, and those for which it admits only the caller's own. */
export function rolesReaching(rule: readonly AccessRule[]): { all: Role[]; own: Role[] } {
  const all = ROLES.filter(role => readReach(rule, role) === 'all');
  const own = ROLES.filter(role => readReach(rule, role) === 'own');
  return { all, own };
}

/** docs/api.md §10 rule 7: moving rows out of a room needs admin (or owner) there. */
export const canMoveOutOf = (role: Role | null): boolean => isAdminPlus(role);

/**
 * How a caller stands toward a resource for a row write (docs/api.md §5.2, auto-join):
 * - `member`: an active member, judged by their role;
 * - `join`: a public resource and no row of theirs: the write, if its rule admits the type's
 *   default role, makes them an active member at that role in the same transaction;
 * - `outsider`: a members-only resource, or a pending invite or request (those wait for their
 *   answer): no role, so every rule refuses.
 */
export type WriteStanding = 'member' | 'join' | 'outsider';

export function writeStanding(visibility: StoredVisibility, membership: { state: MembershipState } | null): WriteStanding {
  if (membership?.state === 'active') return 'member';
  if (membership) return 'outsider';
  return isPublic({ visibility }) ? 'join' : 'outsider';
}

/**
 * The role a non-member reads a public resource's default room with: the type's default role,
 * what joining would give them (reads never join, docs/api.md §5.2). Members-only: none.
 */
export const visitorRole = (visibility: StoredVisibility, defaultRole: Role): Role | null => (isPublic({ visibility }) ? defaultRole : null);

/** The refusal of an access rule: `room_forbidden` in a room record, `access_denied` elsewhere. */
export function accessRefused(action: RowAction, table: string, role: Role | null, room: 'default' | 'room' | 'user'): AppError {
  const who = role ? `your role here (${role})` : 'you hold no role here';
  if (room === 'room') {
    return fail('room_forbidden', `The access rule for ${action} on ${table} does not admit you in this room: ${who}.`);
  }
  return fail('access_denied', `The access rule for ${action} on ${table} does not admit you: ${who}.`);
}
