/**
 * docs/api.md §5.2 (states and transitions, with their authorization refusals) and §9.6
 * (limits), row by row. Each case is named after the section of docs/api.md it checks; refusals
 * assert the AppError's code and status.
 */
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import {
  type ClaimInput,
  type CreateLinkInput,
  INVITE_LINK_TTL_MS,
  type InviteInput,
  MAX_LIVE_INVITE_LINKS,
  MAX_PENDING_INVITES,
  type MemberRow,
  type MembershipState,
  PENDING_TTL_MS,
  type Party,
  type RequestInput,
  type TypeRules,
  type ViewMode,
  byRankThenId,
  currentMemberFor,
  decideAccept,
  decideClaimInviteLink,
  decideCreateInviteLink,
  decideInvite,
  decideJoin,
  decideLeave,
  decideReject,
  decideRemove,
  decideRequest,
  decideSetRole,
  isExpired,
} from './membership.rules.js';
import { DEFAULT_GRANT, type Role } from '../core/roles.rules.js';

// ---------------------------------------------------------------------------------------------
// Fixtures: one line per party.

const active = (role: Role): MemberRow => ({ role, state: 'active' });
const invited = (role: Role): MemberRow => ({ role, state: 'invited' });
const requested = (role: Role): MemberRow => ({ role, state: 'requested' });

const user = (id: string, membership: MemberRow | null = null): Party => ({ id, kind: 'user', ownerId: null, membership });
const agent = (id: string, ownerId: string, membership: MemberRow | null = null): Party => ({ id, kind: 'agent', ownerId, membership });

/** The cast: olga owns the resource, ada and abe are admins, wes writes, rita reads, sam is outside. */
const OLGA = user('olga', active('owner'));
const ADA = user('ada', active('admin'));
const ABE = user('abe', active('admin'));
const WES = user('wes', active('writer'));
const RITA = user('rita', active('reader'));
const SAM = user('sam');

/** Default ceilings of docs/api.md §5.1; the type's default role is reader. */
const RULES: TypeRules = { grant: DEFAULT_GRANT, defaultRole: 'reader' };
/** A type overriding `grant` so admins may hand out admin. */
const GENEROUS: TypeRules = { grant: { owner: 'owner', admin: 'admin', writer: null, reader: null }, defaultRole: 'reader' };

// ---------------------------------------------------------------------------------------------
// Expected results: a row, `gone` (the row is deleted), or a refusal with code and status.

type Refusal = { refused: string; status: number };
type Expected = { state: MembershipState; role: Role } | Role | null | Refusal;

const ok = (state: MembershipState, role: Role) => ({ state, role });
const gone = null;
const refused = (code: string, status: number): Refusal => ({ refused: code, status });

/** Runs a decision; an AppError becomes `{ refused: code, status }` so every row compares one value. */
function decide(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (isAppError(error)) return refused(error.code, error.status);
    throw error;
  }
}

type Row = [name: string, run: () => unknown, expected: Expected];
const check = (_: string, run: () => unknown, expected: Expected) => expect(decide(run)).toEqual(expected);

// ---------------------------------------------------------------------------------------------

