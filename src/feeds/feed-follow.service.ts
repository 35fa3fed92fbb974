/**
 * How every live feed is built (docs/api.md §6): it listens on its bus topic before anything is
 * read, then reads its gate and snapshot in one REPEATABLE READ transaction that names the
 * transactions it sees (src/bus/commit-order.ts), so src/feeds/snapshot-feed.service.ts can join
 * the snapshot and the changes with no gap and no duplicate.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { isExpired } from '../membership/membership.rules.js';
import { CommitSnapshot, SNAPSHOT_SQL } from '../bus/commit-order.js';
import type { EventOf, GrantRowEvent, MemberRowEvent, Topic } from '../bus/event-bus.js';
import { memberRow } from '../bus/event-bus.js';
import { type FeedChange, SnapshotFeed } from './snapshot-feed.service.js';
import type { Config } from '../config.js';
import { sql, sqlOf } from '../db/sql.js';
import type { ServiceDeps, Tx } from '../core/deps.js';

/** A membership row as a delete carries it: its identity (docs/api.md §6). */
export type MemberRowChange = Pick<MemberRowEvent, 'id' | 'resourceId' | 'userId'> & Partial<Pick<MemberRowEvent, 'role' | 'state'>>;
/** A grant row as a delete carries it: its identity. */
export type GrantRowChange = Pick<GrantRowEvent, 'resourceId' | 'roomId'> & Partial<Pick<GrantRowEvent, 'role'>>;

export interface FeedOptions {
  /** Start with the snapshot (the default); false: changes from now on only. */
  snapshot?: boolean;
}

/** Runs at most `n` of the functions given to it at once; the others wait their turn, in order. */
export type Limiter = <T>(fn: () => Promise<T>) => Promise<T>;

export function limiter(n: number): Limiter {
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

/**
 * Snapshot reads take at most half the database pool: a reconnect storm (every client of a
 * restarted server subscribing again) queues here instead of starving other requests or failing
 * `busy`.
 */
export const snapshotTurns = (config: Pick<Config, 'database'>): Limiter => limiter(Math.max(1, Math.floor(config.database.poolSize / 2)));

/** What a feed uses: the bus, the database, the clock, and the turns snapshot reads wait for. */
export type FollowDeps = Pick<ServiceDeps, 'transaction' | 'bus' | 'now'> & { snapshotTurn: Limiter };

/**
 * One feed change per bus event, whoever receives it: every subscriber gets the same object, so
 * src/feeds/shared-subscribe.service.ts executes and serialises it once.
 */
const changes = new WeakMap<object, FeedChange<unknown>>();
export function changeOf<R, I>(event: { op: 'insert' | 'update' | 'delete'; row: R }, identity: (row: R) => I): FeedChange<R | I> {
  let change = changes.get(event) as FeedChange<R | I> | undefined;
  if (!change) {
    change = { op: event.op, row: event.op === 'delete' ? identity(event.row) : event.row, snapshot: false };
    changes.set(event, change);
  }
  return change;
}
export const memberIdentity = (row: MemberRowEvent): MemberRowChange => ({ id: row.id, resourceId: row.resourceId, userId: row.userId });
export const grantIdentity = (row: GrantRowEvent): GrantRowChange => ({ resourceId: row.resourceId, roomId: row.roomId });

/**
 * Reads a snapshot: one REPEATABLE READ transaction whose first statement names the
 * transactions it sees (src/bus/commit-order.ts), once the bus delivers every topic
 * listened to so far, and once a turn is free (`snapshotTurn`).
 */
export async function readSnapshot<T>(deps: FollowDeps, read: (tx: Tx) => Promise<T>): Promise<{ snapshot: CommitSnapshot; value: T }> {
  await deps.bus.settled();
  return deps.snapshotTurn(() =>
    deps.transaction(
      async tx => {
        const { rows } = await sql.raw<{ snapshot: string }>(SNAPSHOT_SQL).execute(sqlOf(tx));
        return { snapshot: CommitSnapshot.parse(rows[0].snapshot), value: await read(tx) };
      },
      { isolationLevel: 'RepeatableRead' },
    ),
  );
}

/** Membership rows as a snapshot carries them: pending rows past their expiry read as gone. */
export function memberRows(
  now: Date,
  rows: { resourceId: string; principalId: string; role: MemberRowEvent['role']; state: MemberRowEvent['state']; expiresAt: Date | null }[],
) {
  return rows.filter(row => !isExpired(row, now)).map(row => memberRow(row.resourceId, row.principalId, row.role, row.state));
}

/**
 * A feed of `topic` for `caller`: events that pass `keep` become changes (`change`); the feed
 * ends after an event `last` marks final, and fails when the caller's credential expires. It
 * listens before anything is read, so `begin` (gate and snapshot) misses nothing.
 */
export async function follow<T extends Topic, R>(
  deps: Pick<FollowDeps, 'bus' | 'now'>,
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
export const snapshotOf =
  <R>(deps: FollowDeps, options: FeedOptions, read: (tx: Tx) => Promise<R[]>, gate: () => Promise<void>) =>
  async (feed: SnapshotFeed<R>) => {
    if (options.snapshot === false) {
      await gate();
      feed.start(null, []);
    } else {
      const { snapshot, value } = await readSnapshot(deps, read);
      feed.start(snapshot, value);
    }
  };
