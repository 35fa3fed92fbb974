/**
 * Row-level helpers every membership transition shares. A transition locks the resource row
 * first (SELECT ... FOR UPDATE), so all transitions of one resource run in some serial order;
 * the membership primary key and the invite-link code hash back that up as constraints.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import {
  type MemberRow,
  type MembershipState,
  type Outcome,
  type Party,
  PENDING_TTL_MS,
  type RowChangeEvent,
  type StoredMember,
  isExpired,
  liveRow,
  planRowWrite,
} from './membership.rules.js';
import { isTestUserId, isTestUserOf } from '../core/principals.rules.js';
import type { Role } from '../core/roles.rules.js';
import { type ResourceAccess, type StoredVisibility, resourceAccess } from './visibility.rules.js';
import { fail } from '../errors.js';
import { type GrantEvent, type MembershipEvent, memberRow } from '../bus/event-bus.js';
import type { DeploymentInfo } from '../apps/apps.service.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { type RawBuilder, type Sql, sql, sqlOf } from '../db/sql.js';
import { applyMemberRemoval, dropVisibleLinks, removalIsDropOnly, restoreHiddenLinks, unhideLinks, violatesForeignKey } from './lifecycle.service.js';
import { findPrincipalInApp, userNotFound } from '../principals/principals.service.js';
import { stampAll, stampCommit } from '../bus/commit-order.js';
import { grantDeletes, grantDeletesOf, grantsJson } from '../rooms/room-events.service.js';

export interface LockedResource {
  id: string;
  deploymentId: string;
  type: string;
  visibility: StoredVisibility;
}

export const resourceNotFound = (id: string) => fail('resource_not_found', `No resource ${id} that you can see in this app environment.`);

export async function lockResource(tx: Tx, deploymentId: string, resourceId: string): Promise<LockedResource> {
  const row = await sqlOf(tx)
    .selectFrom('resources')
    .select(['id', 'deployment_id', 'type', 'visibility'])
    .where('id', '=', resourceId)
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.deployment_id !== deploymentId) throw resourceNotFound(resourceId);
  return { id: row.id, deploymentId: row.deployment_id, type: row.type, visibility: row.visibility };
}

/** Collects a transition's writes: member-count deltas and the events to publish after commit. */
export class ChangeSet {
  readonly events: MembershipEvent[] = [];
  /** Rooms-feed deletes of grants that go with a removed membership (docs/api.md §10.4). */
  readonly grantEvents: GrantEvent[] = [];
  /** Blob keys of files this change deleted (a deleted resource's): removed from the blob store after commit. */
  readonly orphanedBlobs: string[] = [];
  private countDelta = 0;

  constructor(
    private readonly tx: Tx,
    private readonly resource: LockedResource,
    private readonly now: Date,
    /** The app of the resource: principals of other apps read as unknown. */
    private readonly appId: string,
  ) {}

  /**
   * The party's current row; an expired pending row is purged and reads as none. A principal
   * that does not exist or belongs to another app is `null`, the same answer for both.
   */
  async party(id: string, known?: PrincipalCaller['principal']): Promise<Party | null> {
    // Sequential: one transaction is one connection, which runs one query at a time anyway.
    const principal = known ?? (await findPrincipalInApp(this.tx, id, this.appId));
    const row = await this.tx.membership.findUnique({
      where: { resourceId_principalId: { resourceId: this.resource.id, principalId: id } },
      select: { role: true, state: true, expiresAt: true },
    });
    if (!principal) return null;
    let membership: MemberRow | null = row ? { role: row.role, state: row.state } : null;
    if (row && isExpired(row, this.now)) {
      await this.apply(id, membership, null);
      membership = null;
    }
    return { id: principal.id, kind: principal.kind, ownerId: principal.ownerId, membership };
  }

