import { describe, expect, it } from 'vitest';
import type { SchemaIR, TableIR } from './ir.js';
import { droppedBy } from './schema-diff.js';

const table = (...columns: string[]): TableIR => ({
  columns: Object.fromEntries(columns.map(name => [name, { type: 'text', notNull: false, unique: false }])),
  timestamps: false,
  indexes: [],
  access: null,
  onOwnerDelete: 'remove',
  ownedBy: null,
});
const schema = (tables: Record<string, TableIR>): SchemaIR => ({ version: 1, tables, resources: {} });
const NOTHING = { tables: [], columns: [] };

describe('droppedBy: what a deploy drops (docs/api.md §5.5)', () => {
  it.each([
    ['a first deploy drops nothing', null, schema({ posts: table('title') }), NOTHING],
    ['adding a table drops nothing', schema({ posts: table('title') }), schema({ posts: table('title'), tags: table('label') }), NOTHING],
    ['adding a column drops nothing', schema({ posts: table('title') }), schema({ posts: table('title', 'body') }), NOTHING],
    [
      'a removed table is dropped',
      schema({ posts: table('title'), tags: table('label') }),
      schema({ posts: table('title') }),
      { tables: ['tags'], columns: [] },
    ],
    [
      'a removed column of a kept table is dropped',
      schema({ posts: table('title', 'body') }),
      schema({ posts: table('title') }),
      { tables: [], columns: [{ table: 'posts', column: 'body' }] },
    ],
    ["a dropped table's columns are not listed again", schema({ posts: table('title', 'body') }), schema({}), { tables: ['posts'], columns: [] }],
    [
      'a renamed column is a drop (and an add)',
      schema({ posts: table('title') }),
      schema({ posts: table('heading') }),
      { tables: [], columns: [{ table: 'posts', column: 'title' }] },
    ],
    [
      'drops come sorted by table, then column',
      schema({ b: table('y', 'x'), a: table('z'), c: table() }),
      schema({ b: table() }),
      {
        tables: ['a', 'c'],
        columns: [
          { table: 'b', column: 'x' },
          { table: 'b', column: 'y' },
        ],
      },
    ],
    [
      'an inline table that moves to the top level keeps its rows: not a drop',
      schema({ notes: { ...table('body'), ownedBy: 'team' } }),
      schema({ notes: table('body') }),
      NOTHING,
    ],
    [
      'turning timestamps() off is not a drop (the server keeps the times)',
      schema({ posts: { ...table('title'), timestamps: true } }),
      schema({ posts: table('title') }),
      NOTHING,
    ],
    [
      'a stored IR of another shape is read for its table and column names only',
      { tables: { posts: { columns: { title: {} } } } },
      schema({}),
      { tables: ['posts'], columns: [] },
    ],
    ['an unreadable stored IR drops nothing', 'garbage', schema({}), NOTHING],
    [
      'a bucket the new schema no longer declares (limits may change freely)',
      { ...schema({}), buckets: { photos: {}, docs: {} } },
      { ...schema({}), buckets: { docs: { maxBytes: 1, contentTypes: ['*/*'], access: null, ownedBy: null } } },
      { tables: [], columns: [], buckets: ['photos'] },
    ],
  ])('%s', (_name, previous, next, expected) => {
    expect(droppedBy(previous, next)).toEqual({ buckets: [], ...expected });
  });
});