describe('docs/api.md §5.2: none -> invite', () => {
  const invite =
    (over: Partial<InviteInput> = {}) =>
    () =>
      decideInvite({ actor: ADA, target: SAM, role: 'writer', rules: RULES, pendingByActor: 0, blocked: false, ...over });

  it.each<Row>([
    ['§5.2: none -> invite of a person by an admin -> invited', invite({ target: SAM }), ok('invited', 'writer')],
    ['§5.2: none -> invite by the owner at the owner ceiling (admin) -> invited', invite({ actor: OLGA, role: 'admin' }), ok('invited', 'admin')],
    ['§5.2: none -> invite without a role -> invited at the type default role', invite({ role: undefined }), ok('invited', 'reader')],
    ['§5.2: none -> invite of an agent owned by someone else -> invited', invite({ target: agent('sam-bot', 'sam') }), ok('invited', 'writer')],
    [
      '§5.2: none -> invite of a non-human principal owned by the caller -> active (owner decision is the consent)',
      invite({ target: agent('ada-bot', 'ada') }),
      ok('active', 'writer'),
    ],
    [
      '§5.2: none -> invite of the caller own agent is not held to the 50-pending cap (no pending row)',
      invite({ target: agent('ada-bot', 'ada'), pendingByActor: 50 }),
      ok('active', 'writer'),
    ],
    [
      '§5.2: none -> invite of a user with a pending request -> active (the request is their consent)',
      invite({ target: user('sam', requested('reader')) }),
      ok('active', 'writer'),
    ],
    [
      '§5.2: none -> invite of a user with a pending request is not held to the 50-pending cap',
      invite({ target: user('sam', requested('reader')), pendingByActor: 50 }),
      ok('active', 'writer'),
    ],
    [
      '§5.2: none -> invite under an overridden grant lets an admin invite as admin',
      invite({ rules: GENEROUS, role: 'admin' }),
      ok('invited', 'admin'),
    ],
    ['§5.2: none -> invite by a writer (not admin+) is refused', invite({ actor: WES }), refused('not_admin', 403)],
    ['§5.2: none -> invite by a reader (not admin+) is refused', invite({ actor: RITA, role: 'reader' }), refused('not_admin', 403)],
    ['§5.2: none -> invite by a non-member is refused', invite({ actor: user('zed') }), refused('not_resource_member', 403)],
    [
      '§5.2: none -> invite by an admin whose own row is only invited is refused',
      invite({ actor: user('ivy', invited('admin')) }),
      refused('not_resource_member', 403),
    ],
    ['§5.2: none -> invite above the admin ceiling (admin) is refused', invite({ role: 'admin' }), refused('grant_ceiling', 403)],
    [
      '§5.2: none -> invite as owner is refused even for the owner (ownership is not granted)',
      invite({ actor: OLGA, role: 'owner' }),
      refused('grant_ceiling', 403),
    ],
    [
      '§5.2: none -> invite at a type default role above the caller ceiling is refused',
      invite({ role: undefined, rules: { ...RULES, defaultRole: 'admin' } }),
      refused('grant_ceiling', 403),
    ],
    [
      `§5.2/§9.6: none -> invite with ${MAX_PENDING_INVITES - 1} pending invites outstanding -> invited`,
      invite({ pendingByActor: MAX_PENDING_INVITES - 1 }),
      ok('invited', 'writer'),
    ],
    [
      `§5.2/§9.6: none -> invite with ${MAX_PENDING_INVITES} pending invites outstanding is refused`,
      invite({ pendingByActor: MAX_PENDING_INVITES }),
      refused('pending_limit', 409),
    ],
    ['§5.2: none -> invite across a block (either direction) is refused', invite({ blocked: true }), refused('blocked', 403)],
    ['§5.2: invite of an active member is refused', invite({ target: user('wes', active('writer')) }), refused('already_member', 409)],
    [
      '§5.2: invite of someone already invited is refused (use setRole)',
      invite({ target: user('sam', invited('reader')) }),
      refused('already_invited', 409),
    ],
    ['§5.2: invite of oneself is refused', invite({ target: ADA }), refused('already_member', 409)],
  ])('%s', check);
});

