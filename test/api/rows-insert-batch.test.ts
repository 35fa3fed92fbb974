/**
 * The one-statement inserts of one event-loop turn sent as one statement
 * (src/rows/row-fast-insert-batch.service.ts): each call keeps its own gates, answer, rows and
 * charge; a call refused in a batch changes nothing and is answered as alone; a batch the database
 * refuses sends each insert alone, so one insert's failure is never another's. Both stores.
 */
import { describe, expect } from 'vitest';
import { type TestContext, addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { chargeCount } from '../helpers/ledger.js';
import { MAX_BATCHED_ROWS, insertBatches, insertInTurn } from '../../src/rows/row-fast-insert-batch.service.js';
import { newRowId } from '../../src/rows/row-id.service.js';
import {
  type RowsSeed,
  db,
  developerBooks,
  inResource,
  rowsSeed,
  holdingLocks,
  onSlowTimeout as slowTimeout,
  batchingEveryCall,
  twoProjects,
} from './rows.fixture.js';

const available = await backends();
batchingEveryCall();
const onBackend = appTestOn<RowsSeed>(available, { users: ['alice', 'bob', 'carol'], seed: rowsSeed });

/** The two projects (twoProjects), each writer's inserts warmed. */
const projects = ({ s }: { s: RowsSeed }) => twoProjects({ s }, [{ title: 'warm' }, { title: 'warmer' }]);

const titled = (title: string) => ({ data: { path: ['title'], equals: title } });

/** The unmetered one-statement insert's arguments for a row of `title` by `me` into `resourceId`'s tasks (row-fast-insert.sql.ts). */
async function insertArgs(ctx: TestContext, me: string, resourceId: string, title: string, id = newRowId()) {
  const { deploymentId } = await ctx.database.prisma.resource.findUniqueOrThrow({ where: { id: resourceId } });
  return [
    resourceId,
    deploymentId,
    'project',
    me,
    ['owner', 'admin', 'writer'],
    'tasks',
    new Date().toISOString(),
    JSON.stringify([[id, { title }]]),
  ] as const;
}

describe.each(available)('inserts sent together on $name', backend => {
  const it = onBackend(backend).extend('projects', projects);

  it('two callers into two resources at once: batched, each call its own answer, rows and one charge; the books exact', async ({
    ctx,
    s,
    projects,
  }) => {
    const { bob, carol } = s.users;
    const prisma = ctx.database.prisma;
    const charges = (actorId: string) => chargeCount(prisma, { actorId, kind: 'charge:rows.insert' });
    const books = await developerBooks(ctx, s.developerId);
    const before = { carol: await charges(carol.id), bob: await charges(bob.id) };
    // The books closed the leases: a warm-up insert each opens and sees the next. Nothing between it
    // and the calls: a lease idle for a moment closes, and calls without one take the transaction path.
    for (const [as, id] of [
      [carol, projects.shared],
      [bob, projects.own],
    ] as const)
      expect((await db(as, { scope: inResource(id), table: 'tasks', op: 'insert', values: { title: 'rewarm' } })).status).toBe(200);
    const batchesBefore = { ...insertBatches };

    const calls = Array.from({ length: 24 }, (_, i) => {
      const [as, id] = i % 2 ? [carol, projects.shared] : [bob, projects.own];
      return db(as, { scope: inResource(id), table: 'tasks', op: 'insert', values: [{ title: `together ${i}` }, { title: `together ${i} too` }] });
    });
    const answers = await Promise.all(calls);

    expect(insertBatches.statements).toBeGreaterThan(batchesBefore.statements);
    // /metrics counts them (this process's totals).
    const metrics = await (await ctx.fetch('/metrics')).text();
    expect(metrics).toContain(`gatehouse_row_insert_batches_total ${insertBatches.statements}\n`);
    expect(metrics).toContain(`gatehouse_row_inserts_batched_total ${insertBatches.calls}\n`);
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      // Its own rows, in its order, and no other call's.
      expect(answer.body.rows.map((row: { title: string }) => row.title)).toEqual([`together ${i}`, `together ${i} too`]);
      const resourceId = i % 2 ? projects.shared : projects.own;
      expect(await prisma.row.count({ where: { resourceId, ...titled(`together ${i}`) } })).toBe(1);
    }
    // The warm-up's, then the calls'.
    expect(await charges(carol.id)).toBe(before.carol + 1 + 12);
    expect(await charges(bob.id)).toBe(before.bob + 1 + 12);
    const after = await developerBooks(ctx, s.developerId);
    expect(books.balance - after.balance).toBe(books.ledger - after.ledger);
  });

  it('a call its role does not admit, in a batch: 403 as alone, nothing written or charged; the others written', async ({ ctx, s, projects }) => {
    const { bob, carol } = s.users;
    const prisma = ctx.database.prisma;
    const bobsCharges = await chargeCount(prisma, { actorId: bob.id, kind: 'charge:rows.insert' });
    // A read makes the resource known to bob's calls: his insert then takes the one statement too, which refuses it.
    expect((await db(bob, { scope: inResource(projects.shared), table: 'tasks', op: 'select' })).status).toBe(200);
    const before = { ...insertBatches };
    const answers = await Promise.all([
      db(carol, { scope: inResource(projects.shared), table: 'tasks', op: 'insert', values: { title: 'writer first' } }),
      // bob reads alice's project only: the create rule wants a writer.
      db(bob, { scope: inResource(projects.shared), table: 'tasks', op: 'insert', values: { title: 'as reader' } }),
      db(carol, { scope: inResource(projects.shared), table: 'tasks', op: 'insert', values: { title: 'writer second' } }),
    ]);
    expect(insertBatches.calls - before.calls).toBe(3);
    expect(answers.map(answer => answer.status)).toEqual([200, 403, 200]);
    expect(answers[1].body.error).toBe('access_denied');
    expect(await prisma.row.count({ where: titled('as reader') })).toBe(0);
    expect(await chargeCount(prisma, { actorId: bob.id, kind: 'charge:rows.insert' })).toBe(bobsCharges);
    for (const title of ['writer first', 'writer second']) expect(await prisma.row.count({ where: titled(title) })).toBe(1);
  });

  it('an insert whose text PostgreSQL refuses (a NUL) goes alone: the batch is not refused for it, and the others are written', async ({
    ctx,
    s,
    projects,
  }) => {
    const { carol } = s.users;
    const insert = (title: string) => db(carol, { scope: inResource(projects.shared), table: 'tasks', op: 'insert', values: { title } });
    const before = { ...insertBatches };
    const answers = await Promise.all([insert('before the nul'), insert('nul \u0000 byte'), insert('after the nul')]);
    expect(answers.map(answer => answer.status)).toEqual([200, 400, 200]);
    expect(insertBatches.refused).toBe(before.refused);
    expect(insertBatches.calls - before.calls).toBe(2);
    for (const title of ['before the nul', 'after the nul']) expect(await ctx.database.prisma.row.count({ where: titled(title) })).toBe(1);
  });

  it('an insert of more rows than a batch takes goes alone: the others batched, every row written once', async ({ ctx, s, projects }) => {
    const { carol } = s.users;
    const prisma = ctx.database.prisma;
    const insert = (values: { title: string }[]) => db(carol, { scope: inResource(projects.shared), table: 'tasks', op: 'insert', values });
    const many = Array.from({ length: MAX_BATCHED_ROWS + 1 }, (_, i) => ({ title: `many ${i}` }));
    const before = { ...insertBatches };
    const answers = await Promise.all([insert([{ title: 'one' }]), insert(many), insert([{ title: 'another' }])]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(insertBatches.calls - before.calls).toBe(2);
    for (const { title } of [{ title: 'one' }, ...many, { title: 'another' }]) expect(await prisma.row.count({ where: titled(title) })).toBe(1);
  });

  it('a batch the database refuses: each insert runs alone, the refused one fails with its own error, the others are written', async ({
    ctx,
    s,
    projects,
  }) => {
    const prisma = ctx.database.prisma;
    const carol = s.users.carol.id;
    const items = [
      await insertArgs(ctx, carol, projects.shared, 'alone first'),
      await insertArgs(ctx, carol, projects.shared, 'refused', 'not-a-uuid'),
      await insertArgs(ctx, carol, projects.shared, 'alone second'),
    ];
    const db = ctx.database.sqlWrites;
    const before = { ...insertBatches };
    // In one turn: the middle one's row id is no uuid, which PostgreSQL refuses (22P02) for the whole statement.
    const answers = await Promise.allSettled(items.map(args => insertInTurn(db, 'unmetered', args, 1)));
    expect(insertBatches.statements).toBe(before.statements + 1);
    expect(insertBatches.refused).toBe(before.refused + 1);
    expect(answers[0]).toMatchObject({ status: 'fulfilled', value: { admitted: true, inserted: 1 } });
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: { code: '22P02' } });
    expect(answers[2]).toMatchObject({ status: 'fulfilled', value: { admitted: true, inserted: 1 } });
    for (const [title, count] of [
      ['alone first', 1],
      ['refused', 0],
      ['alone second', 1],
    ] as const)
      expect(await prisma.row.count({ where: titled(title) })).toBe(count);
  });
});

