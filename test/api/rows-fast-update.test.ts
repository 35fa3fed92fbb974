/**
 * The one-statement update and delete (src/rows/row-fast-write.service.ts) answer as the
 * transaction path does. Each case runs on twin projects: in one the scope names no room (the one
 * statement), in the other it names the default room by the resource's id (the same room, in a
 * scope the one statement leaves to the transaction path); the answers, the rows left and the
 * charges made are the same. Then what only concurrency shows: a member removed while their
 * updates run writes nothing after the removal and each acknowledged update is charged once; racing
 * updates of one row are all applied, each charged once. Both stores.
 */
import { describe, expect } from 'vitest';
import { defineSchema } from 'gatehouse/schema';
import { TEST_RESOURCES, type TestContext, addMember, createResource, seed } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, developerBooks, duringRemoval, inResource, racedAndBooked } from './rows.fixture.js';
import { chargeCount } from '../helpers/ledger.js';

/** The rule of each table, on the same columns: default rules; rows read and written only by their creator; writers update anyone's, admins delete. */
const SCHEMA = defineSchema({
  resources: {
    ...TEST_RESOURCES,
    crew: r =>
      r
        .visibility('members')
        .defaultRole('writer')
        .owns('items', t => t.text('title').notNull().integer('n').uuid('ref').unique().timestamps())
        .owns('drafts', t =>
          t.text('title').notNull().integer('n').timestamps().access({ read: 'creator', create: 'writer', update: 'creator', delete: 'creator' }),
        )
        .owns('board', t => t.text('title').notNull().integer('n').timestamps().access({ update: 'writer', delete: 'admin' }))
        // One column per racing update, so a lost one shows.
        .owns('slots', t =>
          t.text('title').integer('s0').integer('s1').integer('s2').integer('s3').integer('s4').integer('s5').integer('s6').integer('s7'),
        )
        // The same, found by a unique key: racing upserts.
        .owns('seats', t =>
          t.text('title').unique().integer('s0').integer('s1').integer('s2').integer('s3').integer('s4').integer('s5').integer('s6').integer('s7'),
        ),
  },
});
const TABLES = ['items', 'drafts', 'board'] as const;
type Table = (typeof TABLES)[number];