describe('docs/api.md §5.2: invited/requested -> accept', () => {
  const accept =
    (actor: Party, target: Party = actor, rules: TypeRules = RULES) =>
    () =>
      decideAccept({ actor, target, rules });
  const samInvited = user('sam', invited('writer'));
  const botInvited = agent('sam-bot', 'sam', invited('writer'));
  const samRequested = (role: Role) => user('sam', requested(role));

  it.each<Row>([
    ['§5.2: invited -> accept by the invitee (empty body) -> active at the invited role', accept(samInvited), ok('active', 'writer')],
    ['§5.2: invited -> accept by the owner of an invited agent passing the agent id -> active', accept(SAM, botInvited), ok('active', 'writer')],
    ['§5.2: invited -> accept by the agent itself is refused', accept(botInvited), refused('agent_cannot_accept', 403)],
    ['§5.2: invited -> accept of someone else invite by an admin is refused', accept(ADA, samInvited), refused('not_invitee', 403)],
    ['§5.2: invited -> accept of someone else invite by the resource owner is refused', accept(OLGA, samInvited), refused('not_invitee', 403)],
    [
      '§5.2: invited -> accept of an agent invite by someone who does not own it is refused',
      accept(user('zed'), botInvited),
      refused('not_invitee', 403),
    ],
    [
      '§5.2: requested -> accept with userId by an admin -> active at the requested role',
      accept(ADA, samRequested('writer')),
      ok('active', 'writer'),
    ],
    [
      '§5.2: requested -> accept with userId by the owner -> active (admin is within the owner ceiling)',
      accept(OLGA, samRequested('admin')),
      ok('active', 'admin'),
    ],
    [
      '§5.2: requested -> accept by an admin of a request above the admin ceiling is refused',
      accept(ADA, samRequested('admin')),
      refused('grant_ceiling', 403),
    ],
    ['§5.2: requested -> accept by a writer (not admin+) is refused', accept(WES, samRequested('reader')), refused('not_admin', 403)],
    ['§5.2: requested -> accept by a non-member is refused', accept(user('zed'), samRequested('reader')), refused('not_resource_member', 403)],
    [
      '§5.2: requested -> accept by the requester themselves is refused (an admin answers)',
      accept(samRequested('reader')),
      refused('not_admin', 403),
    ],
    ['§5.2: accept with no pending invite of your own is refused', accept(SAM), refused('no_pending_invite', 404)],
    ['§5.2: accept for a userId with no pending row is refused', accept(ADA, SAM), refused('no_pending_membership', 404)],
    ['§5.2: accept for an already active member is refused', accept(ADA, WES), refused('no_pending_membership', 404)],
  ])('%s', check);
});

describe('docs/api.md §5.2: invited/requested -> reject', () => {
  const reject =
    (actor: Party, target: Party = actor) =>
    () =>
      decideReject({ actor, target, rules: RULES });
  const samInvited = user('sam', invited('writer'));
  const botInvited = agent('sam-bot', 'sam', invited('writer'));
  const samRequested = user('sam', requested('writer'));

  it.each<Row>([
    ['§5.2: invited -> reject by the invitee -> row removed', reject(samInvited), gone],
    ['§5.2: invited -> reject by an agent owner on its behalf -> row removed', reject(SAM, botInvited), gone],
    ['§5.2: requested -> reject by an admin by userId -> row removed', reject(ADA, samRequested), gone],
    ['§5.2: requested -> reject by the requester (withdrawing the request) -> row removed', reject(samRequested), gone],
    [
      '§5.2: invited -> reject of someone else invite by an admin is refused (withdraw with remove)',
      reject(ADA, samInvited),
      refused('not_invitee', 403),
    ],
    [
      '§5.2: invited -> reject of an agent invite by someone who does not own it is refused',
      reject(user('zed'), botInvited),
      refused('not_invitee', 403),
    ],
    ['§5.2: requested -> reject by a writer (not admin+) is refused', reject(WES, samRequested), refused('not_admin', 403)],
    ['§5.2: reject with no pending invite of your own is refused', reject(SAM), refused('no_pending_invite', 404)],
    ['§5.2: reject of an active member is refused', reject(ADA, WES), refused('no_pending_membership', 404)],
  ])('%s', check);

  it('docs/api.md §5.2: invited -> reject by the invited agent itself (declining is not consent) -> row removed', () => {
    check('', reject(botInvited), gone);
  });
});

describe('docs/api.md §5.2: none -> request', () => {
  const request =
    (actor: Party, over: Partial<Omit<RequestInput, 'actor'>> = {}) =>
    () =>
      decideRequest({ actor, role: 'writer', rules: RULES, ...over });

  it.each<Row>([
    ['§5.2: none -> request by a non-member -> requested', request(SAM), ok('requested', 'writer')],
    ['§5.2: none -> request without a role -> requested at the type default role', request(SAM, { role: undefined }), ok('requested', 'reader')],
    ['§5.2: none -> request for admin (within the owner ceiling) -> requested', request(SAM, { role: 'admin' }), ok('requested', 'admin')],
    ['§5.2: requested -> request again is idempotent (stays requested)', request(user('sam', requested('writer'))), ok('requested', 'writer')],
    ['§5.2: none -> request for a role above the owner ceiling (owner) is refused', request(SAM, { role: 'owner' }), refused('grant_ceiling', 403)],
    [
      '§5.2: none -> request for owner is accepted when the type grant lets owners grant owner',
      request(SAM, { role: 'owner', rules: GENEROUS }),
      ok('requested', 'owner'),
    ],
    ['§5.2: request by an active member is refused', request(WES), refused('already_member', 409)],
    [
      '§5.2: request by someone already invited is refused (accept the invite instead)',
      request(user('sam', invited('reader'))),
      refused('already_invited', 409),
    ],
  ])('%s', check);
});

