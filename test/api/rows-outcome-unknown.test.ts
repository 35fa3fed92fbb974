/**
 * A one-statement write whose answer is lost with its database connection (src/db/outcome.ts):
 * it may have committed, so the call answers 503 `outcome_unknown` and never takes the transaction
 * path after it, which would write the row (and charge it) a second time. The books stay exact: the
 * charge the statement recorded is the one the ledger holds. PostgreSQL only: a proxy in front of it
 * loses the answer (test/helpers/cut-proxy.ts).
 */
import { describe, expect } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { type CutProxy, cutProxy } from '../helpers/cut-proxy.js';
import { createPostgresScratchDatabase, postgresTestUrl } from '../helpers/db.js';
import { appTest } from '../helpers/fixtures.js';
import { chargeCount } from '../helpers/ledger.js';
import { type RowsSeed, db, developerBooks, inResource, rowsSeed, warmedProject } from './rows.fixture.js';
import { insertBatches } from '../../src/rows/row-fast-insert-batch.service.js';
import { turnBatching } from '../../src/rows/row-turn-batch.service.js';

const pgUrl = await postgresTestUrl();
let proxy: CutProxy;

const it = appTest<RowsSeed>({
  users: ['alice', 'carol'],
  seed: rowsSeed,
  database: async () => {
    const scratch = await createPostgresScratchDatabase();
    proxy = await cutProxy(scratch.url);
    const database = await openDatabase({ databaseUrl: proxy.url });
    return {
      ...database,
      close: async () => {
        await database.close();
        await proxy.close();
        await scratch.drop();
      },
    };
  },
}).extend('project', ({ s }) => warmedProject(s.users.alice, s.users.carol, 'Lost answers'));

describe.runIf(pgUrl)('a one-statement write whose answer is lost, on PostgreSQL', () => {
  it('an insert: 503 outcome_unknown, its row there once and charged once, the books exact', async ({ ctx, s, project }) => {
    const { carol } = s.users;
    const prisma = ctx.database.prisma;
    const rows = (title: string) => prisma.row.count({ where: { resourceId: project, data: { path: ['title'], equals: title } } });
    const charges = () => chargeCount(prisma, { actorId: carol.id, kind: 'charge:rows.insert' });
    const before = { books: await developerBooks(ctx, s.developerId), charges: await charges() };
    // The books' closing of leases sends the next insert to the transaction path: warm again.
    expect((await db(carol, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 'rewarm' } })).status).toBe(200);

    const cut = proxy.cutAfter('answer lost');
    const lost = await db(carol, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 'answer lost' } });
    await cut;
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect(lost.body).toMatchObject({ error: 'outcome_unknown' });
    expect(lost.body.message).toMatch(/may or may not have been applied/);
    // The statement committed before its connection was cut, and nothing wrote it again.
    expect(await rows('answer lost')).toBe(1);

    // The next write is answered (the lane's connection replaced), and the books hold both inserts' charges, each once.
    expect((await db(carol, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 'after' } })).status).toBe(200);
    expect(await charges()).toBe(before.charges + 3);
    const after = await developerBooks(ctx, s.developerId);
    expect(before.books.balance - after.balance).toBe(before.books.ledger - after.ledger);
  });

  it('inserts sent together, their answer lost: each 503 outcome_unknown, each row there once', async ({ ctx, s, project }) => {
    const { carol } = s.users;
    const prisma = ctx.database.prisma;
    const before = { ...insertBatches };
    const cut = proxy.cutAfter('lost together');
    // Sent together even with nothing in flight before them.
    turnBatching.everyCall = true;
    const answers = await Promise.all(
      ['lost together', 'lost with it'].map(title => db(carol, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title } })),
    ).finally(() => {
      turnBatching.everyCall = false;
    });
    await cut;
    expect(insertBatches.calls - before.calls).toBe(2);
    for (const answer of answers) expect(answer.body).toMatchObject({ error: 'outcome_unknown' });
    for (const title of ['lost together', 'lost with it'])
      expect(await prisma.row.count({ where: { resourceId: project, data: { path: ['title'], equals: title } } })).toBe(1);
  });

  it('an update by filter: 503 outcome_unknown, applied once, never retried', async ({ ctx, s, project }) => {
    const { carol } = s.users;
    const prisma = ctx.database.prisma;
    const scope = inResource(project);
    expect((await db(carol, { scope, table: 'tasks', op: 'insert', values: { title: 'to update', priority: 1 } })).status).toBe(200);
    const updates = () => chargeCount(prisma, { actorId: carol.id, kind: 'charge:rows.update' });
    const before = await updates();
    const cut = proxy.cutAfter('updated, answer lost');
    const lost = await db(carol, { scope, table: 'tasks', op: 'update', where: { title: 'to update' }, values: { title: 'updated, answer lost' } });
    await cut;
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect(lost.body).toMatchObject({ error: 'outcome_unknown' });
    expect(await prisma.row.count({ where: { resourceId: project, data: { path: ['title'], equals: 'updated, answer lost' } } })).toBe(1);
    expect(await updates()).toBe(before + 1);
  });
});
