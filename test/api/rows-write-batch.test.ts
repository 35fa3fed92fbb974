/**
 * The one-statement updates, deletes and upserts of one event-loop turn sent as one statement
 * (src/rows/row-fast-write-batch.service.ts): each call keeps its own gates, answer, rows and
 * charge; two calls naming one row are applied in turn; a call refused in a batch changes nothing
 * and is answered as alone; a batch that meets a lock does not wait and sends each call alone.
 * Both stores, and a lock on PostgreSQL.
 */
import { describe, expect } from 'vitest';
import type { TestContext } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { chargeCount } from '../helpers/ledger.js';
import { writeBatches } from '../../src/rows/row-fast-write-batch.service.js';
import { turnBatching } from '../../src/rows/row-turn-batch.service.js';
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

type Caller = RowsSeed['users'][string];

/** Tasks `task 0` to `task 11` in each of the two projects (twoProjects). */
const projects = ({ s }: { s: RowsSeed }) =>
  twoProjects(
    { s },
    Array.from({ length: 12 }, (_, i) => ({ title: `task ${i}` })),
  );

const update = (as: Caller, resourceId: string, title: string, values: Record<string, unknown>) =>
  db(as, { scope: inResource(resourceId), table: 'tasks', op: 'update', where: { title }, values });

const task = (ctx: TestContext, resourceId: string, title: string) =>
  ctx.database.prisma.row.findMany({ where: { resourceId, data: { path: ['title'], equals: title } } });

