/**
 * The SQL layer's statements on PostgreSQL (src/db/pg-statements.ts): the rows `pool.query` returns (with the layer's parsers), a
 * statement described once per connection, and every failure answered once, with the connection
 * left usable or replaced.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrepared } from '../../src/db/pg-statements.js';
import { SQL_TYPE_PARSERS } from '../../src/db/sql-values.js';

const leanQuery = async <T = Record<string, unknown>>(on: pg.Pool, statement: string, text: string, values: readonly unknown[]): Promise<T[]> =>
  (await runPrepared(on, statement, text, values, SQL_TYPE_PARSERS)).rows as T[];
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    SQL_TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
import { POSTGRES_SKIP_REASON, createPostgresScratchDatabase, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/pg-statements] ${POSTGRES_SKIP_REASON}`);

describe.skipIf(!pgUrl)('prepared statements on PostgreSQL', () => {
  let scratch: ScratchPostgresDatabase;
  let pool: pg.Pool;
  let statements = 0;
  const name = () => `lean_test_${statements++}`;

  beforeAll(async () => {
    scratch = await createPostgresScratchDatabase();
    pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    pool.on('error', () => {});
    await pool.query(`CREATE TABLE items (id text PRIMARY KEY, n int, x float8, ok boolean, at timestamp, doc jsonb, tags text[])`);
    await pool.query(
      `INSERT INTO items VALUES ('a', 1, 1.5, true, '2026-01-02 03:04:05.678', '{"k":[1,2]}', '{x,y}'), ('b', NULL, NULL, NULL, NULL, NULL, NULL)`,
    );
  });
  afterAll(async () => {
    await pool?.end();
    await scratch?.drop();
  });

  it.each<[string, string, unknown[]]>([
    ['every column kind, a row with values and one of nulls', 'SELECT * FROM items WHERE id = ANY($1) ORDER BY id', [['a', 'b']]],
    [
      'computed columns and a Date parameter',
      'SELECT $1::timestamptz AS t, (extract(epoch FROM $1::timestamptz) * 1000)::float8 AS ms, $2::int + 1 AS n',
      [new Date(Date.UTC(2026, 0, 2)), 41],
    ],
    ['an object parameter, sent as JSON', `SELECT $1::jsonb -> 'a' AS a`, [{ a: { b: [true, null] } }]],
    ['no rows', 'SELECT id FROM items WHERE id = $1', ['none']],
    ['a write that returns its row', `UPDATE items SET n = n WHERE id = $1 RETURNING id, n`, ['a']],
    [
      'int8 and arrays of text with quotes, commas and NULL',
      `SELECT 9007199254740993::int8 AS big, $1::text[] AS list`,
      [['a"b', 'c,d', null, 'e\\f']],
    ],
  ])('returns what pool.query returns: %s', async (_why, text, values) => {
    const statement = name();
    const expected = (await pool.query({ name: `${statement}_pg`, text, values, types })).rows;
    // Twice: the second run uses the kept description.
    for (let i = 0; i < 2; i++) expect(await leanQuery(pool, statement, text, values)).toEqual(expected);
  });

  it('describes a statement once per connection', async () => {
    const single = new pg.Pool({ connectionString: scratch.url, max: 1 });
    try {
      let describes = 0;
      const client = await single.connect();
      const connection = (client as unknown as { connection: { describe(message: unknown): void } }).connection;
      const describe = connection.describe.bind(connection);
      connection.describe = message => {
        describes++;
        describe(message);
      };
      client.release();
      const statement = name();
      for (let i = 0; i < 5; i++)
        expect(await leanQuery(single, statement, 'SELECT id, n FROM items WHERE id = $1', ['a'])).toEqual([{ id: 'a', n: 1 }]);
      expect(describes).toBe(1);
    } finally {
      await single.end();
    }
  });

  it('answers a statement that does not parse with its SQLSTATE, each time, and goes on', async () => {
    const statement = name();
    for (let i = 0; i < 2; i++) {
      await expect(leanQuery(pool, statement, 'SELEC id FROM items', [])).rejects.toMatchObject({ code: '42601' });
    }
    expect(await leanQuery(pool, name(), 'SELECT count(*)::int AS n FROM items', [])).toEqual([{ n: 2 }]);
  });

  it('answers an error while executing, and the statement runs again afterwards', async () => {
    const statement = name();
    const text = 'SELECT 10 / $1::int AS q';
    expect(await leanQuery(pool, statement, text, [5])).toEqual([{ q: 2 }]);
    await expect(leanQuery(pool, statement, text, [0])).rejects.toMatchObject({ code: '22012' });
    expect(await leanQuery(pool, statement, text, [2])).toEqual([{ q: 5 }]);
  });

  it('refuses a value that cannot be sent, without losing the connection', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(leanQuery(pool, name(), 'SELECT $1::jsonb AS j', [circular])).rejects.toThrow();
    expect(await leanQuery(pool, name(), 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });

  it('answers a connection that dies mid-query, and the pool replaces it', async () => {
    const statement = name();
    // Settled at once: it fails while the next statement is still running.
    const pending = leanQuery(pool, statement, 'SELECT pg_sleep(5) AS slept', []).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise(resolve => setTimeout(resolve, 200));
    await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)%' AND pid <> pg_backend_pid()`);
    expect(await pending).toMatchObject({ code: '57P01' });
    expect(await leanQuery(pool, statement, 'SELECT 1 AS one', []).catch(() => leanQuery(pool, name(), 'SELECT 1 AS one', []))).toEqual([{ one: 1 }]);
  });

  it('counts the rows a write changed, and runs unnamed statements (parsed every time)', async () => {
    expect((await runPrepared(pool, name(), 'UPDATE items SET n = n WHERE id = ANY($1)', [['a', 'b']], SQL_TYPE_PARSERS)).count).toBe(2);
    for (let i = 0; i < 2; i++)
      expect(await leanQuery(pool, '', 'SELECT $1::int AS n, $2::timestamp AS at', [i, new Date(Date.UTC(2026, 0, 2))])).toEqual([
        { n: i, at: new Date(Date.UTC(2026, 0, 2)) },
      ]);
  });

  it("runs a prelude in the statement's write and answers with the statement's rows and count only, or the prelude's error", async () => {
    const client = await pool.connect();
    try {
      const prelude = ['BEGIN', 'SET LOCAL statement_timeout = 4321'];
      for (const statement of [name(), '']) {
        for (let i = 0; i < 2; i++) {
          // The first run of a named statement describes it, the second uses the kept description.
          const result = await runPrepared(
            client,
            statement,
            `SELECT id, current_setting('statement_timeout') AS t FROM items ORDER BY id`,
            [],
            SQL_TYPE_PARSERS,
            { prelude },
          );
          expect(result).toEqual({
            rows: [
              { id: 'a', t: '4321ms' },
              { id: 'b', t: '4321ms' },
            ],
            count: 2,
          });
          await client.query('ROLLBACK');
        }
      }
      const write = await runPrepared(client, name(), 'UPDATE items SET n = n WHERE id = $1', ['a'], SQL_TYPE_PARSERS, { prelude });
      expect(write).toEqual({ rows: [], count: 1 });
      await client.query('COMMIT');

      const statement = name();
      const text = 'SELECT 1 AS one';
      await expect(
        runPrepared(client, statement, text, [], SQL_TYPE_PARSERS, { prelude: ['BEGIN', 'SET LOCAL statement_timeout = banana'] }),
      ).rejects.toMatchObject({
        code: '22023',
      });
      await client.query('ROLLBACK');
      // The statement was skipped with the rest of the write: it is parsed on its next run.
      expect(await runPrepared(client, statement, text, [], SQL_TYPE_PARSERS)).toEqual({ rows: [{ one: 1 }], count: 1 });
      expect((await client.query('SHOW statement_timeout')).rows[0].statement_timeout).not.toBe('4321ms');
    } finally {
      client.release();
    }
  });

  it('keeps rows apart under concurrency on every connection', async () => {
    const statement = name();
    const ids = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'a' : 'b'));
    const rows = await Promise.all(ids.map(id => leanQuery<{ id: string }>(pool, statement, 'SELECT id FROM items WHERE id = $1', [id])));
    expect(rows.map(([row]) => row.id)).toEqual(ids);
  });
});
