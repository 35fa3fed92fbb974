/** Membership transitions of docs/api.md §5.2, the roster and the caller's invitations. */
import type { PrincipalCaller } from '../core/caller.rules.js';
import {
  type Party,
  decideAccept,
  decideInvite,
  decideJoin,
  decideLeave,
  decideReject,
  decideRemove,
  decideRequest,
  decideSetRole,
} from './membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import { type StoredVisibility, canTarget, rosterAccess } from './visibility.rules.js';
import { fail } from '../errors.js';
import { type Sql, prepare, sql } from '../db/sql.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { type StatementScope, type TransitionOptions, resourceNotFound, runStatementTransition } from './membership-store.service.js';
import { BOUNDED_LIST_TAKE, boundedList, decodeCursor, LIST_PAGE, type PageInput, pageLimit, pageOf } from '../core/pages.js';
import { userNotFound } from '../principals/principals.service.js';
import { isReservedType, reservedTypeError, typeRules } from './resources.rules.js';

export interface TransitionResult {
  ok: true;
  resourceId: string;
  state: 'active' | 'invited' | 'requested' | null;
  role: Role | null;
}

export interface MemberPage {
  members: RosterEntry[];
  nextCursor: string | null;
}

export interface RosterEntry {
  userId: string;
  role: Role;
  state: 'active' | 'invited' | 'requested';
  kind: 'user' | 'agent';
  ownerId: string | null;
  ownerHandle: string | null;
  ownerDisplayName: string | null;
}

export interface InvitationEntry {
  resourceId: string;
  type: string;
  name: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
}

export interface CrossAppInvitation extends InvitationEntry {
  appId: string;
  appName: string;
  env: string;
}

export interface InvitationPage {
  invitations: InvitationEntry[];
  nextCursor: string | null;
}

interface InvitationRow {
  resource_id: string;
  type: string;
  name: string;
  role: Role;
  invited_by: string | null;
  expires_at: Date;
  /** The page key with resource_id. */
  created_at: Date;
  app_id: string;
  app_name: string;
  env: string;
}

const toInvitation = (r: InvitationRow): InvitationEntry => ({
  resourceId: r.resource_id,
  type: r.type,
  name: r.name,
  role: r.role,
  invitedBy: r.invited_by,
  expiresAt: r.expires_at,
});

interface RosterRow {
  deployment_id: string;
  visibility: StoredVisibility;
  caller_state: string | null;
  user_id: string | null;
  role: Role | null;
  state: RosterEntry['state'] | null;
  kind: RosterEntry['kind'] | null;
  owner_id: string | null;
  owner_handle: string | null;
  owner_display_name: string | null;
  /** The roster's sort key: role rank, membership created_at, principal id. */
  rank: number | null;
  created_at: Date | null;
}

const ROLE_RANK = sql<number>`CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'writer' THEN 2 ELSE 3 END`;

/** The roster statement, one prepared shape per `paged` (an `after` key given or not). */
const rosterShapes = [false, true].map(paged =>
  prepare(7, (db, resourceId: string, callerId: string, now: Date, afterRank: number, afterAt: Date, afterId: string, take: number) =>
    db
      .selectFrom('resources as r')
      .leftJoin('memberships as me', join => join.onRef('me.resource_id', '=', 'r.id').on('me.principal_id', '=', callerId))
      .leftJoin('memberships as m', join => {
        const live = join.onRef('m.resource_id', '=', 'r.id').on(eb => eb.or([eb('m.state', '=', 'active'), eb('m.expires_at', '>', now)]));
        return paged
          ? live.on(sql<boolean>`(${ROLE_RANK}, m.created_at, m.principal_id) > (${afterRank}::int, ${afterAt}::timestamp(3), ${afterId}::text)`)
          : live;
      })
      .leftJoin('principals as p', 'p.id', 'm.principal_id')
      .leftJoin('principals as o', 'o.id', 'p.owner_id')
      .select([
        'r.deployment_id',
        'r.visibility',
        'me.state as caller_state',
        'm.principal_id as user_id',
        'm.role',
        'm.state',
        'p.kind',
        'p.owner_id',
        'o.handle as owner_handle',
        'o.display_name as owner_display_name',
        ROLE_RANK.as('rank'),
        'm.created_at',
      ])
      .where('r.id', '=', resourceId)
      .orderBy(ROLE_RANK)
      .orderBy('m.created_at')
      .orderBy('m.principal_id')
      .limit(take),
  ),
);

/**
 * A page of the roster and the caller's own row in one statement (a hot read, prepared): members
 * live at `now`, after `after` (the last entry's sort key) when given. The resource's row comes
 * back even when the page is empty (members' columns null).
 */
function rosterPage(db: Sql, resourceId: string, callerId: string, now: Date, after: readonly [number, number, string] | null, take: number) {
  const run = rosterShapes[after === null ? 0 : 1];
  return run(db, resourceId, callerId, now, after?.[0] ?? 0, new Date(after?.[1] ?? 0), after?.[2] ?? '', take);
}

/** Narrows the invitations rule to one app environment, and one resource type. */
interface InvitationScope {
  deploymentId: string;
  type?: string | null;
}