describe.each(available)('updates, deletes and upserts sent together on $name', backend => {
  const it = onBackend(backend).extend('projects', projects);

  it('two callers’ updates in two resources at once: batched, each call its own row, answer and one charge; the books exact', async ({
    ctx,
    s,
    projects,
  }) => {
    const { bob, carol } = s.users;
    const prisma = ctx.database.prisma;
    const charges = (actorId: string) => chargeCount(prisma, { actorId, kind: 'charge:rows.update' });
    const books = await developerBooks(ctx, s.developerId);
    const before = { carol: await charges(carol.id), bob: await charges(bob.id) };
    // The books closed the leases: an update each opens one and sees it, as the one statement needs.
    // Nothing between it and the calls: a lease idle for a moment closes, and calls without one take
    // the transaction path.
    expect((await update(carol, projects.shared, 'task 11', { done: true })).status).toBe(200);
    expect((await update(bob, projects.own, 'task 10', { done: true })).status).toBe(200);
    const batchesBefore = { ...writeBatches };

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 ? update(carol, projects.shared, `task ${i}`, { priority: i }) : update(bob, projects.own, `task ${i}`, { priority: i }),
      ),
    );

    expect(writeBatches.statements).toBeGreaterThan(batchesBefore.statements);
    expect(writeBatches.calls - batchesBefore.calls).toBe(12);
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.rows).toEqual([expect.objectContaining({ title: `task ${i}`, priority: i })]);
      const rows = await task(ctx, i % 2 ? projects.shared : projects.own, `task ${i}`);
      expect(rows.map(row => (row.data as { priority?: number }).priority)).toEqual([i]);
      // The other resource's row of that title is not this call's.
      const other = await task(ctx, i % 2 ? projects.own : projects.shared, `task ${i}`);
      expect(other.map(row => (row.data as { priority?: number }).priority)).toEqual([undefined]);
    }
    // The warm-up's, then the calls'.
    expect(await charges(carol.id)).toBe(before.carol + 1 + 6);
    expect(await charges(bob.id)).toBe(before.bob + 1 + 6);
    // /metrics counts them (this process's totals).
    const metrics = await (await ctx.fetch('/metrics')).text();
    expect(metrics).toContain(`gatehouse_row_write_batches_total ${writeBatches.statements}\n`);
    expect(metrics).toContain(`gatehouse_row_writes_batched_total ${writeBatches.calls}\n`);
    const after = await developerBooks(ctx, s.developerId);
    expect(books.balance - after.balance).toBe(books.ledger - after.ledger);
  });

  it('as served: a write with nothing in flight is sent at once, alone; writes arriving while others are in flight go together', async ({
    ctx,
    s,
    projects,
  }) => {
    const { carol } = s.users;
    turnBatching.everyCall = false;
    try {
      const before = { ...writeBatches };
      expect((await update(carol, projects.shared, 'task 1', { priority: 1 })).status).toBe(200);
      expect(writeBatches.calls).toBe(before.calls);
      const odd = [3, 5, 7, 9, 11];
      const answers = await Promise.all([...odd, ...odd].map((i, n) => update(carol, projects.shared, `task ${i}`, { priority: i, estimate: n })));
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      // The first went alone, at once; the others waited for it and went together.
      expect(writeBatches.calls - before.calls).toBeGreaterThanOrEqual(2);
      expect(writeBatches.calls - before.calls).toBeLessThanOrEqual(9);
      for (const i of odd) expect((await task(ctx, projects.shared, `task ${i}`))[0].data).toMatchObject({ priority: i });
    } finally {
      turnBatching.everyCall = true;
    }
  });

  it('two updates of one row in one turn: both applied, the later after the batch and seeing the earlier', async ({ ctx, s, projects }) => {
    const { carol } = s.users;
    const before = { ...writeBatches };
    const answers = await Promise.all([
      update(carol, projects.shared, 'task 1', { priority: 7 }),
      update(carol, projects.shared, 'task 1', { estimate: 9 }),
      update(carol, projects.shared, 'task 3', { priority: 3 }),
    ]);
    expect(writeBatches.calls - before.calls).toBe(3);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // Without the rule, one UPDATE joined twice to the row applies one of the two values only.
    const [row] = await task(ctx, projects.shared, 'task 1');
    expect(row.data).toMatchObject({ priority: 7, estimate: '9' });
    // The one applied second saw the first: its answer holds both.
    const both = answers.slice(0, 2).filter(answer => answer.body.rows[0].priority === 7 && answer.body.rows[0].estimate === 9);
    expect(both).toHaveLength(1);
    expect(answers[2].body.rows).toEqual([expect.objectContaining({ title: 'task 3', priority: 3 })]);
  });

  it('filters whose values hold quotes, backslashes, commas, braces and odd unicode: answered by the batch itself, not refused', async ({
    ctx,
    s,
    projects,
  }) => {
    const { carol } = s.users;
    const odd = ['q"uote', 'back\\slash', 'com,ma', '{brace}', 'NULL', '', 'ünï ☃'];
    const before = { ...writeBatches };
    const answers = await Promise.all(
      [1, 3].map(i =>
        db(carol, {
          scope: inResource(projects.shared),
          table: 'tasks',
          op: 'update',
          where: { title: { in: [...odd, `task ${i}`] } },
          values: { priority: i },
        }),
      ),
    );
    expect(writeBatches.calls - before.calls).toBe(2);
    expect(writeBatches.refused).toBe(before.refused);
    for (const [n, i] of [1, 3].entries()) {
      expect(answers[n].body.rows).toEqual([expect.objectContaining({ title: `task ${i}`, priority: i })]);
      expect((await task(ctx, projects.shared, `task ${i}`))[0].data).toMatchObject({ priority: i });
    }
  });

  it('a call whose text PostgreSQL refuses (a NUL) goes alone: the batch is not refused for it, and the others are written', async ({
    ctx,
    s,
    projects,
  }) => {
    const { carol } = s.users;
    const before = { ...writeBatches };
    const answers = await Promise.all([
      update(carol, projects.shared, 'task 1', { priority: 1 }),
      update(carol, projects.shared, 'task 3', { title: 'nul \u0000 byte' }),
      update(carol, projects.shared, 'nul \u0000 byte', { priority: 5 }),
      update(carol, projects.shared, 'task 5', { priority: 5 }),
    ]);
    // Refused as alone, in a value and in a filter.
    expect(answers.map(answer => answer.status)).toEqual([200, 400, 400, 200]);
    expect(writeBatches.refused).toBe(before.refused);
    expect(writeBatches.calls - before.calls).toBe(2);
    for (const i of [1, 5]) expect((await task(ctx, projects.shared, `task ${i}`))[0].data).toMatchObject({ priority: i });
  });

  it('a call its role does not admit, in a batch: refused as alone, nothing changed or charged; the others written', async ({ ctx, s, projects }) => {
    const { bob, carol } = s.users;
    const prisma = ctx.database.prisma;
    const bobsCharges = await chargeCount(prisma, { actorId: bob.id, kind: 'charge:rows.update' });
    const before = { ...writeBatches };
    const answers = await Promise.all([
      update(carol, projects.shared, 'task 5', { priority: 5 }),
      // bob reads alice's project only: the update rule wants the row's creator or an admin.
      update(bob, projects.shared, 'task 7', { priority: 70 }),
      update(carol, projects.shared, 'task 9', { priority: 9 }),
    ]);
    expect(writeBatches.calls - before.calls).toBe(3);
    expect(answers.map(answer => answer.status)).toEqual([200, 403, 200]);
    expect(answers[1].body.error).toBe('access_denied');
    const [refused] = await task(ctx, projects.shared, 'task 7');
    expect(refused.data).not.toHaveProperty('priority');
    expect(await chargeCount(prisma, { actorId: bob.id, kind: 'charge:rows.update' })).toBe(bobsCharges);
    for (const i of [5, 9]) expect((await task(ctx, projects.shared, `task ${i}`))[0].data).toMatchObject({ priority: i });
  });

  it('deletes by two owners at once: batched, each its own row gone and answered; a writer’s delete of their own row refused as alone', async ({
    ctx,
    s,
    projects,
  }) => {
    const { alice, bob, carol } = s.users;
    const before = { ...writeBatches };
    const remove = (as: Caller, resourceId: string, title: string) =>
      db(as, { scope: inResource(resourceId), table: 'tasks', op: 'delete', where: { title } });
    const answers = await Promise.all([
      remove(alice, projects.shared, 'task 1'),
      // The delete rule wants an admin or the owner, even for a writer's own row.
      remove(carol, projects.shared, 'task 3'),
      remove(bob, projects.own, 'task 4'),
      remove(bob, projects.own, 'task 6'),
    ]);
    expect(writeBatches.calls - before.calls).toBe(4);
    expect(answers.map(answer => answer.status)).toEqual([200, 403, 200, 200]);
    expect(answers[1].body.error).toBe('access_denied');
    expect(await task(ctx, projects.shared, 'task 3')).toHaveLength(1);
    for (const [i, [resourceId, title]] of [
      [projects.shared, 'task 1'],
      [projects.own, 'task 4'],
      [projects.own, 'task 6'],
    ].entries()) {
      expect(answers[i === 0 ? 0 : i + 1].body.rows).toEqual([expect.objectContaining({ title })]);
      expect(await task(ctx, resourceId, title)).toEqual([]);
    }
    // The other project's row of a title deleted stays.
    expect(await task(ctx, projects.own, 'task 1')).toHaveLength(1);
  });

  it('upserts by key in one turn: the one whose row is there updated in the batch, the one whose is not inserted; each row once', async ({
    ctx,
    s,
    projects,
  }) => {
    const { carol } = s.users;
    const prisma = ctx.database.prisma;
    const upsert = (device: string, state: string) =>
      db(carol, {
        scope: inResource(projects.shared),
        table: 'presence',
        op: 'upsert',
        values: { member: 'carol', device, state },
        onConflict: ['member', 'device'],
      });
    expect((await upsert('phone', 'first')).status).toBe(200);
    expect((await upsert('laptop', 'first')).status).toBe(200);
    const before = { ...writeBatches };
    const answers = await Promise.all([upsert('phone', 'here'), upsert('tablet', 'new'), upsert('laptop', 'away')]);
    expect(writeBatches.calls - before.calls).toBe(3);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = await prisma.row.findMany({ where: { resourceId: projects.shared, tableName: 'presence' } });
    expect(Object.fromEntries(rows.map(row => [(row.data as { device: string }).device, (row.data as { state: string }).state]))).toEqual({
      phone: 'here',
      laptop: 'away',
      tablet: 'new',
    });
  });
});

