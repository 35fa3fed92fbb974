/**
 * Live feeds of docs/api.md §6 as async iterables, one per subscription. Each starts with a
 * snapshot of its rows and continues with every later change, with no gap and no duplicate across
 * the boundary: src/feeds/snapshot-feed.service.ts says how.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { isExpired } from '../membership/membership.rules.js';
import { rosterAccess } from '../membership/visibility.rules.js';
import { fail } from '../errors.js';
import { CommitSnapshot, SNAPSHOT_SQL } from '../bus/commit-order.js';
import type { EventOf, GrantRowEvent, MemberRowEvent, MembershipEvent, Topic } from '../bus/event-bus.js';
import { memberRow } from '../bus/event-bus.js';
import { type FeedChange, SnapshotFeed } from './snapshot-feed.service.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import type { LiveRows, RowOut } from '../rows/rows-live.service.js';

/** Rows one snapshot may hold; a larger one is refused with `snapshot_too_large`. */
export const FEED_SNAPSHOT_MAX = 5000;

/** A membership row as a delete carries it: its identity (docs/api.md §6). */
export type MemberRowChange = Pick<MemberRowEvent, 'id' | 'resourceId' | 'userId'> & Partial<Pick<MemberRowEvent, 'role' | 'state'>>;
/** A grant row as a delete carries it: its identity. */
export type GrantRowChange = Pick<GrantRowEvent, 'resourceId' | 'roomId'> & Partial<Pick<GrantRowEvent, 'role'>>;

export interface FeedOptions {
  /** Start with the snapshot (the default); false: changes from now on only. */
  snapshot?: boolean;
}

/** Whether the event removes the subscriber from the roster they are watching. */
const endsMembership = (event: MembershipEvent, userId: string) =>
  event.row.userId === userId && (event.op === 'delete' || event.row.state !== 'active');

/**
 * One feed change per bus event, whoever receives it: every subscriber gets the same object, so
 * src/feeds/shared-subscribe.service.ts executes and serialises it once.
 */
const changes = new WeakMap<object, FeedChange<unknown>>();
function changeOf<R, I>(event: { op: 'insert' | 'update' | 'delete'; row: R }, identity: (row: R) => I): FeedChange<R | I> {
  let change = changes.get(event) as FeedChange<R | I> | undefined;
  if (!change) {
    change = { op: event.op, row: event.op === 'delete' ? identity(event.row) : event.row, snapshot: false };
    changes.set(event, change);
  }
  return change;
}
const memberIdentity = (row: MemberRowEvent): MemberRowChange => ({ id: row.id, resourceId: row.resourceId, userId: row.userId });
const grantIdentity = (row: GrantRowEvent): GrantRowChange => ({ resourceId: row.resourceId, roomId: row.roomId });

export const snapshotTooLarge = (what: string, advice: string) =>
  fail('snapshot_too_large', `${what} holds more than ${FEED_SNAPSHOT_MAX} rows, more than one live snapshot carries: ${advice}`);

