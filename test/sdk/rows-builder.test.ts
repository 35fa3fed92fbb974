/**
 * The query builder apps expect (docs/api.md §11, the README's SDK reference), through
 * gatehouse/client against a real listening server: `.in`, `.neq`, `.is`, `.not` and `.match`
 * on select, update and delete; writes that answer what they changed (replays succeed);
 * `.single()` and `.maybeSingle()` on selects and writes.
 */
import { describe, expect } from 'vitest';
import { rowsSeed } from '../api/rows.fixture.js';
import { appTest } from '../helpers/fixtures.js';
import { refusal } from './refusal.js';
import { sdkClients } from './sdk-clients.js';

const it = appTest({ app: { listen: true }, users: ['alice', 'bob'], seed: rowsSeed }).extend('sdk', { scope: 'file' }, sdkClients);

type Task = { id: string; title: string; done: boolean; priority: number | null; roomId: string | null };
const titles = (rows: { title: string }[]) => rows.map(r => r.title).sort();

describe('filters: in, neq, is, not, match', () => {
  it('select, update and delete take every operator', async ({ sdk }) => {
    const { id } = await sdk.alice.resource.create('project', { name: 'Filters' });
    const tasks = sdk.alice.resource(id).table<Task>('tasks');
    await tasks.insert([{ title: 'a', priority: 1 }, { title: 'b', priority: 2, done: true }, { title: 'c' }, { title: 'd', priority: 4 }]);
    expect(titles(await tasks.select().in('title', ['a', 'c', 'x']))).toEqual(['a', 'c']);
    expect(titles(await tasks.select().in('title', []))).toEqual([]);
    expect(titles(await tasks.select().neq('priority', 2))).toEqual(['a', 'd']);
    expect(titles(await tasks.select().is('priority', null))).toEqual(['c']);
    expect(titles(await tasks.select().is('done', true))).toEqual(['b']);
    expect(titles(await tasks.select().not('priority', 'is', null).not('priority', 'in', [1]))).toEqual(['b', 'd']);
    expect(titles(await tasks.select().not('title', 'eq', 'a').lt('title', 'd'))).toEqual(['b', 'c']);
    expect(titles(await tasks.select().match({ done: false, priority: 4 }))).toEqual(['d']);

    expect(titles(await tasks.update({ done: true }).in('title', ['a', 'c']))).toEqual(['a', 'c']);
    expect(titles(await tasks.delete().not('done', 'eq', true))).toEqual(['d']);
    const refused = await refusal(tasks.select().in('priority', ['x']));
    expect(refused).toMatchObject({ status: 400, code: 'invalid_value' });
  });

  it('writes by id answer what they changed: a replay succeeds and changes nothing; more than 1,000 ids go in batches', async ({ sdk }) => {
    const notes = sdk.bob.table<{ id: string; title: string; pinned: boolean }>('notes');
    const made = await notes.insert(Array.from({ length: 3 }, (_, i) => ({ title: `n${i}` })));
    const ids = made.map(r => r.id);
    const [first, second] = await Promise.all([notes.delete().in('id', ids.slice(0, 2)), notes.delete().in('id', ids.slice(0, 2))]);
    expect([...first, ...second].map(r => r.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(await notes.update({ pinned: true }).eq('id', ids[0])).toEqual([]);
    const padding = Array.from({ length: 2500 }, (_, i) => `0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const updated = await notes.update({ pinned: true }).in('id', [...padding, ids[2]]);
    expect(updated).toEqual([expect.objectContaining({ id: ids[2], pinned: true })]);
  });
});

describe('single() and maybeSingle()', () => {
  it('a select answers its one row, null, or 406 no_rows / multiple_rows', async ({ sdk }) => {
    const notes = sdk.alice.table<{ id: string; title: string; slug: string | null }>('notes');
    await notes.insert([
      { title: 'one', slug: 'single-1' },
      { title: 'two', slug: 'single-2' },
    ]);
    expect(await notes.select('title').eq('slug', 'single-1').single()).toEqual({ title: 'one' });
    expect(await refusal(notes.select().eq('slug', 'none').single())).toMatchObject({ status: 406, code: 'no_rows' });
    expect(await refusal(notes.select().in('slug', ['single-1', 'single-2']).single())).toMatchObject({ status: 406, code: 'multiple_rows' });
    expect(await notes.select().eq('slug', 'none').maybeSingle()).toBeNull();
  });

  it('writes chain .select() and .single() / .maybeSingle() on the rows they answer', async ({ sdk }) => {
    const notes = sdk.alice.table<{ id: string; title: string; body: string | null }>('notes');
    const made = await notes.insert({ title: 'chained' }).select().single();
    expect(made).toMatchObject({ title: 'chained' });
    expect(await notes.insert({ title: 'picked' }).select('title')).toEqual({ title: 'picked' });
    expect(await notes.update({ body: 'x' }).eq('id', made.id).select('body').single()).toEqual({ body: 'x' });
    expect(await notes.update({ body: 'y' }).eq('title', 'nobody').maybeSingle()).toBeNull();
    expect(await refusal(notes.delete().eq('title', 'nobody').single())).toMatchObject({ code: 'no_rows' });
    expect(await notes.delete().eq('id', made.id).single()).toMatchObject({ id: made.id, body: 'x' });
    // Awaiting an insert twice runs it once.
    const insert = notes.insert({ title: 'once' });
    await insert;
    await insert;
    expect(await notes.select().eq('title', 'once')).toHaveLength(1);
  });
});

describe('upsert(values, { onConflict })', () => {
  it('inserts, then updates the row holding the key; a list of columns, one column, or a comma-separated string', async ({ sdk }) => {
    const { id } = await sdk.bob.resource.create('project', { name: 'Presence' });
    type Presence = { id: string; member: string; device: string; state: string | null; seen: number | null };
    const presence = sdk.bob.resource(id).table<Presence>('presence');
    const first = await presence.upsert({ member: 'bob', device: 'phone', state: 'online' }, { onConflict: ['member', 'device'] });
    const second = await presence.upsert({ member: 'bob', device: 'phone', seen: 2 }, { onConflict: 'member,device' }).select().single();
    expect(second).toMatchObject({ id: first.id, state: 'online', seen: 2 });
    const many = await presence.upsert(
      [
        { member: 'bob', device: 'phone', state: 'away' },
        { member: 'bob', device: 'laptop', state: 'online' },
      ],
      { onConflict: ['device', 'member'] },
    );
    expect(many.map(r => [r.id === first.id, r.device, r.state])).toEqual([
      [true, 'phone', 'away'],
      [false, 'laptop', 'online'],
    ]);
    const notes = sdk.bob.table<{ id: string; slug: string; title: string }>('notes');
    const note = await notes.upsert({ slug: 'sdk-up', title: 'a' }, { onConflict: 'slug' });
    expect(await notes.upsert({ slug: 'sdk-up', title: 'b' }, { onConflict: 'slug' })).toMatchObject({ id: note.id, title: 'b' });
    expect(await refusal(presence.upsert({ member: 'x', device: 'y' }, { onConflict: 'member' }))).toMatchObject({
      status: 400,
      code: 'invalid_operation',
    });
  });
});

/** An app's row type as apps declare them: an interface, which has no implicit index signature. */
interface Note {
  id: string;
  title: string;
  body: string | null;
  pinned: boolean;
}

// The types are checked by `npm run typecheck` (tsc): the row constraint once required an index signature.
describe('row types', () => {
  it("an app's interface types a table, and a Partial of it is a write's values", async ({ sdk }) => {
    const notes = sdk.alice.table<Note>('notes');
    const made: Note = await notes.insert({ title: 'typed' });
    const patch: Partial<Note> = { pinned: true };
    const [changed] = await notes.update(patch).eq('id', made.id);
    expect(changed).toMatchObject({ id: made.id, title: 'typed', pinned: true });
  });
});
