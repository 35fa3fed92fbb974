/**
 * Rows across rooms (docs/api.md §10 rules 4-8, §11.5): union reads with one cursor over rooms of
 * mixed grants, default-room writes, room-scoped reads and writes, moveRoom, type-scoped reads,
 * the virtual roomId. Rooms and grants are made through the room routes (§10).
 */
import { describe, expect } from 'vitest';
import { type TestContext, addMember, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, rowsSeed } from './rows.fixture.js';

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'], seed: rowsSeed });

type User = RowsSeed['users'][string];

async function room(owner: User, resourceId: string, name: string): Promise<string> {
  const res = await owner.post(`/v1/resources/${resourceId}/rooms`, { name });
  if (res.status !== 200) throw new Error(`room failed: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function grant(owner: User, resourceId: string, roomId: string, user: User, role: string) {
  const res = await owner.request('PUT', `/v1/resources/${resourceId}/rooms/${roomId}/grants/${encodeURIComponent(user.id)}`, { role });
  if (res.status !== 200) throw new Error(`grant failed: ${JSON.stringify(res.body)}`);
}

async function insert(as: User, scope: unknown, table: string, values: unknown) {
  const res = await db(as, { scope, table, op: 'insert', values });
  if (res.status !== 200) throw new Error(`insert failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.rows as any[];
}

const select = (as: User, scope: unknown, extra: Record<string, unknown> = {}) => db(as, { scope, table: 'tasks', op: 'select', ...extra });

/**
 * alice owns P; bob is a writer with grants writer in R1 and reader in R2 and none in R3; carol
 * (writer) holds R3; dave is an admin holding nothing. Rows: 5 in the default room and 6 in each room.
 */
async function world(ctx: TestContext, s: RowsSeed) {
  const { alice, bob, carol, dave } = s.users;
  const p = await createResource(alice, 'project', 'rooms');
  await addMember(alice, bob, p, 'writer');
  await addMember(alice, carol, p, 'writer');
  await addMember(alice, dave, p, 'admin');
  const [r1, r2, r3] = [await room(alice, p, 'R1'), await room(alice, p, 'R2'), await room(alice, p, 'R3')];
  await grant(alice, p, r1, bob, 'writer');
  await grant(alice, p, r2, bob, 'reader');
  for (const r of [r1, r2, r3]) await grant(alice, p, r, carol, 'writer');
  const made: Record<string, string[]> = { default: [], r1: [], r2: [], r3: [] };
  for (let i = 0; i < 6; i++) {
    if (i < 5) made.default.push((await insert(alice, inResource(p), 'tasks', { title: `d${i}`, priority: i }))[0].id);
    for (const [key, id] of [
      ['r1', r1],
      ['r2', r2],
      ['r3', r3],
    ] as const) {
      made[key].push((await insert(carol, inResource(p, id), 'tasks', { title: `${key}-${i}`, priority: 10 - i }))[0].id);
    }
    ctx.advance(5);
  }
  return { p, r1, r2, r3, made };
}

describe('docs/api.md §10 rule 4: a resource-scoped read spans every room whose effective role passes, one result set, one cursor', () => {
  it('bob reads the default room, R1 and R2 (not R3) in one ordered set, each row with its roomId', async ({ ctx, s }) => {
    const { p, r1, r2, made } = await world(ctx, s);
    const res = await select(s.users.bob, inResource(p), { limit: 200 });
    const rows = res.body.rows;
    expect(rows.map((r: any) => r.id).sort()).toEqual([...made.default, ...made.r1, ...made.r2].sort());
    const byRoom = (roomId: string | null) => rows.filter((r: any) => r.roomId === roomId).length;
    expect([byRoom(null), byRoom(r1), byRoom(r2)]).toEqual([5, 6, 6]);
    // Ordered by createdAt then id across rooms, not room by room.
    const keys = rows.map((r: any) => `${r.createdAt}|${r.id}`);
    expect(keys).toEqual([...keys].sort());
  });

  it.for<[Record<string, string> | undefined, number]>([
    [undefined, 3],
    [{ column: 'priority', direction: 'desc' }, 4],
    [{ column: 'title' }, 5],
  ])('paging with orderBy %o and limit %i crosses rooms with one cursor, no row twice or missing', async ([orderBy, limit], { ctx, s }) => {
    const { p, made } = await world(ctx, s);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await select(s.users.bob, inResource(p), { limit, ...(orderBy ? { orderBy } : {}), ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      expect(page.body.rows.length).toBeLessThanOrEqual(limit);
      seen.push(...page.body.rows.map((r: any) => r.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual([...made.default, ...made.r1, ...made.r2].sort());
  });

  it('owners and admins without a grant do not read a room; a grant of their own lets them', async ({ ctx, s }) => {
    const { p, r3, made } = await world(ctx, s);
    const { alice, dave } = s.users;
    expect((await select(dave, inResource(p), { limit: 200 })).body.rows.map((r: any) => r.id).sort()).toEqual([...made.default].sort());
    await grant(alice, p, r3, dave, 'reader');
    expect((await select(dave, inResource(p), { limit: 200 })).body.rows).toHaveLength(11);
  });

  it('a resource demotion narrows every room at once', async ({ ctx, s }) => {
    const { p, r1 } = await world(ctx, s);
    const { alice, bob } = s.users;
    expect((await db(bob, { scope: inResource(p, r1), table: 'tasks', op: 'insert', values: { title: 'while writer' } })).status).toBe(200);
    await alice.post(`/v1/resources/${p}/setRole`, { userId: bob.id, role: 'reader' });
    const refused = await db(bob, { scope: inResource(p, r1), table: 'tasks', op: 'insert', values: { title: 'as reader' } });
    expect([refused.status, refused.body.error]).toEqual([403, 'room_forbidden']);
    expect((await select(bob, inResource(p, r1))).status).toBe(200);
  });
});

describe('docs/api.md §10 rules 5 and 6: writes go to the default room; room scope is that room alone', () => {
  it('a resource-scoped insert lands in the default room; a room-scoped one in its room', async ({ ctx, s }) => {
    const { p, r1 } = await world(ctx, s);
    const [d] = await insert(s.users.bob, inResource(p), 'tasks', { title: 'default' });
    const [r] = await insert(s.users.bob, inResource(p, r1), 'tasks', { title: 'r1' });
    expect([d.roomId, r.roomId]).toEqual([null, r1]);
    // The default room's id is the resource id.
    const [dd] = await insert(s.users.bob, inResource(p, p), 'tasks', { title: 'default again' });
    expect(dd.roomId).toBeNull();
  });

  it('room-scoped reads return that room alone; a room without a passing grant is 403 room_forbidden', async ({ ctx, s }) => {
    const { p, r1, r3, made } = await world(ctx, s);
    const ids = (res: any) => res.body.rows.map((r: any) => r.id).sort();
    expect(ids(await select(s.users.bob, inResource(p, r1), { limit: 200 }))).toEqual([...made.r1].sort());
    expect(ids(await select(s.users.bob, inResource(p, p), { limit: 200 }))).toEqual([...made.default].sort());
    const r3read = await select(s.users.bob, inResource(p, r3));
    expect([r3read.status, r3read.body.error]).toEqual([403, 'room_forbidden']);
    const ownerWrite = await db(s.users.alice, { scope: inResource(p, r3), table: 'tasks', op: 'insert', values: { title: 'x' } });
    expect([ownerWrite.status, ownerWrite.body.error]).toEqual([403, 'room_forbidden']);
  });

  it('updates and deletes without roomId touch the default room only', async ({ ctx, s }) => {
    const { p, r1, made } = await world(ctx, s);
    const { carol } = s.users;
    const miss = await db(carol, { scope: inResource(p), table: 'tasks', op: 'update', ids: [made.r1[0]], values: { done: true } });
    expect([miss.status, miss.body]).toEqual([200, { rows: [] }]);
    const hit = await db(carol, { scope: inResource(p, r1), table: 'tasks', op: 'update', ids: [made.r1[0]], values: { done: true } });
    expect(hit.body.rows[0]).toMatchObject({ done: true, roomId: r1 });
  });

  it('invalid_room for a malformed id or another resource’s room; room_not_found for no such room', async ({ ctx, s }) => {
    const { p } = await world(ctx, s);
    const other = await createResource(s.users.alice, 'project', 'other');
    const elsewhere = await room(s.users.alice, other, 'elsewhere');
    for (const [roomId, status, code] of [
      ['nope', 400, 'invalid_room'],
      [elsewhere, 400, 'invalid_room'],
      [other, 400, 'invalid_room'],
      ['room_00000000000000000000', 404, 'room_not_found'],
    ] as const) {
      const res = await select(s.users.alice, inResource(p, roomId));
      expect([roomId, res.status, res.body.error]).toEqual([roomId, status, code]);
    }
  });

  it('roomId is virtual: never written, filtered or ordered by, yet every resource row carries it', async ({ ctx, s }) => {
    const { p, r1 } = await world(ctx, s);
    const { bob } = s.users;
    const refusals = [
      await db(bob, { scope: inResource(p), table: 'tasks', op: 'insert', values: { title: 'x', roomId: r1 } }),
      await db(bob, { scope: inResource(p), table: 'tasks', op: 'select', where: { roomId: r1 } }),
      await db(bob, { scope: inResource(p), table: 'tasks', op: 'select', orderBy: { column: 'roomId' } }),
      await db(bob, { scope: inResource(p), table: 'tasks', op: 'select', where: { room_id: r1 } }),
    ];
    expect(refusals.map(r => r.body.error)).toEqual(Array(4).fill('virtual_room_id'));
    const rows = (await select(bob, inResource(p), { limit: 200 })).body.rows;
    expect(rows.every((r: any) => 'roomId' in r)).toBe(true);
  });
});

describe('docs/api.md §10 rule 7: moveRoom needs admin in the source room and write access in the destination', () => {
  it('a writer cannot move out of a room; an admin in both rooms moves in one call', async ({ ctx, s }) => {
    const { p, r1, r2, made } = await world(ctx, s);
    const { alice, bob, dave } = s.users;
    const asWriter = await db(bob, { scope: inResource(p), table: 'tasks', op: 'moveRoom', ids: [made.r1[0]], destination: p });
    expect([asWriter.status, asWriter.body.error]).toEqual([403, 'room_forbidden']);
    // dave is admin in the default room but holds nothing in R1: no write access there.
    const noDest = await db(dave, { scope: inResource(p), table: 'tasks', op: 'moveRoom', ids: [made.default[0]], destination: r1 });
    expect([noDest.status, noDest.body.error]).toEqual([403, 'room_forbidden']);
    await grant(alice, p, r1, dave, 'admin');
    await grant(alice, p, r2, dave, 'admin');
    const moved = await db(dave, { scope: inResource(p), table: 'tasks', op: 'moveRoom', ids: [made.default[0], made.r2[0]], destination: r1 });
    expect(moved.body).toEqual({ ok: true });
    const inR1 = (await select(dave, inResource(p, r1), { limit: 200 })).body.rows.map((r: any) => r.id);
    expect(inR1).toEqual(expect.arrayContaining([made.default[0], made.r2[0]]));
    // Back to the default room (its id is the resource id).
    expect((await db(dave, { scope: inResource(p, r1), table: 'tasks', op: 'moveRoom', ids: [made.default[0]], destination: p })).status).toBe(200);
    expect((await select(dave, inResource(p), { ids: [made.default[0]] })).body.rows[0].roomId).toBeNull();
  });

  it('one refused row moves nothing', async ({ ctx, s }) => {
    const { p, r1, r3, made } = await world(ctx, s);
    const { alice, dave } = s.users;
    await grant(alice, p, r1, dave, 'admin');
    // dave reads R3 (so its row takes part) but is no admin there.
    await grant(alice, p, r3, dave, 'reader');
    const res = await db(dave, { scope: inResource(p), table: 'tasks', op: 'moveRoom', ids: [made.default[1], made.r3[0]], destination: r1 });
    expect(res.status).toBe(403);
    const rows = await ctx.database.prisma.row.findMany({ where: { id: { in: [made.default[1], made.r3[0]] } }, select: { id: true, roomId: true } });
    expect(Object.fromEntries(rows.map(r => [r.id, r.roomId]))).toEqual({ [made.default[1]]: null, [made.r3[0]]: r3 });
  });

  it('moves linked rows of shared tables too, and refuses a bad destination', async ({ ctx, s }) => {
    const { p, r1 } = await world(ctx, s);
    const { alice } = s.users;
    await grant(alice, p, r1, alice, 'admin');
    const [note] = await insert(alice, inResource(p), 'notes', { title: 'linked' });
    expect((await db(alice, { scope: inResource(p), table: 'notes', op: 'moveRoom', ids: [note.id], destination: r1 })).status).toBe(200);
    expect((await db(alice, { scope: inResource(p, r1), table: 'notes', op: 'select' })).body.rows).toEqual([
      expect.objectContaining({ id: note.id, roomId: r1 }),
    ]);
    expect((await db(alice, { scope: inResource(p), table: 'notes', op: 'moveRoom', ids: [note.id], destination: 'nowhere' })).body.error).toBe(
      'invalid_room',
    );
  });
});

describe('docs/api.md §10 rule 8: type-scoped reads span default rooms only', () => {
  it('rows of every project bob belongs to, default rooms only, each naming its resource', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const freshType = await s.user('typereader');
    const p1 = await createResource(alice, 'project', 'T1');
    const p2 = await createResource(carol, 'project', 'T2');
    const p3 = await createResource(alice, 'project', 'T3 (not a member)');
    await addMember(alice, freshType, p1, 'reader');
    await addMember(carol, freshType, p2, 'reader');
    const r = await room(alice, p1, 'side room');
    await grant(alice, p1, r, freshType, 'reader');
    await insert(alice, inResource(p1), 'tasks', { title: 'p1 default' });
    await insert(carol, inResource(p2), 'tasks', { title: 'p2 default' });
    await insert(alice, inResource(p3), 'tasks', { title: 'p3 default' });
    await grant(alice, p1, r, alice, 'writer');
    await insert(alice, inResource(p1, r), 'tasks', { title: 'p1 room' });
    const res = await db(freshType, { scope: { kind: 'type', type: 'project' }, table: 'tasks', op: 'select' });
    expect(res.status).toBe(200);
    expect(res.body.rows.map((row: any) => [row.title, row.resourceId, row.roomId])).toEqual([
      ['p1 default', p1, null],
      ['p2 default', p2, null],
    ]);
    void bob;
  });

  it('public resources count for readers who are not members (as a visitor would read them)', async ({ s }) => {
    const { alice } = s.users;
    const visitor = await s.user('visitor');
    const f = await createResource(alice, 'forum', 'open');
    await insert(alice, inResource(f), 'posts', { body: 'hello' });
    const res = await db(visitor, { scope: { kind: 'type', type: 'forum' }, table: 'posts', op: 'select', where: { body: 'hello' } });
    expect(res.body.rows.map((r: any) => r.resourceId)).toContain(f);
    expect((await db(visitor, { scope: { kind: 'type', type: 'nope' }, table: 'posts', op: 'select' })).body.error).toBe('unknown_type');
  });
});