const onSlowTimeout = slowTimeout.extend('projects', projects);

describe.runIf(available.some(backend => backend.name === 'postgres'))('a write batch and a lock on PostgreSQL', () => {
  onSlowTimeout(
    'one update’s row locked by another transaction: the batch does not wait, the other update is answered at once, that one once the lock goes',
    async ({ ctx, s, projects }) => {
      const { carol } = s.users;
      const [locked] = await task(ctx, projects.shared, 'task 11');
      const holder = await holdingLocks(ctx.database.prisma, Prisma.sql`SELECT id FROM rows WHERE id = ${locked.id}::uuid FOR UPDATE`);
      const before = { ...writeBatches };
      const [free, held] = [update(carol, projects.shared, 'task 1', { priority: 1 }), update(carol, projects.shared, 'task 11', { priority: 11 })];
      try {
        expect((await free).status).toBe(200);
        expect(writeBatches.calls - before.calls).toBe(2);
        expect(writeBatches.refused - before.refused).toBe(1);
        // The other still waits on the lock, alone.
        expect((await task(ctx, projects.shared, 'task 11'))[0].data).not.toHaveProperty('priority');
      } finally {
        await holder.release();
      }
      expect((await held).status).toBe(200);
      expect((await task(ctx, projects.shared, 'task 11'))[0].data).toMatchObject({ priority: 11 });
    },
  );
});
