/**
 * Statements on pipelined connections (src/db/pg-lanes.ts): which statements the read lane takes,
 * each statement's own answer when many share a connection and a write, failures answered one by
 * one, a lost connection replaced, a statement timeout ending a write's lock wait, and the Database
 * sending its plain reads and its one-statement writes to their lanes (or not, with 0).
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { READ_LANE_APPLICATION, STALLED_MS, WRITE_LANE_APPLICATION, createLane, isPlainRead } from '../../src/db/pg-lanes.js';
import { postgresDatabase } from '../../src/db/postgres.js';
import { sql, sqlOver } from '../../src/db/sql.js';
import { SQL_TYPE_PARSERS } from '../../src/db/sql-values.js';
import { POSTGRES_SKIP_REASON, createPostgresScratchDatabase, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/pg-lanes] ${POSTGRES_SKIP_REASON}`);

describe('which statements the read lane carries', () => {
  const db = sqlOver(() => Promise.reject(new Error('compile only')));
  it.each([
    ['a SELECT', db.selectFrom('resources').select('id').where('id', '=', 'x'), true],
    [
      'a SELECT with a join and a UNION',
      db
        .selectFrom('resources as r')
        .innerJoin('memberships as m', 'm.resource_id', 'r.id')
        .select('r.id')
        .union(db.selectFrom('resources').select('id')),
      true,
    ],
    ['a SELECT ... FOR UPDATE (waits on row locks)', db.selectFrom('resources').select('id').forUpdate(), false],
    ['a SELECT ... FOR KEY SHARE', db.selectFrom('resources').select('id').forKeyShare(), false],
    [
      'a SELECT with a CTE (which may write)',
      db
        .with('x', q => q.selectFrom('resources').select('id'))
        .selectFrom('x')
        .select('id'),
      false,
    ],
    ['an INSERT', db.insertInto('resources').values({ id: 'x' } as never), false],
    ['an UPDATE', db.updateTable('resources').set({ name: 'x' }), false],
    ['a DELETE', db.deleteFrom('resources'), false],
    ['raw SQL that begins with SELECT', sql`SELECT id FROM resources WHERE id = ${'x'}`, true],
    ['raw SQL that begins with SELECT and locks its rows', sql`SELECT id FROM resources WHERE id = ${'x'} FOR NO KEY UPDATE`, false],
    ['raw SQL that locks rows in a subquery', sql`SELECT * FROM (SELECT id FROM resources FOR KEY SHARE) AS r`, false],
    ['raw SQL that takes an advisory lock (may wait)', sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${'k'}, 0))`, false],
    ['raw SQL that tries a session-level advisory lock (would outlive it)', sql`SELECT pg_try_advisory_lock(${1})`, false],
    ['raw SQL that begins with WITH (which may write)', sql`WITH x AS (DELETE FROM resources RETURNING id) SELECT id FROM x`, false],
    ['raw SQL that writes', sql`UPDATE resources SET name = ${'x'}`, false],
    ['raw SQL whose value looks like a locking clause (a parameter, not text)', sql`SELECT id FROM resources WHERE name = ${'for update'}`, true],
  ])('%s: %s', (_name, query, plain) => {
    expect(isPlainRead(query.compile(db).sql)).toBe(plain);
  });
});

describe.skipIf(!pgUrl)('the lanes on PostgreSQL', () => {
  let scratch: ScratchPostgresDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    scratch = await createPostgresScratchDatabase();
    pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    pool.on('error', () => {});
    await pool.query('CREATE TABLE items (id int PRIMARY KEY, n int)');
    await pool.query('INSERT INTO items SELECT i, i * 10 FROM generate_series(1, 50) i');
  });
  afterAll(async () => {
    await pool?.end();
    await scratch?.drop();
  });

  // Unless a test is about it, no connection counts as held up (a loaded machine can stall a turn).
  function lane(size = 2, stalledMs = 60_000, statementTimeoutMs?: number) {
    const errors: Error[] = [];
    const opened = createLane(scratch.url, {
      application: READ_LANE_APPLICATION,
      size,
      connectTimeoutMs: 5_000,
      statementTimeoutMs,
      stalledMs,
      onError: error => errors.push(error),
    });
    onTestFinished(() => opened.close());
    return Object.assign(opened, { errors });
  }
  const read = (on: ReturnType<typeof lane>, statement: string, text: string, values: unknown[]) => {
    const answer = on.run(statement, text, values, SQL_TYPE_PARSERS);
    if (!answer) throw new Error('the lane handed the statement to the pool');
    return answer.then(result => result.rows);
  };
  /** Cancels the test's sleeping statement, once PostgreSQL shows it running (on a loaded machine it may not have arrived yet). */
  async function cancelSleeps() {
    for (let tries = 0; tries < 100; tries++) {
      const { rowCount } = await pool.query(
        `SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND state = 'active' AND datname = current_database() AND pid <> pg_backend_pid()`,
      );
      if (rowCount) return;
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    throw new Error('the sleeping statement never showed in pg_stat_activity');
  }

  it("answers each of a burst with its own rows, on no more connections than its size, a turn's statements in one socket write", async () => {
    const reads = lane(2);
    // Both connections opened first: the second opens when the first is busy.
    await Promise.all([1, 2].map(id => read(reads, 'item', 'SELECT id, n FROM items WHERE id = $1', [id])));
    expect(reads.usage()).toMatchObject({ max: 2, open: 2 });
    let flushes = 0;
    const write = net.Socket.prototype._write;
    const writev = net.Socket.prototype._writev!;
    net.Socket.prototype._write = function (...args) {
      flushes++;
      return write.apply(this, args);
    };
    net.Socket.prototype._writev = function (...args) {
      flushes++;
      return writev.apply(this, args);
    };
    onTestFinished(() => {
      net.Socket.prototype._write = write;
      net.Socket.prototype._writev = writev;
    });
    const ids = Array.from({ length: 200 }, (_, i) => (i % 50) + 1);
    const rows = await Promise.all(ids.map(id => read(reads, 'item', 'SELECT id, n FROM items WHERE id = $1', [id])));
    expect(rows).toEqual(ids.map(id => [{ id, n: id * 10 }]));
    expect(reads.usage()).toMatchObject({ max: 2, open: 2, idle: 2 });
    // Sent in one event-loop turn: one write per connection, not one per statement.
    expect(flushes).toBeLessThanOrEqual(2);
  });

  it('answers a failing statement with its error and the statements pipelined around it with their rows', async () => {
    const reads = lane(1);
    const divided = await Promise.all(
      [5, 0, 2, 0, 1].map(by =>
        read(reads, 'divide', 'SELECT 10 / $1::int AS q', [by]).then(
          rows => rows[0],
          (error: { code?: string }) => error.code,
        ),
      ),
    );
    expect(divided).toEqual([{ q: 2 }, '22012', { q: 5 }, '22012', { q: 10 }]);
    // A statement that does not parse, first on a fresh connection and again: its error each time, and the next statement runs.
    const results = await Promise.allSettled([
      read(reads, 'bad', 'SELEC 1', []),
      read(reads, 'bad', 'SELEC 1', []),
      read(reads, 'good', 'SELECT count(*)::int AS n FROM items', []),
    ]);
    expect(results.map(result => (result.status === 'fulfilled' ? result.value : (result.reason as { code: string }).code))).toEqual([
      '42601',
      '42601',
      [{ n: 50 }],
    ]);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(read(reads, 'json', 'SELECT $1::jsonb AS j', [circular])).rejects.toThrow();
    expect(await read(reads, 'one', 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });

  it('fails the statements of a connection that dies, and opens another for the next', async () => {
    const reads = lane(1);
    expect(await read(reads, 'one', 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
    const sleeping = read(reads, 'sleep', 'SELECT pg_sleep(5) AS slept', []).then(
      () => null,
      (error: unknown) => error,
    );
    const behind = read(reads, 'one', 'SELECT 1 AS one', []).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise(resolve => setTimeout(resolve, 200));
    await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [
      READ_LANE_APPLICATION,
    ]);
    expect(await sleeping).toMatchObject({ code: '57P01' });
    expect(await behind).toBeInstanceOf(Error);
    expect(await read(reads, 'one', 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
    expect(reads.errors.length).toBeGreaterThan(0);
  });

  it("sends a slow statement's followers to the other connection", async () => {
    const reads = lane(2);
    let slowSettled = false;
    const slow = read(reads, 'sleep', 'SELECT pg_sleep(30) AS slept', []).finally(() => {
      slowSettled = true;
    });
    slow.catch(() => {});
    for (let i = 0; i < 5; i++) expect(await read(reads, 'one', 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
    // Queued behind the sleep, they would have waited for it to end.
    expect(slowSettled).toBe(false);
    await cancelSleeps();
    await expect(slow).rejects.toMatchObject({ code: '57014' });
  });

  it(`takes no more statements on a connection held up past ${STALLED_MS} ms: with none left, the pool's turn`, async () => {
    const reads = lane(1, STALLED_MS);
    const slow = read(reads, 'sleep', 'SELECT pg_sleep(30) AS slept', []);
    slow.catch(() => {});
    // Not held up yet: queued behind the sleep.
    const behind = read(reads, 'one', 'SELECT 1 AS one', []);
    await new Promise(resolve => setTimeout(resolve, STALLED_MS * 3));
    expect(reads.run('one', 'SELECT 1 AS one', [], SQL_TYPE_PARSERS)).toBeUndefined();
    await cancelSleeps();
    await expect(slow).rejects.toMatchObject({ code: '57014' });
    expect(await behind).toEqual([{ one: 1 }]);
    expect(await read(reads, 'one', 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });

  it('answers plain reads from the pool while a slow read holds up every read connection', async () => {
    const database = postgresDatabase(scratch.url, { poolSize: 2, readConnections: 1 });
    onTestFinished(() => database.close());
    let slowSettled = false;
    const slow = database.sql
      .selectNoFrom(sql<number>`pg_sleep(30)`.as('slept'))
      .execute()
      .finally(() => {
        slowSettled = true;
      });
    slow.catch(() => {});
    await new Promise(resolve => setTimeout(resolve, STALLED_MS * 3));
    const [row] = await database.sql
      .selectFrom('items' as never)
      .select(['n' as never])
      .where('id' as never, '=', 3 as never)
      .execute();
    expect(row).toEqual({ n: 30 });
    expect(slowSettled).toBe(false);
    await cancelSleeps();
    await expect(slow).rejects.toMatchObject({ code: '57014' });
  });

  it('refuses statements once closed', async () => {
    const reads = lane(1);
    expect(await read(reads, 'one', 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
    await reads.close();
    await expect(read(reads, 'one', 'SELECT 1 AS one', [])).rejects.toThrow(/closed/);
    expect(reads.usage().open).toBe(0);
  });

  it.each([
    [2, 1],
    [0, 0],
  ])('the Database with %i read connections sends its plain reads there (%i open) and its writes to the pool', async (readConnections, laneOpen) => {
    const database = postgresDatabase(scratch.url, { poolSize: 2, readConnections });
    onTestFinished(() => database.close());
    await database.sql
      .updateTable('items' as never)
      .set({ n: sql`n` } as never)
      .where('id' as never, '=', 1 as never)
      .execute();
    const [row] = await database.sql
      .selectFrom('items' as never)
      .select(['id' as never, 'n' as never])
      .where('id' as never, '=', 2 as never)
      .execute();
    expect(row).toEqual({ id: 2, n: 20 });
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [READ_LANE_APPLICATION],
    );
    expect(rows[0].n).toBe(laneOpen);
  });

  /** Holds `id`'s row locked FOR UPDATE in a pool transaction until the returned release is called. */
  async function lockRow(id: number): Promise<() => Promise<void>> {
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM items WHERE id = $1 FOR UPDATE', [id]);
    return async () => {
      await holder.query('ROLLBACK');
      holder.release();
    };
  }
  const waitingOnLocks = async () =>
    (
      await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
      )
    ).rows[0].n;

  it("ends a write's lock wait at the connection's statement timeout, and runs the statements queued behind it", async () => {
    const writes = lane(1, 60_000, 300);
    const release = await lockRow(7);
    onTestFinished(release);
    const started = performance.now();
    const blocked = read(writes, 'bump', 'UPDATE items SET n = n + 1 WHERE id = $1 RETURNING n', [7]);
    const behind = read(writes, 'bump', 'UPDATE items SET n = n + 1 WHERE id = $1 RETURNING n', [8]);
    await expect(blocked).rejects.toMatchObject({ code: '57014' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(await behind).toEqual([{ n: 81 }]);
    await pool.query('UPDATE items SET n = 80 WHERE id = 8');
  });

  it(`sends writes past one held up on a row lock for ${STALLED_MS} ms to the pool, and that one completes once the lock goes`, async () => {
    const database = postgresDatabase(scratch.url, { poolSize: 2, readConnections: 0, writeConnections: 1 });
    onTestFinished(() => database.close());
    const release = await lockRow(9);
    let releasedAt = 0;
    onTestFinished(() => (releasedAt ? undefined : release()));
    const bump = (id: number) =>
      database.sqlWrites
        .updateTable('items' as never)
        .set({ n: sql`n + 1` } as never)
        .where('id' as never, '=', id as never)
        .returning(['n' as never])
        .execute();
    let blockedAt = 0;
    const blocked = bump(9).then(rows => {
      blockedAt = performance.now();
      return rows;
    });
    for (let tries = 0; tries < 100 && (await waitingOnLocks()) === 0; tries++) await new Promise(resolve => setTimeout(resolve, 20));
    await new Promise(resolve => setTimeout(resolve, STALLED_MS * 2));
    // Its one connection held up, the next write is the pool's, and is not kept waiting behind it.
    expect(await bump(10)).toEqual([{ n: 101 }]);
    expect(blockedAt).toBe(0);
    releasedAt = performance.now();
    await release();
    expect(await blocked).toEqual([{ n: 91 }]);
    expect(blockedAt).toBeGreaterThanOrEqual(releasedAt);
    await pool.query('UPDATE items SET n = id * 10 WHERE id IN (9, 10)');
  });

  it.each([
    [2, 1],
    [0, 0],
  ])(
    'the Database with %i write connections sends its one-statement writes there (%i open), and `sql` its writes to the pool',
    async (writeConnections, laneOpen) => {
      const database = postgresDatabase(scratch.url, { poolSize: 2, readConnections: 0, writeConnections });
      onTestFinished(() => database.close());
      const [row] = await database.sqlWrites
        .updateTable('items' as never)
        .set({ n: sql`n` } as never)
        .where('id' as never, '=', 4 as never)
        .returning(['id' as never, 'n' as never])
        .execute();
      expect(row).toEqual({ id: 4, n: 40 });
      await database.sql
        .updateTable('items' as never)
        .set({ n: sql`n` } as never)
        .where('id' as never, '=', 5 as never)
        .execute();
      const { rows } = await pool.query<{ application_name: string; n: number }>(
        'SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE application_name = ANY($1) AND datname = current_database() GROUP BY 1',
        [[WRITE_LANE_APPLICATION, READ_LANE_APPLICATION]],
      );
      expect(rows).toEqual(laneOpen ? [{ application_name: WRITE_LANE_APPLICATION, n: laneOpen }] : []);
      expect(database.usage().max).toBe(2 + writeConnections);
    },
  );
});