  /** Writes the row transition `before -> after` and records its event. */
  async apply(principalId: string, before: MemberRow | null, after: Outcome, invitedBy?: string): Promise<void> {
    const key = { resourceId_principalId: { resourceId: this.resource.id, principalId } };
    const expiresAt = after && after.state !== 'active' ? new Date(this.now.getTime() + PENDING_TTL_MS) : null;
    if (!after) {
      if (!before) return;
      // The membership foreign key drops the member's room grants with the row; only active members hold any.
      if (before.state === 'active')
        this.grantEvents.push(...(await grantDeletes(this.tx, this.resource.deploymentId, { resourceId: this.resource.id, principalId })));
      await this.tx.membership.delete({ where: key });
      this.record('delete', principalId, before.role, before.state);
      // Leave and remove (docs/api.md §12): each shared table's onMemberRemove, in this transaction.
      if (before.state === 'active') await applyMemberRemoval(sqlOf(this.tx), this.resource, principalId);
    } else if (!before) {
      await this.tx.membership
        .create({
          data: { resourceId: this.resource.id, principalId, role: after.role, state: after.state, invitedBy, expiresAt, createdAt: this.now },
        })
        .catch(error => {
          // The principal's account was deleted while this transition ran (docs/api.md §12).
          throw violatesForeignKey(error, 'memberships_principal_id_fkey') ? userNotFound(principalId) : error;
        });
      this.record('insert', principalId, after.role, after.state);
    } else {
      if (before.role === after.role && before.state === after.state) return;
      const keepsExpiry = before.state === after.state;
      await this.tx.membership.update({
        where: key,
        data: { role: after.role, state: after.state, ...(keepsExpiry ? {} : { expiresAt }), ...(invitedBy ? { invitedBy } : {}) },
      });
      this.record('update', principalId, after.role, after.state);
    }
    this.countDelta += (after?.state === 'active' ? 1 : 0) - (before?.state === 'active' ? 1 : 0);
    // Active again by any path (join, accept, link claim, auto-join): hidden links reappear (§12).
    if (after?.state === 'active' && before?.state !== 'active') await restoreHiddenLinks(this.tx, this.resource.id, principalId);
  }

  private record(op: MembershipEvent['op'], userId: string, role: Role, state: MemberRow['state']) {
    this.events.push({ op, deploymentId: this.resource.deploymentId, row: memberRow(this.resource.id, userId, role, state) });
  }

  /** Writes the member-count delta and stamps the events with the transaction (src/bus/commit-order.ts): last in the transaction. */
  async flush(): Promise<void> {
    if (this.countDelta !== 0) {
      await this.tx.resource.update({ where: { id: this.resource.id }, data: { memberCount: { increment: this.countDelta } } });
    }
    await stampCommit(this.tx, this.events, this.grantEvents);
  }
}

export interface TransitionScope {
  tx: Tx;
  resource: LockedResource;
  changes: ChangeSet;
  now: Date;
  /** The caller with its current row on the resource. */
  actor: Party;
  /** How far the caller reaches the resource; `view` when the transition is not gated. */
  access: ResourceAccess;
}

export interface TransitionOptions {
  /**
   * `reach` (per-resource routes): a caller without access (docs/api.md §5.3, see `resourceAccess`)
   * gets 404 resource_not_found before any other check, exactly like a missing resource.
   * `entry`: routes that are themselves the way in (join, request, invite-link claim) and the
   * platform's own transitions (consent's `_app` join, dashboard deletion) decide for themselves.
   */
  gate: 'reach' | 'entry';
}

/** Whether an agent the caller owns has an unexpired invite to the resource (its owner answers it). */
async function ownsInvitedAgent(tx: Tx, resourceId: string, ownerId: string, now: Date): Promise<boolean> {
  const hit = await tx.membership.findFirst({
    where: { resourceId, state: 'invited', expiresAt: { gt: now }, principal: { ownerId, kind: 'agent' } },
    select: { principalId: true },
  });
  return hit !== null;
}

/**
 * Runs one membership transition: lock the resource, apply the access gate, let `work` decide
 * and write through the change set, commit, then publish the events (never for a rolled-back change).
 */
