/** Visibility as declared in the schema and as stored per instance (docs/api.md §5.1). */
export const VISIBILITY_NAMES = ['members', 'unlisted', 'discoverable'] as const;
export type VisibilityName = (typeof VISIBILITY_NAMES)[number];
export type StoredVisibility = 'members' | 'public';

export interface VisibilityPair {
  visibility: StoredVisibility;
  discoverable: boolean;
}

const PAIRS: Record<VisibilityName, VisibilityPair> = {
  members: { visibility: 'members', discoverable: false },
  unlisted: { visibility: 'public', discoverable: false },
  discoverable: { visibility: 'public', discoverable: true },
};

export const isVisibilityName = (value: unknown): value is VisibilityName => typeof value === 'string' && Object.hasOwn(PAIRS, value);

export const compileVisibility = (name: VisibilityName): VisibilityPair => PAIRS[name];

/** Public resources (unlisted or discoverable) can be viewed by id and self-joined. */
export const isPublic = (pair: { visibility: StoredVisibility }): boolean => pair.visibility === 'public';

/**
 * How far a caller reaches a resource (docs/api.md §5.3):
 * - `view`: a public resource, or the caller is an active member. Fetch by id, static lookup,
 *   rosters and every per-resource transition.
 * - `own_pending`: a members-only resource where the caller has only a pending row of its own,
 *   or an agent it owns has a pending invite. Fetch still answers 404, but the transition table
 *   lets these people answer their row: the invitee accepts or declines, the requester
 *   withdraws, an agent's owner answers for it.
 * - `none`: a members-only resource the caller has nothing to do with; it answers 404 exactly
 *   as a resource that does not exist.
 */
export type ResourceAccess = 'view' | 'own_pending' | 'none';

export interface AccessInput {
  visibility: StoredVisibility;
  /** The caller's own unexpired row, if any. */
  own: { state: 'active' | 'invited' | 'requested' } | null;
  /** An agent the caller owns has an unexpired invite to the resource. */
  agentInvited: boolean;
}

export function resourceAccess({ visibility, own, agentInvited }: AccessInput): ResourceAccess {
  if (isPublic({ visibility }) || own?.state === 'active') return 'view';
  return own || agentInvited ? 'own_pending' : 'none';
}

/** The read gate (fetch by id, static lookup, rosters, live feeds): public, or an active member. */
export const canView = (visibility: StoredVisibility, own: { state: string } | null): boolean => isPublic({ visibility }) || own?.state === 'active';

/**
 * The roster gate (members list and members feed, docs/api.md §5.3 and §6): active members see it; anyone
 * else who can view the resource is told it is the members' business; the rest see no resource.
 */
export type RosterAccess = 'roster' | 'not_member' | 'hidden';
export const rosterAccess = (visibility: StoredVisibility, own: { state: string } | null): RosterAccess =>
  own?.state === 'active' ? 'roster' : canView(visibility, own) ? 'not_member' : 'hidden';

/**
 * Whom a transition may name as its target. With `own_pending` access the caller may name only
 * itself or an agent it owns; anyone else answers like an unknown resource, so a pending member
 * cannot probe the roster of a resource it cannot see.
 */
export function canTarget(
  access: ResourceAccess,
  actorId: string,
  target: { id: string; kind: 'user' | 'agent'; ownerId: string | null } | null,
): boolean {
  if (access === 'view') return true;
  if (access === 'none' || !target) return false;
  return target.id === actorId || (target.kind === 'agent' && target.ownerId === actorId);
}
