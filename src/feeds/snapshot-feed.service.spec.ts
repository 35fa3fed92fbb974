import { describe, expect, it } from 'vitest';
import { CommitSnapshot } from '../bus/commit-order.js';
import { type FeedChange, SnapshotFeed } from './snapshot-feed.service.js';

/** Transactions below 100 and 100..109 but 103 and 105 had committed: the snapshot holds them. */
const snapshot = CommitSnapshot.parse('100:110:103,105');
const change = (n: number): FeedChange<{ n: number }> => ({ op: 'update', row: { n }, snapshot: false });

async function drained(feed: SnapshotFeed<{ n: number }>) {
  feed.queue.end();
  const out: (FeedChange<{ n: number }> | undefined)[] = [];
  for await (const value of feed.queue) out.push(value);
  return out.map(c => (c!.op === 'ready' ? 'ready' : `${c!.op}:${c!.row!.n}`));
}

describe('CommitSnapshot (pg_current_snapshot)', () => {
  it.each([
    ['99', true],
    ['100', true],
    ['103', false],
    ['105', false],
    ['109', true],
    ['110', false],
    ['2000', false],
    [undefined, false],
  ])('xid %s is in the snapshot: %s', (xid, held) => {
    expect(snapshot.includes(xid)).toBe(held);
  });
});

describe('SnapshotFeed', () => {
  it('delivers the snapshot, ready, then the held changes the snapshot does not hold', async () => {
    const feed = new SnapshotFeed<{ n: number }>(() => {});
    feed.offer(change(1), '99');
    feed.offer(change(2), '103');
    feed.start(snapshot, [{ n: 0 }]);
    expect(await drained(feed)).toEqual(['insert:0', 'ready', 'update:2']);
  });

  it('drops a change the snapshot holds even when it arrives after the snapshot (judged late)', async () => {
    const feed = new SnapshotFeed<{ n: number }>(() => {});
    feed.start(snapshot, []);
    feed.offer(change(1), '101');
    feed.offer(change(2), '105');
    feed.offer(change(3), '120');
    expect(await drained(feed)).toEqual(['ready', 'update:2', 'update:3']);
  });

  it('without a snapshot (snapshot: false) delivers every change', async () => {
    const feed = new SnapshotFeed<{ n: number }>(() => {});
    feed.offer(change(1), '99');
    feed.start(null, []);
    feed.offer(change(2), '99');
    expect(await drained(feed)).toEqual(['update:1', 'update:2']);
  });

  it('ends after a last change, delivered or already in the snapshot', async () => {
    const delivered = new SnapshotFeed<{ n: number }>(() => {});
    delivered.start(snapshot, []);
    delivered.offer(change(1), '120', true);
    delivered.offer(change(2), '121');
    expect(await drained(delivered)).toEqual(['ready', 'update:1']);
    const contained = new SnapshotFeed<{ n: number }>(() => {});
    contained.offer(change(1), '99', true);
    contained.offer(change(2), '121');
    contained.start(snapshot, []);
    expect(await drained(contained)).toEqual(['ready']);
  });
});
