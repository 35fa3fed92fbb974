/**
 * Update and delete by filter (docs/api.md §11.1): the server matches, locks and writes in one
 * transaction, so racing updates of the same filter never both take a row. Both stores.
 */
import { describe, expect } from 'vitest';
import { createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, mine, rowsSeed } from './rows.fixture.js';

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice'], seed: rowsSeed });

describe.each(available)('update and delete by where on $name', backend => {
  const it = onBackend(backend);
  let project: string;
  let alice: RowsSeed['users'][string];

  it.beforeAll(async ({ s }) => {
    alice = s.users.alice;
    project = await createResource(alice, 'project', 'Where');
  });

  const tasks = (body: Record<string, unknown>) => db(alice, { scope: inResource(project), table: 'tasks', ...body });

  it('updates and deletes exactly the rows the filter matches', async () => {
    const inserted = await tasks({ op: 'insert', values: [1, 2, 3, 4].map(priority => ({ title: `t${priority}`, priority })) });
    expect(inserted.status).toBe(200);
    const updated = await tasks({ op: 'update', where: { priority: { gte: 3 } }, values: { done: true } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.rows.map((r: { title: string }) => r.title).sort()).toEqual(['t3', 't4']);
    const deleted = await tasks({ op: 'delete', where: { done: true } });
    expect(deleted.body.rows).toHaveLength(2);
    const left = await tasks({ op: 'select' });
    expect(left.body.rows.map((r: { title: string }) => r.title).sort()).toEqual(['t1', 't2']);
    expect((await tasks({ op: 'update', where: { title: 'nobody' }, values: { done: true } })).body.rows).toEqual([]);
  });

  it('takes ids or where, not both or neither; the filter is validated like a select', async ({ s }) => {
    expect((await tasks({ op: 'delete' })).body.error).toBe('invalid_operation');
    const both = await tasks({ op: 'delete', where: { done: false }, ids: ['00000000-0000-7000-8000-000000000000'] });
    expect(both.body.error).toBe('invalid_operation');
    expect((await tasks({ op: 'delete', where: { nope: 1 } })).body.error).toBe('unknown_column');
    const user = await db(s.users.alice, { scope: mine, table: 'notes', op: 'insert', values: { title: 'own' } });
    expect(user.status).toBe(200);
    expect(
      (await db(s.users.alice, { scope: mine, table: 'notes', op: 'update', where: { title: 'own' }, values: { body: 'x' } })).body.rows,
    ).toHaveLength(1);
  });

  it('two racing updates of one filter never both take a row', async () => {
    await tasks({ op: 'insert', values: Array.from({ length: 10 }, (_, i) => ({ title: `job${i}`, priority: 100 })) });
    const claim = () => tasks({ op: 'update', where: { priority: 100, done: false }, values: { done: true } });
    const [a, b] = await Promise.all([claim(), claim()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const ids = [...a.body.rows, ...b.body.rows].map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
  });
});
