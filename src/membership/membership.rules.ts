/**
 * The membership state machine and authorization rules of docs/api.md §5.2, as pure decisions.
 * Each `decide*` takes what the service read inside its transaction and either returns the
 * transition to apply or throws the AppError the caller sees. No I/O here.
 */
import { fail } from '../errors.js';
import { type GrantCeilings, type Role, isAdminPlus, outranks, rank, withinCeiling } from '../core/roles.rules.js';
import { type StoredVisibility, isPublic } from './visibility.rules.js';

export type MembershipState = 'active' | 'invited' | 'requested';
export type PrincipalKind = 'user' | 'agent';

/** A membership row as the rules see it; `null` is "none" (expired pending rows count as none). */
export interface MemberRow {
  role: Role;
  state: MembershipState;
}

export interface Party {
  id: string;
  kind: PrincipalKind;
  /** For agents: the person who acts through it. */
  ownerId: string | null;
  membership: MemberRow | null;
}

export interface TypeRules {
  grant: GrantCeilings;
  defaultRole: Role;
}

/** The resulting row, or `null` when the row is deleted. */
export type Outcome = { state: MembershipState; role: Role } | null;

export const PENDING_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const MAX_PENDING_INVITES = 50;
export const MAX_LIVE_INVITE_LINKS = 50;
export const INVITE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const isActive = (row: MemberRow | null): row is MemberRow => row?.state === 'active';

function requireAdmin(actor: Party): Role {
  if (!isActive(actor.membership)) {
    throw fail('not_resource_member', 'You are not an active member of this resource.');
  }
  if (!isAdminPlus(actor.membership.role)) {
    throw fail('not_admin', 'This action needs the admin or owner role on the resource.');
  }
  return actor.membership.role;
}

function requireCeiling(rules: TypeRules, actorRole: Role, role: Role): void {
  if (!withinCeiling(rules.grant, actorRole, role)) {
    const ceiling = rules.grant[actorRole];
    throw fail(
      'grant_ceiling',
      ceiling
        ? `As ${actorRole} you can assign at most the ${ceiling} role; '${role}' is above your grant ceiling.`
        : `As ${actorRole} you cannot assign roles on this resource type.`,
    );
  }
}

/** Peers and superiors (and always the owner) cannot be changed or removed. */
function requireOutranks(actorRole: Role, target: MemberRow): void {
  if (target.role === 'owner' || !outranks(actorRole, target.role)) {
    throw fail('outranked', `You cannot change a member whose role (${target.role}) is not below yours (${actorRole}).`);
  }
}

const isOwnAgent = (actor: Party, target: Party) => target.kind === 'agent' && target.ownerId === actor.id;

export interface InviteInput {
  actor: Party;
  target: Party;
  role: Role | undefined;
  rules: TypeRules;
  /** Unexpired invites this actor has outstanding on the resource. */
  pendingByActor: number;
  /** A block between actor and target, in either direction. */
  blocked: boolean;
}

/** docs/api.md §5.2: none -> invite -> invited (a person, or someone else's agent) or active (the actor's own agent). */
export function decideInvite({ actor, target, role: requested, rules, pendingByActor, blocked }: InviteInput): NonNullable<Outcome> {
  const actorRole = requireAdmin(actor);
  const role = requested ?? rules.defaultRole;
  requireCeiling(rules, actorRole, role);
  if (target.id === actor.id) throw fail('already_member', 'You are already a member of this resource.');
  if (blocked) throw fail('blocked', 'You cannot invite this user: one of you has blocked the other.');
  const current = target.membership;
  if (current?.state === 'active') throw fail('already_member', 'That principal is already an active member.');
  if (current?.state === 'invited') throw fail('already_invited', 'That principal already has a pending invite; change its role with setRole.');
  // The owner's decision is the consent for their own agent; a pending request is the target's consent.
  if (isOwnAgent(actor, target) || current?.state === 'requested') return { state: 'active', role };
  if (pendingByActor >= MAX_PENDING_INVITES) {
    throw fail('pending_limit', `You already have ${MAX_PENDING_INVITES} pending invites on this resource; wait for answers or withdraw some.`);
  }
  return { state: 'invited', role };
}

