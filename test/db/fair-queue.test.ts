/**
 * One client's bulk writes must not starve everyone else on the embedded database (one connection,
 * in this thread): turns go round the parties waiting for them (src/db/fair-queue.ts), the event
 * loop turns during a long transaction (src/db/event-loop-turns.ts), and one call writes a bounded
 * number of rows (ROWS_MAX_WRITES_PER_CALL). Asserted by order (of turns granted, or of answers where
 * the machine cannot reorder them), never by time.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { FairQueue, currentParty, withParty } from '../../src/db/fair-queue.js';
import { type RowsSeed, db, mine, rowsSeed } from '../api/rows.fixture.js';
import { startTestApp, type TestContext } from '../helpers/app.js';

describe('FairQueue', () => {
  it('goes round the waiting parties, the one just served last; first come, first served within one', async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    const first = await queue.acquire('hog');
    const asks = [
      ['hog', 1],
      ['hog', 2],
      ['hog', 3],
      ['b', 1],
      ['c', 1],
      ['b', 2],
    ] as const;
    const turns = asks.map(([party, n]) =>
      queue.acquire(party).then(release => {
        order.push(`${party}${n}`);
        release();
      }),
    );
    expect(queue.waiting()).toEqual({ hog: 3, b: 2, c: 1 });
    first();
    await Promise.all(turns);
    expect(order).toEqual(['b1', 'hog1', 'c1', 'b2', 'hog2', 'hog3']);
    expect(queue.waiting()).toEqual({});
  });

  it('a release twice is one release', async () => {
    const queue = new FairQueue();
    const first = await queue.acquire('a');
    const second = queue.acquire('b');
    const third = queue.acquire('c');
    first();
    first();
    (await second)();
    (await third)();
  });
});

describe('the embedded database shared by a hog and another caller', () => {
  let ctx: TestContext;
  let s: RowsSeed;
  const note = (i: number) => ({ title: `n${i}`, body: 'x'.repeat(380) });
  const hundred = (from: number) => Array.from({ length: 100 }, (_, i) => note(from + i));

  beforeAll(async () => {
    ctx = await startTestApp({ listen: true });
    s = await rowsSeed(ctx, ['hog', 'other']);
  });
  afterAll(() => ctx?.close());

  /**
   * Holds the database's turn as `party` (a transaction that waits) until the returned release is
   * called. Reads outside transactions wait for it too, so callers warm their caches first: what
   * they send then goes straight to the queue.
   */
  async function holdTurn(party: string): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>(resolve => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>(resolve => (holding = resolve));
    const done = withParty({ key: party }, () =>
      ctx.database.transaction(
        async () => {
          holding();
          await released;
        },
        { timeout: 300_000 },
      ),
    );
    await held;
    return () => {
      release();
      return done;
    };
  }

  const waiting = () => ctx.database.waiting!();
  /** A read of each caller's own notes: their token and deployment are cached afterwards. */
  const warm = async () => {
    for (const user of [s.users.hog, s.users.other]) expect((await db(user, { op: 'select', table: 'notes', scope: mine })).status).toBe(200);
  };

  it("another person's write and read go before the rest of the hog's queued writes", async () => {
    await warm();
    const hog = `person:${s.users.hog.id}`;
    const other = `person:${s.users.other.id}`;
    // The turns in the order they are granted: answers can arrive in another order, as a busy
    // machine delivers them (the other's answer after the hog's next write, say).
    const granted: string[] = [];
    const acquire = FairQueue.prototype.acquire;
    const spy = vi.spyOn(FairQueue.prototype, 'acquire').mockImplementation(function (this: FairQueue, party = currentParty()) {
      return acquire.call(this, party).then(turn => {
        granted.push(party);
        return turn;
      });
    });
    onTestFinished(() => spy.mockRestore());
    const release = await holdTurn(hog);
    const finished: string[] = [];
    const track = (name: string, call: Promise<{ status: number }>) =>
      call.then(answer => {
        expect(answer.status, name).toBe(200);
        finished.push(name);
      });
    const hogWrites = Array.from({ length: 5 }, (_, i) =>
      track(`hog write ${i}`, db(s.users.hog, { op: 'insert', table: 'notes', scope: mine, values: hundred(i * 100) })),
    );
    await vi.waitFor(() => expect(waiting()[hog]).toBe(5), { timeout: 60_000, interval: 5 });
    const otherWrite = track('other write', db(s.users.other, { op: 'insert', table: 'notes', scope: mine, values: note(0) }));
    await vi.waitFor(() => expect(waiting()[other]).toBe(1), { timeout: 60_000, interval: 5 });
    // A read waits for the transaction in progress, then is charged in a transaction of its own.
    const otherRead = track('other read', db(s.users.other, { op: 'select', table: 'notes', scope: mine }));
    // From the hog's release on.
    granted.length = 0;
    await release();
    await Promise.all([...hogWrites, otherRead, otherWrite]);
    // Turns alternate between the two: the other's write, queued behind five of the hog's, goes first
    // (first come, first served it would be sixth); its read, charged in a turn of its own, before the
    // hog's last write (its request reaches the database whenever the socket delivers it).
    expect(granted[0], granted.join(', ')).toBe(other);
    expect(finished.indexOf('other read'), finished.join(', ')).toBeLessThan(finished.indexOf('hog write 4'));
    expect(finished.filter(name => name.startsWith('hog'))).toEqual(['hog write 0', 'hog write 1', 'hog write 2', 'hog write 3', 'hog write 4']);
  }, 120_000);

  it('GET /healthz over a socket is answered while a bulk write runs, not after it', async () => {
    await warm();
    const release = await holdTurn('test');
    const finished: string[] = [];
    // A batch of many statements (one multi-row insert is a single statement, over before a socket is read).
    const operations = Array.from({ length: 20 }, (_, i) => ({
      op: 'insert',
      table: 'notes',
      scope: mine,
      values: hundred(1000 + i * 10).slice(0, 10),
    }));
    const bulk = s.users.hog.post('/v1/db/batch', { operations }).then(answer => {
      expect(answer.status).toBe(200);
      finished.push('bulk write');
    });
    await vi.waitFor(() => expect(waiting()[`person:${s.users.hog.id}`]).toBe(1), { timeout: 30_000, interval: 5 });
    // The bulk write's transaction starts now; /healthz arrives on the socket while it runs.
    await release();
    const health = fetch(`${ctx.url}/healthz`).then(answer => {
      expect(answer.status).toBe(200);
      finished.push('healthz');
    });
    await Promise.all([bulk, health]);
    expect(finished).toEqual(['healthz', 'bulk write']);
  }, 120_000);

  it('one call writes at most ROWS_MAX_WRITES_PER_CALL rows (200 here): past it, 400 too_many_rows and nothing changes', async () => {
    const count = async () => (await db(s.users.other, { op: 'select', table: 'notes', scope: mine, limit: 200 })).body.rows.length;
    const before = await count();
    // Its inserts alone are too many: refused before anything runs.
    const inserts = await s.users.other.post('/v1/db/batch', {
      operations: [0, 100, 200].map(from => ({ op: 'insert', table: 'notes', scope: mine, values: hundred(from) })),
    });
    expect(inserts.status).toBe(400);
    expect(inserts.body.error).toBe('too_many_rows');
    expect(inserts.body.message).toContain('at most 200 (ROWS_MAX_WRITES_PER_CALL');
    // Within it on their own, over it with what a filter matches: refused once matched, the inserts undone.
    const mixed = await s.users.other.post('/v1/db/batch', {
      operations: [
        { op: 'insert', table: 'notes', scope: mine, values: hundred(300) },
        { op: 'insert', table: 'notes', scope: mine, values: hundred(400) },
        { op: 'update', table: 'notes', scope: mine, where: { pinned: false }, values: { pinned: true } },
      ],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toBe('too_many_rows');
    expect(await count()).toBe(before);
    // 200 rows in one call pass.
    const full = await s.users.other.post('/v1/db/batch', {
      operations: [0, 100].map(from => ({ op: 'insert', table: 'notes', scope: mine, values: hundred(500 + from) })),
    });
    expect(full.status).toBe(200);
  }, 120_000);
});
