import { describe, expect, it } from 'vitest';
import { defineSchema } from '../schema/index.js';
import { bindingIn, shape, userBinding } from './row-binding.service.js';

const schema = defineSchema({
  tables: {
    notes: t => t.text('body').notNull().integer('stars').timestamps(),
    settings: t => t.text('key').notNull(),
  },
  resources: {
    project: r =>
      r
        .visibility('members')
        .shares('notes', s =>
          s
            .onMemberRemove('retain')
            .onOwnerDelete('remove')
            .access({ read: ['writer'] }),
        )
        .owns('tasks', t => t.text('title').notNull()),
  },
});

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('how a table is reached in a scope', () => {
  it('a resource type owns or shares its tables, with its access override', () => {
    expect(bindingIn(schema, 'project', 'tasks')).toMatchObject({ name: 'tasks', kind: 'owned', override: null });
    expect(bindingIn(schema, 'project', 'notes')).toMatchObject({ name: 'notes', kind: 'shared', override: { read: ['writer'] } });
  });

  it.each([
    ['a table the schema does not declare', () => bindingIn(schema, 'project', 'nope'), 'unknown_table'],
    ['a table the type neither owns nor shares', () => bindingIn(schema, 'project', 'settings'), 'table_not_in_scope'],
    ['a table of an unknown type', () => bindingIn(schema, 'nope', 'notes'), 'table_not_in_scope'],
    ['a prototype key is no table', () => bindingIn(schema, 'project', 'constructor'), 'unknown_table'],
    ["a type's own table is not a user's", () => userBinding(schema, 'tasks'), 'table_not_in_scope'],
    ['a top-level table is', () => userBinding(schema, 'notes'), 'ok'],
  ])('%s', (_, fn, expected) => {
    expect(code(fn)).toBe(expected);
  });
});

describe('shape: a row as the caller sees it', () => {
  const row = {
    id: 'r1',
    creator_id: 'usr_1',
    resource_id: 'res_1',
    room_id: 'room_1',
    data: { body: 'hi' },
    created_at: new Date('2026-01-01T00:00:00.000Z'),
    updated_at: new Date('2026-01-02T00:00:00.123Z'),
  };

  it('declared columns by name (absent ones null), timestamps when declared (ISO text), the creator, and where it sits', () => {
    const notes = userBinding(schema, 'notes');
    expect(shape(row, notes, 'user')).toEqual({
      id: 'r1',
      body: 'hi',
      stars: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.123Z',
      _creatorId: 'usr_1',
    });
    expect(shape(row, notes, 'resource')).toMatchObject({ roomId: 'room_1' });
    expect(shape(row, notes, 'resource')).not.toHaveProperty('resourceId');
    expect(shape(row, notes, 'type')).toMatchObject({ roomId: 'room_1', resourceId: 'res_1' });
  });

  it('no timestamps unless the table declares them', () => {
    expect(shape({ ...row, data: { title: 't' } }, bindingIn(schema, 'project', 'tasks'), 'resource')).toEqual({
      id: 'r1',
      title: 't',
      _creatorId: 'usr_1',
      roomId: 'room_1',
    });
  });
});
