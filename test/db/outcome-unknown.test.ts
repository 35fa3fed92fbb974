/**
 * A write whose answer is lost with its connection (src/db/outcome.ts): once its statement (or its
 * transaction's COMMIT) was sent, it may have committed, so it fails with OutcomeUnknownError and
 * is never taken for nothing written. A refusal by the server, a read, and a statement never sent
 * keep their own errors. A proxy in front of PostgreSQL loses the answer (test/helpers/cut-proxy.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/db/outcome.js';
import type { Database } from '../../src/db/database.js';
import { postgresDatabase } from '../../src/db/postgres.js';
import { sql } from '../../src/db/sql.js';
import { type CutProxy, cutProxy } from '../helpers/cut-proxy.js';
import { POSTGRES_SKIP_REASON, createPostgresScratchDatabase, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/outcome-unknown] ${POSTGRES_SKIP_REASON}`);

describe.runIf(pgUrl)('a lost answer on PostgreSQL', () => {
  let scratch: ScratchPostgresDatabase;
  let proxy: CutProxy;
  let database: Database;
  let direct: pg.Client;

  beforeAll(async () => {
    scratch = await createPostgresScratchDatabase();
    direct = new pg.Client({ connectionString: scratch.url });
    await direct.connect();
    await direct.query('CREATE TABLE items (id text PRIMARY KEY)');
    proxy = await cutProxy(scratch.url);
    database = postgresDatabase(proxy.url, { poolSize: 2, readConnections: 1, writeConnections: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await direct?.end();
    await proxy?.close();
    await scratch?.drop();
  });

  const stored = async (id: string) => (await direct.query('SELECT id FROM items WHERE id = $1', [id])).rowCount;
  const insert = (on: Database['sql'], id: string) => sql`INSERT INTO items (id) VALUES (${id})`.execute(on);

  it.each([
    ['a one-statement write on the write lane', 'lane-write', () => database.sqlWrites],
    ['a write outside transactions on the pool', 'pool-write', () => database.sql],
  ])('%s, committed and its answer lost: OutcomeUnknownError, the row there once', async (_, id, on) => {
    const cut = proxy.cutAfter(id);
    await expect(insert(on(), id)).rejects.toBeInstanceOf(OutcomeUnknownError);
    await cut;
    expect(await stored(id)).toBe(1);
    // The connection is replaced: the next write is answered.
    await insert(on(), `${id}-next`);
    expect(await stored(`${id}-next`)).toBe(1);
  });

  it('a write lost before the server saw it: the same error, since the client cannot tell', async () => {
    const cut = proxy.cutAfter('never-arrived', { drop: true });
    await expect(insert(database.sqlWrites, 'never-arrived')).rejects.toBeInstanceOf(OutcomeUnknownError);
    await cut;
    expect(await stored('never-arrived')).toBe(0);
  });

  /** A transaction of each kind that inserts `id`: a driver transaction, and Prisma's interactive one. */
  const transactions = [
    ['a driver transaction', (id: string) => database.sqlTransaction(async tx => void (await tx.$executeRaw`INSERT INTO items (id) VALUES (${id})`))],
    ['a Prisma transaction', (id: string) => database.transaction(async tx => void (await tx.$executeRaw`INSERT INTO items (id) VALUES (${id})`))],
  ] as const;

  it.each(transactions)('%s whose COMMIT is answered by a lost connection: OutcomeUnknownError, its write committed', async (kind, inserting) => {
    const id = `${kind} commit`;
    const cut = proxy.cutAfter('COMMIT');
    await expect(inserting(id)).rejects.toBeInstanceOf(OutcomeUnknownError);
    await cut;
    expect(await stored(id)).toBe(1);
  });

  it.each(transactions)('%s that loses its connection before COMMIT: not unknown (rolled back), nothing written', async (kind, inserting) => {
    const id = `${kind} before commit`;
    const cut = proxy.cutAfter(id);
    const error = await inserting(id).catch(failed => failed);
    await cut;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    expect(await stored(id)).toBe(0);
  });

  it('a read that loses its answer keeps its own error: it changed nothing', async () => {
    const cut = proxy.cutAfter('lost-read');
    const error = await sql`SELECT ${'lost-read'}::text AS marker`.execute(database.sql).catch(failed => failed);
    await cut;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
  });

  it("a write the server refuses keeps the server's error (its statement rolled back)", async () => {
    await insert(database.sqlWrites, 'taken');
    await expect(insert(database.sqlWrites, 'taken')).rejects.toMatchObject({ code: '23505' });
    await expect(insert(database.sql, 'taken')).rejects.toMatchObject({ code: '23505' });
  });

  it('a write whose connection never opened: not unknown, nothing was sent', async () => {
    const closed = await cutProxy(scratch.url);
    const unreachable = postgresDatabase(closed.url, { poolSize: 1, readConnections: 0, writeConnections: 0, transactionMaxWaitMs: 2_000 });
    await closed.close();
    try {
      const error = await insert(unreachable.sql, 'unreachable').catch(failed => failed);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    } finally {
      await unreachable.close();
    }
  });
});