describe('docs/api.md §5.2: none -> join', () => {
  const join =
    (actor: Party, visibility: 'members' | 'public' = 'public') =>
    () =>
      decideJoin({ actor, visibility, rules: RULES });

  it.each<Row>([
    ['§5.2: none -> join a public resource -> active at the type default role', join(SAM), ok('active', 'reader')],
    ['§5.2/§8.2: none -> join a members resource is refused', join(SAM, 'members'), refused('members_only', 403)],
    ['§5.2: join is idempotent: an active member keeps their role', join(WES), ok('active', 'writer')],
    ['§5.2: join is idempotent even for the owner', join(OLGA), ok('active', 'owner')],
    ['§5.2: join with a pending invite takes the invited role', join(user('sam', invited('writer'))), ok('active', 'writer')],
    [
      '§5.2: join by an agent with a pending invite is refused (it would accept its own invite)',
      join(agent('sam-bot', 'sam', invited('writer'))),
      refused('agent_cannot_accept', 403),
    ],
    ['§5.2: join with a pending request -> active at the type default role', join(user('sam', requested('writer'))), ok('active', 'reader')],
  ])('%s', check);
});

describe('docs/api.md §5.2: active -> leave (the owner never leaves)', () => {
  const leave = (actor: Party) => () => decideLeave(actor);

  it.each<Row>([
    ['§5.2: active -> leave by a writer (not the owner) -> no longer a member', leave(WES), gone],
    ['§5.2: active -> leave by an admin (not the owner) -> no longer a member', leave(ADA), gone],
    ['§5.2: the owner cannot leave (the resource would be orphaned)', leave(OLGA), refused('owner_cannot_leave', 403)],
    ['§5.2: leave by a non-member is refused', leave(SAM), refused('not_member', 404)],
    ['§5.2: leave with only a pending invite is refused (not a member)', leave(user('sam', invited('writer'))), refused('not_member', 404)],
  ])('%s', check);
});

