/**
 * The typed SQL layer (src/db/sql.ts) on both stores and its three executors: the fast path
 * (`db.sql`), a driver transaction (`db.sqlTransaction`) and a Prisma transaction (`sqlOf(tx)`).
 * Every path reads values one way (timestamps as Dates, int8 as bigint, as Prisma does) and counts
 * the rows a write changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { type Sql, sql, sqlOf } from '../../src/db/sql.js';
import { createPostgresTestDatabase, createTestDatabase, POSTGRES_SKIP_REASON, postgresTestUrl } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/sql] ${POSTGRES_SKIP_REASON}`);

const AT = new Date('2026-03-01T12:34:56.789Z');

function layerContract(name: string, create: () => Promise<Database>) {
  describe(`the SQL layer on ${name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await create();
      await db.prisma.developer.create({ data: { id: 'dev_sql', email: 'sql@example.test', createdAt: AT } });
      await db.prisma.wallet.create({ data: { holderId: 'dev_sql', balanceMicros: 9_007_199_254_740_993n } });
    });
    afterAll(() => db?.close());

    /** Every executor, each running `work` its own way. */
    const paths: [string, <T>(work: (sql: Sql) => Promise<T>) => Promise<T>][] = [
      ['the fast path', work => work(db.sql)],
      ['a driver transaction', work => db.sqlTransaction(tx => work(tx))],
      ['a Prisma transaction', work => db.transaction(tx => work(sqlOf(tx)))],
      ['the Prisma client', work => work(sqlOf(db.prisma))],
    ];

    it.each(paths)('%s: reads timestamps as the UTC Dates Prisma stores and int8 as bigint, whatever the time zone', async (_path, run) => {
      const zone = process.env.TZ;
      process.env.TZ = 'Pacific/Auckland';
      try {
        const read = await run(db =>
          db
            .selectFrom('developers as d')
            .innerJoin('wallets as w', 'w.holder_id', 'd.id')
            .select(['d.created_at', 'w.balance_micros', sql<boolean>`d.created_at = ${AT}`.as('same'), sql<number>`1::int`.as('one')])
            .where('d.id', '=', 'dev_sql')
            .executeTakeFirstOrThrow(),
        );
        expect(read).toEqual({ created_at: AT, balance_micros: 9_007_199_254_740_993n, same: true, one: 1 });
      } finally {
        process.env.TZ = zone;
      }
    });

    it.each(paths)('%s: counts the rows a write changed, and returns the rows it asked for', async (_path, run) => {
      const updated = await run(db =>
        db.updateTable('developers').set({ created_at: AT }).where('id', 'in', ['dev_sql', 'dev_none']).executeTakeFirst(),
      );
      expect(updated.numUpdatedRows).toBe(1n);
      const returned = await run(db =>
        db.updateTable('wallets').set({ updated_at: AT }).where('holder_id', '=', 'dev_sql').returning(['holder_id', 'updated_at']).execute(),
      );
      expect(returned).toEqual([{ holder_id: 'dev_sql', updated_at: AT }]);
      expect((await db.prisma.wallet.findUniqueOrThrow({ where: { holderId: 'dev_sql' } })).updatedAt).toEqual(AT);
    });

    it('a driver transaction commits when its callback resolves and rolls back when it throws', async () => {
      const insert = (tx: Sql, id: string) =>
        tx
          .insertInto('developers')
          .values({ id, email: `${id}@example.test` })
          .execute();
      await db.sqlTransaction(tx => insert(tx, 'dev_kept'));
      await expect(
        db.sqlTransaction(async tx => {
          await insert(tx, 'dev_gone');
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const ids = await db.sql.selectFrom('developers').select('id').where('id', 'in', ['dev_kept', 'dev_gone']).execute();
      expect(ids).toEqual([{ id: 'dev_kept' }]);
    });

    it('a Prisma transaction rolls back the statements of `sqlOf(tx)` with its own', async () => {
      await expect(
        db.transaction(async tx => {
          await sqlOf(tx).insertInto('developers').values({ id: 'dev_mixed', email: 'mixed@example.test' }).execute();
          await tx.app.create({ data: { id: 'app_mixed', name: 'mixed', developerId: 'dev_mixed' } });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await db.prisma.developer.findUnique({ where: { id: 'dev_mixed' } })).toBeNull();
    });

    it("refuses Kysely's own transactions: the store's queueing and timeouts live in db.sqlTransaction", async () => {
      await expect(db.sql.transaction().execute(async () => 1)).rejects.toThrow(/sqlTransaction/);
    });

    it('answers the same statement many times at once, each with its own rows', async () => {
      const ids = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'dev_sql' : 'dev_kept'));
      const rows = await Promise.all(ids.map(id => db.sql.selectFrom('developers').select('id').where('id', '=', id).executeTakeFirstOrThrow()));
      expect(rows.map(row => row.id)).toEqual(ids);
    });
  });
}

layerContract('PGlite', createTestDatabase);

describe.skipIf(!pgUrl)('PostgreSQL', () => {
  layerContract('PostgreSQL', createPostgresTestDatabase);
});
