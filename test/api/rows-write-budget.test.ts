/**
 * ROWS_MAX_WRITES_PER_CALL on updates and deletes by filter (src/rows/row-write-budget.service.ts):
 * a filter matching more rows than a call may write is refused with 400 too_many_rows and changes
 * nothing, also where the rows are matched and written in one statement (row-targets.service.ts
 * writeOwnedTargets). Both stores.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, rowsSeed } from './rows.fixture.js';

const available = await backends();
const onBackend = appTestOn<RowsSeed>(available, { users: ['alice', 'carol'], seed: rowsSeed, app: { env: { ROWS_MAX_WRITES_PER_CALL: '2' } } });

describe.each(available)('a call’s write budget on $name', backend => {
  const it = onBackend(backend);

  it('an update or delete matching more rows than the budget is refused and changes nothing', async ({ ctx, s }) => {
    const { alice, carol } = s.users;
    const project = await createResource(alice, 'project', 'Budgeted');
    await addMember(alice, carol, project, 'writer');
    const scope = inResource(project);
    for (const title of ['one', 'two', 'three'])
      expect((await db(alice, { scope, table: 'tasks', op: 'insert', values: { title, priority: 7 } })).status).toBe(200);
    const update = await db(alice, { scope, table: 'tasks', op: 'update', where: { priority: 7 }, values: { title: 'changed' } });
    expect(update.status, JSON.stringify(update.body)).toBe(400);
    expect(update.body.error).toBe('too_many_rows');
    const remove = await db(alice, { scope, table: 'tasks', op: 'delete', where: { priority: 7 } });
    expect(remove.status, JSON.stringify(remove.body)).toBe(400);
    expect(remove.body.error).toBe('too_many_rows');
    const rows = await ctx.database.prisma.row.findMany({ where: { resourceId: project }, select: { data: true } });
    expect(rows.map(r => (r.data as { title: string }).title).sort()).toEqual(['one', 'three', 'two']);
    // Within the budget the same filter writes.
    const narrow = await db(alice, { scope, table: 'tasks', op: 'update', where: { title: 'one' }, values: { title: 'first' } });
    expect(narrow.status, JSON.stringify(narrow.body)).toBe(200);
    expect(narrow.body.rows.map((r: { title: string }) => r.title)).toEqual(['first']);
  });
});