export interface RespondInput {
  actor: Party;
  /** The row being answered: the actor's own, their agent's, or a requester's. */
  target: Party;
  rules: TypeRules;
}

/** Who may answer `target`'s pending row, and how; shared by accept and reject. */
function authorizeResponse({ actor, target, rules }: RespondInput, verb: 'accept' | 'reject'): MemberRow {
  const row = target.membership;
  const self = actor.id === target.id;
  if (!row || row.state === 'active') {
    throw fail(
      self ? 'no_pending_invite' : 'no_pending_membership',
      self ? 'You have no pending invite for this resource.' : `${target.id} has no pending invite or request on this resource.`,
    );
  }
  if (row.state === 'invited') {
    // Declining is always the invitee's to do; only accepting needs a person behind it.
    if (self && actor.kind === 'agent' && verb === 'accept') {
      throw fail('agent_cannot_accept', `An agent cannot ${verb} its own invite; its owner ${verb}s on its behalf.`);
    }
    if (!self && !isOwnAgent(actor, target)) {
      throw fail('not_invitee', `Only the invitee (or the owner of an invited agent) can ${verb} an invite.`);
    }
    return row;
  }
  // requested: an admin answers; the requester may withdraw their own request by rejecting it.
  if (self) {
    if (verb === 'reject') return row;
    throw fail('not_admin', 'Your access request is waiting for an admin of the resource.');
  }
  const actorRole = requireAdmin(actor);
  if (verb === 'accept') requireCeiling(rules, actorRole, row.role);
  return row;
}

/** docs/api.md §5.2: invited/requested -> accept -> active. */
export function decideAccept(input: RespondInput): NonNullable<Outcome> {
  const row = authorizeResponse(input, 'accept');
  return { state: 'active', role: row.role };
}

/** docs/api.md §5.2: invited/requested -> reject -> the pending row is deleted. */
export function decideReject(input: RespondInput): Outcome {
  authorizeResponse(input, 'reject');
  return null;
}

export interface RequestInput {
  actor: Party;
  role: Role | undefined;
  rules: TypeRules;
}

/** docs/api.md §5.2: none -> request -> requested. A repeated request is idempotent. */
export function decideRequest({ actor, role: requested, rules }: RequestInput): NonNullable<Outcome> {
  if (actor.membership?.state === 'active') throw fail('already_member', 'You are already a member of this resource.');
  if (actor.membership?.state === 'invited') throw fail('already_invited', 'You already have an invite to this resource: accept it instead.');
  const role = requested ?? rules.defaultRole;
  // Nobody could ever accept a request above the owner's ceiling.
  requireCeiling(rules, 'owner', role);
  return { state: 'requested', role };
}

export interface JoinInput {
  actor: Party;
  visibility: StoredVisibility;
  rules: TypeRules;
}

/** docs/api.md §5.2: none -> join -> active at the type's default role, on public resources only. Idempotent. */
export function decideJoin({ actor, visibility, rules }: JoinInput): NonNullable<Outcome> {
  if (!isPublic({ visibility })) {
    throw fail('members_only', 'This resource is members-only: entry is by invite or request.');
  }
  const row = actor.membership;
  if (row?.state === 'active') return row;
  // Joining with a pending invite takes the invited role; that is the invite accepted.
  if (row?.state === 'invited') {
    if (actor.kind === 'agent') throw fail('agent_cannot_accept', 'An agent cannot accept its own invite; its owner accepts on its behalf.');
    return { state: 'active', role: row.role };
  }
  return { state: 'active', role: rules.defaultRole };
}

/** docs/api.md §5.2: active -> leave -> gone; the owner can never leave. */
export function decideLeave(actor: Party): Outcome {
  if (!isActive(actor.membership)) throw fail('not_member', 'You are not a member of this resource.');
  if (actor.membership.role === 'owner') {
    throw fail('owner_cannot_leave', 'The owner cannot leave: the resource would be orphaned.');
  }
  return null;
}

