/**
 * `where`'s operators (docs/api.md §11.3): eq, neq, gt, gte, lt, lte, in, is and not, on select,
 * update and delete, each as SQL judges it (absent values pass no comparison and no negation of
 * one), and the live feed's rowMatches judging every filter as the select does. Writes by id or
 * filter change what matches and answer what they changed (docs/api.md §11.1). Both stores.
 */
import { describe, expect } from 'vitest';
import { type RowTable, parseWhere, rowMatches } from '../../src/rows/row-values.rules.js';
import { createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { ROWS_SCHEMA, type RowsSeed, db, inResource, mine, rowsSeed } from './rows.fixture.js';

const available = await backends();
// One app per backend for the file: each case works in a project of its own.
const onBackend = appTestOn(available, { users: ['alice'], seed: rowsSeed });
const TASKS = ROWS_SCHEMA.tables.tasks as unknown as RowTable;
const REF = ['0190a0b0-0000-7000-8000-00000000000a', '0190a0b0-0000-7000-8000-00000000000b'];

describe.each(available)('where operators on $name', backend => {
  const it = onBackend(backend);
  let s: RowsSeed;
  let project: string;
  let rows: Record<string, any>[];

  it.beforeAll(async ({ s: seeded }) => {
    s = seeded;
    project = await createResource(s.users.alice, 'project', 'Filters');
    const inserted = await tasks({
      op: 'insert',
      values: [
        { title: 'a', priority: 1, estimate: '9007199254740993', done: true, meta: { k: 1, j: [1] }, ref: REF[0], due: '2026-01-01T00:00:00Z' },
        { title: 'b', priority: 2, estimate: 5, done: false, meta: { j: [1], k: 1 } },
        { title: 'c', priority: null, meta: [1, 2], ref: REF[1], due: '2026-06-01T12:00:00+02:00' },
        { title: 'd', priority: 4, estimate: '-3', done: true },
        { title: '😀', priority: 5 },
        { title: '\uffff' },
      ],
    });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    rows = inserted.body.rows;
  });

  function tasks(body: Record<string, unknown>) {
    return db(s.users.alice, { scope: inResource(project), table: 'tasks', ...body });
  }
  const titles = (res: { body: { rows: { title: string }[] } }) => res.body.rows.map(r => r.title).sort();

  const FILTERS: [string, Record<string, unknown>, string[]][] = [
    ['in on text', { title: { in: ['a', 'c', 'zz'] } }, ['a', 'c']],
    ['in on integer', { priority: { in: [1, 4] } }, ['a', 'd']],
    ['in on bigint, past 2^53 and as a number', { estimate: { in: ['9007199254740993', 5] } }, ['a', 'b']],
    ['in on uuid, any case', { ref: { in: [REF[1].toUpperCase()] } }, ['c']],
    ['in on jsonb (objects equal in any key order)', { meta: { in: [{ j: [1], k: 1 }, [1, 2]] } }, ['a', 'b', 'c']],
    ['in on boolean', { done: { in: [false] } }, ['b', 'c', '😀', '\uffff']],
    ['in on timestamps, any offset', { due: { in: ['2026-06-01T10:00:00Z'] } }, ['c']],
    ['an empty in matches nothing', { title: { in: [] } }, []],
    ['neq skips absent values, as SQL does', { priority: { neq: 2 } }, ['a', 'd', '😀']],
    ['neq null is IS NOT NULL', { priority: { neq: null } }, ['a', 'b', 'd', '😀']],
    ['is null', { priority: { is: null } }, ['c', '\uffff']],
    ['is true on a boolean', { done: { is: true } }, ['a', 'd']],
    ['not eq', { title: { not: { eq: 'a' } } }, ['b', 'c', 'd', '😀', '\uffff']],
    ['not in', { priority: { not: { in: [1, 2] } } }, ['d', '😀']],
    ['not is null', { ref: { not: { is: null } } }, ['a', 'c']],
    ['not gt, with a range', { priority: { not: { gt: 4 }, gte: 2 } }, ['b', 'd']],
    ['not of an empty in matches every row, absent values too', { priority: { not: { in: [] } } }, ['a', 'b', 'c', 'd', '😀', '\uffff']],
    ['text in code-point order (an astral character sorts after U+FFFF)', { title: { gt: '\uffff' } }, ['😀']],
    ['in on ids', { id: { in: [] as string[] } }, []],
  ];

  it.each(FILTERS)('select: %s', async (_, where, expected) => {
    const res = await tasks({ op: 'select', where, limit: 200 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(titles(res)).toEqual([...expected].sort());
  });

  it('the live feed judges each filter as the select does (rowMatches on the rows as read)', async () => {
    const all = (await tasks({ op: 'select', limit: 200 })).body.rows as Record<string, unknown>[];
    for (const [what, where, expected] of FILTERS) {
      const conditions = parseWhere('tasks', TASKS, where);
      const matched = all.filter(row => rowMatches(row, conditions)).map(row => row.title);
      expect(matched.sort(), what).toEqual([...expected].sort());
    }
  });

  it('in by ids, 1,000 values at most; a null in a list and is on a non-boolean are refused', async () => {
    const ids = rows.slice(0, 2).map(r => r.id);
    const padding = Array.from({ length: 998 }, (_, i) => `0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(titles(await tasks({ op: 'select', where: { id: { in: [...ids, ...padding] } } }))).toEqual(['a', 'b']);
    for (const [where, message] of [
      [{ id: { in: [...ids, ...padding, padding[0]] } }, /at most 1000/],
      [{ title: { in: ['a', null] } }, /is: null/],
      [{ title: { in: 'a' } }, /list/],
      [{ title: { is: true } }, /boolean/],
      [{ title: { not: {} } }, /not/],
      [{ title: { not: { like: 'a' } } }, /unknown comparison/],
      [{ meta: { not: { gt: 1 } } }, /equality only/],
    ] as const) {
      const res = await tasks({ op: 'select', where });
      expect([res.status, res.body.error], JSON.stringify(where)).toEqual([400, 'invalid_filter']);
      expect(res.body.message).toMatch(message);
    }
    expect((await tasks({ op: 'select', where: { priority: { in: ['x'] } } })).body.error).toBe('invalid_value');
  });

  it('update and delete take the same operators and answer the rows they changed', async () => {
    const made = (await tasks({ op: 'insert', values: ['w1', 'w2', 'w3', 'w4'].map(title => ({ title, priority: 70 })) })).body.rows;
    const updated = await tasks({ op: 'update', where: { priority: 70, title: { in: ['w1', 'w2', 'nope'] } }, values: { done: true } });
    expect(titles(updated)).toEqual(['w1', 'w2']);
    const deleted = await tasks({ op: 'delete', where: { priority: 70, done: { not: { is: true } } } });
    expect(titles(deleted)).toEqual(['w3', 'w4']);
    const again = await tasks({ op: 'delete', where: { id: { in: made.map((r: { id: string }) => r.id) } } });
    expect(titles(again)).toEqual(['w1', 'w2']);
  });
});

describe.each(available)('writes by id change what is there on $name', backend => {
  const it = onBackend(backend);
  let s: RowsSeed;

  it.beforeAll(({ s: seeded }) => {
    s = seeded;
  });

  it('two devices compacting the same rows both succeed; the second changes nothing', async () => {
    const { alice } = s.users;
    const p = await createResource(alice, 'project', 'Compaction');
    const made = (await db(alice, { scope: inResource(p), table: 'tasks', op: 'insert', values: [{ title: 'x' }, { title: 'y' }, { title: 'z' }] }))
      .body.rows;
    const ids = made.map((r: { id: string }) => r.id);
    const compact = () => db(alice, { scope: inResource(p), table: 'tasks', op: 'delete', ids: ids.slice(0, 2) });
    const [first, second] = await Promise.all([compact(), compact()]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const deleted = [...first.body.rows, ...second.body.rows].map((r: { id: string }) => r.id);
    expect(deleted.sort()).toEqual(ids.slice(0, 2).sort());
    // An update naming a gone row and a live one changes the live one and answers it alone.
    const update = await db(alice, { scope: inResource(p), table: 'tasks', op: 'update', ids: [ids[0], ids[2], ids[2]], values: { done: true } });
    expect(update.body.rows.map((r: { id: string; done: boolean }) => [r.id, r.done])).toEqual([[ids[2], true]]);
    // The same for a user's own rows, unlink and moveRoom.
    const [note] = (await db(alice, { scope: mine, table: 'notes', op: 'insert', values: { title: 'n' } })).body.rows;
    for (let i = 0; i < 2; i++) {
      const gone = await db(alice, { scope: mine, table: 'notes', op: 'delete', ids: [note.id] });
      expect(gone.body.rows.length).toBe(1 - i);
    }
    const [shared] = (await db(alice, { scope: inResource(p), table: 'notes', op: 'insert', values: { title: 'shared' } })).body.rows;
    for (let i = 0; i < 2; i++) {
      const unlinked = await db(alice, { scope: inResource(p), table: 'notes', op: 'unlink', ids: [shared.id] });
      expect([unlinked.status, unlinked.body]).toEqual([200, { ok: true }]);
    }
    const moved = await db(alice, { scope: inResource(p), table: 'tasks', op: 'moveRoom', ids: [ids[0]], destination: p });
    expect([moved.status, moved.body]).toEqual([200, { ok: true }]);
  });
});
