/**
 * Row-level helpers every membership transition shares. A transition locks the resource row
 * first (SELECT ... FOR UPDATE), so all transitions of one resource run in some serial order;
 * the membership primary key and the invite-link code hash back that up as constraints.
 */
import type { PrincipalCaller } from '../domain/caller.js';
import { type MemberRow, type Outcome, type Party, PENDING_TTL_MS, isExpired } from '../domain/membership.js';
import type { Role } from '../domain/roles.js';
import { type ResourceAccess, type StoredVisibility, resourceAccess } from '../domain/visibility.js';
import { notFound } from '../errors.js';
import { type GrantEvent, type MembershipEvent, memberRow } from '../realtime/event-bus.js';
import type { ServiceDeps, Tx } from './deps.js';
import { applyMemberRemoval, restoreHiddenLinks, violatesForeignKey } from './lifecycle.js';
import { findPrincipalInApp, userNotFound } from './principals.js';
import { grantDeletes } from './room-events.js';

export interface LockedResource {
  id: string;
  deploymentId: string;
  type: string;
  visibility: StoredVisibility;
}

export const resourceNotFound = (id: string) => notFound('resource_not_found', `No resource ${id} that you can see in this app environment.`);

export async function lockResource(tx: Tx, deploymentId: string, resourceId: string): Promise<LockedResource> {
  const rows = await tx.$queryRaw<{ id: string; deployment_id: string; type: string; visibility: StoredVisibility }[]>`
    SELECT id, deployment_id, type, visibility::text AS visibility FROM resources WHERE id = ${resourceId} FOR UPDATE`;
  const row = rows[0];
  if (!row || row.deployment_id !== deploymentId) throw resourceNotFound(resourceId);
  return { id: row.id, deploymentId: row.deployment_id, type: row.type, visibility: row.visibility };
}

/** Collects a transition's writes: member-count deltas and the events to publish after commit. */
export class ChangeSet {
  readonly events: MembershipEvent[] = [];
  /** Rooms-feed deletes of grants that go with a removed membership (docs/api.md §10.4). */
  readonly grantEvents: GrantEvent[] = [];
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
      if (before.state === 'active') await applyMemberRemoval(this.tx, this.resource, principalId);
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

  async flush(): Promise<void> {
    if (this.countDelta !== 0) {
      await this.tx.resource.update({ where: { id: this.resource.id }, data: { memberCount: { increment: this.countDelta } } });
    }
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
  deps: ServiceDeps,
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