export interface ChangeInput {
  actor: Party;
  target: Party;
  rules: TypeRules;
}

function requireTargetRow(target: Party): MemberRow {
  if (!target.membership) throw fail('not_member', `${target.id} is not a member of this resource.`);
  if (target.membership.state === 'requested') {
    throw fail('pending_request', `${target.id} has a pending access request: use accept or reject.`);
  }
  return target.membership;
}

/** docs/api.md §5.2: invited/active -> setRole -> same state, new role. Requests are not changed by setRole. */
export function decideSetRole({ actor, target, rules }: ChangeInput, role: Role): NonNullable<Outcome> {
  const actorRole = requireAdmin(actor);
  const row = requireTargetRow(target);
  // docs/api.md §5.2 asks outranking of active members only; an invite's role is bounded by the ceiling.
  if (row.state === 'active') requireOutranks(actorRole, row);
  requireCeiling(rules, actorRole, role);
  return { state: row.state, role };
}

/** docs/api.md §5.2: invited -> remove withdraws the invite; active -> remove ends the membership. */
export function decideRemove({ actor, target }: ChangeInput): Outcome {
  const actorRole = requireAdmin(actor);
  if (target.id === actor.id) throw fail('use_leave', 'To remove yourself, leave the resource.');
  requireOutranks(actorRole, requireTargetRow(target));
  return null;
}

export interface CreateLinkInput {
  actor: Party;
  role: Role | undefined;
  rules: TypeRules;
  liveLinksByActor: number;
}

/** Invite-link creation: admin+, role within ceiling, at most 50 live links per person per resource. */
export function decideCreateInviteLink({ actor, role: requested, rules, liveLinksByActor }: CreateLinkInput): Role {
  const actorRole = requireAdmin(actor);
  const role = requested ?? rules.defaultRole;
  requireCeiling(rules, actorRole, role);
  if (liveLinksByActor >= MAX_LIVE_INVITE_LINKS) {
    throw fail(
      'invite_link_limit',
      `You already have ${MAX_LIVE_INVITE_LINKS} live invite links on this resource; wait for them to be used or expire.`,
    );
  }
  return role;
}

export interface ClaimInput {
  claimer: Party;
  /** The link creator, with their membership as it is now. */
  creator: Party;
  link: { role: Role; expiresAt: Date; usedAt: Date | null };
  rules: TypeRules;
  blocked: boolean;
  now: Date;
}

/**
 * docs/api.md §5.2: none -> invite-link claim -> active at the link's role. Every condition is
 * re-checked at claim time; a failed check leaves the link unconsumed (a restored creator revives it).
 */
export function decideClaimInviteLink({ claimer, creator, link, rules, blocked, now }: ClaimInput): NonNullable<Outcome> {
  if (link.usedAt) throw fail('invite_link_used', 'This invite link has already been used.');
  if (link.expiresAt <= now) throw fail('invite_link_expired', 'This invite link has expired.');
  if (claimer.kind === 'agent') throw fail('agent_cannot_accept', 'An agent cannot claim an invite link; its owner invites it.');
  const creatorRow = creator.membership;
  if (!isActive(creatorRow) || !isAdminPlus(creatorRow.role) || !withinCeiling(rules.grant, creatorRow.role, link.role)) {
    throw fail('invite_link_inactive', "This invite link is not usable now: its creator's role no longer allows it.");
  }
  if (blocked) throw fail('blocked', 'You cannot use this invite link: you and its creator have a block between you.');
  if (claimer.membership?.state === 'active') throw fail('already_member', 'You are already a member of this resource.');
  // A pending invite or request is absorbed: the link's role wins.
  return { state: 'active', role: link.role };
}

/** Pending rows past their TTL behave as absent. */
export function isExpired(row: { state: MembershipState; expiresAt: Date | null }, now: Date): boolean {
  return row.state !== 'active' && row.expiresAt != null && row.expiresAt <= now;
}

