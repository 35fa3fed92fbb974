/** Roles, their order and grant ceilings (docs/api.md §5.1, §5.2). */
export const ROLES = ['owner', 'admin', 'writer', 'reader'] as const;
export type Role = (typeof ROLES)[number];

export type GrantCeilings = Record<Role, Role | null>;

/** Default ceilings: ownership is never handed out by grant. */
export const DEFAULT_GRANT: GrantCeilings = { owner: 'admin', admin: 'writer', writer: null, reader: null };

const RANK: Record<Role, number> = { owner: 4, admin: 3, writer: 2, reader: 1 };

export const isRole = (value: unknown): value is Role => typeof value === 'string' && Object.hasOwn(RANK, value);
export const rank = (role: Role): number => RANK[role];
export const isAdminPlus = (role: Role | null | undefined): boolean => role != null && RANK[role] >= RANK.admin;

/** An action against a member needs the actor to strictly outrank the target (peers cannot touch peers). */
export const outranks = (actor: Role, target: Role): boolean => RANK[actor] > RANK[target];

/** Whether `actor` may assign `role` under the type's ceilings. */
export function withinCeiling(grant: GrantCeilings, actor: Role, role: Role): boolean {
  const ceiling = grant[actor];
  return ceiling != null && RANK[role] <= RANK[ceiling];
}