/** What a transition needs: the statement transition's dependencies and the caller's deployment (its schema) from `apps`. */
export type TransitionDeps = Pick<ServiceDeps, 'now' | 'sqlTransaction' | 'bus'> & { apps: Pick<AppService, 'deployment'> };

/**
 * The one invitations rule (docs/api.md §2.1): `userId`'s invites that have not expired (pending rows
 * always carry an expiry), minus any across a block in either direction, in one query (the
 * block test is SQL, not a lookup per row), newest first. `scope` narrows it (a deployment, a type).
 */
function invitationRows(
  deps: Pick<ServiceDeps, 'sql' | 'now'>,
  userId: string,
  scope: InvitationScope | null,
  page: { take: number; cursor?: string | null },
): Promise<InvitationRow[]> {
  const after = page.cursor ? decodeCursor(page.cursor, ['number', 'string']) : null;
  return deps.sql
    .selectFrom('memberships as m')
    .innerJoin('resources as r', 'r.id', 'm.resource_id')
    .innerJoin('deployments as d', 'd.id', 'r.deployment_id')
    .innerJoin('apps as a', 'a.id', 'd.app_id')
    .select([
      'm.resource_id',
      'r.type',
      'r.name',
      'm.role',
      'm.invited_by',
      'm.expires_at',
      'd.app_id',
      'a.name as app_name',
      'd.env',
      'm.created_at',
    ])
    .where('m.principal_id', '=', userId)
    .where('m.state', '=', 'invited')
    .where('m.expires_at', '>', deps.now())
    .$if(scope !== null, query => query.where('r.deployment_id', '=', scope!.deploymentId))
    .$if(!!scope?.type, query => query.where('r.type', '=', scope!.type!))
    .$if(after !== null, query => query.where(eb => eb(eb.refTuple('m.created_at', 'm.resource_id'), '<', eb.tuple(new Date(after![0]), after![1]))))
    .where(eb =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('blocks as b')
            .select(sql`1`.as('one'))
            .where(eb =>
              eb.or([
                eb.and([eb('b.blocker_id', '=', userId), eb('b.blocked_id', '=', eb.ref('m.invited_by'))]),
                eb.and([eb('b.blocker_id', '=', eb.ref('m.invited_by')), eb('b.blocked_id', '=', userId)]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('m.created_at', 'desc')
    .orderBy('m.resource_id', 'desc')
    .limit(page.take)
    .execute() as Promise<InvitationRow[]>;
}

/**
 * Every per-resource transition is gated by resource access (404 first) unless it is an entry
 * route. Two statements each: the facts (locking the resource) and one write (membership-store.service.ts).
 */
async function transition(
  deps: TransitionDeps,
  caller: PrincipalCaller,
  resourceId: string,
  targetId: string | null | undefined,
  work: (scope: StatementScope & { rules: ReturnType<typeof typeRules> }) => Promise<TransitionResult>,
  options: TransitionOptions = { gate: 'reach' },
) {
  const deployment = await deps.apps.deployment(caller.deployment.id);
  return runStatementTransition(deps, caller, resourceId, scope => work({ ...scope, rules: typeRules(deployment, scope.resource.type) }), {
    ...options,
    targetId,
    deployment,
  });
}

/** The named target (the caller when none). Who may be named is decided before whether they exist. */
export function targetParty({ actor, target, access, resource }: StatementScope, userId: string | undefined | null): Party {
  if (!canTarget(access, actor.id, target)) throw resourceNotFound(resource.id);
  if (!target) throw userNotFound(userId!);
  return target;
}

/** A transition's answer: the row it left (nulls when none is left). */
export const transitionResult = (resourceId: string, outcome: { state: TransitionResult['state']; role: Role | null } | null): TransitionResult => ({
  ok: true,
  resourceId,
  state: outcome?.state ?? null,
  role: outcome?.role ?? null,
});

export function invite(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string, userId: string, role?: Role) {
  return transition(deps, caller, resourceId, userId, async scope => {
    const { write, actor, rules, resource, pendingByActor, blocked } = scope;
    const target = targetParty(scope, userId);
    const outcome = decideInvite({ actor, target, role, rules, pendingByActor, blocked });
    await write(target, outcome, { invitedBy: actor.id });
    return transitionResult(resource.id, outcome);
  });
}

export function accept(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string, userId?: string | null) {
  return transition(deps, caller, resourceId, userId, async scope => {
    const { write, actor, rules, resource } = scope;
    const target = targetParty(scope, userId);
    const outcome = decideAccept({ actor, target, rules });
    await write(target, outcome);
    return transitionResult(resource.id, outcome);
  });
}

export function reject(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string, userId?: string | null) {
  return transition(deps, caller, resourceId, userId, async scope => {
    const { write, actor, rules, resource } = scope;
    const target = targetParty(scope, userId);
    decideReject({ actor, target, rules });
    await write(target, null);
    return transitionResult(resource.id, null);
  });
}

export function request(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string, role?: Role) {
  // An entry route: asking for access to a members-only resource is what request is for.
  return transition(
    deps,
    caller,
    resourceId,
    null,
    async ({ write, actor, rules, resource }) => {
      // `_app` membership comes with consent only; refused before anything about the resource is read.
      if (isReservedType(resource.type)) throw reservedTypeError(resource.type, 'request access to');
      const outcome = decideRequest({ actor, role, rules });
      await write(actor, outcome);
      return transitionResult(resource.id, outcome);
    },
    { gate: 'entry' },
  );
}

export function join(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string) {
  // docs/api.md §5.2: join on a members resource is 403 members_only for everyone (an invitee accepts instead).
  return transition(
    deps,
    caller,
    resourceId,
    null,
    async ({ write, actor, rules, resource }) => {
      const outcome = decideJoin({ actor, visibility: resource.visibility, rules });
      await write(actor, outcome);
      return transitionResult(resource.id, outcome);
    },
    { gate: 'entry' },
  );
}

export function leave(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string) {
  return transition(deps, caller, resourceId, null, async ({ write, actor, resource }) => {
    decideLeave(actor);
    await write(actor, null);
    return transitionResult(resource.id, null);
  });
}

export function setRole(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string, userId: string, role: Role) {
  return transition(deps, caller, resourceId, userId, async scope => {
    const { write, actor, rules, resource } = scope;
    const target = targetParty(scope, userId);
    const outcome = decideSetRole({ actor, target, rules }, role);
    await write(target, outcome);
    return transitionResult(resource.id, outcome);
  });
}

export function remove(deps: TransitionDeps, caller: PrincipalCaller, resourceId: string, userId: string) {
  return transition(deps, caller, resourceId, userId, async scope => {
    const { write, actor, rules, resource } = scope;
    const target = targetParty(scope, userId);
    decideRemove({ actor, target, rules });
    await write(target, null);
    return transitionResult(resource.id, null);
  });
}

/** Active and unexpired pending rows, owner first, keyset-paginated; visible to active members (docs/api.md §2.1, §5.3). */
export async function members(
  deps: Pick<ServiceDeps, 'sql' | 'now'>,
  caller: PrincipalCaller,
  resourceId: string,
  input: PageInput = {},
): Promise<MemberPage> {
  const limit = pageLimit(input.limit, LIST_PAGE);
  const after = input.cursor ? decodeCursor(input.cursor, ['number', 'number', 'string']) : null;
  const now = deps.now();
  const rows: RosterRow[] = await rosterPage(deps.sql, resourceId, caller.principal.id, now, after, limit + 1);
  const head = rows[0];
  if (!head || head.deployment_id !== caller.deployment.id) throw resourceNotFound(resourceId);
  const own = head.caller_state ? { state: head.caller_state } : null;
  const access = rosterAccess(head.visibility, own);
  if (access === 'hidden') throw resourceNotFound(resourceId);
  if (access === 'not_member') throw fail('not_resource_member', 'Only active members can see the member list.');
  const { entries, nextCursor } = pageOf(
    rows.filter(row => row.user_id !== null),
    limit,
    row => ({
      userId: row.user_id!,
      role: row.role!,
      state: row.state!,
      kind: row.kind!,
      ownerId: row.owner_id,
      ownerHandle: row.owner_id ? row.owner_handle : null,
      ownerDisplayName: row.owner_id ? row.owner_display_name : null,
    }),
    row => [row.rank!, row.created_at!.getTime(), row.user_id!],
  );
  return { members: entries, nextCursor };
}

/** The caller's own unexpired invites in this deployment, minus those across a block, newest first, keyset-paginated (docs/api.md §2.1). */
export async function invitations(
  deps: Pick<ServiceDeps, 'sql' | 'now'>,
  caller: PrincipalCaller,
  type?: string | null,
  input: PageInput = {},
): Promise<InvitationPage> {
  const limit = pageLimit(input.limit, LIST_PAGE);
  const rows = await invitationRows(
    deps,
    caller.principal.id,
    { deploymentId: caller.deployment.id, type },
    { take: limit + 1, cursor: input.cursor },
  );
  const { entries, nextCursor } = pageOf(rows, limit, toInvitation, row => [row.created_at.getTime(), row.resource_id]);
  return { invitations: entries, nextCursor };
}

/**
 * A person's invites in every app (the dashboard's GET /v1/me/invitations), by the same rule
 * as `invitations`: unexpired, and none across a block in either direction.
 */
export async function invitationsAcrossApps(deps: Pick<ServiceDeps, 'sql' | 'now'>, userId: string): Promise<CrossAppInvitation[]> {
  const rows = await invitationRows(deps, userId, null, { take: BOUNDED_LIST_TAKE });
  return boundedList(rows, 'pending invitations', "decline those in each app's own invitations list.").map(r => ({
    appId: r.app_id,
    appName: r.app_name,
    env: r.env,
    ...toInvitation(r),
  }));
}

/** What `services.membership` offers; src/services.ts binds each to the server's dependencies. */
export const membershipOperations = { invite, accept, reject, request, join, leave, setRole, remove, members, invitations, invitationsAcrossApps };

export type MembershipService = Bound<typeof membershipOperations>;