/** The roles the caller can see of a resource view (docs/api.md §2.2 currentMember rules). */
export type ViewMode = 'list' | 'fetch' | 'browse' | 'static' | 'create';

export function currentMemberFor(mode: ViewMode, row: MemberRow | null): MemberRow | undefined {
  switch (mode) {
    case 'browse':
    case 'static':
      return undefined;
    case 'fetch':
      return isActive(row) ? { role: row.role, state: row.state } : undefined;
    default:
      return row ? { role: row.role, state: row.state } : undefined;
  }
}

/** Keep rank handy for sorting rosters (owner first). */
export const byRankThenId = (a: { role: Role; id: string }, b: { role: Role; id: string }) => rank(b.role) - rank(a.role) || a.id.localeCompare(b.id);

/** A membership row as stored, expired or not: what a transition's single read returns. */
export interface StoredMember extends MemberRow {
  expiresAt: Date | null;
}

/** A stored row as the rules see it: an expired pending row is none. */
export const liveRow = (row: StoredMember | null, now: Date): MemberRow | null =>
  row && !isExpired(row, now) ? { role: row.role, state: row.state } : null;

/**
 * The one write that takes a stored row to a transition's outcome. `replace` is an expired
 * pending row purged and a new row created in its place (one statement writes it over).
 */
export type RowWrite =
  | { kind: 'none' }
  | { kind: 'delete' }
  | { kind: 'insert'; role: Role; state: MembershipState; expiresAt: Date | null }
  | { kind: 'replace'; role: Role; state: MembershipState; expiresAt: Date | null }
  /** `expiresAt` undefined: the pending row keeps its expiry (same state). */
  | { kind: 'update'; role: Role; state: MembershipState; expiresAt?: Date | null };

export interface RowChangeEvent {
  op: 'insert' | 'update' | 'delete';
  role: Role;
  state: MembershipState;
}

export interface RowPlan {
  write: RowWrite;
  /** The `delete` of an expired pending row this write replaces or removes, published before `events`. */
  purged: RowChangeEvent | null;
  /** The outcome's change, if any. */
  events: RowChangeEvent[];
  /** Change of the resource's active member count. */
  countDelta: number;
  /** Active again: hidden links reappear (docs/api.md §12). */
  restoresLinks: boolean;
  /** No longer active: the room grants go with the row and each shared table's onMemberRemove applies. */
  endsActive: boolean;
}

/**
 * What storing `after` over `stored` takes, the same as deleting an expired row and then writing
 * the outcome over none: the events, the member count, the links. Pending rows get a fresh
 * expiry when they enter a pending state and keep theirs while they stay in it.
 */
export function planRowWrite(stored: StoredMember | null, after: Outcome, now: Date): RowPlan {
  const expired = stored !== null && isExpired(stored, now);
  const before = expired ? null : stored;
  const purged: RowChangeEvent | null = expired ? { op: 'delete', role: stored.role, state: stored.state } : null;
  const events: RowChangeEvent[] = [];
  const expiresAt = after && after.state !== 'active' ? new Date(now.getTime() + PENDING_TTL_MS) : null;
  let write: RowWrite = { kind: 'none' };
  if (!after) {
    if (stored) write = { kind: 'delete' };
    if (before) events.push({ op: 'delete', role: before.role, state: before.state });
  } else if (!before) {
    write = { kind: expired ? 'replace' : 'insert', role: after.role, state: after.state, expiresAt };
    events.push({ op: 'insert', role: after.role, state: after.state });
  } else if (before.role !== after.role || before.state !== after.state) {
    write = { kind: 'update', role: after.role, state: after.state, ...(before.state === after.state ? {} : { expiresAt }) };
    events.push({ op: 'update', role: after.role, state: after.state });
  }
  const wasActive = before?.state === 'active';
  const isActiveNow = after?.state === 'active';
  return {
    write,
    purged,
    events,
    countDelta: (isActiveNow ? 1 : 0) - (wasActive ? 1 : 0),
    restoresLinks: isActiveNow && !wasActive,
    endsActive: wasActive && !after,
  };
}
