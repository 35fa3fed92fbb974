/**
 * Interactive transactions under concurrency, on embedded PGlite (one connection, transactions
 * queued) and on PostgreSQL (a pool, row locks): callers write the same code for both.
 */
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { isDatabaseBusy } from '../../src/db/busy.js';
import { sql } from '../../src/db/sql.js';
import { sqlStateOf } from '../../src/db/sql-values.js';
import { createPostgresTestDatabase, createTestDatabase, POSTGRES_SKIP_REASON, postgresTestUrl } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/transactions] ${POSTGRES_SKIP_REASON}`);

const CONCURRENCY = 30;
const DEPLOYMENT = 'dep_counter';

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** A deployment row whose `version` the tests use as a shared counter. */
async function seedCounter(db: Database): Promise<void> {
  await db.prisma.developer.upsert({ where: { id: 'dev_tx' }, create: { id: 'dev_tx', email: 'tx@example.test' }, update: {} });
  await db.prisma.app.upsert({ where: { id: 'app_tx' }, create: { id: 'app_tx', name: 'tx', developerId: 'dev_tx' }, update: {} });
  await db.prisma.deployment.upsert({
    where: { id: DEPLOYMENT },
    create: { id: DEPLOYMENT, appId: 'app_tx', env: 'prod', schema: {}, version: 0 },
    update: { version: 0 },
  });
}

async function counter(db: Database): Promise<number> {
  return (await db.prisma.deployment.findUniqueOrThrow({ where: { id: DEPLOYMENT } })).version;
}

function transactionContract(name: string, create: () => Promise<Database>) {
  describe(`transactions on ${name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await create();
    });
    afterAll(() => db?.close());
    beforeEach(() => seedCounter(db));

    it(`runs ${CONCURRENCY} concurrent read-then-write transactions without lost updates, rolling back the ones that throw`, async () => {
      const results = await Promise.allSettled(
        Array.from({ length: CONCURRENCY }, (_, i) =>
          db.transaction(async tx => {
            // FOR UPDATE makes the read-then-write safe on PostgreSQL's pool too.
            const [row] = await tx.$queryRaw<{ version: number }[]>`
              SELECT version FROM deployments WHERE id = ${DEPLOYMENT} FOR UPDATE`;
            await tx.deployment.update({ where: { id: DEPLOYMENT }, data: { version: row.version + 1 } });
            if (i % 5 === 4) throw new Error(`planned failure ${i}`);
            return i;
          }),
        ),
      );
      const failures = results.flatMap(r => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
      const planned = Array.from({ length: CONCURRENCY }, (_, i) => i).filter(i => i % 5 === 4);
      expect(failures.sort()).toEqual(planned.map(i => `planned failure ${i}`).sort());
      expect(await counter(db)).toBe(CONCURRENCY - planned.length);
    });

    it('rolls back every write of a transaction that throws', async () => {
      await expect(
        db.transaction(async tx => {
          await tx.developer.create({ data: { id: 'dev_rolled_back', email: 'gone@example.test' } });
          await tx.deployment.update({ where: { id: DEPLOYMENT }, data: { version: 99 } });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await db.prisma.developer.findUnique({ where: { id: 'dev_rolled_back' } })).toBeNull();
      expect(await counter(db)).toBe(0);
    });

    it('keeps serving plain queries while transactions run', async () => {
      const work = Array.from({ length: CONCURRENCY }, (_, i) =>
        i % 2 === 0
          ? db.transaction(async tx => {
              const row = await tx.deployment.findUniqueOrThrow({ where: { id: DEPLOYMENT } });
              await tx.deployment.update({ where: { id: DEPLOYMENT }, data: { version: { increment: 1 } } });
              return row.version;
            })
          : db.prisma.deployment.count(),
      );
      await Promise.all(work);
      expect(await counter(db)).toBe(CONCURRENCY / 2);
    });

    it(`sqlTransaction: ${CONCURRENCY} concurrent read-then-write transactions, no lost updates, the throwing ones rolled back`, async () => {
      const results = await Promise.allSettled(
        Array.from({ length: CONCURRENCY }, (_, i) =>
          db.sqlTransaction(async tx => {
            const row = await tx.selectFrom('deployments').select('version').where('id', '=', DEPLOYMENT).forUpdate().executeTakeFirstOrThrow();
            await tx
              .updateTable('deployments')
              .set({ version: row.version + 1 })
              .where('id', '=', DEPLOYMENT)
              .execute();
            if (i % 5 === 4) throw new Error(`planned failure ${i}`);
            return i;
          }),
        ),
      );
      const failures = results.flatMap(r => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
      expect(failures).toHaveLength(CONCURRENCY / 5);
      expect(await counter(db)).toBe(CONCURRENCY - CONCURRENCY / 5);
    });

    it('sqlTransaction: timestamps go in and come back as the UTC instants Prisma stores, whatever the process time zone', async () => {
      const zone = process.env.TZ;
      process.env.TZ = 'Pacific/Auckland';
      try {
        const at = new Date('2026-03-01T12:34:56.789Z');
        await db.prisma.developer.create({ data: { id: 'dev_tz', email: 'tz@example.test', createdAt: at } });
        const read = await db.sqlTransaction(tx =>
          tx
            .selectFrom('developers')
            .select(['created_at', sql<boolean>`created_at = ${at}`.as('same')])
            .where('id', '=', 'dev_tz')
            .executeTakeFirst(),
        );
        expect(read).toEqual({ created_at: at, same: true });
        const later = new Date(at.getTime() + 1000);
        await db.sqlTransaction(tx => tx.updateTable('developers').set({ created_at: later }).where('id', '=', 'dev_tz').execute());
        expect((await db.prisma.developer.findUniqueOrThrow({ where: { id: 'dev_tz' } })).createdAt).toEqual(later);
      } finally {
        process.env.TZ = zone;
        await db.prisma.developer.deleteMany({ where: { id: 'dev_tz' } });
      }
    });

    it("sqlTransaction: a failed statement's SQLSTATE is readable, and the connection is usable afterwards", async () => {
      const failed = await db
        .sqlTransaction(tx => tx.insertInto('apps').values({ id: 'app_orphan', name: 'orphan', developer_id: 'dev_missing' }).execute())
        .catch((error: unknown) => error);
      expect(sqlStateOf(failed)).toBe('23503');
      expect(await db.sqlTransaction(async tx => (await sql<{ n: number }>`SELECT 1::int AS n`.execute(tx)).rows)).toEqual([{ n: 1 }]);
    });

    it('supports $transaction on the client directly (batch and interactive)', async () => {
      const [count] = await db.prisma.$transaction([db.prisma.deployment.count(), db.prisma.app.count()]);
      expect(count).toBe(1);
      const versions = await Promise.all(
        Array.from({ length: 10 }, () =>
          db.prisma.$transaction(tx => tx.deployment.update({ where: { id: DEPLOYMENT }, data: { version: { increment: 1 } } })),
        ),
      );
      expect(versions.map(v => v.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });
  });
}

transactionContract('PGlite', createTestDatabase);

describe.skipIf(!pgUrl)('PostgreSQL', () => {
  transactionContract('PostgreSQL', createPostgresTestDatabase);

  it('sqlTransaction: a statement waiting on a lock past the transaction timeout fails as busy and rolls back', async () => {
    const db = await createPostgresTestDatabase({ transactionTimeoutMs: 200 });
    try {
      await seedCounter(db);
      const holder = db.transaction(
        async tx => {
          await tx.$queryRaw`SELECT id FROM deployments WHERE id = ${DEPLOYMENT} FOR UPDATE`;
          await sleep(600);
        },
        { timeout: 5_000 },
      );
      await sleep(50);
      const waiting = await db
        .sqlTransaction(async tx => {
          await tx.updateTable('deployments').set({ version: 7 }).where('id', '=', DEPLOYMENT).execute();
        })
        .catch((error: unknown) => error);
      expect(isDatabaseBusy(waiting)).toBe(true);
      await holder;
      expect(await counter(db)).toBe(0);
    } finally {
      await db.close();
    }
  });

  describe('sqlTransaction: BEGIN and the timeout travel with the first statement', () => {
    let db: Database;
    beforeAll(async () => {
      // One connection: the statements outside a transaction run where it ran.
      db = await createPostgresTestDatabase({ transactionTimeoutMs: 1234, poolSize: 1 });
      await seedCounter(db);
    });
    afterAll(() => db?.close());

    /** The socket writes `work` makes: Node flushes a socket through `_write`, or `_writev` once uncorked. */
    async function socketWrites<T>(work: () => Promise<T>): Promise<{ result: T; writes: number }> {
      const socket = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
      const { _write, _writev } = socket;
      let writes = 0;
      socket._write = function (this: unknown, ...args: unknown[]) {
        writes++;
        _write.apply(this, args);
      };
      socket._writev = function (this: unknown, ...args: unknown[]) {
        writes++;
        _writev.apply(this, args);
      };
      try {
        return { result: await work(), writes };
      } finally {
        socket._write = _write;
        socket._writev = _writev;
      }
    }

    const outside = async () =>
      (await db.query<{ pid: number; timeout: string }>('SELECT pg_backend_pid() AS pid, current_setting($1) AS timeout', ['statement_timeout']))[0];

    it("reports the first statement's rows and row count, not the prelude's", async () => {
      for (let i = 0; i < 2; i++) {
        expect(await db.sqlTransaction(tx => tx.$queryRaw`SELECT id, version FROM deployments WHERE id = ${DEPLOYMENT}`)).toEqual([
          { id: DEPLOYMENT, version: i },
        ]);
        expect(await db.sqlTransaction(tx => tx.$executeRaw`UPDATE deployments SET version = version + 1 WHERE id = ${DEPLOYMENT}`)).toBe(1);
      }
      expect(
        await db.sqlTransaction(
          async tx => (await tx.updateTable('deployments').set({ version: 0 }).where('id', '=', DEPLOYMENT).executeTakeFirst()).numUpdatedRows,
        ),
      ).toBe(1n);
    });

    it('bounds the statements inside the transaction by its timeout, and only them', async () => {
      const before = await outside();
      expect(before.timeout).not.toBe('1234ms');
      const inside = await db.sqlTransaction(async tx => {
        const [first] = await tx.$queryRaw<{ statement_timeout: string }[]>`SHOW statement_timeout`;
        const [second] = await tx.$queryRaw<
          { pid: number; timeout: string }[]
        >`SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout`;
        return { first, second };
      });
      expect(inside.first).toEqual({ statement_timeout: '1234ms' });
      expect(inside.second).toEqual({ pid: before.pid, timeout: '1234ms' });
      expect(await outside()).toEqual(before);
    });

    it('rolls back when the first statement fails, on the server or before it is sent, and the connection goes on', async () => {
      const before = await outside();
      const orphan = await db
        .sqlTransaction(tx => tx.insertInto('apps').values({ id: 'app_orphan', name: 'orphan', developer_id: 'dev_missing' }).execute())
        .catch((error: unknown) => error);
      expect(sqlStateOf(orphan)).toBe('23503');
      expect(await outside()).toEqual(before);
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const version = await counter(db);
      // A first statement refused before it is sent still opens the transaction: what follows is rolled back with it.
      await expect(
        db.sqlTransaction(async tx => {
          await expect(tx.$executeRaw`UPDATE deployments SET schema = ${circular}::jsonb WHERE id = ${DEPLOYMENT}`).rejects.toThrow(/circular/i);
          await tx.$executeRaw`UPDATE deployments SET version = 99 WHERE id = ${DEPLOYMENT}`;
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await counter(db)).toBe(version);
      expect(await outside()).toEqual(before);
      expect(await db.sqlTransaction(tx => tx.$executeRaw`UPDATE deployments SET version = 5 WHERE id = ${DEPLOYMENT}`)).toBe(1);
      expect(await counter(db)).toBe(5);
    });

    it('a callback that runs no statement sends nothing, whether it returns or throws', async () => {
      await outside();
      expect(await socketWrites(() => db.sqlTransaction(async () => 'nothing'))).toEqual({ result: 'nothing', writes: 0 });
      const thrown = await socketWrites(() =>
        db.sqlTransaction(() => Promise.reject(new Error('before any statement'))).catch((error: Error) => error.message),
      );
      expect(thrown).toEqual({ result: 'before any statement', writes: 0 });
      expect((await outside()).timeout).not.toBe('1234ms');
    });

    it('costs one socket write for the first statement with its BEGIN, and one for COMMIT', async () => {
      await outside();
      const one = await socketWrites(() => db.sqlTransaction(tx => tx.$queryRaw`SELECT version FROM deployments WHERE id = ${DEPLOYMENT}`));
      expect(one.writes).toBe(2);
      const two = await socketWrites(() =>
        db.sqlTransaction(async tx => {
          await tx.$queryRaw`SELECT version FROM deployments WHERE id = ${DEPLOYMENT} FOR UPDATE`;
          return tx.$executeRaw`UPDATE deployments SET version = version + 1 WHERE id = ${DEPLOYMENT}`;
        }),
      );
      expect(two).toEqual({ result: 1, writes: 3 });
    });
  });

  it('FOR UPDATE makes a second transaction wait for the first', async () => {
    const db = await createPostgresTestDatabase();
    try {
      await seedCounter(db);
      const order: string[] = [];
      const first = db.transaction(async tx => {
        await tx.$queryRaw`SELECT id FROM deployments WHERE id = ${DEPLOYMENT} FOR UPDATE`;
        order.push('first locked');
        await sleep(300);
        order.push('first done');
      });
      await sleep(100);
      const second = db.transaction(async tx => {
        await tx.$queryRaw`SELECT id FROM deployments WHERE id = ${DEPLOYMENT} FOR UPDATE`;
        order.push('second locked');
      });
      await Promise.all([first, second]);
      expect(order).toEqual(['first locked', 'first done', 'second locked']);
    } finally {
      await db.close();
    }
  });
});

describe('transactions on PGlite (single connection)', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    await seedCounter(db);
  });
  afterAll(() => db?.close());

  it('queue behind a long transaction instead of failing their maxWait', async () => {
    const long = db.transaction(async tx => {
      await tx.deployment.findUniqueOrThrow({ where: { id: DEPLOYMENT } });
      await sleep(500);
      return 'long';
    });
    const queued = db.transaction(async tx => (await tx.deployment.count(), 'queued'), { maxWait: 100 });
    await expect(Promise.all([long, queued])).resolves.toEqual(['long', 'queued']);
  });

  it('does not let a callback that outlives its timeout hold up the queue', async () => {
    const slow = db.transaction(
      async tx => {
        await tx.deployment.count();
        await sleep(1_500);
        return tx.deployment.count();
      },
      { timeout: 200 },
    );
    const started = Date.now();
    const next = await db.transaction(async tx => tx.deployment.count());
    expect(next).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(slow).rejects.toThrow(/Transaction|transaction/);
  });

  it('fails fast when the outer client is used inside a transaction (it would deadlock)', async () => {
    const started = Date.now();
    await expect(db.transaction(async () => db.prisma.deployment.count())).rejects.toThrow(/Use the `tx` client/);
    expect(Date.now() - started).toBeLessThan(2_000);
    // The outer client works again once the transaction is over.
    expect(await db.prisma.deployment.count()).toBe(1);
  });

  it('refuses a nested db.transaction instead of deadlocking on the queue', async () => {
    await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toThrow(/inside another one/);
  });

  it('runs $queryRaw SELECT ... FOR UPDATE inside a transaction', async () => {
    const rows = await db.transaction(tx => tx.$queryRaw<{ id: string }[]>`SELECT id FROM deployments WHERE id = ${DEPLOYMENT} FOR UPDATE`);
    expect(rows).toEqual([{ id: DEPLOYMENT }]);
  });
});
