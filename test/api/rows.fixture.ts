/** The schema and seed the row-store tests share (docs/api.md §11). */
import { afterAll, beforeAll, expect } from 'vitest';
import { defineSchema } from 'gatehouse/schema';
import { TEST_RESOURCES, type Seed, type TestContext, addMember, createResource, seed } from '../helpers/app.js';
import { sql } from '../../src/db/sql.js';
import { turnBatching } from '../../src/rows/row-turn-batch.service.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { appTest } from '../helpers/fixtures.js';
import { createPostgresTestDatabase } from '../helpers/db.js';

/**
 * A schema shaped like a real app's: a top-level table users keep and share, inline tables owned
 * by a members-only `project` (every column type, timestamps, indexes, single rules), and public
 * `forum` / `club` types for auto-join.
 */
export const ROWS_SCHEMA = defineSchema({
  tables: {
    notes: t => t.text('title').notNull().text('body').boolean('pinned').default(false).text('slug').unique().timestamps().index(['title']),
    comments: t => t.text('body').notNull().timestamps(),
  },
  resources: {
    ...TEST_RESOURCES,
    project: r =>
      r
        .visibility('members')
        .defaultRole('writer')
        .owns('tasks', t =>
          t
            .text('title')
            .notNull()
            .boolean('done')
            .notNull()
            .default(false)
            .integer('priority')
            .bigint('estimate')
            .jsonb('meta')
            .timestamp('due')
            .uuid('ref')
            .unique()
            .timestamps()
            .index(['createdAt'])
            .index(['priority'])
            .index(['done', 'due'])
            .access({ read: 'reader', create: 'writer', update: ['creator', 'admin', 'owner'], delete: ['admin', 'owner'] }),
        )
        .owns('diary', t => t.text('text').access({ read: 'creator', create: 'reader' }))
        // Presence by upsert: one row per (member, device), a key of two columns.
        .owns('presence', t =>
          t
            .text('member')
            .notNull()
            .text('device')
            .notNull()
            .text('state')
            .integer('seen')
            .timestamps()
            .unique(['member', 'device'])
            .access({ read: 'reader', create: 'reader', update: 'creator' }),
        )
        // A unique column on rows only their creator reads.
        .owns('handles', t => t.text('name').notNull().unique().text('note').access({ read: 'creator', create: 'writer', update: 'creator' }))
        .shares('notes', share => share.onMemberRemove('remove').access({ unlink: ['creator', 'owner'] })),
    forum: r =>
      r
        .visibility('discoverable')
        .defaultRole('writer')
        .owns('posts', t =>
          t
            .text('body')
            .notNull()
            .integer('n')
            .timestamps()
            .access({ read: 'reader', create: 'writer', update: 'creator', delete: ['creator', 'admin', 'owner'] }),
        )
        .shares('notes', share => share.onMemberRemove('hide')),
    // `comments` is a top-level table this type owns, with an override: readers may create here.
    club: r =>
      r
        .visibility('unlisted')
        .defaultRole('reader')
        .owns('comments', own => own.access({ create: 'reader' })),
  },
});

export interface RowsSeed extends Seed {
  deploymentId: string;
}