describe('docs/api.md §5.2: invited/active -> setRole', () => {
  const setRole =
    (actor: Party, target: Party, role: Role, rules: TypeRules = RULES) =>
    () =>
      decideSetRole({ actor, target, rules }, role);

  it.each<Row>([
    [
      '§5.2: invited -> setRole by an admin, within ceiling -> stays invited with the new role',
      setRole(ADA, user('sam', invited('reader')), 'writer'),
      ok('invited', 'writer'),
    ],
    [
      '§5.2: invited -> setRole by the owner up to admin -> stays invited as admin',
      setRole(OLGA, user('sam', invited('writer')), 'admin'),
      ok('invited', 'admin'),
    ],
    [
      '§5.2: invited -> setRole above the caller ceiling is refused',
      setRole(ADA, user('sam', invited('reader')), 'admin'),
      refused('grant_ceiling', 403),
    ],
    [
      '§5.2: requested -> setRole does not apply (use accept or reject)',
      setRole(ADA, user('sam', requested('reader')), 'writer'),
      refused('pending_request', 409),
    ],
    ['§5.2: active -> setRole by the owner promotes a writer to admin', setRole(OLGA, WES, 'admin'), ok('active', 'admin')],
    ['§5.2: active -> setRole by the owner demotes an admin to reader', setRole(OLGA, ADA, 'reader'), ok('active', 'reader')],
    ['§5.2: active -> setRole by an admin on a reader, within ceiling -> active as writer', setRole(ADA, RITA, 'writer'), ok('active', 'writer')],
    ['§5.2: active -> setRole by an admin on a writer, within ceiling -> active as reader', setRole(ADA, WES, 'reader'), ok('active', 'reader')],
    ['§5.2: active -> setRole on a peer (admin on admin) is refused', setRole(ADA, ABE, 'writer'), refused('outranked', 403)],
    ['§5.2: active -> setRole on a superior (admin on owner) is refused', setRole(ADA, OLGA, 'writer'), refused('outranked', 403)],
    ['§5.2: active -> setRole on the owner by the owner is refused', setRole(OLGA, OLGA, 'admin'), refused('outranked', 403)],
    [
      '§5.2: active -> setRole on a peer is refused even when the grant allows the role',
      setRole(ADA, ABE, 'admin', GENEROUS),
      refused('outranked', 403),
    ],
    ['§5.2: active -> setRole above the admin ceiling (writer to admin) is refused', setRole(ADA, WES, 'admin'), refused('grant_ceiling', 403)],
    ['§5.2: active -> setRole to owner is refused even for the owner', setRole(OLGA, ADA, 'owner'), refused('grant_ceiling', 403)],
    ['§5.2: setRole by a writer (not admin+) is refused', setRole(WES, RITA, 'reader'), refused('not_admin', 403)],
    ['§5.2: setRole by a non-member is refused', setRole(SAM, RITA, 'writer'), refused('not_resource_member', 403)],
    ['§5.2: setRole on a non-member is refused', setRole(ADA, SAM, 'writer'), refused('not_member', 404)],
  ])('%s', check);

  it('docs/api.md §5.2: invited -> setRole by an admin on an admin-level invite (row lists no outrank clause) -> stays invited with the new role', () => {
    check('', setRole(ADA, user('sam', invited('admin')), 'writer'), ok('invited', 'writer'));
  });
});

describe('docs/api.md §5.2: invited/active -> remove', () => {
  const remove = (actor: Party, target: Party) => () => decideRemove({ actor, target, rules: RULES });

  it.each<Row>([
    ['§5.2: invited -> remove by an admin withdraws the invite -> no longer present', remove(ADA, user('sam', invited('writer'))), gone],
    ['§5.2: active -> remove by an admin of a writer -> no longer a member', remove(ADA, WES), gone],
    ['§5.2: active -> remove by the owner of an admin -> no longer a member', remove(OLGA, ADA), gone],
    [
      '§5.2: invited -> remove of a peer-level invite (admin invite, by an admin) is refused',
      remove(ADA, user('sam', invited('admin'))),
      refused('outranked', 403),
    ],
    ['§5.2: active -> remove of a peer (admin by admin) is refused', remove(ADA, ABE), refused('outranked', 403)],
    ['§5.2: active -> remove of the owner is refused', remove(ADA, OLGA), refused('outranked', 403)],
    ['§5.2: remove of oneself is refused (leave instead)', remove(ADA, ADA), refused('use_leave', 403)],
    ['§5.2: remove of oneself is refused for the owner too', remove(OLGA, OLGA), refused('use_leave', 403)],
    [
      '§5.2: requested -> remove does not apply (use accept or reject)',
      remove(ADA, user('sam', requested('reader'))),
      refused('pending_request', 409),
    ],
    ['§5.2: remove by a writer (not admin+) is refused', remove(WES, RITA), refused('not_admin', 403)],
    ['§5.2: remove by a non-member is refused', remove(SAM, RITA), refused('not_resource_member', 403)],
    ['§5.2: remove of a non-member is refused', remove(ADA, SAM), refused('not_member', 404)],
  ])('%s', check);
});

