/**
 * The batch statements' one parameter (src/rows/row-batch.sql.ts): each call's arguments by
 * position, read back by the statement as its columns `i`, in their types, on both stores: text
 * with quotes, backslashes, commas, braces and odd unicode, arrays of such text, JSON values,
 * int8 beyond 2^53, timestamps, booleans, and nulls where a kind has fewer arguments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { rowsOf, sql } from '../../src/db/sql.js';
import { type BatchColumn, batchCalls, batchCallsJson } from '../../src/rows/row-batch.sql.js';
import { createPostgresTestDatabase, createTestDatabase, POSTGRES_SKIP_REASON, postgresTestUrl } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/batch-calls] ${POSTGRES_SKIP_REASON}`);

const COLUMNS = [
  ['name', 'text'],
  ['roles', 'text[]'],
  ['data', 'jsonb'],
  ['amount', 'bigint'],
  ['at', 'timestamp(3)'],
  ['flag', 'boolean'],
] as const satisfies readonly BatchColumn[];

const ODD = `a "quoted", {braced} \\ back\\slash, comma; NUL-free 𝒰 é\u200d👩‍💻 \u2028 end`;

function roundTrip(name: string, create: () => Promise<Database>) {
  describe(`batch calls on ${name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await create();
    });
    afterAll(() => db?.close());

    it('reads every call back as it was sent, in order, numbered from 0', async () => {
      const calls = [
        [
          ODD,
          [ODD, 'owner', '', 'NULL', '{x}'],
          { nested: [ODD, 1, null, { deep: true }] },
          9_007_199_254_740_993n,
          '2026-03-01T12:34:56.789Z',
          true,
        ],
        ['plain', [], [1, 'two'], -12n, new Date('2026-11-29T00:00:00.000Z'), false],
        // A kind with fewer arguments: the rest are null.
        ['short'],
        [null, null, null, null, null, null],
      ];
      const query = sql<Record<string, unknown>>`WITH ${batchCalls(COLUMNS, batchCallsJson(COLUMNS, calls))}
        SELECT i.n, i.name, i.roles, i.data, i.amount, i.at, i.flag FROM i ORDER BY i.n`;
      const rows = await rowsOf(db.sql, query);
      expect(rows).toEqual([
        {
          n: 0,
          name: ODD,
          roles: [ODD, 'owner', '', 'NULL', '{x}'],
          data: { nested: [ODD, 1, null, { deep: true }] },
          amount: 9_007_199_254_740_993n,
          at: new Date('2026-03-01T12:34:56.789Z'),
          flag: true,
        },
        { n: 1, name: 'plain', roles: [], data: [1, 'two'], amount: -12n, at: new Date('2026-11-29T00:00:00.000Z'), flag: false },
        { n: 2, name: 'short', roles: null, data: null, amount: null, at: null, flag: null },
        { n: 3, name: null, roles: null, data: null, amount: null, at: null, flag: null },
      ]);
    });

    it('a JSON column given as JSON text goes in as it is', async () => {
      const columns = [['rows', 'jsonb']] as const satisfies readonly BatchColumn[];
      const text = JSON.stringify([['id', { title: ODD }]]);
      const query = sql<{ rows: unknown }>`WITH ${batchCalls(columns, batchCallsJson(columns, [[text]], new Set(['rows'])))} SELECT i.rows FROM i`;
      expect(await rowsOf(db.sql, query)).toEqual([{ rows: [['id', { title: ODD }]] }]);
    });
  });
}

roundTrip('PGlite', createTestDatabase);

describe.skipIf(!pgUrl)('PostgreSQL', () => {
  roundTrip('PostgreSQL', createPostgresTestDatabase);
});