async function crewSeed(ctx: TestContext, names: string[]): Promise<RowsSeed> {
  const s = await seed(ctx, names);
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: SCHEMA });
  if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.body)}`);
  return { ...s, deploymentId: deployed.body.deploymentId };
}

const available = await backends();
// Three rows per call at most: a filter matching all four rows of a table is too many.
const onBackend = appTestOn<RowsSeed>(available, {
  users: ['alice', 'carol', 'dave', 'erin'],
  seed: crewSeed,
  app: { env: { ROWS_MAX_WRITES_PER_CALL: '3' } },
});

type User = RowsSeed['users'][string];

/** A project and its rows' ids: per table, alice's two (n 1, titles a and b) and carol's two (n 2). */
interface Twin {
  id: string;
  /** The scope's room: undefined (the one statement) or the resource id (the transaction path). */
  room: string | undefined;
  rows: Record<Table, { alice: string[]; carol: string[] }>;
}

/** A project of alice's: carol a writer, dave a reader (erin nothing), each table's rows, every member's resource warm. */
async function twin(s: RowsSeed, name: string, slow: boolean): Promise<Twin> {
  const { alice, carol, dave } = s.users;
  const id = await createResource(alice, 'crew', name);
  await addMember(alice, carol, id, 'writer');
  await addMember(alice, dave, id, 'reader');
  const rows = {} as Twin['rows'];
  for (const table of TABLES) {
    rows[table] = { alice: [], carol: [] };
    for (const [who, n] of [
      ['alice', 1],
      ['carol', 2],
    ] as const) {
      const values = ['a', 'b'].map(title => ({ title, n }));
      const res = await db(s.users[who], { scope: inResource(id), table, op: 'insert', values });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      rows[table][who] = res.body.rows.map((row: { id: string }) => row.id);
    }
  }
  // A member's resource is known to the one statement once they read or wrote there.
  for (const as of [alice, carol, dave]) expect((await db(as, { scope: inResource(id), table: 'items', op: 'select' })).status).toBe(200);
  return { id, room: slow ? id : undefined, rows };
}

/** Two calls once the leases closed: the second finds a lease open and seen, as the one statement needs to hold its charge. */
async function warmLease(call: () => Promise<{ status: number }>): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await call()).status).toBe(200);
}

/** A row as both twins show it: without its id and times (whether it was updated kept). */
const comparable = ({ id: _, createdAt, updatedAt, ...row }: Record<string, unknown>) => ({ ...row, updated: updatedAt !== createdAt });

describe.each(available)('one-statement update and delete on $name', backend => {
  const it = onBackend(backend)
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    .extend('twins', async ({ s }) => ({ fast: await twin(s, 'Fast', false), slow: await twin(s, 'Slow', true) }))
    /** What `as` sending `op(twin)` into `twin` answered and left: the answer, the project's rows, the charges made. */
    .extend('outcome', async ({ prisma }) => {
      const charges = (as: User, op: string) => chargeCount(prisma, { actorId: as.id, kind: `charge:rows.${op}` });
      return async (as: User, twin: Twin, op: (twin: Twin) => Record<string, unknown> & { op: string }) => {
        const body = op(twin);
        const before = await charges(as, body.op);
        const res = await db(as, { scope: inResource(twin.id, twin.room), ...body });
        const charged = (await charges(as, body.op)) - before;
        const rows = await prisma.row.findMany({ where: { resourceId: twin.id }, select: { tableName: true, creatorId: true, data: true } });
        const left = rows.map(r => JSON.stringify(r)).sort();
        // An error names the resource: the twins' differ.
        const answer =
          res.status === 200
            ? { ...res.body, rows: res.body.rows.map(comparable) }
            : JSON.parse(JSON.stringify(res.body).replaceAll(twin.id, 'RESOURCE'));
        return { status: res.status, answer, left, charged };
      };
    })
    /** The outcome of `op` by `as` on both twins, the same; answered for further checks. */
    .extend('same', async ({ twins, outcome }) => {
      return async (as: User, op: (twin: Twin) => Record<string, unknown> & { op: string }) => {
        const fast = await outcome(as, twins.fast, op);
        const slow = await outcome(as, twins.slow, op);
        expect(fast).toEqual(slow);
        return fast;
      };
    });

  const byFilter = (table: Table, op: 'update' | 'delete', where: Record<string, unknown>, values?: Record<string, unknown>) => () => ({
    table,
    op,
    where,
    ...(values ? { values } : {}),
  });

  it('default rules: a writer updates and deletes their own rows, not others’; an owner updates anyone’s', async ({ s, same }) => {
    const { alice, carol } = s.users;
    const own = await same(carol, byFilter('items', 'update', { n: 2 }, { title: 'mine' }));
    expect(own).toMatchObject({ status: 200, charged: 1 });
    expect(own.answer.rows).toEqual([
      expect.objectContaining({ title: 'mine', n: 2, updated: true }),
      expect.objectContaining({ title: 'mine', n: 2, updated: true }),
    ]);
    for (const where of [{ n: 1 }, { title: 'a' }]) {
      const others = await same(carol, byFilter('items', 'update', where, { title: 'not mine' }));
      expect(others).toMatchObject({ status: 403, charged: 0, answer: { error: 'access_denied' } });
      expect((await same(carol, byFilter('items', 'delete', where))).status).toBe(403);
    }
    expect(await same(alice, byFilter('items', 'update', { n: 2 }, { title: 'owner' }))).toMatchObject({ status: 200, charged: 1 });
    const deleted = await same(carol, byFilter('items', 'delete', { n: 2 }));
    expect(deleted).toMatchObject({ status: 200, charged: 1 });
    expect(deleted.answer.rows).toEqual([
      expect.objectContaining({ title: 'owner', n: 2, updated: true }),
      expect.objectContaining({ title: 'owner', n: 2, updated: true }),
    ]);
  });

  it('rows only their creator reads and writes: a filter takes the caller’s own rows, whoever else’s match it', async ({ s, same }) => {
    const { alice, carol } = s.users;
    const updated = await same(alice, byFilter('drafts', 'update', { title: 'a' }, { n: 5 }));
    expect(updated).toMatchObject({ status: 200, charged: 1 });
    expect(updated.answer.rows).toEqual([expect.objectContaining({ title: 'a', n: 5, _creatorId: alice.id })]);
    const deleted = await same(carol, byFilter('drafts', 'delete', { title: 'a' }));
    expect(deleted.answer.rows).toEqual([expect.objectContaining({ title: 'a', n: 2, _creatorId: carol.id })]);
  });

  it('a reader: refused before matching where the rule admits no reader, after where a row is not theirs; nothing matched is no refusal', async ({
    s,
    same,
  }) => {
    const { carol, dave } = s.users;
    expect(await same(dave, byFilter('board', 'update', { n: 99 }, { title: 'x' }))).toMatchObject({ status: 403, charged: 0 });
    expect(await same(dave, byFilter('items', 'update', { n: 2 }, { title: 'x' }))).toMatchObject({ status: 403, charged: 0 });
    expect(await same(dave, byFilter('items', 'update', { n: 99 }, { title: 'x' }))).toMatchObject({ status: 200, charged: 1, answer: { rows: [] } });
    // Writers update anyone's board rows; only admins delete them.
    expect(await same(carol, byFilter('board', 'update', { n: 1 }, { title: 'moved' }))).toMatchObject({ status: 200, charged: 1 });
    expect(await same(carol, byFilter('board', 'delete', { n: 99 }))).toMatchObject({ status: 403, charged: 0 });
  });

  it('an `in` filter whose values hold quotes, backslashes, commas, braces and odd unicode: the same rows on both paths', async ({ s, same }) => {
    const { carol } = s.users;
    const quirky = 'q"u,o\\te {x} ünï ☃';
    expect(await same(carol, byFilter('drafts', 'update', { title: 'b' }, { title: quirky }))).toMatchObject({ status: 200, charged: 1 });
    const titles = ['a', quirky, 'back\\slash', '{brace}', 'NULL', '', '"'];
    const updated = await same(carol, byFilter('drafts', 'update', { title: { in: titles } }, { n: 8 }));
    expect(updated).toMatchObject({ status: 200, charged: 1 });
    expect(updated.answer.rows.map((row: { title: string; n: number }) => [row.title, row.n]).sort()).toEqual([
      ['a', 8],
      [quirky, 8],
    ]);
  });

  it('a non-member: 404; too many rows, refused values, a row too large: refused; nothing written or charged', async ({ s, same }) => {
    const { alice, carol, erin } = s.users;
    expect(await same(erin, byFilter('items', 'update', { n: 1 }, { title: 'x' }))).toMatchObject({
      status: 404,
      charged: 0,
      answer: { error: 'resource_not_found' },
    });
    expect(await same(alice, byFilter('items', 'update', {}, { title: 'all' }))).toMatchObject({
      status: 400,
      charged: 0,
      answer: { error: 'too_many_rows' },
    });
    expect(await same(alice, byFilter('items', 'delete', {}))).toMatchObject({ status: 400, charged: 0, answer: { error: 'too_many_rows' } });
    expect((await same(carol, byFilter('items', 'update', { n: 2 }, { nope: 1 }))).charged).toBe(0);
    expect((await same(carol, byFilter('items', 'update', { nope: 2 }, { title: 'x' }))).charged).toBe(0);
    // Values the row cannot hold once merged: the statement's size bound leaves them to checkSize.
    expect(await same(carol, byFilter('items', 'update', { n: 2 }, { title: 'x'.repeat(70_000) }))).toMatchObject({
      status: 400,
      charged: 0,
      answer: { error: 'row_too_large' },
    });
    // Odd text the statement's jsonb cannot hold: the same refusal on both paths, nothing charged.
    for (const title of ['\ud800 lone surrogate', 'nul \u0000 byte']) {
      const answered = await same(carol, byFilter('items', 'update', { n: 2 }, { title }));
      expect(answered.status).toBe(400);
      expect(answered.charged).toBe(0);
    }
  });

  it('by ids: the rows there, in the order named, each once; a missing id changes nothing; another’s row refuses', async ({ s, same }) => {
    const { carol } = s.users;
    const missing = '018f0000-0000-7000-8000-0000000000ff';
    const named = await same(carol, t => ({
      table: 'items',
      op: 'update',
      ids: [t.rows.items.carol[1], missing, t.rows.items.carol[0], t.rows.items.carol[1]],
      values: { n: 7 },
    }));
    expect(named).toMatchObject({ status: 200, charged: 1 });
    expect(named.answer.rows.map((r: { title: string }) => r.title)).toEqual(['b', 'a']);
    expect(await same(carol, () => ({ table: 'items', op: 'delete', ids: [missing] }))).toMatchObject({
      status: 200,
      charged: 1,
      answer: { rows: [] },
    });
    expect(await same(carol, t => ({ table: 'items', op: 'delete', ids: [t.rows.items.carol[0], t.rows.items.alice[0]] }))).toMatchObject({
      status: 403,
      charged: 0,
    });
  });

  const upsertOf = (values: Record<string, unknown>) => () => ({ table: 'items', op: 'upsert', values, onConflict: 'ref' });
  const CAROL_REF = '018f0000-0000-7000-8000-00000000aa01';
  const ALICE_REF = '018f0000-0000-7000-8000-00000000aa02';

  it('upsert by a unique key: the row it finds updated (one statement where the scope allows), one it does not find inserted; refusals the same', async ({
    s,
    same,
  }) => {
    const { alice, carol, dave, erin } = s.users;
    // Not there yet: inserted, by the transaction path on both twins.
    const first = await same(carol, upsertOf({ ref: CAROL_REF, title: 'first', n: 2 }));
    expect(first).toMatchObject({ status: 200, charged: 1 });
    expect(first.answer).toMatchObject({ rows: [expect.objectContaining({ title: 'first', n: 2, updated: false })] });
    // There: updated, the columns not given kept.
    const again = await same(carol, upsertOf({ ref: CAROL_REF, title: 'second' }));
    expect(again).toMatchObject({ status: 200, charged: 1 });
    expect(again.answer).toMatchObject({ rows: [expect.objectContaining({ ref: CAROL_REF, title: 'second', n: 2, updated: true })] });
    // An owner updates anyone's row; a reader, with neither path open, is refused; a non-member is not told.
    expect(await same(alice, upsertOf({ ref: CAROL_REF, title: 'owner' }))).toMatchObject({ status: 200, charged: 1 });
    expect(await same(dave, upsertOf({ ref: CAROL_REF, title: 'reader' }))).toMatchObject({ status: 403, charged: 0 });
    expect(await same(erin, upsertOf({ ref: CAROL_REF, title: 'stranger' }))).toMatchObject({ status: 404, charged: 0 });
    // A writer finds alice's row by its key and may not update it.
    expect(await same(alice, upsertOf({ ref: ALICE_REF, title: 'hers' }))).toMatchObject({ status: 200, charged: 1 });
    expect(await same(carol, upsertOf({ ref: ALICE_REF, title: 'taken' }))).toMatchObject({ status: 403, charged: 0 });
    // Refused values: the same answer on both paths, nothing charged.
    expect(await same(carol, upsertOf({ ref: CAROL_REF, nope: 1 }))).toMatchObject({ status: 400, charged: 0 });
    expect(await same(carol, upsertOf({ ref: CAROL_REF, title: 'x'.repeat(70_000) }))).toMatchObject({ status: 400, charged: 0 });
    for (const title of ['\ud800 lone surrogate', 'nul \u0000 byte'])
      expect(await same(carol, upsertOf({ ref: CAROL_REF, title }))).toMatchObject({ status: 400, charged: 0 });
  });

  it('racing upserts of one key, the row there: all applied (one after another), each charged exactly once', async ({ ctx, prisma, s, twins }) => {
    const { carol } = s.users;
    const { id } = twins.fast;
    const upsert = (values: Record<string, unknown>) =>
      db(carol, { scope: inResource(id), table: 'seats', op: 'upsert', values, onConflict: 'title' });
    const charges = () => chargeCount(prisma, { actorId: carol.id, kind: 'charge:rows.upsert' });
    const before = await charges();
    const results = await racedAndBooked(
      ctx,
      s.developerId,
      8,
      i => upsert({ title: 'presence', [`s${i}`]: i }),
      () => warmLease(() => upsert({ title: 'presence' })),
    );
    const rows = await prisma.row.findMany({ where: { resourceId: id, tableName: 'seats' } });
    expect(rows).toHaveLength(1);
    for (const [i, r] of results.entries()) expect(r.body.rows).toEqual([expect.objectContaining({ id: rows[0].id, [`s${i}`]: i })]);
    expect(await charges()).toBe(before + 2 + 8);
    expect(rows[0].data).toEqual({ title: 'presence', s0: 0, s1: 1, s2: 2, s3: 3, s4: 4, s5: 5, s6: 6, s7: 7 });
  });

  it('updates racing the member’s removal: each acknowledged one applied and charged once, none after it', async ({ ctx, prisma, s, twins }) => {
    const { alice, carol } = s.users;
    const { id, rows } = twins.fast;
    const update = (title: string) =>
      db(carol, { scope: inResource(id), table: 'items', op: 'update', ids: [rows.items.carol[0]], values: { title } });
    const charges = () => chargeCount(prisma, { actorId: carol.id, kind: 'charge:rows.update' });
    const start = await developerBooks(ctx, s.developerId);
    await warmLease(() => update('warm'));
    const before = await charges();
    const updates = Array.from({ length: 16 }, (_, i) => update(`race ${i}`));
    const [removed, ...results] = await Promise.all([alice.post(`/v1/resources/${id}/remove`, { userId: carol.id }), ...updates]);
    expect(removed.status).toBe(200);
    for (const r of results) expect([200, 404], JSON.stringify(r.body)).toContain(r.status);
    const acknowledged = results.filter(r => r.status === 200);
    expect(await charges()).toBe(before + acknowledged.length);
    const row = await prisma.row.findUniqueOrThrow({ where: { id: rows.items.carol[0] } });
    const titles = acknowledged.map(r => r.body.rows[0].title);
    expect(titles.length ? titles : ['warm']).toContain((row.data as { title: string }).title);
    // After the removal answered, carol writes nothing there.
    expect((await update('after')).status).toBe(404);
    expect(await prisma.row.findUniqueOrThrow({ where: { id: rows.items.carol[0] } })).toEqual(row);
    const end = await developerBooks(ctx, s.developerId);
    expect(start.balance - end.balance).toBe(start.ledger - end.ledger);
  });

  it.runIf(backend.name === 'postgres')(
    'an update that waits on a removal in flight sees it once committed: 404, nothing changed or charged',
    async ({ ctx, prisma, s, twins }) => {
      const { carol } = s.users;
      const { id, rows } = twins.fast;
      const update = (title: string) =>
        db(carol, { scope: inResource(id), table: 'items', op: 'update', ids: [rows.items.carol[0]], values: { title } });
      await warmLease(() => update('warm'));
      const charges = () => chargeCount(prisma, { actorId: carol.id, kind: 'charge:rows.update' });
      const before = { charges: await charges(), row: await prisma.row.findUniqueOrThrow({ where: { id: rows.items.carol[0] } }) };
      const answer = await duringRemoval(ctx, id, carol.id, () => update('waits'));
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect({ charges: await charges(), row: await prisma.row.findUniqueOrThrow({ where: { id: rows.items.carol[0] } }) }).toEqual(before);
    },
  );

  it('racing updates of one row: all applied (one after another), each charged exactly once', async ({ ctx, prisma, s, twins }) => {
    const { carol } = s.users;
    const { id } = twins.fast;
    const inserted = await db(carol, { scope: inResource(id), table: 'slots', op: 'insert', values: { title: 'race' } });
    const rowId = inserted.body.rows[0].id;
    const charges = () => chargeCount(prisma, { actorId: carol.id, kind: 'charge:rows.update' });
    const before = await charges();
    const results = await racedAndBooked(
      ctx,
      s.developerId,
      8,
      i => db(carol, { scope: inResource(id), table: 'slots', op: 'update', where: { title: 'race' }, values: { [`s${i}`]: i } }),
      () => warmLease(() => db(carol, { scope: inResource(id), table: 'slots', op: 'update', where: { title: 'race' }, values: { title: 'race' } })),
    );
    for (const [i, r] of results.entries()) expect(r.body.rows).toEqual([expect.objectContaining({ id: rowId, [`s${i}`]: i })]);
    expect(await charges()).toBe(before + 2 + 8);
    const row = await prisma.row.findUniqueOrThrow({ where: { id: rowId } });
    expect(row.data).toEqual({ title: 'race', s0: 0, s1: 1, s2: 2, s3: 3, s4: 4, s5: 5, s6: 6, s7: 7 });
  });
});
