/**
 * `upsert` (docs/api.md §11.1): one atomic insert-or-update per value on a declared unique key
 * (a `unique()` column or a `unique([...])` set), with the create rule for the insert path and
 * the update rule for the update path; a conflicting row the caller cannot reach answers as an
 * insert would (409 unique_violation) and is never changed or shown; one write charged per call;
 * racing upserts of one key never both insert. Both stores.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, mine, rowsSeed } from './rows.fixture.js';
import { chargeCount } from '../helpers/ledger.js';

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice', 'bob', 'carol'], seed: rowsSeed });

describe.each(available)('upsert on $name', backend => {
  /** project(name): a project owned by alice; bob a writer, carol a reader. */
  const it = onBackend(backend).extend('project', async ({ s }) => async (name: string) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'project', name);
    await addMember(alice, bob, id, 'writer');
    await addMember(alice, carol, id, 'reader');
    return id;
  });

  const upsert = (as: RowsSeed['users'][string], scope: unknown, table: string, values: unknown, onConflict: unknown) =>
    db(as, { scope, table, op: 'upsert', values, onConflict });

  it("a user's own rows: inserts, then updates the row with the key's value (the given columns only)", async ({ s }) => {
    const { alice } = s.users;
    const first = await upsert(alice, mine, 'notes', { slug: 'up-1', title: 'first', body: 'kept' }, 'slug');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const [row] = first.body.rows;
    expect(row).toMatchObject({ slug: 'up-1', title: 'first', body: 'kept' });
    const second = await upsert(alice, mine, 'notes', { slug: 'up-1', title: 'second' }, ['slug']);
    expect(second.body.rows).toEqual([expect.objectContaining({ id: row.id, title: 'second', body: 'kept' })]);
    expect(second.body.rows[0].updatedAt >= row.updatedAt).toBe(true);
    // Several values in one call, each found or inserted on its own.
    const many = await upsert(
      alice,
      mine,
      'notes',
      [
        { slug: 'up-1', title: 'third' },
        { slug: 'up-2', title: 'new' },
      ],
      'slug',
    );
    expect(many.body.rows.map((r: { id: string; title: string }) => [r.id === row.id, r.title])).toEqual([
      [true, 'third'],
      [false, 'new'],
    ]);
    const all = await db(alice, { scope: mine, table: 'notes', op: 'select', where: { slug: { in: ['up-1', 'up-2'] } } });
    expect(all.body.rows).toHaveLength(2);
  });

  it('a key of two columns (presence): one row per member and device, charged as one write per call', async ({ ctx, s, project }) => {
    const { alice, carol } = s.users;
    const p = await project('presence');
    const seen = (as: typeof carol, device: string, n: number) =>
      upsert(as, inResource(p), 'presence', { member: as.id, device, state: 'online', seen: n }, 'device, member');
    const charges = () => chargeCount(ctx.database.prisma, { developerId: s.developerId, kind: 'charge:rows.upsert' });
    const before = await charges();
    const a = await seen(carol, 'phone', 1);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await seen(carol, 'phone', 2);
    expect(b.body.rows).toEqual([expect.objectContaining({ id: a.body.rows[0].id, seen: 2, _creatorId: carol.id })]);
    const c = await seen(carol, 'laptop', 3);
    expect(c.body.rows[0].id).not.toBe(a.body.rows[0].id);
    expect(await charges()).toBe(before + 3);
    const rows = await db(alice, { scope: inResource(p), table: 'presence', op: 'select' });
    expect(rows.body.rows.map((r: { device: string; seen: number }) => [r.device, r.seen]).sort()).toEqual([
      ['laptop', 3],
      ['phone', 2],
    ]);
  });

  it('each path keeps its access rule: create to insert, update (creator) to change a row the caller reads', async ({ s, project }) => {
    const { alice, bob, carol } = s.users;
    const p = await project('paths');
    await upsert(carol, inResource(p), 'presence', { member: 'shared', device: 'd', seen: 1 }, ['member', 'device']);
    // bob reads carol's row, but update is `creator`: 403, nothing changed.
    const other = await upsert(bob, inResource(p), 'presence', { member: 'shared', device: 'd', seen: 9 }, ['member', 'device']);
    expect([other.status, other.body.error]).toEqual([403, 'access_denied']);
    // tasks: a reader may not create, and updates only rows of their own: alice's row (which carol
    // reads) is refused by the update rule, a free key by the create rule.
    await db(alice, { scope: inResource(p), table: 'tasks', op: 'insert', values: { title: 't', ref: '0190a0b0-0000-7000-8000-0000000000f1' } });
    const reader = await upsert(carol, inResource(p), 'tasks', { title: 'x', ref: '0190a0b0-0000-7000-8000-0000000000f1' }, 'ref');
    expect([reader.status, reader.body.error]).toEqual([403, 'access_denied']);
    expect(reader.body.message).toMatch(/update on tasks/);
    const fresh = await upsert(carol, inResource(p), 'tasks', { title: 'x', ref: '0190a0b0-0000-7000-8000-0000000000f2' }, 'ref');
    expect([fresh.status, fresh.body.message]).toEqual([403, expect.stringMatching(/create on tasks/)]);

    const stored = await db(alice, { scope: inResource(p), table: 'presence', op: 'select' });
    expect(stored.body.rows).toEqual([expect.objectContaining({ seen: 1 })]);
  });

  it('a conflicting row the caller cannot read answers exactly as an insert would (409), and is neither changed nor shown', async ({
    s,
    project,
  }) => {
    const { alice, bob } = s.users;
    const p = await project('hidden-conflict');
    const [hidden] = (await db(alice, { scope: inResource(p), table: 'handles', op: 'insert', values: { name: 'taken', note: 'alice only' } })).body
      .rows;
    const asInsert = await db(bob, { scope: inResource(p), table: 'handles', op: 'insert', values: { name: 'taken', note: 'bob' } });
    const asUpsert = await upsert(bob, inResource(p), 'handles', { name: 'taken', note: 'bob' }, 'name');
    expect([asUpsert.status, asUpsert.body.error]).toEqual([409, 'unique_violation']);
    expect(asUpsert.body).toEqual(asInsert.body);
    expect(JSON.stringify(asUpsert.body)).not.toContain('alice only');
    expect(JSON.stringify(asUpsert.body)).not.toContain(hidden.id);
    const still = await db(alice, { scope: inResource(p), table: 'handles', op: 'select' });
    expect(still.body.rows).toEqual([expect.objectContaining({ id: hidden.id, note: 'alice only' })]);
    // alice's own upsert of the key updates her row; bob's of a free key inserts his.
    expect((await upsert(alice, inResource(p), 'handles', { name: 'taken', note: 'edited' }, 'name')).body.rows[0]).toMatchObject({
      id: hidden.id,
      note: 'edited',
    });
    expect((await upsert(bob, inResource(p), 'handles', { name: 'free', note: 'bob' }, 'name')).body.rows[0]).toMatchObject({ _creatorId: bob.id });
  });

  it('a conflicting row in another room is outside a default-room write: 409, as an insert', async ({ s, project }) => {
    const { alice, carol } = s.users;
    const p = await project('rooms');
    const room = (await alice.post(`/v1/resources/${p}/rooms`, { name: 'R' })).body.id;
    for (const who of [alice, carol])
      await alice.request('PUT', `/v1/resources/${p}/rooms/${room}/grants/${encodeURIComponent(who.id)}`, { role: 'reader' });
    const inRoom = await upsert(carol, inResource(p, room), 'presence', { member: 'm', device: 'd', seen: 1 }, ['member', 'device']);
    expect(inRoom.body.rows[0].roomId).toBe(room);
    const elsewhere = await upsert(carol, inResource(p), 'presence', { member: 'm', device: 'd', seen: 2 }, ['member', 'device']);
    expect([elsewhere.status, elsewhere.body.error]).toEqual([409, 'unique_violation']);
    const again = await upsert(carol, inResource(p, room), 'presence', { member: 'm', device: 'd', seen: 3 }, ['member', 'device']);
    expect(again.body.rows[0]).toMatchObject({ id: inRoom.body.rows[0].id, seen: 3 });
  });

  it('onConflict names a unique key, and every value gives its columns', async ({ s, project }) => {
    const { alice } = s.users;
    const p = await project('validation');
    const cases: [unknown, unknown, number, string, RegExp][] = [
      [{ member: 'm', device: 'd' }, 'member', 400, 'invalid_operation', /no unique key of presence \(its unique keys: member \+ device\)/],
      [{ title: 't' }, 'title', 400, 'invalid_operation', /its unique keys: ref/],
      [{ member: 'm', state: 's' }, ['member', 'device'], 400, 'missing_value', /values\.device/],
      [{ member: 'm', device: 'd' }, [], 400, 'invalid_argument', /onConflict/],
      [{ member: 'm', device: 'd' }, undefined, 400, 'invalid_operation', /upsert needs onConflict/],
      [[], ['member', 'device'], 400, 'invalid_value', /1 to 100/],
    ];
    for (const [values, onConflict, status, code, message] of cases) {
      const table = JSON.stringify(values).includes('title') ? 'tasks' : 'presence';
      const res = await upsert(alice, inResource(p), table, values, onConflict);
      expect([res.status, res.body.error], JSON.stringify(res.body)).toEqual([status, code]);
      expect(res.body.message).toMatch(message);
    }
    const noKey = await db(alice, { scope: inResource(p), table: 'presence', op: 'insert', values: { member: 'm', device: 'd' }, onConflict: 'x' });
    expect(noKey.body.error).toBe('invalid_operation');
  });

  it('over GraphQL: onConflict is a list (one name coerces to one)', async ({ s, project }) => {
    const { carol } = s.users;
    const p = await project('graphql');
    const run = (onConflict: unknown, seen: number) =>
      carol.gql('mutation($input: DbOperationInput!) { dbQuery(input: $input) { op rows } }', {
        input: { scope: inResource(p), table: 'presence', op: 'upsert', values: { member: 'g', device: 'd', seen }, onConflict },
      });
    const first = await run(['member', 'device'], 1);
    expect(first.errors).toBeUndefined();
    expect(first.data.dbQuery.op).toBe('upsert');
    const second = await run('member,device', 2);
    expect(second.data.dbQuery.rows).toEqual([expect.objectContaining({ id: first.data.dbQuery.rows[0].id, seen: 2 })]);
  });

  it('racing upserts of one key never both insert: one row, every call answered 200', async ({ ctx, s, project }) => {
    const { carol } = s.users;
    const p = await project('race');
    // Round 0: carol has not written here yet, so the first upserts lock their key in a statement
    // of its own. In later rounds she has, so the lock travels in the facts' statement (upsertLocksAhead); that
    // they still race safely fails if the facts' statement marks the key held without locking it.
    for (let round = 0; round < 3; round++) {
      const device = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => upsert(carol, inResource(p), 'presence', { member: carol.id, device, seen: i }, ['member', 'device'])),
      );
      expect(answers.map(a => a.status)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map(a => a.body.rows[0].id)).size).toBe(1);
      const rows = await ctx.database.prisma.row.findMany({
        where: { resourceId: p, tableName: 'presence', data: { path: ['device'], equals: device } },
      });
      expect(rows).toHaveLength(1);
    }
    // And a user's own rows, where the key's scope is the user.
    const own = await Promise.all(Array.from({ length: 8 }, (_, i) => upsert(carol, mine, 'notes', { slug: 'race-own', title: `t${i}` }, 'slug')));
    expect(own.map(a => a.status)).toEqual(Array(8).fill(200));
    expect(
      await ctx.database.prisma.row.count({ where: { creatorId: carol.id, tableName: 'notes', data: { path: ['slug'], equals: 'race-own' } } }),
    ).toBe(1);
  });
});