const onSlowTimeout = slowTimeout.extend('projects', projects);

describe.runIf(available.some(backend => backend.name === 'postgres'))('a batch and a lock on PostgreSQL', () => {
  onSlowTimeout(
    'one insert’s resource locked by a transition in flight: the batch does not wait, the other insert is answered at once, that one once the lock goes',
    async ({ ctx, s, projects }) => {
      const { alice, carol } = s.users;
      const prisma = ctx.database.prisma;
      const other = await createResource(alice, 'project', 'Other');
      await addMember(alice, carol, other, 'writer');
      // What a membership transition holds while it runs: its resource FOR UPDATE.
      const transition = await holdingLocks(prisma, Prisma.sql`SELECT id FROM resources WHERE id = ${other} FOR UPDATE`);
      const before = { ...insertBatches };
      // carol's inserts into both projects in one turn: one batch.
      const items = [await insertArgs(ctx, carol.id, projects.shared, 'not held up'), await insertArgs(ctx, carol.id, other, 'waits its turn')];
      const [free, held] = items.map(args => insertInTurn(ctx.database.sqlWrites, 'unmetered', args, 1));
      try {
        expect(await free).toMatchObject({ admitted: true, inserted: 1 });
        expect(insertBatches.calls - before.calls).toBe(2);
        expect(insertBatches.refused - before.refused).toBe(1);
        // The other still waits on the lock, alone.
        expect(await prisma.row.count({ where: titled('waits its turn') })).toBe(0);
      } finally {
        await transition.release();
      }
      expect(await held).toMatchObject({ admitted: true, inserted: 1 });
      for (const title of ['not held up', 'waits its turn']) expect(await prisma.row.count({ where: titled(title) })).toBe(1);
    },
  );
  onSlowTimeout(
    'the lease locked as a closing holds it: the batch is refused at once, not waited, and its inserts are answered alone once the lock goes',
    async ({ ctx, s, projects }) => {
      const { carol } = s.users;
      const prisma = ctx.database.prisma;
      const insert = (title: string) => db(carol, { scope: inResource(projects.shared), table: 'tasks', op: 'insert', values: { title } });
      expect((await insert('lease seen')).status).toBe(200);
      // What closing a holder's leases holds while it runs: the open leases FOR UPDATE.
      const closing = await holdingLocks(prisma, Prisma.sql`SELECT id FROM wallet_leases WHERE closed_at IS NULL FOR UPDATE`);
      const before = { ...insertBatches };
      const answers = Promise.all([insert('behind a closing'), insert('behind it too')]);
      try {
        // Refused at once: its inserts then wait, each alone, for the lease.
        await expect.poll(() => insertBatches.refused - before.refused, { timeout: 30_000 }).toBe(1);
        expect(insertBatches.calls - before.calls).toBe(2);
      } finally {
        await closing.release();
      }
      for (const answer of await answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      for (const title of ['behind a closing', 'behind it too']) expect(await prisma.row.count({ where: titled(title) })).toBe(1);
    },
  );
});
