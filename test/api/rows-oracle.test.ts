/**
 * docs/api.md §11.4: a write matches only rows the caller can read, so its answer (status, code,
 * body) is what it would be if no other row existed; a write in a room the caller reads nothing
 * in is refused whatever rows are there; a write answers only what a read would show. Each
 * attack here is the one of issue 24 item 1 (a binary search on a hidden value through filtered
 * writes), run to the end: it must recover nothing and change nothing. Both stores.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, rowsSeed } from './rows.fixture.js';

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice', 'bob', 'dave'], seed: rowsSeed });

type Answer = { status: number; body: unknown };
type Probe = (value: string) => Promise<Answer>;

const PRINTABLE_FIRST = 0x20;
const PRINTABLE_LAST = 0x7e;

/**
 * Recovers a hidden text value from `probe(value)`, which runs a write filtered by `column >=
 * value`, by reading each answer that differs from `nothing` (the answer of a filter that matches
 * no row) as "some hidden row is >= value". A binary search per character over printable ASCII,
 * as issue 24 item 1 describes. Returns what it recovered and every answer it saw.
 */
async function binarySearch(probe: Probe, nothing: Answer, maxLength = 12): Promise<{ recovered: string; answers: Answer[] }> {
  const answers: Answer[] = [];
  const matches = async (value: string) => {
    const answer = await probe(value);
    answers.push(answer);
    return JSON.stringify(answer) !== JSON.stringify(nothing);
  };
  let recovered = '';
  while (recovered.length < maxLength) {
    // The largest character c with a hidden value >= recovered + c.
    let low = PRINTABLE_FIRST;
    let high = PRINTABLE_LAST;
    if (!(await matches(recovered + String.fromCharCode(low)))) break;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (await matches(recovered + String.fromCharCode(mid))) low = mid;
      else high = mid - 1;
    }
    recovered += String.fromCharCode(low);
  }
  return { recovered, answers };
}

const answer = (res: { status: number; body: unknown }): Answer => ({ status: res.status, body: res.body });