/** Runs at most `n` of the functions given to it at once; the others wait their turn, in order. */
function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    while (running >= n) await new Promise<void>(resolve => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export function createFeedService(deps: ServiceDeps, liveRows: LiveRows) {
  // Snapshot reads take at most half the database pool: a reconnect storm (every client of a
  // restarted server subscribing again) queues here instead of starving other requests or
  // failing `busy`.
  const snapshotTurn = limiter(Math.max(1, Math.floor(deps.config.database.poolSize / 2)));

  /** The members-list gate: active members only (404 hides members-only resources). */
  async function requireRosterAccess(caller: PrincipalCaller, resourceId: string, db: PrismaClient | Tx = deps.prisma) {
    const resource = await db.resource.findUnique({
      where: { id: resourceId },
      select: { deploymentId: true, visibility: true, memberships: { where: { principalId: caller.principal.id }, select: { state: true } } },
    });
    if (!resource || resource.deploymentId !== caller.deployment.id) throw resourceNotFound(resourceId);
    const access = rosterAccess(resource.visibility, resource.memberships[0] ?? null);
    if (access === 'hidden') throw resourceNotFound(resourceId);
    if (access === 'not_member') throw fail('not_resource_member', 'Only active members can follow the member list.');
  }

  /**
   * Reads a snapshot: one REPEATABLE READ transaction whose first statement names the
   * transactions it sees (src/bus/commit-order.ts), once the bus delivers every topic
   * listened to so far, and once a turn is free (`snapshotTurn`).
   */
  async function readSnapshot<T>(read: (tx: Tx) => Promise<T>): Promise<{ snapshot: CommitSnapshot; value: T }> {
    await deps.bus.settled();
    return snapshotTurn(() =>
      deps.transaction(
        async tx => {
          const [{ snapshot }] = await tx.$queryRawUnsafe<{ snapshot: string }[]>(SNAPSHOT_SQL);
          return { snapshot: CommitSnapshot.parse(snapshot), value: await read(tx) };
        },
        { isolationLevel: 'RepeatableRead' },
      ),
    );
  }

  /** Membership rows as a snapshot carries them: pending rows past their expiry read as gone. */
  function memberRows(
    rows: { resourceId: string; principalId: string; role: MemberRowEvent['role']; state: MemberRowEvent['state']; expiresAt: Date | null }[],
  ) {
    const now = deps.now();
    return rows.filter(row => !isExpired(row, now)).map(row => memberRow(row.resourceId, row.principalId, row.role, row.state));
  }

  /**
   * A feed of `topic` for `caller`: events that pass `keep` become changes (`change`); the feed
   * ends after an event `last` marks final, and fails when the caller's credential expires. It
   * listens before anything is read, so `begin` (gate and snapshot) misses nothing.
   */
  async function follow<T extends Topic, R>(
    caller: PrincipalCaller,
    topic: T,
    filters: { keep: (event: EventOf<T>) => boolean; last: (event: EventOf<T>) => boolean; change: (event: EventOf<T>) => FeedChange<R> },
    begin: (feed: SnapshotFeed<R>) => Promise<void>,
  ): Promise<AsyncIterable<FeedChange<R>>> {
    const feed: SnapshotFeed<R> = new SnapshotFeed(() => unlisten());
    const unlisten = deps.bus.listen(topic, event => {
      if (filters.keep(event)) feed.offer(filters.change(event), event.xid, filters.last(event));
    });
    try {
      await begin(feed);
    } catch (error) {
      await feed.queue.return();
      throw error;
    }
    feed.expireAt(caller.expiresAt, deps.now().getTime());
    return feed.queue;
  }

  /** `begin` for a feed whose gate and snapshot are `read` (null rows: the gate alone, no snapshot asked). */
  const snapshotOf =
    <R>(options: FeedOptions, read: (tx: Tx) => Promise<R[]>, gate: () => Promise<void>) =>
    async (feed: SnapshotFeed<R>) => {
      if (options.snapshot === false) {
        await gate();
        feed.start(null, []);
      } else {
        const { snapshot, value } = await readSnapshot(read);
        feed.start(snapshot, value);
      }
    };

  return {
    requireRosterAccess,

    /** `members.live()`: one resource's roster; ends after the subscriber's own removal. */
    members(caller: PrincipalCaller, resourceId: string, options: FeedOptions = {}): Promise<AsyncIterable<FeedChange<MemberRowChange>>> {
      return follow(
        caller,
        `member:${resourceId}`,
        { keep: () => true, last: event => endsMembership(event, caller.principal.id), change: event => changeOf(event, memberIdentity) },
        snapshotOf<MemberRowChange>(
          options,
          async tx => {
            await requireRosterAccess(caller, resourceId, tx);
            const rows = await tx.membership.findMany({
              where: { resourceId },
              select: { resourceId: true, principalId: true, role: true, state: true, expiresAt: true },
              orderBy: { principalId: 'asc' },
              take: FEED_SNAPSHOT_MAX + 1,
            });
            if (rows.length > FEED_SNAPSHOT_MAX)
              throw snapshotTooLarge('This roster', 'subscribe with snapshot: false and page through GET members.');
            return memberRows(rows);
          },
          () => requireRosterAccess(caller, resourceId),
        ),
      );
    },

    /** `resources.live()`: the caller's own rows across every resource of this app environment. */
    resources(caller: PrincipalCaller, options: FeedOptions = {}): Promise<AsyncIterable<FeedChange<MemberRowChange>>> {
      return follow(
        caller,
        `principal:${caller.principal.id}`,
        { keep: event => event.deploymentId === caller.deployment.id, last: () => false, change: event => changeOf(event, memberIdentity) },
        snapshotOf<MemberRowChange>(
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
            return memberRows(rows);
          },
          async () => {},
        ),
      );
    },

    /**
     * Live rows (docs/api.md §6): a table's changes in a user or resource scope, filtered by a
     * select's `where`, judged once per distinct subscriber and query (src/rows/rows-live.service.ts).
     */
    async rows(caller: PrincipalCaller, input: unknown, options: FeedOptions = {}): Promise<AsyncIterable<FeedChange<RowOut>>> {
      const { feed } = await liveRows.follow(caller, input, options, readSnapshot);
      feed.expireAt(caller.expiresAt, deps.now().getTime());
      return feed.queue;
    },

    /**
     * The rooms feed (docs/api.md §10.4): the caller's own room grants across every resource of
     * this app environment; its snapshot is that of `GET /v1/resources/grants`.
     */
    rooms(caller: PrincipalCaller, options: FeedOptions = {}): Promise<AsyncIterable<FeedChange<GrantRowChange>>> {
      return follow(
        caller,
        `grants:${caller.principal.id}`,
        { keep: event => event.deploymentId === caller.deployment.id, last: () => false, change: event => changeOf(event, grantIdentity) },
        snapshotOf<GrantRowChange>(
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
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
export type ReadSnapshot = <T>(read: (tx: Tx) => Promise<T>) => Promise<{ snapshot: CommitSnapshot; value: T }>;