describe('docs/api.md §2.1/§9.6: invite-link create', () => {
  const create =
    (over: Partial<CreateLinkInput> = {}) =>
    () =>
      decideCreateInviteLink({ actor: ADA, role: 'writer', rules: RULES, liveLinksByActor: 0, ...over });

  it.each<Row>([
    ['§2.1: invite-link by an admin within ceiling -> link at that role', create(), 'writer'],
    ['§2.1: invite-link by the owner at admin -> link at admin', create({ actor: OLGA, role: 'admin' }), 'admin'],
    ['§2.1: invite-link without a role -> link at the type default role', create({ role: undefined }), 'reader'],
    ['§2.1/§5.2: invite-link above the admin ceiling is refused', create({ role: 'admin' }), refused('grant_ceiling', 403)],
    ['§2.1/§5.2: invite-link by a writer (not admin+) is refused', create({ actor: WES, role: 'reader' }), refused('not_admin', 403)],
    ['§2.1/§5.2: invite-link by a non-member is refused', create({ actor: SAM }), refused('not_resource_member', 403)],
    [`§9.6: invite-link with ${MAX_LIVE_INVITE_LINKS - 1} live links -> created`, create({ liveLinksByActor: MAX_LIVE_INVITE_LINKS - 1 }), 'writer'],
    [
      `§9.6: invite-link with ${MAX_LIVE_INVITE_LINKS} live links is refused`,
      create({ liveLinksByActor: MAX_LIVE_INVITE_LINKS }),
      refused('invite_link_limit', 409),
    ],
  ])('%s', check);
});

describe('docs/api.md §5.2: none -> invite-link claim', () => {
  const NOW = new Date('2025-06-01T12:00:00Z');
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  const link = (role: Role, over: Partial<ClaimInput['link']> = {}) => ({ role, expiresAt: at(INVITE_LINK_TTL_MS), usedAt: null, ...over });
  const claim =
    (over: Partial<ClaimInput> = {}) =>
    () =>
      decideClaimInviteLink({ claimer: SAM, creator: ADA, link: link('writer'), rules: RULES, blocked: false, now: NOW, ...over });

  it.each<Row>([
    ['§5.2: none -> claim of an unused, unexpired link -> active at the link role', claim(), ok('active', 'writer')],
    ['§5.2: none -> claim of an owner-made admin link -> active as admin', claim({ creator: OLGA, link: link('admin') }), ok('active', 'admin')],
    ['§5.2: none -> claim one millisecond before expiry -> active', claim({ link: link('writer', { expiresAt: at(1) }) }), ok('active', 'writer')],
    [
      '§5.2: none -> claim of a used link is refused (single use)',
      claim({ link: link('writer', { usedAt: at(-1000) }) }),
      refused('invite_link_used', 410),
    ],
    [
      '§5.2: none -> claim of an expired link is refused',
      claim({ link: link('writer', { expiresAt: at(-1) }) }),
      refused('invite_link_expired', 410),
    ],
    [
      '§5.2: none -> claim at the exact expiry instant is refused',
      claim({ link: link('writer', { expiresAt: NOW }) }),
      refused('invite_link_expired', 410),
    ],
    [
      '§5.2: none -> claim after the owner creator was demoted to admin (admin link now over ceiling) is refused',
      claim({ creator: user('olga', active('admin')), link: link('admin') }),
      refused('invite_link_inactive', 403),
    ],
    [
      '§5.2: none -> claim after the admin creator was demoted to writer is refused',
      claim({ creator: user('ada', active('writer')) }),
      refused('invite_link_inactive', 403),
    ],
    [
      '§5.2: none -> claim after the creator stopped being a member is refused',
      claim({ creator: user('ada') }),
      refused('invite_link_inactive', 403),
    ],
    [
      '§5.2: none -> claim when the creator row is only invited is refused',
      claim({ creator: user('ada', invited('admin')) }),
      refused('invite_link_inactive', 403),
    ],
    ['§5.2: none -> claim across a block (either direction) is refused', claim({ blocked: true }), refused('blocked', 403)],
    [
      '§5.2: none -> claim by a person with a pending invite -> active, the link role wins',
      claim({ claimer: user('sam', invited('reader')) }),
      ok('active', 'writer'),
    ],
    [
      '§5.2: none -> claim by a person with a pending invite at a higher role -> the link role still wins',
      claim({ creator: OLGA, claimer: user('sam', invited('admin')), link: link('reader') }),
      ok('active', 'reader'),
    ],
    [
      '§5.2: none -> claim by a person with a pending request -> active at the link role',
      claim({ claimer: user('sam', requested('admin')) }),
      ok('active', 'writer'),
    ],
    ['§5.2: claim by an active member is refused', claim({ claimer: WES }), refused('already_member', 409)],
    ['§5.2: claim by an agent is refused (its owner invites it)', claim({ claimer: agent('sam-bot', 'sam') }), refused('agent_cannot_accept', 403)],
  ])('%s', check);

  it('docs/api.md §5.2: claim refused while the creator is demoted, and the same link works again once the role is restored (revival)', () => {
    const ownerLink = link('admin');
    const demoted = claim({ creator: user('olga', active('admin')), link: ownerLink });
    const restored = claim({ creator: user('olga', active('owner')), link: ownerLink });
    expect(decide(demoted)).toEqual(refused('invite_link_inactive', 403));
    // The failed claim consumed nothing: the very same link object is still unused.
    expect(ownerLink.usedAt).toBeNull();
    expect(decide(restored)).toEqual(ok('active', 'admin'));
  });
});

