/**
 * Lifecycle rules (docs/api.md §12): what a member's leaving does to the rows they linked into a
 * resource (`onMemberRemove`), what deleting an account does to its rows (`onOwnerDelete`), who
 * inherits the resources a deleted account owned, and the deleted-user profile that authorless
 * rows resolve to. Pure: src/membership/lifecycle.service.ts and src/principals/account-deletion.service.ts do the SQL.
 */
import type { MemberRow } from './membership.rules.js';
import type { Role } from '../core/roles.rules.js';

/** The policies a schema declares (src/schema/ir.ts spells the same unions; the domain stays below it). */
export type MemberRemovePolicy = 'remove' | 'hide' | 'retain';
export type OwnerDeletePolicy = 'remove' | 'tombstone' | 'retain';

/** docs/api.md §5.5: both policies default to `remove`. */
export const DEFAULT_MEMBER_REMOVE_POLICY: MemberRemovePolicy = 'remove';
export const DEFAULT_OWNER_DELETE_POLICY: OwnerDeletePolicy = 'remove';

/** The part of a resource type's `shares` the member-removal rule reads. */
export interface SharePolicy {
  table: string;
  onMemberRemove: MemberRemovePolicy;
}

/** Tables of one policy each; every table given lands in exactly one list. */
export type PolicyPlan<P extends string> = Record<P, string[]>;

/**
 * The `onMemberRemove` of each table the leaving member has visible links of. A table the type no
 * longer shares (the schema changed since the link was made) gets the default: its links are
 * dropped, which is what `remove` does and what a reader of the resource sees today anyway.
 */
export function memberRemovalPlan(shares: readonly SharePolicy[], linkedTables: Iterable<string>): PolicyPlan<MemberRemovePolicy> {
  const plan: PolicyPlan<MemberRemovePolicy> = { remove: [], hide: [], retain: [] };
  for (const table of new Set(linkedTables)) {
    const policy = shares.find(s => s.table === table)?.onMemberRemove ?? DEFAULT_MEMBER_REMOVE_POLICY;
    plan[policy].push(table);
  }
  return plan;
}

/**
 * The `onOwnerDelete` of each table a deleted account has rows in. A table the schema no longer
 * declares gets the default, `remove`: the privacy-safe outcome for data nobody declared a use for.
 */
export function ownerDeletionPlan(
  tables: Readonly<Record<string, { onOwnerDelete?: OwnerDeletePolicy | null }>>,
  rowTables: Iterable<string>,
): PolicyPlan<OwnerDeletePolicy> {
  const plan: PolicyPlan<OwnerDeletePolicy> = { remove: [], tombstone: [], retain: [] };
  for (const table of new Set(rowTables)) {
    const declared = Object.hasOwn(tables, table) ? tables[table].onOwnerDelete : null;
    plan[declared ?? DEFAULT_OWNER_DELETE_POLICY].push(table);
  }
  return plan;
}

/**
 * The reserved author of rows whose account was deleted under `tombstone` or `retain`: a null id
 * and a fixed display name (docs/api.md §12). Rows store it as `creator_id` null.
 */
export const DELETED_USER = Object.freeze({ id: null, displayName: 'Deleted user' } as const);
export type DeletedUser = typeof DELETED_USER;

/** The author a row resolves to: its creator's id, or the deleted-user profile once that account is gone. */
export function authorOf(creatorId: string | null): { id: string; displayName: null } | DeletedUser {
  return creatorId === null ? DELETED_USER : { id: creatorId, displayName: null };
}

/** What `DELETE /v1/me` must be sent, word for word: deleting an account cannot be undone. */
export const ACCOUNT_DELETION_CONFIRMATION = 'delete my account';

export const isAccountDeletionConfirmed = (confirm: unknown): boolean => confirm === ACCOUNT_DELETION_CONFIRMATION;

/** A membership row of a resource whose owner is deleting their account. */
export interface Heir {
  principalId: string;
  role: Role;
  state: MemberRow['state'];
  kind: 'user' | 'agent';
  /** When they became a member: the longest-standing admin inherits. */
  since: Date;
}

/**
 * Who inherits a resource whose owner deletes their account: the longest-standing active admin who
 * is a person and is not being deleted too (ties by id, so the choice is stable). Agents never
 * inherit: an agent acts for its owner and cannot sign in to the dashboard that deletes resources.
 * Writers and readers never inherit either: ownership would be a promotion nobody granted. Null
 * means nobody qualifies, and the resource is deleted as the dashboard deletes it.
 */
export function heirOf(members: readonly Heir[], leaving: ReadonlySet<string>): string | null {
  const candidates = members
    .filter(m => m.role === 'admin' && m.state === 'active' && m.kind === 'user' && !leaving.has(m.principalId))
    .sort((a, b) => a.since.getTime() - b.since.getTime() || (a.principalId < b.principalId ? -1 : a.principalId > b.principalId ? 1 : 0));
  return candidates[0]?.principalId ?? null;
}

/** What account deletion does to one of the account's membership rows. */
export type AccountExit = 'withdraw' | 'leave' | 'transfer' | 'delete_resource';

/**
 * Pending rows are withdrawn, active ones left (with each shared table's `onMemberRemove`); an
 * owned resource passes to its heir, or is deleted when there is none.
 */
export function accountExit(membership: MemberRow, heir: string | null): AccountExit {
  if (membership.state !== 'active') return 'withdraw';
  if (membership.role !== 'owner') return 'leave';
  return heir ? 'transfer' : 'delete_resource';
}
