/**
 * A database wait that runs out is overload, not a bug: 503 `busy` with Retry-After (REST) or
 * extensions `{ code: 'busy', status: 503, details: { retryAfter } }` (GraphQL), never 500.
 * The waits are forced with tiny DATABASE_TX_MAX_WAIT_MS values and a held lock or transaction.
 */
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { isDatabaseBusy } from '../../src/db/busy.js';
import { sql } from '../../src/db/sql.js';
import { describeError } from '../../src/http/error-responses.js';
import { type Client, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';
import { createPostgresScratchDatabase, pgliteTemplate, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const BUSY = { status: 503, code: 'busy', details: { retryAfter: 1 }, headers: { 'retry-after': '1' } };

describe('embedded database: a transaction past its timeout', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://', loadDataDir: await pgliteTemplate(), migrate: false, transactionTimeoutMs: 50 });
  });
  afterAll(() => db.close());

  it('is rolled back and described as busy, and the next transaction runs', async () => {
    const failed = await db
      .transaction(async tx => {
        await tx.$executeRaw`CREATE TEMP TABLE busy_probe (n int)`;
        await new Promise(resolve => setTimeout(resolve, 200));
        await tx.$queryRaw`SELECT 1`;
      })
      .catch((error: unknown) => error);
    expect(isDatabaseBusy(failed)).toBe(true);
    expect(describeError(failed)).toMatchObject(BUSY);
    // Rolled back: the table created inside it does not exist.
    const [{ exists }] = await db.transaction(tx => tx.$queryRaw<{ exists: boolean }[]>`SELECT to_regclass('busy_probe') IS NOT NULL AS exists`, {
      timeout: 10_000,
    });
    expect(exists).toBe(false);
  });

  it('a transaction that never stops issuing statements is stopped at its timeout, as busy (its statements let timers run)', async () => {
    const endless = await db
      .transaction(async tx => {
        for (;;) await tx.$queryRaw`SELECT 1`;
      })
      .catch((error: unknown) => error);
    expect(describeError(endless)).toMatchObject(BUSY);
  });
});

describe('PostgreSQL: a connection that does not connect in time', () => {
  it('is busy, not a failure, on every path (a loaded server or machine connects slowly)', async () => {
    // A server that accepts the TCP connection and never answers: connecting outlasts the wait.
    const silent = net.createServer(() => {}).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const db = await openDatabase({ databaseUrl: `postgres://nobody@127.0.0.1:${port}/none`, migrate: false, transactionMaxWaitMs: 50 });
    try {
      const failures = await Promise.all([
        db.query('SELECT 1').catch((error: unknown) => error),
        // A plain read: the read lane's own connection (src/db/pg-lanes.ts).
        db.sql
          .selectNoFrom(sql<number>`1`.as('one'))
          .execute()
          .catch((error: unknown) => error),
        db.prisma.$queryRaw`SELECT 1`.catch((error: unknown) => error),
        db.transaction(tx => tx.$queryRaw`SELECT 1`).catch((error: unknown) => error),
        db.sqlTransaction(tx => tx.$queryRaw`SELECT 1`).catch((error: unknown) => error),
      ]);
      for (const failure of failures) expect(describeError(failure)).toMatchObject(BUSY);
    } finally {
      await db.close();
      silent.close();
    }
  });
});

const postgresUrl = await postgresTestUrl();

describe.skipIf(!postgresUrl)('PostgreSQL: waits for a pooled connection', () => {
  let scratch: ScratchPostgresDatabase;
  let setup: TestContext;
  let ctx: TestContext;
  let owner: Client;
  let resourceId: string;
  let invitees: { id: string }[];
  let locker: pg.Client;

  beforeAll(async () => {
    scratch = await createPostgresScratchDatabase();
    // Everything before the test runs on an app with the default waits: with the test's tight ones
    // a loaded machine could fail the setup itself with busy.
    setup = await startTestApp({ database: await openDatabase({ databaseUrl: scratch.url }) });
    const s = await seed(setup, ['owner']);
    resourceId = await createResource(s.users.owner, 'team', 'Locked');
    invitees = [];
    for (let i = 0; i < 9; i++) invitees.push(await s.user(`locked-${i}`));
    // The app under test, on the same database: two connections that give up after 300 ms, so two
    // blocked transactions saturate the pool.
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2, transactionMaxWaitMs: 300, migrate: false });
    ctx = await startTestApp({ database });
    owner = ctx.client(s.users.owner.token);
    locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await ctx?.close();
    await setup?.close();
    await scratch?.drop();
  });

  it('answers requests that cannot get a connection in time with 503 busy and Retry-After, never 500', async () => {
    const id = resourceId;
    // Outside the pool, hold the resource row every invite locks first: the pool's two
    // connections end up waiting on it and everything else waits for them.
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM resources WHERE id = $1 FOR UPDATE', [id]);
    const pending = invitees.slice(1).map(u => owner.post(`/v1/resources/${id}/invite`, { userId: u.id }));
    const viaGraphql = owner.gql('mutation($r: ID!, $u: ID!) { invite(resourceId: $r, userId: $u) { state } }', { r: id, u: invitees[0].id });
    // Every request beyond the two holding connections has failed (it waited 300 ms) by the time
    // one of them answers; then the lock is released so the two blocked ones can finish.
    const firstAnswer = await Promise.race(pending);
    await locker.query('ROLLBACK');
    const results = await Promise.all(pending);

    expect(firstAnswer.status).toBe(503);
    expect(results.map(r => r.status).filter(status => status !== 200 && status !== 503)).toEqual([]);
    const refused = results.filter(r => r.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(results.length - 2);
    for (const r of refused) {
      expect(r.body).toMatchObject({ error: 'busy', retryAfter: 1 });
      expect(r.body.message).toMatch(/busy/);
    }
    const graphql = await viaGraphql;
    if (graphql.errors) {
      expect(graphql.errors[0].extensions).toMatchObject({ code: 'busy', status: 503, details: { retryAfter: 1 } });
    }
    // Nothing half-done: exactly the successful invites are stored.
    const stored = await setup.database.prisma.membership.count({ where: { resourceId: id, state: 'invited' } });
    expect(stored).toBe(results.filter(r => r.status === 200).length + (graphql.errors ? 0 : 1));
    // The REST shim writes ErrorShape.headers.
    expect(refused.map(r => r.headers.get('retry-after'))).toEqual(refused.map(() => '1'));
  });
});