export async function runTransition<T>(
  deps: Pick<ServiceDeps, 'now' | 'transaction' | 'bus'>,
  caller: PrincipalCaller,
  resourceId: string,
  work: (scope: TransitionScope) => Promise<T>,
  options: TransitionOptions = { gate: 'entry' },
): Promise<T> {
  const now = deps.now();
  const { result, events, grantEvents } = await deps.transaction(async tx => {
    const resource = await lockResource(tx, caller.deployment.id, resourceId);
    const changes = new ChangeSet(tx, resource, now, caller.deployment.appId);
    const actor = (await changes.party(caller.principal.id, caller.principal))!;
    let access: ResourceAccess = 'view';
    if (options.gate === 'reach') {
      const facts = { visibility: resource.visibility, own: actor.membership, agentInvited: false };
      access = resourceAccess(facts);
      // Only asked when nothing else lets the caller in: the one extra query most calls skip.
      if (access === 'none' && (await ownsInvitedAgent(tx, resource.id, actor.id, now))) access = resourceAccess({ ...facts, agentInvited: true });
      if (access === 'none') throw resourceNotFound(resourceId);
    }
    const result = await work({ tx, resource, changes, now, actor, access });
    await changes.flush();
    return { result, events: changes.events, grantEvents: changes.grantEvents };
  });
  deps.bus.publish(events);
  deps.bus.publishGrants(grantEvents);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Two statements per transition: one read that locks the resource and returns every fact the
// decision needs, the pure decision (src/membership/membership.rules.ts), then one write statement.
// ---------------------------------------------------------------------------------------------

interface FactsRow {
  deployment_id: string;
  type: string;
  visibility: StoredVisibility;
  schema_version: number;
  actor_role: Role | null;
  actor_state: MembershipState | null;
  actor_expires_at: Date | null;
  target_id: string | null;
  target_kind: Party['kind'] | null;
  target_owner_id: string | null;
  target_role: Role | null;
  target_state: MembershipState | null;
  target_expires_at: Date | null;
  blocked: boolean;
  pending_by_actor: number;
  agent_invited: boolean;
  fingerprint: string;
}

interface FactsQuery {
  resourceId: string;
  actorId: string;
  /** A target other than the actor, or null. */
  targetId: string | null;
  appId: string;
  now: Date;
}

/**
 * Every fact of one transition as one row: the resource; the actor's row; the target (a principal
 * of the resource's app, as findPrincipalInApp has it) and its row; a block between the two either
 * way; the actor's unexpired invites on the resource; whether an agent the actor owns is invited
 * (the access gate). Expired pending rows are returned as stored; the caller reads them as none.
 */
function factsSelect({ resourceId, actorId, targetId, appId, now }: FactsQuery): RawBuilder<FactsRow> {
  // Test users belong to the app their id names, whatever their tokens; others as findPrincipalInApp.
  const testUser = targetId !== null && isTestUserId(targetId);
  const lookup = testUser && !isTestUserOf(targetId, appId) ? null : targetId;
  return sql<FactsRow>`
    SELECT r.deployment_id, r.type, r.visibility::text AS visibility, d.version AS schema_version,
      am.role::text AS actor_role, am.state::text AS actor_state, am.expires_at AS actor_expires_at,
      tp.id AS target_id, tp.kind::text AS target_kind, tp.owner_id AS target_owner_id,
      tm.role::text AS target_role, tm.state::text AS target_state, tm.expires_at AS target_expires_at,
      EXISTS (SELECT 1 FROM blocks b
        WHERE (b.blocker_id = ${actorId} AND b.blocked_id = ${targetId}) OR (b.blocker_id = ${targetId} AND b.blocked_id = ${actorId})) AS blocked,
      (SELECT count(*)::int FROM memberships p
        WHERE p.resource_id = r.id AND p.invited_by = ${actorId} AND p.state = 'invited' AND p.expires_at > ${now}) AS pending_by_actor,
      EXISTS (SELECT 1 FROM principals ag JOIN memberships im ON im.resource_id = r.id AND im.principal_id = ag.id
        WHERE ag.owner_id = ${actorId} AND ag.kind = 'agent' AND im.state = 'invited' AND im.expires_at > ${now}) AS agent_invited
    FROM resources r
      JOIN deployments d ON d.id = r.deployment_id
      LEFT JOIN memberships am ON am.resource_id = r.id AND am.principal_id = ${actorId}
      LEFT JOIN principals tp ON tp.id = ${lookup} AND (${testUser}::boolean OR tp.kind = 'user' OR EXISTS (
        SELECT 1 FROM api_tokens t JOIN deployments td ON td.id = t.deployment_id WHERE t.principal_id = tp.id AND td.app_id = ${appId}))
      LEFT JOIN memberships tm ON tm.resource_id = r.id AND tm.principal_id = ${targetId}
    WHERE r.id = ${resourceId}`;
}

/**
 * The read statement takes its snapshot before it waits for the row lock, so when another
 * transition held the lock, what it wrote is not in the facts. The write statement (which runs
 * with the lock held and a fresh snapshot) reads the same facts again and writes only when they
 * are unchanged (same digest); otherwise the transition reads and decides again. A decision that
 * throws on stale facts writes nothing: it is ordered before the transition it did not see.
 */
const digest = (inner: RawBuilder<unknown>) => sql<FactsRow>`SELECT f.*, md5(row(f.*)::text) AS fingerprint FROM (${inner}) f`;

/** Another transition changed the facts between the read and the write: read and decide again. */
class StaleFacts extends Error {}

const STALE_RETRIES = 5;
const stored = (role: Role | null, state: MembershipState | null, expiresAt: Date | null): StoredMember | null =>
  role && state ? { role, state, expiresAt: expiresAt === null ? null : new Date(expiresAt) } : null;

export interface WriteOptions {
  invitedBy?: string;
  /** Invite-link claim: the link to consume in the same statement (unused links only). */
  consumeLink?: { id: string };
}

export interface StatementScope {
  /** The SQL layer on the transition's driver transaction (Database.sqlTransaction). */
  tx: Sql;
  resource: LockedResource;
  now: Date;
  /** The caller with its current row on the resource. */
  actor: Party;
  /** How far the caller reaches the resource; `view` when the transition is not gated. */
  access: ResourceAccess;
  /** The named target: the actor when none (or the actor) was named; null when no such principal is in the app. */
  target: Party | null;
  /** A block between actor and target, either way. */
  blocked: boolean;
  /** The actor's unexpired invites on the resource. */
  pendingByActor: number;
  /**
   * Writes `party`'s (the actor's or the target's) row transition to `after`, with the purge of the
   * parties' expired rows, in one statement. Once per transition. Returns whether a link was consumed.
   */
  write(party: Party, after: Outcome, options?: WriteOptions): Promise<{ linkConsumed: boolean }>;
}

export interface StatementTransitionOptions extends TransitionOptions {
  /** A target other than the caller to read facts about (target, link creator). */
  targetId?: string | null;
  /** The caller's deployment, when at hand: lets a removal's link policy join the write statement. */
  deployment?: DeploymentInfo;
}

/**
 * `runTransition` in two statements: the facts (locking the resource), the decision in `work`, one
 * write (`scope.write`). Events are published after commit, never for a rolled-back change.
 */
export async function runStatementTransition<T>(
  deps: Pick<ServiceDeps, 'now' | 'sqlTransaction' | 'bus'>,
  caller: PrincipalCaller,
  resourceId: string,
  work: (scope: StatementScope) => Promise<T>,
  options: StatementTransitionOptions = { gate: 'entry' },
): Promise<T> {
  const now = deps.now();
  const actorId = caller.principal.id;
  const targetId = options.targetId && options.targetId !== actorId ? options.targetId : null;
  const query: FactsQuery = { resourceId, actorId, targetId, appId: caller.deployment.appId, now };
  const outcome = await deps.sqlTransaction(async tx => {
    for (let attempt = 1; ; attempt++) {
      const {
        rows: [facts],
      } = await digest(sql`${factsSelect(query)} FOR UPDATE OF r`).execute(tx);
      if (!facts || facts.deployment_id !== caller.deployment.id) throw resourceNotFound(resourceId);
      const run = new StatementRun(tx, caller, facts, query, options.deployment);
      try {
        const result = await work(run.scope(options.gate));
        await run.finish();
        return { result, events: run.events, grantEvents: run.grantEvents };
      } catch (error) {
        if (!(error instanceof StaleFacts)) throw error;
        if (attempt >= STALE_RETRIES) throw fail('conflict', 'A concurrent request changed the same record; retry.');
      }
    }
  });
  deps.bus.publish(outcome.events);
  deps.bus.publishGrants(outcome.grantEvents);
  return outcome.result;
}

/** What the write statement answers: whether the facts held, the transaction id, the removed grants, a consumed link. */
interface WriteRow {
  ok: boolean;
  xid: string;
  grants?: unknown;
  consumed?: number;
}

/** One attempt of a statement transition: the facts it read, and its one write. */
class StatementRun {
  readonly events: MembershipEvent[] = [];
  readonly grantEvents: GrantEvent[] = [];
  private readonly resource: LockedResource;
  private readonly actorRow: StoredMember | null;
  private readonly targetRow: StoredMember | null;
  private readonly actor: Party;
  private readonly target: Party | null;
  private written = false;

  constructor(
    private readonly tx: Sql,
    caller: PrincipalCaller,
    private readonly facts: FactsRow,
    private readonly query: FactsQuery,
    private readonly deployment: DeploymentInfo | undefined,
  ) {
    const now = query.now;
    this.resource = { id: query.resourceId, deploymentId: facts.deployment_id, type: facts.type, visibility: facts.visibility };
    this.actorRow = stored(facts.actor_role, facts.actor_state, facts.actor_expires_at);
    const { id, kind, ownerId } = caller.principal;
    this.actor = { id, kind, ownerId, membership: liveRow(this.actorRow, now) };
    this.targetRow = stored(facts.target_role, facts.target_state, facts.target_expires_at);
    this.target =
      query.targetId === null
        ? this.actor
        : facts.target_id
          ? { id: facts.target_id, kind: facts.target_kind!, ownerId: facts.target_owner_id, membership: liveRow(this.targetRow, now) }
          : null;
  }

  scope(gate: TransitionOptions['gate']): StatementScope {
    let access: ResourceAccess = 'view';
    if (gate === 'reach') {
      access = resourceAccess({ visibility: this.facts.visibility, own: this.actor.membership, agentInvited: this.facts.agent_invited });
      if (access === 'none') throw resourceNotFound(this.resource.id);
    }
    return {
      tx: this.tx,
      resource: this.resource,
      now: this.query.now,
      actor: this.actor,
      access,
      target: this.target,
      blocked: this.facts.blocked,
      pendingByActor: this.facts.pending_by_actor,
      write: (party, after, options) => this.write(party, after, options),
    };
  }

  /** A transition that wrote nothing still purges the expired rows it read as none. */
  async finish(): Promise<void> {
    if (!this.written) await this.write(null, null);
  }

  private async write(party: Party | null, after: Outcome, options: WriteOptions = {}): Promise<{ linkConsumed: boolean }> {
    if (this.written) throw new Error('a statement transition writes once');
    this.written = true;
    const { tx, resource, query } = this;
    const r = resource.id;
    const now = query.now;
    const when = sql`(SELECT ok FROM guard)`;
    const parts: RawBuilder<unknown>[] = [];
    // The transaction id stamps the events (src/bus/commit-order.ts).
    const columns: RawBuilder<unknown>[] = [sql`(SELECT ok FROM guard) AS ok`, sql`pg_current_xact_id()::text AS xid`];
    const events: MembershipEvent[] = [];
    const record = (principalId: string, change: RowChangeEvent) =>
      events.push({ op: change.op, deploymentId: resource.deploymentId, row: memberRow(r, principalId, change.role, change.state) });

    // Expired rows of the parties read as none; the written party's is replaced by its write.
    const parties: [string, StoredMember | null][] = [[this.actor.id, this.actorRow]];
    if (query.targetId !== null && this.target) parties.push([this.target.id, this.targetRow]);
    for (const [id, row] of parties) {
      if (!row || !isExpired(row, now)) continue;
      record(id, { op: 'delete', role: row.role, state: row.state });
      if (id !== party?.id) parts.push(sql`DELETE FROM memberships WHERE resource_id = ${r} AND principal_id = ${id} AND ${when}`);
    }

    let removal: 'none' | 'joined' | 'call' = 'none';
    if (party) {
      const p = party.id;
      const plan = planRowWrite(p === this.actor.id ? this.actorRow : this.targetRow, after, now);
      for (const change of plan.events) record(p, change);
      const w = plan.write;
      const invitedBy = options.invitedBy ?? null;
      const at = (date: Date | null) => sql`${date}::timestamp(3)`;
      const role = (value: Role) => sql`CAST(${value} AS "Role")`;
      const state = (value: MembershipState) => sql`CAST(${value} AS "MembershipState")`;
      // Prisma's @updatedAt is the wall clock, not the service clock.
      const updatedAt = at(new Date());
      if (w.kind === 'delete') {
        parts.push(sql`DELETE FROM memberships WHERE resource_id = ${r} AND principal_id = ${p} AND ${when}`);
      } else if (w.kind === 'insert') {
        parts.push(sql`
          INSERT INTO memberships (resource_id, principal_id, role, state, invited_by, expires_at, created_at, updated_at)
          SELECT ${r}, ${p}, ${role(w.role)}, ${state(w.state)}, ${invitedBy}::text, ${at(w.expiresAt)}, ${at(now)}, ${updatedAt} WHERE ${when}`);
      } else if (w.kind === 'replace') {
        // The expired row deleted and a new one created, as one update of every column.
        parts.push(sql`
          UPDATE memberships SET role = ${role(w.role)}, state = ${state(w.state)}, invited_by = ${invitedBy}::text,
            expires_at = ${at(w.expiresAt)}, created_at = ${at(now)}, updated_at = ${updatedAt}
          WHERE resource_id = ${r} AND principal_id = ${p} AND ${when}`);
      } else if (w.kind === 'update') {
        const expiry = w.expiresAt === undefined ? sql`` : sql`, expires_at = ${at(w.expiresAt)}`;
        const inviter = options.invitedBy ? sql`, invited_by = ${options.invitedBy}` : sql``;
        parts.push(sql`
          UPDATE memberships SET role = ${role(w.role)}, state = ${state(w.state)}, updated_at = ${updatedAt}${expiry}${inviter}
          WHERE resource_id = ${r} AND principal_id = ${p} AND ${when}`);
      }
      if (plan.countDelta !== 0) {
        parts.push(sql`UPDATE resources SET member_count = member_count + ${plan.countDelta}::int WHERE id = ${r} AND ${when}`);
      }
      // Active again by any path (join, accept, link claim): hidden links reappear (§12).
      if (plan.restoresLinks) parts.push(unhideLinks(r, p, when));
      if (plan.endsActive) {
        // The membership foreign key drops the member's room grants with the row: their events.
        columns.push(sql`${grantsJson(r, p)} AS grants`);
        // Leave and remove (docs/api.md §12): each shared table's onMemberRemove, in this transaction.
        // When every shared table drops links (the usual case), that is one more part of this
        // statement; the cached schema is used only while it is the version the resource's deployment has.
        const current = this.deployment?.version === this.facts.schema_version ? this.deployment : undefined;
        if (removalIsDropOnly(current && (current.schema.resources[resource.type]?.shares ?? []))) {
          parts.push(dropVisibleLinks(r, p, when));
          removal = 'joined';
        } else removal = 'call';
      }
    }
    let consume: RawBuilder<unknown> | undefined;
    if (options.consumeLink) {
      consume = sql`
        UPDATE invite_links SET used_at = ${now}::timestamp(3), used_by = ${party!.id}
        WHERE id = ${options.consumeLink.id} AND used_at IS NULL AND ${when} RETURNING 1`;
      parts.push(consume);
      columns.push(sql`(SELECT count(*)::int FROM consumed) AS consumed`);
    }
    if (parts.length === 0) {
      // Nothing to write: the decision stands on the facts as read (a no-op is ordered where it read).
      this.events.push(...events);
      return { linkConsumed: false };
    }

    // Data-modifying parts of WITH run once each whether or not the final SELECT reads them.
    const named = parts.map((part, i) => (part === consume ? sql`consumed AS (${part})` : sql`${sql.raw(`w${i}`)} AS (${part})`));
    const statement = sql<WriteRow>`
      WITH guard AS (SELECT EXISTS (SELECT 1 FROM (${digest(factsSelect(query))}) facts WHERE facts.fingerprint = ${this.facts.fingerprint}) AS ok),
        ${sql.join(named, sql`,\n        `)}
      SELECT ${sql.join(columns)}`;
    let row: WriteRow;
    try {
      [row] = (await statement.execute(tx)).rows;
    } catch (error) {
      // The principal's account was deleted while this transition ran (docs/api.md §12).
      if (party && violatesForeignKey(error, 'memberships_principal_id_fkey')) throw userNotFound(party.id);
      throw error;
    }
    if (!row.ok) throw new StaleFacts();
    this.events.push(...events);
    if (row.grants !== undefined) this.grantEvents.push(...grantDeletesOf(resource.deploymentId, row.grants));
    stampAll(row.xid, this.events, this.grantEvents);
    if (removal === 'call') await applyMemberRemoval(tx, resource, party!.id);
    return { linkConsumed: row.consumed === 1 };
  }
}
