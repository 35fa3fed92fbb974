/**
 * Live feeds of docs/api.md §6 as async iterables, one per subscription. Each starts with a
 * snapshot of its rows and continues with every later change, with no gap and no duplicate across
 * the boundary: src/feeds/feed-follow.service.ts and snapshot-feed.service.ts say how.
 *
 * This module: the feeds themselves, and `feedOperations`, what `services.feeds` offers.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { MembershipEvent } from '../bus/event-bus.js';
import { rosterAccess } from '../membership/visibility.rules.js';
import { fail } from '../errors.js';
import type { CommitSnapshot } from '../bus/commit-order.js';
import type { FeedChange } from './snapshot-feed.service.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import type { LiveRows, RowOut } from '../rows/rows-live.service.js';
import {
  type FeedOptions,
  type FollowDeps,
  type GrantRowChange,
  type MemberRowChange,
  changeOf,
  follow,
  grantIdentity,
  memberIdentity,
  memberRows,
  readSnapshot,
  snapshotOf,
} from './feed-follow.service.js';

export type { FeedOptions, GrantRowChange, MemberRowChange } from './feed-follow.service.js';

/** Rows one snapshot may hold; a larger one is refused with `snapshot_too_large`. */
export const FEED_SNAPSHOT_MAX = 5000;

/** What the feeds use: the database, bus and clock, the snapshot turns, and the live row feed's fan-out. */
export type FeedDeps = FollowDeps & Pick<ServiceDeps, 'prisma'> & { liveRows: Pick<LiveRows, 'follow'> };

export type ReadSnapshot = <T>(read: (tx: Tx) => Promise<T>) => Promise<{ snapshot: CommitSnapshot; value: T }>;

/** Whether the event removes the subscriber from the roster they are watching. */
const endsMembership = (event: MembershipEvent, userId: string) =>
  event.row.userId === userId && (event.op === 'delete' || event.row.state !== 'active');

export const snapshotTooLarge = (what: string, advice: string) =>
  fail('snapshot_too_large', `${what} holds more than ${FEED_SNAPSHOT_MAX} rows, more than one live snapshot carries: ${advice}`);

/** The members-list gate: active members only (404 hides members-only resources). */
export async function requireRosterAccess(
  deps: Pick<ServiceDeps, 'prisma'>,
  caller: PrincipalCaller,
  resourceId: string,
  db: PrismaClient | Tx = deps.prisma,
): Promise<void> {
  const resource = await db.resource.findUnique({
    where: { id: resourceId },
    select: { deploymentId: true, visibility: true, memberships: { where: { principalId: caller.principal.id }, select: { state: true } } },
  });
  if (!resource || resource.deploymentId !== caller.deployment.id) throw resourceNotFound(resourceId);
  const access = rosterAccess(resource.visibility, resource.memberships[0] ?? null);
  if (access === 'hidden') throw resourceNotFound(resourceId);
  if (access === 'not_member') throw fail('not_resource_member', 'Only active members can follow the member list.');
}

/** `members.live()`: one resource's roster; ends after the subscriber's own removal. */
export function members(
  deps: FollowDeps & Pick<ServiceDeps, 'prisma'>,
  caller: PrincipalCaller,
  resourceId: string,
  options: FeedOptions = {},
): Promise<AsyncIterable<FeedChange<MemberRowChange>>> {
  return follow(
    deps,
    caller,
    `member:${resourceId}`,
    { keep: () => true, last: event => endsMembership(event, caller.principal.id), change: event => changeOf(event, memberIdentity) },
    snapshotOf<MemberRowChange>(
      deps,
      options,
      async tx => {
        await requireRosterAccess(deps, caller, resourceId, tx);
        const rows = await tx.membership.findMany({
          where: { resourceId },
          select: { resourceId: true, principalId: true, role: true, state: true, expiresAt: true },
          orderBy: { principalId: 'asc' },
          take: FEED_SNAPSHOT_MAX + 1,
        });
        if (rows.length > FEED_SNAPSHOT_MAX) throw snapshotTooLarge('This roster', 'subscribe with snapshot: false and page through GET members.');
        return memberRows(deps.now(), rows);
      },
      () => requireRosterAccess(deps, caller, resourceId),
    ),
  );
}

/** `resources.live()`: the caller's own rows across every resource of this app environment. */
export function resources(deps: FollowDeps, caller: PrincipalCaller, options: FeedOptions = {}): Promise<AsyncIterable<FeedChange<MemberRowChange>>> {
  return follow(
    deps,
    caller,
    `principal:${caller.principal.id}`,
    { keep: event => event.deploymentId === caller.deployment.id, last: () => false, change: event => changeOf(event, memberIdentity) },
    snapshotOf<MemberRowChange>(
      deps,
      options,
      async tx => {
        const rows = await tx.membership.findMany({
          where: { principalId: caller.principal.id, resource: { deploymentId: caller.deployment.id } },
          select: { resourceId: true, principalId: true, role: true, state: true, expiresAt: true },
          orderBy: { resourceId: 'asc' },
          take: FEED_SNAPSHOT_MAX + 1,
        });
        if (rows.length > FEED_SNAPSHOT_MAX)
          throw snapshotTooLarge('Your membership', 'subscribe with snapshot: false and page through GET /v1/resources.');
        return memberRows(deps.now(), rows);
      },
      async () => {},
    ),
  );
}

/**
 * Live rows (docs/api.md §6): a table's changes in a user or resource scope, filtered by a
 * select's `where`, judged once per distinct subscriber and query (src/rows/rows-live.service.ts).
 */
export async function rows(
  deps: FollowDeps & Pick<FeedDeps, 'liveRows'>,
  caller: PrincipalCaller,
  input: unknown,
  options: FeedOptions = {},
): Promise<AsyncIterable<FeedChange<RowOut>>> {
  const { feed } = await deps.liveRows.follow(caller, input, options, read => readSnapshot(deps, read));
  feed.expireAt(caller.expiresAt, deps.now().getTime());
  return feed.queue;
}

/**
 * The rooms feed (docs/api.md §10.4): the caller's own room grants across every resource of
 * this app environment; its snapshot is that of `GET /v1/resources/grants`.
 */
export function rooms(deps: FollowDeps, caller: PrincipalCaller, options: FeedOptions = {}): Promise<AsyncIterable<FeedChange<GrantRowChange>>> {
  return follow(
    deps,
    caller,
    `grants:${caller.principal.id}`,
    { keep: event => event.deploymentId === caller.deployment.id, last: () => false, change: event => changeOf(event, grantIdentity) },
    snapshotOf<GrantRowChange>(
      deps,
      options,
      async tx => {
        const grants = await tx.roomGrant.findMany({
          where: { principalId: caller.principal.id, membership: { state: 'active', resource: { deploymentId: caller.deployment.id } } },
          select: { resourceId: true, roomId: true, role: true },
          orderBy: [{ resourceId: 'asc' }, { roomId: 'asc' }],
          take: FEED_SNAPSHOT_MAX + 1,
        });
        if (grants.length > FEED_SNAPSHOT_MAX)
          throw snapshotTooLarge('Your room grants', "subscribe with snapshot: false and read each resource's rooms.");
        return grants;
      },
      async () => {},
    ),
  );
}

/** What `services.feeds` offers; src/services.ts binds each to the server's dependencies. */
export const feedOperations = { requireRosterAccess, members, resources, rows, rooms };

export type FeedService = Bound<typeof feedOperations>;