describe.each(available)('writes are no oracle on rows the caller cannot read, on $name', backend => {
  const it = onBackend(backend)
    /** project(name): a project owned by alice; bob a writer, dave an admin. */
    .extend('project', async ({ s }) => {
      return async (name: string) => {
        const { alice, bob, dave } = s.users;
        const id = await createResource(alice, 'project', name);
        await addMember(alice, bob, id, 'writer');
        await addMember(alice, dave, id, 'admin');
        return id;
      };
    })
    .extend('room', async ({ s }) => {
      return async (resourceId: string, name: string, grants: [{ id: string }, string][]) => {
        const res = await s.users.alice.post(`/v1/resources/${resourceId}/rooms`, { name });
        for (const [user, role] of grants) {
          const granted = await s.users.alice.request(
            'PUT',
            `/v1/resources/${resourceId}/rooms/${res.body.id}/grants/${encodeURIComponent(user.id)}`,
            {
              role,
            },
          );
          expect(granted.status).toBe(200);
        }
        return res.body.id as string;
      };
    });

  async function insert(as: RowsSeed['users'][string], scope: unknown, table: string, values: unknown) {
    const res = await db(as, { scope, table, op: 'insert', values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rows[0];
  }

  it("a filtered delete or update on a `read: 'creator'` table recovers nothing of another member's row", async ({ s, project }) => {
    const { alice, bob, dave } = s.users;
    const p = await project('creator-only');
    const secret = await insert(alice, inResource(p), 'diary', { text: 'the-secret' });
    expect((await db(bob, { scope: inResource(p), table: 'diary', op: 'select' })).body.rows).toEqual([]);

    for (const [who, as] of [
      ['bob (a writer)', bob],
      ['dave (an admin, whom the delete rule admits)', dave],
    ] as const) {
      for (const op of ['delete', 'update'] as const) {
        const write = (where: unknown) =>
          db(as, { scope: inResource(p), table: 'diary', op, where, ...(op === 'update' ? { values: { text: 'overwritten' } } : {}) });
        const nothing = answer(await write({ text: 'no row holds this' }));
        const { recovered, answers } = await binarySearch(async value => answer(await write({ text: { gte: value } })), nothing);
        expect(recovered, `${who} ${op}`).toBe('');
        expect(new Set(answers.map(a => JSON.stringify(a))), `${who} ${op}`).toEqual(new Set([JSON.stringify(nothing)]));
        // gt past the value and gte before it: the same answer, and the same as a filter on nothing.
        expect(answer(await write({ text: { gt: 'the-secret' } }))).toEqual(nothing);
        expect(answer(await write({ text: { gte: 'the-s' } }))).toEqual(nothing);
      }
    }
    // Nothing was changed or deleted along the way.
    const mine = await db(alice, { scope: inResource(p), table: 'diary', op: 'select' });
    expect(mine.body.rows).toEqual([expect.objectContaining({ id: secret.id, text: 'the-secret' })]);
  });

  it('scope.roomId on a room the caller holds nothing in: the same refusal whatever rows are in it', async ({ s, project, room }) => {
    const { alice, bob, dave } = s.users;
    const p = await project('hidden-room');
    const hidden = await room(p, 'Hidden', [[alice, 'writer']]);
    const empty = await room(p, 'Empty', [[alice, 'writer']]);
    const row = await insert(alice, inResource(p, hidden), 'tasks', { title: 'hidden title' });

    for (const as of [bob, dave]) {
      for (const op of ['delete', 'update'] as const) {
        const write = (roomId: string, where: unknown) =>
          db(as, { scope: inResource(p, roomId), table: 'tasks', op, where, ...(op === 'update' ? { values: { title: 'x' } } : {}) });
        // The answer in a room with rows is the answer in an empty room.
        const nothing = answer(await write(empty, { title: { gte: '' } }));
        const { recovered, answers } = await binarySearch(async value => answer(await write(hidden, { title: { gte: value } })), nothing);
        expect(recovered).toBe('');
        expect(new Set(answers.map(a => JSON.stringify(a)))).toEqual(new Set([JSON.stringify(nothing)]));
        // Refused as a read of the room is, before any row is looked at.
        expect(nothing.status).toBe(403);
        expect((nothing.body as { error: string }).error).toBe('room_forbidden');
        // By ids too: the hidden row's id answers as a room holding nothing.
        const byId = await db(as, {
          scope: inResource(p, hidden),
          table: 'tasks',
          op,
          ids: [row.id],
          ...(op === 'update' ? { values: { title: 'x' } } : {}),
        });
        expect(answer(byId)).toEqual(nothing);
      }
    }
    const still = await db(alice, { scope: inResource(p, hidden), table: 'tasks', op: 'select' });
    expect(still.body.rows).toEqual([expect.objectContaining({ id: row.id, title: 'hidden title' })]);
  });

  it('a hidden row named by id answers exactly as an id of no row (update, delete, unlink, moveRoom), never 403', async ({
    ctx,
    s,
    project,
    room,
  }) => {
    const { alice, bob, dave } = s.users;
    const p = await project('hidden-ids');
    const hidden = await room(p, 'Hidden', [[alice, 'admin']]);
    const secret = await insert(alice, inResource(p), 'diary', { text: 'mine alone' });
    const inRoom = await insert(alice, inResource(p, hidden), 'tasks', { title: 'in a room dave holds nothing in' });
    const note = await insert(alice, inResource(p, hidden), 'notes', { title: 'a linked note' });
    const absent = '0190a0b0-0000-7000-8000-000000000000';
    const same = (a: { status: number; body: any }, b: { status: number; body: any }, hiddenId: string) =>
      expect({ ...answer(a), body: JSON.parse(JSON.stringify(a.body).replaceAll(hiddenId, absent)) }).toEqual(answer(b));

    const cases: [(typeof s.users)[string], string, Record<string, unknown>, string][] = [
      [bob, 'diary', { op: 'delete' }, secret.id],
      [bob, 'diary', { op: 'update', values: { text: 'x' } }, secret.id],
      [dave, 'diary', { op: 'delete' }, secret.id],
      [dave, 'tasks', { op: 'moveRoom', destination: p }, inRoom.id],
      [dave, 'notes', { op: 'moveRoom', destination: p }, note.id],
      [dave, 'notes', { op: 'unlink' }, note.id],
    ];
    for (const [as, table, body, id] of cases) {
      const onHidden = await db(as, { scope: inResource(p), table, ...body, ids: [id] });
      const onAbsent = await db(as, { scope: inResource(p), table, ...body, ids: [absent] });
      expect(onHidden.status, JSON.stringify({ table, body, answer: onHidden.body })).not.toBe(403);
      same(onHidden, onAbsent, id);
    }
    const rows = await ctx.database.prisma.row.findMany({
      where: { id: { in: [secret.id, inRoom.id, note.id] } },
      select: { id: true, roomId: true },
    });
    expect(rows).toHaveLength(3);
    expect((await ctx.database.prisma.rowLink.findMany({ where: { rowId: note.id } })).map(l => l.roomId)).toEqual([hidden]);
  });

  it("issue 24 item 2: the owner with no grant in a room deletes nothing there and reads nothing back (read: 'reader', delete: 'admin')", async ({
    ctx,
    s,
    project,
    room,
  }) => {
    const { alice, bob } = s.users;
    const p = await project('owner-no-grant');
    const r1 = await room(p, 'R1', [[bob, 'writer']]);
    const row = await insert(bob, inResource(p, r1), 'tasks', { title: 'room content' });
    const read = await db(alice, { scope: inResource(p, r1), table: 'tasks', op: 'select' });
    expect([read.status, read.body.error]).toEqual([403, 'room_forbidden']);
    const byFilter = await db(alice, { scope: inResource(p, r1), table: 'tasks', op: 'delete', where: { title: 'room content' } });
    expect([byFilter.status, byFilter.body.error]).toEqual([403, 'room_forbidden']);
    expect(JSON.stringify(byFilter.body)).not.toContain('room content');
    const byId = await db(alice, { scope: inResource(p, r1), table: 'tasks', op: 'delete', ids: [row.id] });
    expect(answer(byId)).toEqual(answer(byFilter));
    expect(await ctx.database.prisma.row.count({ where: { id: row.id } })).toBe(1);
  });
});
