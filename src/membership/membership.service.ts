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
import { Prisma } from '../generated/prisma/client.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
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
  /** Epoch ms: the page key with resource_id. */
  created_at: number;
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
  expiresAt: new Date(r.expires_at),
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
  /** The roster's sort key: role rank, membership created_at (epoch ms), principal id. */
  rank: number | null;
  created_at: number | null;
}

const ROLE_RANK = `CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'writer' THEN 2 ELSE 3 END`;

/**
 * A page of the roster and the caller's own row in one lean statement (a hot read): $3 is the
 * service clock in epoch ms; $4-$6 the last entry's sort key (or nulls); $7 the rows to read. The
 * resource's row comes back even when the page is empty (members' columns null).
 */
const ROSTER_SQL = `
  SELECT r.deployment_id, r.visibility::text AS visibility, me.state::text AS caller_state,
         m.principal_id AS user_id, m.role::text AS role, m.state::text AS state, p.kind::text AS kind,
         p.owner_id, o.handle AS owner_handle, o.display_name AS owner_display_name,
         ${ROLE_RANK} AS rank, (extract(epoch FROM m.created_at) * 1000)::float8 AS created_at
  FROM resources r
  LEFT JOIN memberships me ON me.resource_id = r.id AND me.principal_id = $2
  LEFT JOIN memberships m ON m.resource_id = r.id AND (m.state = 'active' OR m.expires_at > (to_timestamp($3::float8 / 1000) AT TIME ZONE 'UTC'))
    AND ($4::int IS NULL OR (${ROLE_RANK}, m.created_at, m.principal_id) > ($4::int, TIMESTAMP 'epoch' + $5::bigint * INTERVAL '1 millisecond', $6::text))
  LEFT JOIN principals p ON p.id = m.principal_id
  LEFT JOIN principals o ON o.id = p.owner_id
  WHERE r.id = $1
  ORDER BY ${ROLE_RANK}, m.created_at, m.principal_id
  LIMIT $7`;