describe('docs/api.md §5.2/§9.6: pending TTL', () => {
  const NOW = new Date('2025-06-01T12:00:00Z');
  const at = (ms: number) => new Date(NOW.getTime() + ms);

  it.each<[string, { state: MembershipState; expiresAt: Date | null }, boolean]>([
    ['§5.2: invited past its TTL counts as expired', { state: 'invited', expiresAt: at(-1) }, true],
    ['§5.2: requested past its TTL counts as expired', { state: 'requested', expiresAt: at(-1) }, true],
    ['§5.2: a pending row at the exact expiry instant counts as expired', { state: 'invited', expiresAt: NOW }, true],
    ['§5.2: invited before its TTL is not expired', { state: 'invited', expiresAt: at(1) }, false],
    ['§5.2: an active row never expires, whatever its expiresAt', { state: 'active', expiresAt: at(-1) }, false],
    ['§5.2: a pending row without expiresAt is not expired', { state: 'requested', expiresAt: null }, false],
  ])('%s', (_, row, expected) => {
    expect(isExpired(row, NOW)).toBe(expected);
  });
});

describe('docs/api.md §9.6: limits', () => {
  const DAY = 24 * 60 * 60 * 1000;
  it.each<[string, number, number]>([
    ['§9.6: pending membership TTL is 14 days', PENDING_TTL_MS, 14 * DAY],
    ['§9.6: pending invites are capped at 50 per member', MAX_PENDING_INVITES, 50],
    ['§9.6: live invite links are capped at 50 per person per resource', MAX_LIVE_INVITE_LINKS, 50],
    ['§9.6: an invite link lives 7 days', INVITE_LINK_TTL_MS, 7 * DAY],
  ])('%s', (_, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('docs/api.md §2.2: currentMember on a resource view', () => {
  it.each<[string, ViewMode, MemberRow | null, MemberRow | undefined]>([
    ['§2.2: list rows always carry currentMember', 'list', active('writer'), active('writer')],
    ['§2.2: create returns the caller as owner', 'create', active('owner'), active('owner')],
    ['§2.2: fetch-one carries currentMember for an active member', 'fetch', active('reader'), active('reader')],
    ['§2.2: fetch-one omits currentMember for an invited caller', 'fetch', invited('writer'), undefined],
    ['§2.2: fetch-one omits currentMember for a requesting caller', 'fetch', requested('writer'), undefined],
    ['§2.2: fetch-one by a non-member of a public resource gets none', 'fetch', null, undefined],
    ['§2.2: browse never returns currentMember', 'browse', active('owner'), undefined],
    ['§2.2: static never returns currentMember', 'static', active('owner'), undefined],
  ])('%s', (_, mode, row, expected) => {
    expect(currentMemberFor(mode, row)).toEqual(expected);
  });
});

describe('docs/api.md §2.2: roster order', () => {
  it('roster sorts by rank (owner first), then by id', () => {
    const roster = [
      { id: 'b', role: 'reader' as Role },
      { id: 'z', role: 'owner' as Role },
      { id: 'a', role: 'reader' as Role },
      { id: 'c', role: 'admin' as Role },
    ];
    expect([...roster].sort(byRankThenId).map(m => m.id)).toEqual(['z', 'c', 'a', 'b']);
  });
});
