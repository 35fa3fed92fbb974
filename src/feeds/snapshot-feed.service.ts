/**
 * A live feed that starts with a snapshot (docs/api.md §6, "Snapshot, then changes"): the rows as
 * they are, as `insert` events marked `snapshot`, then `ready`, then every later change, with no
 * gap and no duplicate across the boundary.
 *
 * The order that makes it so: the feed listens to the bus first (changes are held here), waits
 * until the bus delivers (EventBus.settled), reads the snapshot in one REPEATABLE READ transaction
 * with its pg_snapshot, then delivers the held changes the snapshot does not already contain
 * (src/bus/commit-order.ts) and everything after them as it comes.
 */
import { fail } from '../errors.js';
import type { CommitSnapshot } from '../bus/commit-order.js';
import { FEED_BUFFER_LIMIT, FeedQueue } from './feed-queue.service.js';

export interface FeedChange<R> {
  op: 'insert' | 'update' | 'delete' | 'ready';
  /** The row (a delete: its identity only); null on `ready`. */
  row: R | null;
  /** The snapshot's inserts and its closing `ready`. */
  snapshot: boolean;
}

interface Held<R> {
  change: FeedChange<R>;
  xid: string | undefined;
  /** The feed ends after this change (membersLive after the subscriber's own removal). */
  last: boolean;
}

const READY: FeedChange<never> = Object.freeze({ op: 'ready', row: null, snapshot: true });

export class SnapshotFeed<R> {
  readonly queue: FeedQueue<FeedChange<R>>;
  /** Changes that arrived before the snapshot was in; null once it is. */
  private held: Held<R>[] | null = [];
  /**
   * The snapshot, kept after it is in: a change may reach the feed later than its commit (the
   * live row feed judges it asynchronously first), so every change is checked against it.
   */
  private snapshot: CommitSnapshot | null = null;
  private expiry: NodeJS.Timeout | undefined;

  constructor(onClose: () => void) {
    this.queue = new FeedQueue(() => {
      clearTimeout(this.expiry);
      onClose();
    });
  }

  /** Fails the feed with `token_expired` when the subscriber's credential expires (epoch ms; none: never). */
  expireAt(expiresAt: number | null | undefined, now: number): void {
    if (!expiresAt) return;
    // setTimeout caps at ~24.8 days; credentials that live longer never reach it in one connection.
    const ms = Math.min(Math.max(expiresAt - now, 0), 2 ** 31 - 1);
    this.expiry = setTimeout(() => this.queue.fail(fail('token_expired', 'Your credential expired: refresh it and subscribe again.')), ms);
  }

  /** A change from the bus, stamped with its transaction: held until the snapshot is in. */
  offer(change: FeedChange<R>, xid: string | undefined, last = false): void {
    if (this.held === null) {
      if (this.snapshot?.includes(xid)) {
        if (last) this.queue.end();
        return;
      }
      this.queue.push(change);
      if (last) this.queue.end();
      return;
    }
    if (this.held.length >= FEED_BUFFER_LIMIT) {
      this.held = [];
      this.queue.fail(fail('slow_consumer', `This feed fell more than ${FEED_BUFFER_LIMIT} events behind and was closed; subscribe again.`));
      return;
    }
    this.held.push({ change, xid, last });
  }

  /**
   * The snapshot as read (`rows` at `snapshot`): its inserts, `ready`, then the held changes it
   * does not contain. `snapshot` null: none was asked for (`snapshot: false`), every held change goes.
   */
  start(snapshot: CommitSnapshot | null, rows: readonly R[]): void {
    const held = this.held ?? [];
    this.held = null;
    this.snapshot = snapshot;
    if (snapshot) this.queue.pushSnapshot([...rows.map(row => ({ op: 'insert' as const, row, snapshot: true })), READY]);
    for (const { change, xid, last } of held) {
      const contained = snapshot?.includes(xid) ?? false;
      if (!contained) this.queue.push(change);
      if (last) {
        this.queue.end();
        return;
      }
    }
  }
}