export function createMembershipService(deps: ServiceDeps, apps: AppService) {
  /**
   * The one invitations rule (docs/api.md §2.1): `userId`'s invites that have not expired (pending rows
   * always carry an expiry), minus any across a block in either direction, in one query (the
   * block test is SQL, not a lookup per row), newest first. `scope` narrows it (a deployment, a type).
   */
  function invitationRows(userId: string, scope: Prisma.Sql, page: { take: number; cursor?: string | null }) {
    const after = page.cursor ? decodeCursor(page.cursor, ['number', 'string']) : null;
    return deps.prisma.$queryRaw<InvitationRow[]>`
      SELECT m.resource_id, r.type, r.name, m.role::text AS role, m.invited_by, m.expires_at, d.app_id, a.name AS app_name, d.env,
        (extract(epoch FROM m.created_at) * 1000)::float8 AS created_at
      FROM memberships m
        JOIN resources r ON r.id = m.resource_id
        JOIN deployments d ON d.id = r.deployment_id
        JOIN apps a ON a.id = d.app_id
      WHERE m.principal_id = ${userId} AND m.state = 'invited' AND m.expires_at > ${deps.now()} ${scope}
        ${after ? Prisma.sql`AND (m.created_at, m.resource_id) < (TIMESTAMP 'epoch' + ${after[0]}::bigint * INTERVAL '1 millisecond', ${after[1]})` : Prisma.empty}
        AND NOT EXISTS (
          SELECT 1 FROM blocks b
          WHERE (b.blocker_id = ${userId} AND b.blocked_id = m.invited_by) OR (b.blocker_id = m.invited_by AND b.blocked_id = ${userId}))
      ORDER BY m.created_at DESC, m.resource_id DESC
      LIMIT ${page.take}`;
  }

  /**
   * Every per-resource transition is gated by resource access (404 first) unless it is an entry
   * route. Two statements each: the facts (locking the resource) and one write (membership-store.service.ts).
   */
  async function transition(
    caller: PrincipalCaller,
    resourceId: string,
    targetId: string | null | undefined,
    work: (scope: StatementScope & { rules: ReturnType<typeof typeRules> }) => Promise<TransitionResult>,
    options: TransitionOptions = { gate: 'reach' },
  ) {
    const deployment = await apps.deployment(caller.deployment.id);
    return runStatementTransition(deps, caller, resourceId, scope => work({ ...scope, rules: typeRules(deployment, scope.resource.type) }), {
      ...options,
      targetId,
      deployment,
    });
  }

  /** The named target (the caller when none). Who may be named is decided before whether they exist. */
  function targetParty({ actor, target, access, resource }: StatementScope, userId: string | undefined | null): Party {
    if (!canTarget(access, actor.id, target)) throw resourceNotFound(resource.id);
    if (!target) throw userNotFound(userId!);
    return target;
  }

  const result = (resourceId: string, outcome: { state: TransitionResult['state']; role: Role | null } | null): TransitionResult => ({
    ok: true,
    resourceId,
    state: outcome?.state ?? null,
    role: outcome?.role ?? null,
  });

  return {
    invite(caller: PrincipalCaller, resourceId: string, userId: string, role?: Role) {
      return transition(caller, resourceId, userId, async scope => {
        const { write, actor, rules, resource, pendingByActor, blocked } = scope;
        const target = targetParty(scope, userId);
        const outcome = decideInvite({ actor, target, role, rules, pendingByActor, blocked });
        await write(target, outcome, { invitedBy: actor.id });
        return result(resource.id, outcome);
      });
    },

    accept(caller: PrincipalCaller, resourceId: string, userId?: string | null) {
      return transition(caller, resourceId, userId, async scope => {
        const { write, actor, rules, resource } = scope;
        const target = targetParty(scope, userId);
        const outcome = decideAccept({ actor, target, rules });
        await write(target, outcome);
        return result(resource.id, outcome);
      });
    },

    reject(caller: PrincipalCaller, resourceId: string, userId?: string | null) {
      return transition(caller, resourceId, userId, async scope => {
        const { write, actor, rules, resource } = scope;
        const target = targetParty(scope, userId);
        decideReject({ actor, target, rules });
        await write(target, null);
        return result(resource.id, null);
      });
    },

    request(caller: PrincipalCaller, resourceId: string, role?: Role) {
      // An entry route: asking for access to a members-only resource is what request is for.
      return transition(
        caller,
        resourceId,
        null,
        async ({ write, actor, rules, resource }) => {
          // `_app` membership comes with consent only; refused before anything about the resource is read.
          if (isReservedType(resource.type)) throw reservedTypeError(resource.type, 'request access to');
          const outcome = decideRequest({ actor, role, rules });
          await write(actor, outcome);
          return result(resource.id, outcome);
        },
        { gate: 'entry' },
      );
    },

    join(caller: PrincipalCaller, resourceId: string) {
      // docs/api.md §5.2: join on a members resource is 403 members_only for everyone (an invitee accepts instead).
      return transition(
        caller,
        resourceId,
        null,
        async ({ write, actor, rules, resource }) => {
          const outcome = decideJoin({ actor, visibility: resource.visibility, rules });
          await write(actor, outcome);
          return result(resource.id, outcome);
        },
        { gate: 'entry' },
      );
    },

    leave(caller: PrincipalCaller, resourceId: string) {
      return transition(caller, resourceId, null, async ({ write, actor, resource }) => {
        decideLeave(actor);
        await write(actor, null);
        return result(resource.id, null);
      });
    },

    setRole(caller: PrincipalCaller, resourceId: string, userId: string, role: Role) {
      return transition(caller, resourceId, userId, async scope => {
        const { write, actor, rules, resource } = scope;
        const target = targetParty(scope, userId);
        const outcome = decideSetRole({ actor, target, rules }, role);
        await write(target, outcome);
        return result(resource.id, outcome);
      });
    },

    remove(caller: PrincipalCaller, resourceId: string, userId: string) {
      return transition(caller, resourceId, userId, async scope => {
        const { write, actor, rules, resource } = scope;
        const target = targetParty(scope, userId);
        decideRemove({ actor, target, rules });
        await write(target, null);
        return result(resource.id, null);
      });
    },

    /** Active and unexpired pending rows, owner first, keyset-paginated; visible to active members (docs/api.md §2.1, §5.3). */
    async members(caller: PrincipalCaller, resourceId: string, input: PageInput = {}): Promise<MemberPage> {
      const limit = pageLimit(input.limit, LIST_PAGE);
      const after = input.cursor ? decodeCursor(input.cursor, ['number', 'number', 'string']) : [null, null, null];
      const now = deps.now();
      const rows = await deps.query<RosterRow>(ROSTER_SQL, [resourceId, caller.principal.id, now.getTime(), ...after, limit + 1]);
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
        row => [row.rank!, row.created_at!, row.user_id!],
      );
      return { members: entries, nextCursor };
    },

    /** The caller's own unexpired invites in this deployment, minus those across a block, newest first, keyset-paginated (docs/api.md §2.1). */
    async invitations(caller: PrincipalCaller, type?: string | null, input: PageInput = {}): Promise<InvitationPage> {
      const limit = pageLimit(input.limit, LIST_PAGE);
      const typeFilter = type ? Prisma.sql`AND r.type = ${type}` : Prisma.empty;
      const scope = Prisma.sql`AND r.deployment_id = ${caller.deployment.id} ${typeFilter}`;
      const rows = await invitationRows(caller.principal.id, scope, { take: limit + 1, cursor: input.cursor });
      const { entries, nextCursor } = pageOf(rows, limit, toInvitation, row => [row.created_at, row.resource_id]);
      return { invitations: entries, nextCursor };
    },

    /**
     * A person's invites in every app (the dashboard's GET /v1/me/invitations), by the same rule
     * as `invitations`: unexpired, and none across a block in either direction.
     */
    async invitationsAcrossApps(userId: string): Promise<CrossAppInvitation[]> {
      const rows = await invitationRows(userId, Prisma.empty, { take: BOUNDED_LIST_TAKE });
      return boundedList(rows, 'pending invitations', "decline those in each app's own invitations list.").map(r => ({
        appId: r.app_id,
        appName: r.app_name,
        env: r.env,
        ...toInvitation(r),
      }));
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
