/**
 * The row store (docs/api.md §11): the operation shape over REST and GraphQL, validation against
 * the deployed schema, where/orderBy/cursors, access rules per op, scopes and links, batches.
 * Rooms are in rows-rooms.test.ts, auto-join in rows-auto-join.test.ts, indexes in rows-indexes.test.ts.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, mine, rowsSeed } from './rows.fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'], seed: rowsSeed })
  /** Makes a project owned by alice with bob reader, carol writer, dave admin. */
  .extend('project', { scope: 'file' }, async ({ s }) => async (name = 'P') => {
    const { alice, bob, carol, dave } = s.users;
    const id = await createResource(alice, 'project', name);
    await addMember(alice, bob, id, 'reader');
    await addMember(alice, carol, id, 'writer');
    await addMember(alice, dave, id, 'admin');
    return id;
  });

const insert = async (as: any, scope: unknown, table: string, values: unknown) => {
  const res = await db(as, { scope, table, op: 'insert', values });
  if (res.status !== 200) throw new Error(`insert failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.rows;
};
const select = (as: any, scope: unknown, table: string, extra: Record<string, unknown> = {}) => db(as, { scope, table, op: 'select', ...extra });

describe('docs/api.md §11.1 one operation shape over REST', () => {
  it('insert answers the rows as written: id, columns, defaults, server timestamps, creator and roomId', async ({ s, project }) => {
    const p = await project();
    const [row] = await insert(s.users.alice, inResource(p), 'tasks', { title: 'first', priority: 2 });
    expect(row).toEqual({
      id: expect.stringMatching(UUID),
      title: 'first',
      done: false,
      priority: 2,
      estimate: null,
      meta: null,
      due: null,
      ref: null,
      createdAt: expect.any(String),
      updatedAt: row.createdAt,
      _creatorId: s.users.alice.id,
      roomId: null,
    });
    expect(new Date(row.createdAt).toISOString()).toBe(row.createdAt);
  });

  it('select answers { rows, nextCursor }, update and delete { rows }, link and unlink { ok: true }', async ({ ctx, s, project }) => {
    const p = await project();
    const { alice } = s.users;
    const [a, b] = await insert(alice, inResource(p), 'tasks', [{ title: 'a' }, { title: 'b' }]);
    const page = await select(alice, inResource(p), 'tasks');
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(['nextCursor', 'rows']);
    expect(page.body.rows.map((r: any) => r.title)).toEqual(['a', 'b']);
    expect(page.body.nextCursor).toBeNull();

    ctx.advance(1000);
    const updated = await db(alice, { scope: inResource(p), table: 'tasks', op: 'update', ids: [a.id], values: { done: true, priority: 5 } });
    expect(updated.body).toEqual({ rows: [expect.objectContaining({ id: a.id, done: true, priority: 5, createdAt: a.createdAt })] });
    expect(updated.body.rows[0].updatedAt > a.updatedAt).toBe(true);

    const removed = await db(alice, { scope: inResource(p), table: 'tasks', op: 'delete', ids: [b.id] });
    expect(removed.body).toEqual({ rows: [expect.objectContaining({ id: b.id, title: 'b' })] });
    expect((await select(alice, inResource(p), 'tasks')).body.rows.map((r: any) => r.id)).toEqual([a.id]);

    const [note] = await insert(alice, mine, 'notes', { title: 'n' });
    expect((await db(alice, { scope: inResource(p), table: 'notes', op: 'link', ids: [note.id] })).body).toEqual({ ok: true });
    expect((await db(alice, { scope: inResource(p), table: 'notes', op: 'unlink', ids: [note.id] })).body).toEqual({ ok: true });
  });

  it('select by ids reads just those rows', async ({ s, project }) => {
    const p = await project();
    const rows = await insert(s.users.alice, inResource(p), 'tasks', [{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    const page = await select(s.users.bob, inResource(p), 'tasks', { ids: [rows[2].id, rows[0].id] });
    expect(page.body.rows.map((r: any) => r.title)).toEqual(['a', 'c']);
  });
});

describe('docs/api.md §11.3 values against the deployed schema', () => {
  let p: string;
  let alice: RowsSeed['users'][string];
  it.beforeAll(async ({ s, project }) => {
    p = await project('validation');
    alice = s.users.alice;
  });
  const bad = (values: unknown, table = 'tasks') => db(alice, { scope: inResource(p), table, op: 'insert', values });

  it.each<[string, Record<string, unknown>, string]>([
    ['a uuid column takes a UUID', { title: 't', ref: 'not-a-uuid' }, 'invalid_value'],
    ['an integer is 32-bit', { title: 't', priority: 2 ** 31 }, 'invalid_value'],
    ['an integer is whole', { title: 't', priority: 1.5 }, 'invalid_value'],
    ['a bigint is a decimal string or a safe number', { title: 't', estimate: '1e3' }, 'invalid_value'],
    ['a bigint fits 64 bits', { title: 't', estimate: '9223372036854775808' }, 'invalid_value'],
    ['a bigint as an unsafe JSON number is refused', { title: 't', estimate: 2 ** 60 }, 'invalid_value'],
    ['a boolean is true or false', { title: 't', done: 'true' }, 'invalid_value'],
    ['a timestamp is ISO 8601', { title: 't', due: 'tomorrow' }, 'invalid_value'],
    ['a timestamp names a real day', { title: 't', due: '2026-02-29' }, 'invalid_value'],
    ['a text column takes a string', { title: 5 }, 'invalid_value'],
    ['notNull without a default must be given', { priority: 1 }, 'missing_value'],
    ['an undeclared column', { title: 't', colour: 'red' }, 'unknown_column'],
    ['id is the server’s', { title: 't', id: '00000000-0000-4000-8000-000000000000' }, 'column_not_writable'],
    ['createdAt is the server’s', { title: 't', createdAt: '2026-01-01T00:00:00Z' }, 'column_not_writable'],
    ['_creatorId is the server’s', { title: 't', _creatorId: 'someone' }, 'column_not_writable'],
    ['roomId is virtual', { title: 't', roomId: null }, 'virtual_room_id'],
  ])('§11.3: %s (400 %s)', async (_, values, code) => {
    const res = await bad(values);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
    expect(res.body.message).toMatch(/tasks|values/);
  });

  it('stores each type in its canonical form', async ({ s }) => {
    const [row] = await insert(s.users.alice, inResource(p), 'tasks', {
      title: 'typed',
      ref: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
      estimate: 42,
      due: '2026-01-31T12:00:00+02:00',
      meta: { tags: ['x'], n: null },
    });
    expect(row).toMatchObject({
      ref: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      estimate: 42,
      due: '2026-01-31T10:00:00.000Z',
      meta: { tags: ['x'], n: null },
    });
  });

  it('bigint reads back as a JSON number while it is a safe integer, as a decimal string beyond 2^53 - 1', async ({ s }) => {
    const written = ['9007199254740991', '-9007199254740991', '9007199254740992', '-9223372036854775808', 7, '0042'];
    const rows = await insert(
      s.users.alice,
      inResource(p),
      'tasks',
      written.map(estimate => ({ title: 'big', estimate })),
    );
    const read = [9007199254740991, -9007199254740991, '9007199254740992', '-9223372036854775808', 7, 42];
    expect(rows.map((r: { estimate: unknown }) => r.estimate)).toEqual(read);
    const again = await select(s.users.alice, inResource(p), 'tasks', { ids: rows.map((r: { id: string }) => r.id) });
    expect(again.body.rows.map((r: { estimate: unknown }) => r.estimate)).toEqual(read);
    // Filters and order take either form.
    const found = await select(s.users.alice, inResource(p), 'tasks', { where: { estimate: { in: [9007199254740991, '9007199254740992'] } } });
    expect(found.body.rows).toHaveLength(2);
  });

  it('timestamps as apps send them: a date alone is midnight UTC, a date-time without an offset is UTC', async ({ s }) => {
    const rows = await insert(
      s.users.alice,
      inResource(p),
      'tasks',
      ['1970-01-01', '2026-01-31T12:00', '2026-01-31 12:00:00.123456', '2026-01-31T14:00:00+0200'].map(due => ({ title: 'when', due })),
    );
    expect(rows.map((r: { due: string }) => r.due)).toEqual([
      '1970-01-01T00:00:00.000Z',
      '2026-01-31T12:00:00.000Z',
      '2026-01-31T12:00:00.123Z',
      '2026-01-31T12:00:00.000Z',
    ]);
    // The cleanup an app ran: every row since 1970, by createdAt.
    const since = await select(s.users.alice, inResource(p), 'tasks', { where: { createdAt: { gte: '1970-01-01' }, title: 'when' } });
    expect([since.status, since.body.rows.length]).toEqual([200, 4]);
    const cleanup = await db(s.users.alice, {
      scope: inResource(p),
      table: 'tasks',
      op: 'delete',
      where: { createdAt: { gte: '1970-01-01' }, title: 'when' },
    });
    expect(cleanup.body.rows).toHaveLength(4);
  });

  it('update: notNull columns cannot become null; null clears a nullable one', async ({ s }) => {
    const [row] = await insert(s.users.alice, inResource(p), 'tasks', { title: 'x', priority: 3 });
    const update = (values: unknown) => db(s.users.alice, { scope: inResource(p), table: 'tasks', op: 'update', ids: [row.id], values });
    expect((await update({ title: null })).body.error).toBe('missing_value');
    expect((await update({})).body.error).toBe('invalid_value');
    expect((await update({ priority: null })).body.rows[0].priority).toBeNull();
  });

  it('unknown table, table outside the scope, op fields that do not belong', async ({ s }) => {
    const { alice } = s.users;
    const cases: [Record<string, unknown>, string][] = [
      [{ scope: inResource(p), table: 'nope', op: 'select' }, 'unknown_table'],
      [{ scope: inResource(p), table: 'posts', op: 'select' }, 'table_not_in_scope'],
      [{ scope: mine, table: 'tasks', op: 'select' }, 'table_not_in_scope'],
      [{ scope: inResource(p), table: 'tasks', op: 'select', values: {} }, 'invalid_operation'],
      [{ scope: inResource(p), table: 'tasks', op: 'update', values: { done: true } }, 'invalid_operation'],
      [{ scope: inResource(p), table: 'tasks', op: 'link', ids: ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'] }, 'invalid_operation'],
      [{ scope: { kind: 'type', type: 'project' }, table: 'tasks', op: 'insert', values: { title: 't' } }, 'invalid_operation'],
      [{ scope: mine, table: 'notes', op: 'moveRoom', ids: ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'], destination: p }, 'invalid_operation'],
      [{ scope: inResource(p), table: 'tasks', op: 'delete', ids: ['not-a-uuid'] }, 'invalid_value'],
      [{ scope: inResource(p), table: 'tasks', op: 'select', limit: 201 }, 'invalid_argument'],
      [{ scope: { kind: 'galaxy' }, table: 'tasks', op: 'select' }, 'invalid_argument'],
      [{ scope: inResource(p), table: 'tasks', op: 'merge' }, 'invalid_argument'],
      [{ scope: inResource(p), table: 'tasks', op: 'upsert', values: { title: 't' } }, 'invalid_operation'],
      [{ scope: inResource(p), table: 'tasks', op: 'insert', values: { title: 't' }, onConflict: 'ref' }, 'invalid_operation'],
    ];
    for (const [body, code] of cases) {
      const res = await db(alice, body);
      expect({ body, status: res.status, code: res.body.error }).toEqual({ body, status: 400, code });
    }
  });

  it('a row over the size limit is refused', async () => {
    const res = await bad({ title: 'big', meta: { blob: 'x'.repeat(70_000) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('row_too_large');
  });

  it('unique holds per scope: within a resource, not across resources; in a user’s own rows', async ({ s, project }) => {
    const { alice } = s.users;
    const ref = 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
    await insert(alice, inResource(p), 'tasks', { title: 'one', ref });
    const dup = await bad({ title: 'two', ref });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('unique_violation');
    const other = await project('other');
    await insert(alice, inResource(other), 'tasks', { title: 'elsewhere', ref });
    // Within one insert, too (the second value collides with the first).
    const twice = await bad([
      { title: 'c', ref: 'c0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
      { title: 'd', ref: 'c0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
    ]);
    expect(twice.body.error).toBe('unique_violation');
    expect((await select(alice, inResource(p), 'tasks', { where: { ref: 'c0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' } })).body.rows).toEqual([]);

    await insert(alice, mine, 'notes', { title: 'n', slug: 'hello' });
    expect((await db(alice, { scope: mine, table: 'notes', op: 'insert', values: { title: 'm', slug: 'hello' } })).body.error).toBe(
      'unique_violation',
    );
    await insert(s.users.bob, mine, 'notes', { title: 'b', slug: 'hello' });
  });

  it('unique counts linked rows of a resource: linking a clashing row is refused', async ({ s, project }) => {
    const { alice, carol } = s.users;
    const q = await project('links');
    const [a] = await insert(alice, mine, 'notes', { title: 'a', slug: 'same' });
    const [c] = await insert(carol, mine, 'notes', { title: 'c', slug: 'same' });
    expect((await db(alice, { scope: inResource(q), table: 'notes', op: 'link', ids: [a.id] })).status).toBe(200);
    const clash = await db(carol, { scope: inResource(q), table: 'notes', op: 'link', ids: [c.id] });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('unique_violation');
  });
});

describe('docs/api.md §11.3 where, orderBy and keyset cursors', () => {
  let p: string;
  const titles = (res: any) => res.body.rows.map((r: any) => r.title);
  it.beforeAll(async ({ ctx, s, project }) => {
    p = await project('order');
    const { alice } = s.users;
    const rows: Record<string, unknown>[] = [
      { title: 'p3', priority: 3, estimate: '9007199254740993', due: '2026-03-01T00:00:00Z', meta: { k: 1 } },
      { title: 'p1', priority: 1, estimate: '-5', done: true, due: '2026-01-01T00:00:00Z' },
      { title: 'p10', priority: 10, estimate: '100', meta: { k: 2 } },
      { title: 'pnull' },
      { title: 'p2', priority: 2, estimate: '7', done: true, due: '2026-02-01T00:00:00Z' },
    ];
    for (const values of rows) {
      await insert(alice, inResource(p), 'tasks', values);
      ctx.advance(10);
    }
  });

  it('numbers order as numbers (10 after 2), NULLs last ascending and first descending', async ({ s }) => {
    const asc = await select(s.users.bob, inResource(p), 'tasks', { orderBy: { column: 'priority' } });
    expect(titles(asc)).toEqual(['p1', 'p2', 'p3', 'p10', 'pnull']);
    const desc = await select(s.users.bob, inResource(p), 'tasks', { orderBy: { column: 'priority', direction: 'desc' } });
    expect(titles(desc)).toEqual(['pnull', 'p10', 'p3', 'p2', 'p1']);
    const big = await select(s.users.bob, inResource(p), 'tasks', { orderBy: { column: 'estimate' }, where: { estimate: { gte: '-5' } } });
    expect(titles(big)).toEqual(['p1', 'p2', 'p10', 'p3']);
  });

  it.for([
    ['priority', 'asc'],
    ['priority', 'desc'],
    ['due', 'asc'],
    ['due', 'desc'],
    ['title', 'desc'],
    ['createdAt', 'desc'],
    ['id', 'asc'],
  ])('paging by %s %s, two at a time, yields exactly the full order', async ([column, direction], { s }) => {
    const orderBy = { column, direction };
    const full = titles(await select(s.users.bob, inResource(p), 'tasks', { orderBy }));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await select(s.users.bob, inResource(p), 'tasks', { orderBy, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      seen.push(...titles(page));
      cursor = page.body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(full);
    expect(full).toHaveLength(5);
  });

  it('where: equality, comparisons, null, jsonb equality, id and createdAt', async ({ s }) => {
    const { bob } = s.users;
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { done: true } }))).toEqual(['p1', 'p2']);
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { priority: { gt: 1, lte: 3 } } }))).toEqual(['p3', 'p2']);
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { priority: null } }))).toEqual(['pnull']);
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { due: { lt: '2026-02-15T00:00:00+00:00' } } }))).toEqual(['p1', 'p2']);
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { meta: { eq: { k: 2 } } } }))).toEqual(['p10']);
    const all = (await select(bob, inResource(p), 'tasks')).body.rows;
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { id: all[2].id } }))).toEqual(['p10']);
    expect(titles(await select(bob, inResource(p), 'tasks', { where: { createdAt: { gt: all[2].createdAt } } }))).toEqual(['pnull', 'p2']);
  });

  it.for<[string, Record<string, unknown>, string]>([
    ['roomId cannot be filtered', { where: { roomId: null } }, 'virtual_room_id'],
    ['roomId cannot be ordered by', { orderBy: { column: 'roomId' } }, 'virtual_room_id'],
    ['an undeclared column', { where: { colour: 'red' } }, 'unknown_column'],
    ['a comparison jsonb does not have', { where: { meta: { gt: 1 } } }, 'invalid_filter'],
    ['an unknown comparison', { where: { priority: { like: 1 } } }, 'invalid_filter'],
    ['a value of the wrong type', { where: { priority: 'high' } }, 'invalid_value'],
    ['jsonb has no order', { orderBy: { column: 'meta' } }, 'invalid_order'],
    ['a cursor that is not one', { cursor: 'bm9wZQ' }, 'invalid_cursor'],
  ])('§11.3: %s is 400 %s', async ([_, extra, code], { s }) => {
    const res = await select(s.users.bob, inResource(p), 'tasks', extra);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
  });

  it('createdAt exists only on tables declared with timestamps()', async ({ s }) => {
    const res = await select(s.users.bob, inResource(p), 'diary', { where: { createdAt: { gt: '2026-01-01T00:00:00Z' } } });
    expect(res.body.error).toBe('unknown_column');
  });

  it('a cursor is refused for another query or when tampered with', async ({ s }) => {
    const page = await select(s.users.bob, inResource(p), 'tasks', { limit: 2 });
    const cursor = page.body.nextCursor;
    expect((await select(s.users.bob, inResource(p), 'tasks', { limit: 2, cursor, where: { done: true } })).body.error).toBe('invalid_cursor');
    expect((await select(s.users.bob, inResource(p), 'tasks', { limit: 2, cursor, orderBy: { column: 'title' } })).body.error).toBe('invalid_cursor');
    const [sig, , id] = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify([sig, "x'); DROP TABLE rows; --", id])).toString('base64url');
    expect((await select(s.users.bob, inResource(p), 'tasks', { limit: 2, cursor: forged })).body.error).toBe('invalid_cursor');
  });
});

describe('docs/api.md §11.4 access rules per op against the effective role', () => {
  it('tasks: everyone reads, writers create, the creator or admin+ update, admin+ delete', async ({ s, project }) => {
    const { alice, bob, carol, dave } = s.users;
    const p = await project('rules');
    const scope = inResource(p);
    const refused = (res: any) => [res.status, res.body.error];
    expect(refused(await db(bob, { scope, table: 'tasks', op: 'insert', values: { title: 'r' } }))).toEqual([403, 'access_denied']);
    const [mineRow] = await insert(carol, scope, 'tasks', { title: 'carol' });
    const [alices] = await insert(alice, scope, 'tasks', { title: 'alice' });
    expect((await select(bob, scope, 'tasks')).body.rows).toHaveLength(2);
    expect((await db(carol, { scope, table: 'tasks', op: 'update', ids: [mineRow.id], values: { done: true } })).status).toBe(200);
    expect(refused(await db(carol, { scope, table: 'tasks', op: 'update', ids: [alices.id], values: { done: true } }))).toEqual([
      403,
      'access_denied',
    ]);
    expect(refused(await db(carol, { scope, table: 'tasks', op: 'delete', ids: [mineRow.id] }))).toEqual([403, 'access_denied']);
    expect((await db(dave, { scope, table: 'tasks', op: 'update', ids: [alices.id], values: { title: 'by dave' } })).status).toBe(200);
    // A refused write changes nothing, even when some of its rows would have passed.
    const mixed = await db(carol, { scope, table: 'tasks', op: 'update', ids: [mineRow.id, alices.id], values: { title: 'nope' } });
    expect(mixed.status).toBe(403);
    const after = (await select(bob, scope, 'tasks')).body.rows.map((r: any) => r.title);
    expect(after).toEqual(['carol', 'by dave']);
    expect((await db(dave, { scope, table: 'tasks', op: 'delete', ids: [mineRow.id, alices.id] })).body.rows).toHaveLength(2);
  });

  it('a read rule of `creator` alone shows each member only their own rows', async ({ s, project }) => {
    const { alice, bob, carol } = s.users;
    const p = await project('diary');
    await insert(bob, inResource(p), 'diary', { text: 'bob' });
    await insert(carol, inResource(p), 'diary', { text: 'carol' });
    expect((await select(bob, inResource(p), 'diary')).body.rows.map((r: any) => r.text)).toEqual(['bob']);
    expect((await select(carol, inResource(p), 'diary')).body.rows.map((r: any) => r.text)).toEqual(['carol']);
    // The owner wrote nothing here: `creator` admits only their own rows, of which there are none.
    expect((await select(alice, inResource(p), 'diary')).body).toEqual({ rows: [], nextCursor: null });
    // A stranger to the room holds no role at all: refused.
    const club = await createResource(alice, 'club', 'no diary');
    expect((await select(bob, inResource(club), 'diary')).body.error).toBe('table_not_in_scope');
  });

  it('defaults when a table declares no rules: members read, writers create, creator or admin+ change', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const club = await createResource(alice, 'club', 'C');
    await s.users.bob.post(`/v1/resources/${club}/join`); // reader, the type's default role
    await addMember(alice, carol, club, 'writer');
    // The club's owns() override lets readers create comments; the other actions keep the defaults.
    const [b] = await insert(bob, inResource(club), 'comments', { body: 'from a reader' });
    const [c] = await insert(carol, inResource(club), 'comments', { body: 'from a writer' });
    expect((await db(bob, { scope: inResource(club), table: 'comments', op: 'update', ids: [c.id], values: { body: 'x' } })).status).toBe(403);
    expect((await db(bob, { scope: inResource(club), table: 'comments', op: 'update', ids: [b.id], values: { body: 'mine' } })).status).toBe(200);
    expect((await db(alice, { scope: inResource(club), table: 'comments', op: 'delete', ids: [b.id] })).status).toBe(200);
    expect((await select(bob, inResource(club), 'comments')).body.rows.map((r: any) => r.body)).toEqual(['from a writer']);
  });

  it('a share override applies in its type: only the creator or the owner unlinks', async ({ s, project }) => {
    const { alice, carol, dave } = s.users;
    const p = await project('unlink');
    const [note] = await insert(carol, inResource(p), 'notes', { title: 'carol’s' });
    expect((await db(dave, { scope: inResource(p), table: 'notes', op: 'unlink', ids: [note.id] })).status).toBe(403);
    expect((await db(alice, { scope: inResource(p), table: 'notes', op: 'unlink', ids: [note.id] })).status).toBe(200);
  });

  it('a members-only resource answers a non-member 404, reads and writes alike', async ({ s, project }) => {
    const p = await project('closed');
    const stranger = await s.user('stranger');
    expect((await select(stranger, inResource(p), 'tasks')).status).toBe(404);
    const write = await db(stranger, { scope: inResource(p), table: 'tasks', op: 'insert', values: { title: 'x' } });
    expect([write.status, write.body.error]).toEqual([404, 'resource_not_found']);
    expect((await select(stranger, inResource('res_0000000000'), 'tasks')).status).toBe(404);
  });
});

describe('docs/api.md §11.2 scopes: a user’s own rows, a resource’s rows, shared rows through links', () => {
  it('user scope is the caller’s own rows of top-level tables', async ({ s }) => {
    const { alice, bob } = s.users;
    const [note] = await insert(alice, mine, 'notes', { title: 'private' });
    expect(note).not.toHaveProperty('roomId');
    expect((await select(alice, mine, 'notes', { where: { id: note.id } })).body.rows).toHaveLength(1);
    expect((await select(bob, mine, 'notes', { where: { id: note.id } })).body.rows).toEqual([]);
    const steal = await db(bob, { scope: mine, table: 'notes', op: 'update', ids: [note.id], values: { title: 'mine now' } });
    expect([steal.status, steal.body]).toEqual([200, { rows: [] }]);
    expect((await select(alice, mine, 'notes', { ids: [note.id] })).body.rows[0].title).toBe('private');
  });

  it('linking shares a user’s row into a resource; unlinking takes it out; the original stays', async ({ s, project }) => {
    const { alice, bob } = s.users;
    const p = await project('shared');
    const [note] = await insert(alice, mine, 'notes', { title: 'to share' });
    expect((await select(bob, inResource(p), 'notes')).body.rows).toEqual([]);
    await db(alice, { scope: inResource(p), table: 'notes', op: 'link', ids: [note.id] });
    expect((await select(bob, inResource(p), 'notes')).body.rows).toEqual([
      expect.objectContaining({ id: note.id, title: 'to share', roomId: null }),
    ]);
    // Only your own rows can be linked.
    const [bobs] = await insert(bob, mine, 'notes', { title: 'bob' });
    expect((await db(alice, { scope: inResource(p), table: 'notes', op: 'link', ids: [bobs.id] })).body.error).toBe('row_not_found');
    await db(alice, { scope: inResource(p), table: 'notes', op: 'unlink', ids: [note.id] });
    expect((await select(bob, inResource(p), 'notes')).body.rows).toEqual([]);
    expect((await select(alice, mine, 'notes', { ids: [note.id] })).body.rows).toHaveLength(1);
  });

  it('insert into a shared table at resource scope creates the caller’s own row, linked in', async ({ s, project }) => {
    const { carol } = s.users;
    const p = await project('shared-insert');
    const [row] = await insert(carol, inResource(p), 'notes', { title: 'made here' });
    expect((await select(carol, mine, 'notes', { ids: [row.id] })).body.rows).toEqual([expect.objectContaining({ title: 'made here' })]);
    await db(carol, { scope: inResource(p), table: 'notes', op: 'update', ids: [row.id], values: { body: 'edited in the resource' } });
    expect((await select(carol, mine, 'notes', { ids: [row.id] })).body.rows[0].body).toBe('edited in the resource');
  });

  it('hidden links vanish from resource reads', async ({ ctx, s, project }) => {
    const { alice, bob } = s.users;
    const p = await project('hidden');
    const [note] = await insert(alice, inResource(p), 'notes', { title: 'soon hidden' });
    await ctx.database.prisma.rowLink.update({ where: { rowId_resourceId: { rowId: note.id, resourceId: p } }, data: { hidden: true } });
    expect((await select(bob, inResource(p), 'notes')).body.rows).toEqual([]);
    const update = await db(alice, { scope: inResource(p), table: 'notes', op: 'update', ids: [note.id], values: { body: 'x' } });
    expect(update.body).toEqual({ rows: [] });
  });
});

describe('docs/api.md §11.1 batches: one transaction, all or nothing', () => {
  it('runs every operation and answers each in order', async ({ s, project }) => {
    const { alice } = s.users;
    const p = await project('batch');
    const res = await alice.post('/v1/db/batch', {
      operations: [
        { scope: inResource(p), table: 'tasks', op: 'insert', values: { title: 'one' } },
        { scope: mine, table: 'notes', op: 'insert', values: { title: 'two' } },
        { scope: inResource(p), table: 'tasks', op: 'select' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual([
      { rows: [expect.objectContaining({ title: 'one' })] },
      { rows: [expect.objectContaining({ title: 'two' })] },
      { rows: [expect.objectContaining({ title: 'one' })], nextCursor: null },
    ]);
  });

  it('a failing operation rolls back the ones before it and names itself', async ({ s, project }) => {
    const { alice } = s.users;
    const p = await project('batch-fail');
    const res = await alice.post('/v1/db/batch', {
      operations: [
        { scope: inResource(p), table: 'tasks', op: 'insert', values: { title: 'kept?' } },
        { scope: inResource(p), table: 'tasks', op: 'insert', values: { priority: 'high' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_value');
    expect(res.body.message).toMatch(/^operations\[1\]: /);
    expect((await select(alice, inResource(p), 'tasks')).body.rows).toEqual([]);
  });

  it('at most 20 operations', async ({ s }) => {
    const op = { scope: mine, table: 'notes', op: 'select' };
    const res = await s.users.alice.post('/v1/db/batch', { operations: Array(21).fill(op) });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_argument']);
  });
});

describe('docs/api.md §7.2 the same operations over GraphQL', () => {
  it('dbQuery, dbSelect and dbBatch round-trip rows as JSON', async ({ s, project }) => {
    const { alice, bob } = s.users;
    const p = await project('graphql');
    const inserted = await alice.gql(`mutation($input: DbOperationInput!) { dbQuery(input: $input) { op ok rows nextCursor } }`, {
      input: {
        scope: { kind: 'resource', resourceId: p },
        table: 'tasks',
        op: 'insert',
        values: [{ title: 'g1', meta: { a: [1, 2] } }, { title: 'g2' }],
      },
    });
    expect(inserted.errors).toBeUndefined();
    expect(inserted.data.dbQuery).toMatchObject({ op: 'insert', ok: true, nextCursor: null });
    expect(inserted.data.dbQuery.rows.map((r: any) => r.title)).toEqual(['g1', 'g2']);

    const page = await bob.gql(`query($input: DbSelectInput!) { dbSelect(input: $input) { rows nextCursor } }`, {
      input: { scope: { kind: 'resource', resourceId: p }, table: 'tasks', orderBy: { column: 'title', direction: 'desc' }, limit: 1 },
    });
    expect(page.data.dbSelect.rows).toEqual([expect.objectContaining({ title: 'g2', roomId: null })]);
    const next = await bob.gql(`query($input: DbSelectInput!) { dbSelect(input: $input) { rows nextCursor } }`, {
      input: {
        scope: { kind: 'resource', resourceId: p },
        table: 'tasks',
        orderBy: { column: 'title', direction: 'desc' },
        limit: 1,
        cursor: page.data.dbSelect.nextCursor,
      },
    });
    expect(next.data.dbSelect.rows).toEqual([expect.objectContaining({ title: 'g1', meta: { a: [1, 2] } })]);

    const batch = await alice.gql(`mutation($ops: [DbOperationInput!]!) { dbBatch(operations: $ops) { op ok rows } }`, {
      ops: [
        { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { title: 'gq' } },
        { scope: { kind: 'resource', resourceId: p }, table: 'tasks', op: 'select', where: { title: 'g1' } },
      ],
    });
    expect(batch.data.dbBatch.map((r: any) => r.op)).toEqual(['insert', 'select']);
    expect(batch.data.dbBatch[1].rows).toHaveLength(1);
  });

  it('errors carry the same code and status', async ({ s, project }) => {
    const p = await project('graphql-errors');
    const res = await s.users.bob.gql(`mutation($input: DbOperationInput!) { dbQuery(input: $input) { ok } }`, {
      input: { scope: { kind: 'resource', resourceId: p }, table: 'tasks', op: 'insert', values: { title: 'reader' } },
    });
    expect(res.errors[0].extensions).toMatchObject({ code: 'access_denied', status: 403 });
  });
});