/** seed() (TEST_SCHEMA), then the row schema deployed over it. */
export async function rowsSeed(ctx: TestContext, names: string[]): Promise<RowsSeed> {
  const s = await seed(ctx, names);
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: ROWS_SCHEMA });
  if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.body)}`);
  return { ...s, deploymentId: deployed.body.deploymentId };
}

type Caller = { post(path: string, body?: unknown): Promise<{ status: number; body: any }> };

/** POST /v1/db/query. */
export const db = (as: Caller, body: Record<string, unknown>) => as.post('/v1/db/query', body);

export const inResource = (resourceId: string, roomId?: string) => ({ kind: 'resource', resourceId, ...(roomId ? { roomId } : {}) });

/**
 * A project of `owner`'s with `writer` a writer, and the writer's inserts there warmed (two, each
 * answered 200): the resource, budget and lease seen, so the next ones take the one statement.
 */
export async function warmedProject(owner: RowsSeed['users'][string], writer: RowsSeed['users'][string], name: string): Promise<string> {
  const id = await createResource(owner, 'project', name);
  await addMember(owner, writer, id, 'writer');
  for (const title of ['warm', 'warmer'])
    expect((await db(writer, { scope: inResource(id), table: 'tasks', op: 'insert', values: { title } })).status).toBe(200);
  return id;
}

export const mine = { kind: 'user' };

/**
 * Runs `fn` with the developer (who pays for a test user's resources at rest) in storage debt, as
 * a day's storage settlement may leave them: a debit entry taking the balance below what their
 * open leases reserve, which closes those leases (closeLeasesOverdrawn); then credits it back.
 */
export async function inStorageDebt(ctx: TestContext, developerId: string, fn: () => Promise<void>): Promise<void> {
  const { wallet } = ctx.app.services;
  const holder = { kind: 'developer', id: developerId } as const;
  const debt = (await wallet.balanceMicros(developerId)) + 1_000_000_000n;
  await wallet.credit(holder, -debt);
  try {
    await fn();
  } finally {
    await wallet.credit(holder, debt);
  }
}

/** The developer's balance and the ledger's sum, once this server's leases closed (the tables hold every charge then). */
export async function developerBooks(ctx: TestContext, developerId: string): Promise<{ balance: bigint; ledger: bigint }> {
  await ctx.app.services.metering.closeWalletLeases();
  const prisma = ctx.database.prisma;
  const { balanceMicros } = await prisma.wallet.findUniqueOrThrow({ where: { holderId: developerId } });
  const ledger = await prisma.walletEntry.aggregate({ where: { developerId }, _sum: { amountMicros: true } });
  return { balance: balanceMicros, ledger: ledger._sum.amountMicros ?? 0n };
}

/**
 * `n` calls of `call` at once, each answered 200; the developer's balance moved by exactly what
 * the ledger charged meanwhile (no charge lost or counted twice). Answers the calls' answers.
 * `warm` runs once the leases closed, before the race: a lease open and seen here, the one-statement
 * writes (src/rows/row-fast-write.service.ts) can hold their charges from it.
 */
export async function racedAndBooked<R extends { status: number; body: unknown }>(
  ctx: TestContext,
  developerId: string,
  n: number,
  call: (i: number) => Promise<R>,
  warm?: () => Promise<void>,
): Promise<R[]> {
  const start = await developerBooks(ctx, developerId);
  await warm?.();
  const results = await Promise.all(Array.from({ length: n }, (_, i) => call(i)));
  for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
  const end = await developerBooks(ctx, developerId);
  expect(end.ledger).toBeLessThan(start.ledger);
  expect(start.balance - end.balance).toBe(start.ledger - end.ledger);
  return results;
}

/**
 * `call` started while a removal of `memberId` from `resourceId` is in flight, as the membership
 * service makes one: the resource locked FOR UPDATE, the membership deleted, not yet committed.
 * The removal commits once `call` waits on its locks (PostgreSQL only: two connections), and
 * `call`'s answer is returned: a write that started before the commit must still see it.
 */
export async function duringRemoval<R>(ctx: TestContext, resourceId: string, memberId: string, call: () => Promise<R>): Promise<R> {
  const prisma = ctx.database.prisma;
  const waiting = async () =>
    (
      await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`
    )[0].n > 0;
  let answer!: Promise<R>;
  await ctx.app.services.deps.sqlTransaction(async tx => {
    await sql`SELECT 1 FROM resources WHERE id = ${resourceId} FOR UPDATE`.execute(tx);
    await sql`DELETE FROM memberships WHERE resource_id = ${resourceId} AND principal_id = ${memberId}`.execute(tx);
    answer = call();
    const until = Date.now() + 5_000;
    while (!(await waiting())) {
      if (Date.now() > until) throw new Error('the call never waited on the removal');
      await new Promise(resolve => setTimeout(resolve, 10));
    }
  });
  return answer;
}

/**
 * Two projects: alice's with carol a writer and bob a reader, and bob's own; `values` inserted as
 * tasks by carol into alice's and by bob into his own, which also warms their inserts; alice and
 * bob read alice's, so each member's writes there take the one statement.
 */
export async function twoProjects({ s }: { s: RowsSeed }, values: readonly Record<string, unknown>[]) {
  const { alice, bob, carol } = s.users;
  const shared = await createResource(alice, 'project', 'Shared');
  await addMember(alice, carol, shared, 'writer');
  await addMember(alice, bob, shared, 'reader');
  const own = await createResource(bob, 'project', 'Bob’s');
  for (const [as, id] of [
    [carol, shared],
    [bob, own],
  ] as const)
    expect((await db(as, { scope: inResource(id), table: 'tasks', op: 'insert', values })).status).toBe(200);
  for (const as of [alice, bob]) expect((await db(as, { scope: inResource(shared), table: 'tasks', op: 'select' })).status).toBe(200);
  return { shared, own };
}

/**
 * A transaction that has run `locking` (a statement taking row locks) and holds them until
 * `release`, which commits it: what a transition, a lease's closing or another write holds while it runs.
 */
export async function holdingLocks(prisma: TestContext['database']['prisma'], locking: Prisma.Sql) {
  let locked!: () => void;
  let release!: () => void;
  const lockTaken = new Promise<void>(resolve => (locked = resolve));
  const released = new Promise<void>(resolve => (release = resolve));
  const transaction = prisma.$transaction(
    async tx => {
      await tx.$queryRaw(locking);
      locked();
      await released;
    },
    { timeout: 600_000 },
  );
  await lockTaken;
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}

/**
 * PostgreSQL with a statement timeout far past a test's: a batch that waited on a lock would not
 * be answered within the test's time, so the test fails instead of passing once the timeout sends
 * its calls alone.
 */
export const onSlowTimeout = appTest<RowsSeed>({
  users: ['alice', 'bob', 'carol'],
  seed: rowsSeed,
  database: () => createPostgresTestDatabase({ transactionTimeoutMs: 600_000 }),
});

/**
 * The file's one-statement writes sent together are batched together: each waits for its turn's
 * end even with nothing in flight (turnBatching.everyCall). This project's files share their
 * worker's modules (vitest.config.ts), so the setting is restored once the file is done.
 */
export function batchingEveryCall(): void {
  beforeAll(() => {
    turnBatching.everyCall = true;
  });
  afterAll(() => {
    turnBatching.everyCall = false;
  });
}
