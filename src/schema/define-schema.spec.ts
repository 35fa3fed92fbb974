import { describe, expect, it } from 'vitest';
import { SchemaValidationError, defineSchema, type SchemaIssue, type TableBuilder } from './index.js';

function problemsOf(define: () => unknown): SchemaIssue[] {
  try {
    define();
  } catch (error) {
    if (error instanceof SchemaValidationError) return error.issues;
    throw error;
  }
  return [];
}

const DEFAULT_GRANT = { owner: 'admin', admin: 'writer', writer: null, reader: null };

describe('defineSchema: builder output', () => {
  it('compiles the documented example to its IR', () => {
    const ir = defineSchema({
      tables: {
        messages: t =>
          t
            .text('body')
            .notNull()
            .uuid('parentId')
            .integer('likes')
            .notNull()
            .default(0)
            .timestamps()
            .index(['parentId'])
            .access({ read: ['reader'], create: ['writer'], update: ['creator'], delete: ['creator', 'admin'], unlink: ['admin'] }),
        notes: t => t.text('title').notNull().unique().jsonb('meta').boolean('done').bigint('size').timestamp('due'),
      },
      resources: {
        room: r =>
          r
            .visibility('members')
            .defaultRole('writer')
            .grant({ owner: 'admin', admin: 'writer', writer: null, reader: null })
            .shares('messages', m =>
              m
                .onMemberRemove('hide')
                .onOwnerDelete('tombstone')
                .access({ read: ['reader', 'owner'] }),
            )
            .owns('notes', t => t.access({ read: ['reader'] })),
        forum: r => r.visibility({ default: 'discoverable', allow: ['unlisted', 'members'] }),
        settings: r => r.visibility('unlisted').static(['global', 'theme']),
      },
    });

    const column = (type: string, flags: { notNull?: boolean; unique?: boolean } = {}) => ({
      type,
      notNull: flags.notNull ?? false,
      unique: flags.unique ?? false,
    });
    expect(ir).toEqual({
      version: 1,
      tables: {
        messages: {
          columns: {
            body: column('text', { notNull: true }),
            parentId: column('uuid'),
            likes: { ...column('integer', { notNull: true }), default: 0 },
          },
          timestamps: true,
          indexes: [['parentId']],
          access: { read: ['reader'], create: ['writer'], update: ['creator'], delete: ['creator', 'admin'], unlink: ['admin'] },
        },
        notes: {
          columns: {
            title: column('text', { notNull: true, unique: true }),
            meta: column('jsonb'),
            done: column('boolean'),
            size: column('bigint'),
            due: column('timestamp'),
          },
          timestamps: false,
          indexes: [],
          access: null,
        },
      },
      resources: {
        room: {
          visibility: { default: 'members', allow: ['members'] },
          defaultRole: 'writer',
          grant: DEFAULT_GRANT,
          static: [],
          shares: [{ table: 'messages', onMemberRemove: 'hide', onOwnerDelete: 'tombstone', access: { read: ['reader', 'owner'] } }],
          owns: [{ table: 'notes', access: { read: ['reader'] } }],
        },
        forum: {
          visibility: { default: 'discoverable', allow: ['discoverable', 'unlisted', 'members'] },
          defaultRole: 'reader',
          grant: DEFAULT_GRANT,
          static: [],
          shares: [],
          owns: [],
        },
        settings: {
          visibility: { default: 'unlisted', allow: ['unlisted'] },
          defaultRole: 'reader',
          grant: DEFAULT_GRANT,
          static: ['global', 'theme'],
          shares: [],
          owns: [],
        },
      },
    });
    // Plain JSON: nothing is lost on the way to storage.
    expect(JSON.parse(JSON.stringify(ir))).toEqual(ir);
  });
});

