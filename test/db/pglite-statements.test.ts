/**
 * The embedded store's lean reads as named prepared statements (src/db/pglite-statements.ts): the
 * same rows as PGlite's own `query`, errors with their SQLSTATE and no state left behind, and never
 * inside another caller's open transaction.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../src/db/pglite-statements.js';
import { SQL_TYPE_PARSERS, sqlStateOf } from '../../src/db/sql-values.js';

/** The rows of one statement. */
const rowsOf =
  (prepared: ReturnType<typeof preparedQuery>) =>
  async <T = Record<string, unknown>>(text: string, values: readonly unknown[]): Promise<T[]> =>
    (await prepared(text, values)).rows as T[];

describe('prepared lean reads on PGlite', () => {
  let pglite: PGlite;
  let query: ReturnType<typeof rowsOf>;

  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec(`CREATE TABLE things (id text PRIMARY KEY, n int, flag boolean, at timestamp, doc jsonb);
      INSERT INTO things VALUES ('a', 1, true, '2026-01-02 03:04:05.678', '{"k":1}'), ('b', 2, false, NULL, NULL);`);
    query = rowsOf(preparedQuery(pglite, 3));
  });
  afterAll(() => pglite?.close());

  const sql = 'SELECT id, n, flag, at, doc FROM things WHERE (id = $1 OR n = $2) AND ($3::boolean IS NULL OR flag = $3) ORDER BY id';

  it('answers what PGlite.query answers, for every parameter kind, the first time and after', async () => {
    for (const params of [
      ['a', 2, null],
      ['x', 1, true],
      ['b', 0, false],
      ['a', 99n, true],
    ] as const) {
      const expected = (
        await pglite.query(
          sql,
          params.map(p => (typeof p === 'bigint' ? Number(p) : p)),
          { parsers: SQL_TYPE_PARSERS },
        )
      ).rows;
      expect(await query(sql, params)).toEqual(expected);
      expect(await query(sql, params)).toEqual(expected);
    }
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    expect(await query<{ id: string }>('SELECT id FROM things WHERE at = $1', [at])).toEqual([{ id: 'a' }]);
  });

  it('refuses a statement that does not parse, each time, and keeps working', async () => {
    for (let i = 0; i < 2; i++) {
      const error = await query('SELEC nothing', []).catch(e => e);
      expect(sqlStateOf(error)).toBe('42601');
    }
    expect(await query('SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });

  it('a value the statement refuses is an error with its SQLSTATE; the statement stays usable', async () => {
    const typed = 'SELECT id FROM things WHERE n = $1::int';
    expect(sqlStateOf(await query(typed, ['not a number']).catch(e => e))).toBe('22P02');
    expect(await query(typed, [2])).toEqual([{ id: 'b' }]);
  });

  it('values without a plain text form, and texts past the cap, go through PGlite.query', async () => {
    expect(await query<{ id: string }>('SELECT id FROM things WHERE doc @> $1::jsonb', [{ k: 1 }])).toEqual([{ id: 'a' }]);
    for (let i = 0; i < 5; i++) expect(await query(`SELECT ${i} AS i`, [])).toEqual([{ i }]);
  });

  it('reads timestamps as UTC Dates and int8 as bigint, and counts the rows a write changed', async () => {
    expect(await query('SELECT at, 7::int8 AS big FROM things WHERE id = $1', ['a'])).toEqual([
      { at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), big: 7n },
    ]);
    const prepared = preparedQuery(pglite);
    expect((await prepared('UPDATE things SET n = n WHERE id = ANY($1::text[])', [['a', 'b']])).count).toBe(2);
  });

  it('waits for an open transaction instead of reading inside it', async () => {
    const fresh = rowsOf(preparedQuery(pglite)); // its own statements: the cap above must not send this one through PGlite.query
    let commit!: () => void;
    const held = new Promise<void>(resolve => (commit = resolve));
    const transaction = pglite.transaction(async tx => {
      await tx.query("INSERT INTO things (id, n) VALUES ('c', 3)");
      await held;
    });
    try {
      await new Promise(resolve => setTimeout(resolve, 20));
      let read: { id: string }[] | undefined;
      const reading = fresh<{ id: string }>('SELECT id FROM things WHERE n = $1', [3]).then(rows => (read = rows));
      await new Promise(resolve => setTimeout(resolve, 50));
      expect(read).toBeUndefined();
      commit();
      await transaction;
      await reading;
      expect(read).toEqual([{ id: 'c' }]);
    } finally {
      commit();
      await transaction;
    }
  });
});