describe('defineSchema: defaults', () => {
  const ir = defineSchema({
    tables: { posts: t => t.text('title') },
    resources: {
      bare: r => r,
      shared: r => r.shares('posts'),
      owning: r => r.owns('posts'),
      partial: r => r.grant({ writer: 'reader' }),
    },
  });

  const { posts } = ir.tables;
  const { bare, shared, owning, partial } = ir.resources;

  it.each([
    ['a column is nullable, not unique and has no default', posts.columns.title, { type: 'text', notNull: false, unique: false }],
    ['a table has no timestamps, indexes or access rules', { ...posts, columns: {} }, { columns: {}, timestamps: false, indexes: [], access: null }],
    ['a type is members-only', bare.visibility, { default: 'members', allow: ['members'] }],
    ['the default role is reader', bare.defaultRole, 'reader'],
    ['docs/api.md §5.1: the grant ceilings are owner -> admin, admin -> writer, others none', bare.grant, DEFAULT_GRANT],
    ['a type has no static instances, shares or owns', [bare.static, bare.shares, bare.owns], [[], [], []]],
    [
      'docs/api.md §5.5: a shared table removes rows on member removal and owner deletion, with no access override',
      shared.shares,
      [{ table: 'posts', onMemberRemove: 'remove', onOwnerDelete: 'remove', access: null }],
    ],
    ['an owned table has no access override', owning.owns, [{ table: 'posts', access: null }]],
    ['a partial grant merges over the defaults', partial.grant, { ...DEFAULT_GRANT, writer: 'reader' }],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it('accepts callbacks that return nothing', () => {
    const schema = defineSchema({
      tables: {
        tags: t => {
          t.text('label').notNull();
        },
      },
      resources: {
        board: r => {
          r.visibility('unlisted');
        },
      },
    });
    expect(schema.tables.tags.columns.label.notNull).toBe(true);
    expect(schema.resources.board.visibility.default).toBe('unlisted');
  });

  it('accepts a schema without tables or resources', () => {
    expect(defineSchema({})).toEqual({ version: 1, tables: {}, resources: {} });
  });
});

describe('defineSchema: default values in JSON form', () => {
  it.each([
    ['a bigint becomes a decimal string', (t: TableBuilder) => t.bigint('c').default(9007199254740993n), '9007199254740993'],
    ['a number for a bigint becomes a decimal string', (t: TableBuilder) => t.bigint('c').default(42), '42'],
    ['a Date becomes an ISO 8601 string', (t: TableBuilder) => t.timestamp('c').default(new Date(Date.UTC(2024, 0, 2))), '2024-01-02T00:00:00.000Z'],
    ['jsonb keeps its value', (t: TableBuilder) => t.jsonb('c').default({ tags: ['x'] }), { tags: ['x'] }],
  ])('%s', (_name, table, expected) => {
    expect(defineSchema({ tables: { things: table } }).tables.things.columns.c.default).toEqual(expected);
  });

  it('reports an invalid Date rather than crashing', () => {
    expect(problemsOf(() => defineSchema({ tables: { things: t => t.timestamp('c').default(new Date('nope')) } }))).toEqual([
      {
        path: 'tables.things.columns.c.default',
        message: 'default "Invalid Date" does not fit column type timestamp: expected an ISO 8601 date-time string',
      },
    ]);
  });
});

describe('defineSchema: validation at definition time', () => {
  it('reports IR rules with their paths, like validateSchemaIR', () => {
    expect(
      problemsOf(() =>
        defineSchema({
          tables: { posts: t => t.text('title').timestamps().text('created_at') },
          resources: { _app: r => r },
        }),
      ),
    ).toEqual([
      {
        path: 'tables.posts.columns.created_at',
        message: 'column "created_at" clashes with timestamps(), which adds created_at and updated_at; drop one of them',
      },
      {
        path: 'resources._app',
        message: 'resource type "_app" is reserved: names starting with "_" belong to the platform (docs/api.md §5.5)',
      },
    ]);
  });

  // Misuse the IR cannot show, because the builder would have to drop or overwrite something.
  const misuse: { name: string; define: () => unknown; path: string; message: string }[] = [
    {
      name: 'a column declared twice',
      define: () => defineSchema({ tables: { posts: t => t.text('title').integer('title') } }),
      path: 'tables.posts.columns.title',
      message: 'column "title" is declared twice',
    },
    {
      name: 'a default declared twice',
      define: () => defineSchema({ tables: { posts: t => t.integer('n').default(1).default(2) } }),
      path: 'tables.posts.columns.n.default',
      message: 'default() is declared twice; declare it once',
    },
    {
      name: 'default() without a value',
      define: () => defineSchema({ tables: { posts: t => t.text('title').default(undefined as never) } }),
      path: 'tables.posts.columns.title.default',
      message: 'default() needs a value',
    },
    {
      name: 'a modifier that does not follow a column',
      define: () => defineSchema({ tables: { posts: t => (t.text('title').index(['title']) as any).notNull() } }),
      path: 'tables.posts',
      message: 'notNull() must directly follow a column declaration',
    },
    {
      name: 'table access declared twice',
      define: () =>
        defineSchema({
          tables: {
            posts: t =>
              t
                .text('title')
                .access({ read: ['reader'] })
                .access({ read: ['writer'] }),
          },
        }),
      path: 'tables.posts.access',
      message: 'access() is declared twice; declare it once',
    },
    {
      name: 'visibility declared twice',
      define: () => defineSchema({ resources: { room: r => r.visibility('members').visibility('unlisted') } }),
      path: 'resources.room.visibility',
      message: 'visibility() is declared twice; declare it once',
    },
    {
      name: 'a share policy declared twice',
      define: () =>
        defineSchema({
          tables: { posts: t => t.text('title') },
          resources: { room: r => r.shares('posts', m => m.onMemberRemove('hide').onMemberRemove('retain')) },
        }),
      path: 'resources.room.shares[0].onMemberRemove',
      message: 'onMemberRemove() is declared twice; declare it once',
    },
    {
      name: 'a table that is not a function',
      define: () => defineSchema({ tables: { posts: 'text title' as never } }),
      path: 'tables.posts',
      message: "expected a function such as t => t.text('name'), got string",
    },
  ];

  it.each(misuse)('reports $name', ({ define, path, message }) => {
    expect(problemsOf(define)).toEqual([{ path, message }]);
  });
});

describe('defineSchema: types catch mistakes before runtime does', () => {
  // Each @ts-expect-error fails `tsc --noEmit` if the builder's types stop rejecting the line;
  // the runtime assertion shows validation would still catch it in plain JavaScript.
  it.each([
    [
      'index() takes only declared columns',
      () =>
        defineSchema({
          tables: {
            // @ts-expect-error 'author' is not a column of posts
            posts: t => t.text('title').index(['author']),
          },
        }),
    ],
    [
      'default() takes the column type',
      // @ts-expect-error an integer default must be a number
      () => defineSchema({ tables: { posts: t => t.integer('n').default('zero') } }),
    ],
    [
      'shares() takes only declared tables',
      // @ts-expect-error 'comments' is not a table
      () => defineSchema({ tables: { posts: t => t.text('title') }, resources: { room: r => r.shares('comments') } }),
    ],
    [
      'defaultRole() cannot be owner',
      // @ts-expect-error joiners cannot become owner
      () => defineSchema({ resources: { room: r => r.defaultRole('owner') } }),
    ],
    [
      'a grant ceiling cannot exceed the role',
      // @ts-expect-error a writer cannot grant admin
      () => defineSchema({ resources: { room: r => r.grant({ writer: 'admin' }) } }),
    ],
    [
      'owned tables have no unlink rule',
      () =>
        defineSchema({
          tables: { posts: t => t.text('title') },
          // @ts-expect-error owned rows are never linked
          resources: { room: r => r.owns('posts', o => o.access({ unlink: ['admin'] })) },
        }),
    ],
    [
      'visibility is one of the three names',
      // @ts-expect-error 'public' is the stored pair, not a schema visibility
      () => defineSchema({ resources: { room: r => r.visibility('public') } }),
    ],
  ])('%s', (_name, define) => {
    expect(problemsOf(define).length).toBeGreaterThan(0);
  });
});
