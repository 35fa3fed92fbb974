import { describe, expect, it } from 'vitest';
import { parseSize } from './bucket-builder.js';
import { SchemaValidationError, defineSchema, type SchemaIssue, type TableBuilder, validateSchemaIR } from './index.js';

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
          // Written on the share, stored on the table: one account-deletion policy per table.
          onOwnerDelete: 'tombstone',
          ownedBy: null,
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
          onOwnerDelete: 'remove',
          ownedBy: null,
        },
      },
      resources: {
        room: {
          visibility: { default: 'members', allow: ['members'] },
          defaultRole: 'writer',
          grant: DEFAULT_GRANT,
          static: [],
          shares: [{ table: 'messages', onMemberRemove: 'hide', access: { read: ['reader', 'owner'] } }],
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
    [
      "a top-level table has no timestamps, indexes or access rules, and removes a deleted account's rows",
      { ...posts, columns: {} },
      { columns: {}, timestamps: false, indexes: [], access: null, onOwnerDelete: 'remove', ownedBy: null },
    ],
    ['a type is members-only', bare.visibility, { default: 'members', allow: ['members'] }],
    ['the default role is reader', bare.defaultRole, 'reader'],
    ['docs/api.md §5.1: the grant ceilings are owner -> admin, admin -> writer, others none', bare.grant, DEFAULT_GRANT],
    ['a type has no static instances, shares or owns', [bare.static, bare.shares, bare.owns], [[], [], []]],
    [
      'docs/api.md §5.5: a shared table removes links on member removal, with no access override',
      shared.shares,
      [{ table: 'posts', onMemberRemove: 'remove', access: null }],
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

describe('defineSchema: the schema apps write (docs/api.md §5.5)', () => {
  const column = (type: string, flags: { notNull?: boolean; unique?: boolean; default?: unknown } = {}) => ({
    type,
    notNull: flags.notNull ?? false,
    unique: flags.unique ?? false,
    ...('default' in flags ? { default: flags.default } : {}),
  });

  it('declares an inline owned table with owns(name, table => ...), registered under tables with ownedBy', () => {
    const ir = defineSchema({
      resources: {
        team: resource => {
          resource.visibility('members');
          resource.owns('member_notes', table => {
            table.uuid('subjectId').notNull();
            table.jsonb('meta').default({});
            table.bigint('size').notNull().default(5n);
            table.timestamps();
            table.index(['createdAt']);
            table.access({ read: 'reader', create: ['writer'], update: 'creator', delete: 'none' });
          });
        },
      },
    });
    expect(ir.tables).toEqual({
      member_notes: {
        columns: {
          subjectId: column('uuid', { notNull: true }),
          meta: column('jsonb', { default: {} }),
          size: column('bigint', { notNull: true, default: '5' }),
        },
        timestamps: true,
        indexes: [['createdAt']],
        access: { read: ['reader'], create: ['writer'], update: ['creator'], delete: ['none'] },
        onOwnerDelete: 'remove',
        ownedBy: 'team',
      },
    });
    expect(ir.resources.team.owns).toEqual([{ table: 'member_notes', access: null }]);
  });

  it('still takes owns(name) and owns(name, own => own.access(...)) of a top-level table', () => {
    const ir = defineSchema({
      tables: { tasks: t => t.text('title') },
      resources: { a: r => r.owns('tasks'), b: r => r.owns('tasks', own => own.access({ read: 'reader' })) },
    });
    expect([ir.resources.a.owns, ir.resources.b.owns]).toEqual([
      [{ table: 'tasks', access: null }],
      [{ table: 'tasks', access: { read: ['reader'] } }],
    ]);
    expect(ir.tables.tasks.ownedBy).toBeNull();
  });

  it.each([
    ['a role', 'reader', ['reader']],
    ['creator', 'creator', ['creator']],
    ['none', 'none', ['none']],
    ['a list', ['creator', 'admin'], ['creator', 'admin']],
  ] as const)('normalises a single-string access rule (%s) to a list', (_name, rule, expected) => {
    expect(defineSchema({ tables: { posts: t => t.text('title').access({ read: rule }) } }).tables.posts.access).toEqual({ read: expected });
  });

  it('unique([...]) declares columns unique together, beside unique() on one column (an upsert key)', () => {
    const ir = defineSchema({
      tables: { presence: t => t.text('member').unique().text('device').integer('seen').unique(['member', 'device']).timestamps() },
    });
    expect(ir.tables.presence.columns.member.unique).toBe(true);
    expect(ir.tables.presence.columns.device.unique).toBe(false);
    expect(ir.tables.presence.uniques).toEqual([['member', 'device']]);
    // Without one, the IR has no uniques at all (IRs written before them stay equal).
    expect(defineSchema({ tables: { posts: t => t.text('title') } }).tables.posts).not.toHaveProperty('uniques');
  });

  it('timestamps() adds createdAt and updatedAt, which index() accepts', () => {
    const ir = defineSchema({ tables: { posts: t => t.text('title').timestamps().index(['createdAt']).index(['title', 'updatedAt']) } });
    expect(ir.tables.posts).toMatchObject({ timestamps: true, indexes: [['createdAt'], ['title', 'updatedAt']] });
  });

  it.each([
    [
      'on the table',
      { tables: { posts: (t: TableBuilder) => t.text('title').onOwnerDelete('retain') }, resources: { room: (r: any) => r.shares('posts') } },
    ],
    [
      'on a share',
      {
        tables: { posts: (t: TableBuilder) => t.text('title') },
        resources: { room: (r: any) => r.shares('posts', (m: any) => m.onOwnerDelete('retain')) },
      },
    ],
    [
      'on the table and a share, agreeing',
      {
        tables: { posts: (t: TableBuilder) => t.text('title').onOwnerDelete('retain') },
        resources: { room: (r: any) => r.shares('posts', (m: any) => m.onOwnerDelete('retain')) },
      },
    ],
  ])('stores onOwnerDelete written %s on the table', (_name, definition) => {
    const ir = defineSchema(definition as never);
    expect(ir.tables.posts.onOwnerDelete).toBe('retain');
    expect(ir.resources.room.shares[0]).not.toHaveProperty('onOwnerDelete');
  });

  it('compiles examples/team-schema.ts, shaped like a real app', async () => {
    const { default: team } = await import('../../examples/team-schema.js');
    expect(Object.keys(team.tables).sort()).toEqual(['member_budgets', 'member_events', 'member_notes', 'member_presence', 'posts', 'profiles']);
    expect(team.resources.team.owns.map(own => own.table)).toEqual(['member_notes', 'member_events', 'member_presence', 'member_budgets']);
    expect(team.tables.member_events).toMatchObject({ ownedBy: 'team', indexes: [['createdAt']], onOwnerDelete: 'tombstone' });
    expect(team.tables.member_budgets.columns.limitCents).toEqual(column('bigint', { notNull: true, default: '0' }));
  });
});

describe('defineSchema: inline table names and collisions (docs/api.md §5.5)', () => {
  const cases: { name: string; define: () => unknown; issues: SchemaIssue[] }[] = [
    {
      name: 'an inline table may not reuse a top-level table name',
      define: () => defineSchema({ tables: { notes: t => t.text('body') }, resources: { team: r => r.owns('notes', (t: any) => t.uuid('x')) } }),
      issues: [
        {
          path: 'resources.team.owns[0]',
          message:
            'owns("notes", ...) declares a table, but "notes" is a top-level table: declare its columns under tables.notes (owns() of it can only set access), or give the inline table a name of its own',
        },
      ],
    },
    {
      name: 'two types may not declare inline tables of the same name',
      define: () => defineSchema({ resources: { a: r => r.owns('notes', t => t.text('body')), b: r => r.owns('notes', t => t.text('body')) } }),
      issues: [
        {
          path: 'resources.b.owns[0]',
          message:
            'table "notes" is already declared inline at resources.a.owns[0]; table names are shared by the whole schema, so give this one another name',
        },
      ],
    },
    {
      name: 'one type may not declare an inline table twice',
      define: () => defineSchema({ resources: { a: r => r.owns('notes', t => t.text('body')).owns('notes', t => t.text('title')) } }),
      issues: [
        {
          path: 'resources.a.owns[1]',
          message:
            'table "notes" is already declared inline at resources.a.owns[0]; table names are shared by the whole schema, so give this one another name',
        },
      ],
    },
    {
      name: 'an inline table is reported where it was written',
      define: () => defineSchema({ resources: { a: r => r.owns('notes', (t: any) => t.text('Body').index(['missing'])) } }),
      issues: [
        {
          path: 'resources.a.owns[0].columns.Body',
          message: 'column name "Body" must start with a lowercase letter and use only letters, digits and _ (at most 63 characters)',
        },
        { path: 'resources.a.owns[0].indexes[0][0]', message: 'index names unknown column "missing"' },
      ],
    },
    {
      name: 'a unique key names declared columns, none twice, and is declared once',
      define: () =>
        defineSchema({
          tables: {
            posts: (t: any) =>
              t
                .text('a')
                .text('b')
                .timestamps()
                .unique(['a', 'missing'])
                .unique(['b', 'b'])
                .unique(['createdAt'])
                .unique(['b', 'a'])
                .unique(['a', 'b']),
          },
        }),
      issues: [
        { path: 'tables.posts.uniques[0][1]', message: 'unique names unknown column "missing" (a key is made of declared columns)' },
        { path: 'tables.posts.uniques[1][1]', message: 'column "b" appears twice in this unique key' },
        { path: 'tables.posts.uniques[2][0]', message: 'unique names unknown column "createdAt" (a key is made of declared columns)' },
        { path: 'tables.posts.uniques[4]', message: 'duplicates unique key 3 (the same columns)' },
      ],
    },
    {
      name: 'an inline table has no unlink rule',
      define: () => defineSchema({ resources: { a: r => r.owns('notes', t => t.text('body').access({ unlink: 'admin' })) } }),
      issues: [{ path: 'resources.a.owns[0].access.unlink', message: 'owned rows are not linked into the resource, so there is nothing to unlink' }],
    },
    {
      name: 'owns() of an unknown name with only access() is an unknown table, not an empty inline one',
      define: () => defineSchema({ resources: { a: r => r.owns('nots' as never, (o: any) => o.access({ read: 'reader' })) } }),
      issues: [
        {
          path: 'resources.a.owns[0].table',
          message: 'owns unknown table "nots": declare it under tables, or define it inline with owns("nots", table => ...)',
        },
      ],
    },
    {
      name: "a share may not contradict the table's onOwnerDelete",
      define: () =>
        defineSchema({
          tables: { posts: t => t.text('title').onOwnerDelete('tombstone') },
          resources: { room: r => r.shares('posts', m => m.onOwnerDelete('remove')) },
        }),
      issues: [
        {
          path: 'resources.room.shares[0].onOwnerDelete',
          message:
            'onOwnerDelete "remove" disagrees with "tombstone" on table "posts"; account deletion has one policy per table, so declare it once, on the table',
        },
      ],
    },
    {
      name: 'onOwnerDelete declared twice on a table',
      define: () => defineSchema({ tables: { posts: t => t.text('title').onOwnerDelete('retain').onOwnerDelete('remove') } }),
      issues: [{ path: 'tables.posts.onOwnerDelete', message: 'onOwnerDelete() is declared twice; declare it once' }],
    },
  ];

  it.each(cases)('$name', ({ define, issues }) => {
    expect(problemsOf(define)).toEqual(issues);
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
          tables: { posts: t => t.text('title').timestamps().text('createdAt') },
          resources: { _app: r => r },
        }),
      ),
    ).toEqual([
      {
        path: 'tables.posts.columns.createdAt',
        message: 'column name "createdAt" is reserved: the server sets createdAt and updatedAt: declare them with timestamps()',
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
      // Issue #24 item 32: JavaScript alone says "t.string is not a function" and nothing more.
      name: 'a misspelt column builder, with the builders that exist (its modifiers apply to nothing)',
      define: () => defineSchema({ tables: { posts: t => (t as any).string('title').notNull().integer('n') } }),
      path: 'tables.posts',
      message:
        'string() is not a table builder method; columns are text, uuid, integer, bigint, boolean, jsonb, timestamp; after a column: notNull, unique, default; and timestamps, index, access, onOwnerDelete',
    },
    {
      name: 'a misspelt builder in a block-bodied inline table',
      define: () =>
        defineSchema({
          resources: {
            team: r => {
              r.owns('notes', table => {
                table.text('title');
                (table as any).varchar('body');
              });
            },
          },
        }),
      path: 'resources.team.owns[0]',
      message:
        'varchar() is not a table builder method; columns are text, uuid, integer, bigint, boolean, jsonb, timestamp; after a column: notNull, unique, default; and timestamps, index, access, onOwnerDelete',
    },
    {
      name: 'a misspelt resource builder method',
      define: () => defineSchema({ resources: { room: r => (r as any).visiblity('members') } }),
      path: 'resources.room',
      message: 'visiblity() is not a resource builder method; it has visibility, defaultRole, grant, static, shares, owns, files',
    },
    {
      name: 'a misspelt share builder method',
      define: () =>
        defineSchema({ tables: { posts: t => t.text('title') }, resources: { room: r => r.shares('posts', m => (m as any).onRemove('hide')) } }),
      path: 'resources.room.shares[0]',
      message: 'onRemove() is not a share builder method; it has onMemberRemove, onOwnerDelete, access',
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
      'owns() of a top-level table only sets access: its callback is not a table builder',
      () =>
        defineSchema({
          tables: { notes: t => t.text('body') },
          // @ts-expect-error notes is declared under tables; its columns are declared there
          resources: { team: r => r.owns('notes', own => own.uuid('x')) },
        }),
    ],
    [
      'index() of an inline table takes only its columns',
      // @ts-expect-error 'author' is not a column of member_notes
      () => defineSchema({ resources: { team: r => r.owns('member_notes', t => t.text('body').index(['author'])) } }),
    ],
    [
      'unique([...]) takes only declared columns, not the timestamps',
      // @ts-expect-error createdAt is the server's, never part of a unique key
      () => defineSchema({ tables: { posts: t => t.text('title').timestamps().unique(['title', 'createdAt']) } }),
    ],
    [
      'index() takes createdAt only after timestamps()',
      // @ts-expect-error createdAt exists only with timestamps()
      () => defineSchema({ tables: { posts: t => t.text('title').index(['createdAt']) } }),
    ],
    [
      'an access rule is a role, creator or none',
      // @ts-expect-error 'everyone' is not a rule
      () => defineSchema({ tables: { posts: t => t.text('title').access({ read: 'everyone' }) } }),
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

// File buckets in app schemas (docs/api.md §5.5, §13): what the builders compile to and what validation refuses.
const album = {
  visibility: { default: 'members', allow: ['members'] },
  defaultRole: 'reader',
  grant: { owner: 'admin', admin: 'writer', writer: null, reader: null },
  static: [],
  shares: [],
  owns: [],
};
const withBuckets = (buckets: Record<string, unknown>) => ({ version: 1, tables: {}, resources: { album }, buckets });
const bucket = (over: Record<string, unknown> = {}) => ({ maxBytes: 1024, contentTypes: ['*/*'], access: null, ownedBy: 'album', ...over });

describe('defineSchema: buckets', () => {
  it("compiles user buckets and a resource type's buckets", () => {
    const ir = defineSchema({
      files: { avatars: { maxSize: '2MB', accept: ['image/*'] } },
      resources: { album: r => r.files('photos', { maxSize: '20MB', accept: ['image/png', 'image/jpeg'], access: { upload: ['admin'] } }) },
    });
    expect(ir.buckets).toEqual({
      avatars: { maxBytes: 2 * 1024 * 1024, contentTypes: ['image/*'], access: null, ownedBy: null },
      photos: { maxBytes: 20 * 1024 * 1024, contentTypes: ['image/png', 'image/jpeg'], access: { upload: ['admin'] }, ownedBy: 'album' },
    });
    expect(validateSchemaIR(JSON.parse(JSON.stringify(ir)))).toEqual(ir);
  });

  it('defaults: 10 MiB, any type, default rules; no buckets key without buckets', () => {
    expect(defineSchema({ resources: { album: r => r.files('docs') } }).buckets?.docs).toEqual({
      maxBytes: 10 * 1024 * 1024,
      contentTypes: ['*/*'],
      access: null,
      ownedBy: 'album',
    });
    expect(defineSchema({}).buckets).toBeUndefined();
  });

  it('issue 24 item 27: one rule or a list per action, as tables take them (the README example deploys)', () => {
    const ir = defineSchema({
      resources: {
        album: r =>
          r.files('attachments', { maxSize: '20MB', accept: ['image/*', 'text/*'], access: { upload: 'writer', update: ['creator', 'admin'] } }),
      },
    });
    expect(ir.buckets?.attachments.access).toEqual({ upload: ['writer'], update: ['creator', 'admin'] });
    expect(validateSchemaIR(JSON.parse(JSON.stringify(ir)))).toEqual(ir);
    // Tables read the same input the same way.
    const tables = defineSchema({ tables: { notes: t => t.text('body').access({ read: 'reader', delete: ['creator', 'admin'] }) } });
    expect(tables.tables.notes.access).toEqual({ read: ['reader'], delete: ['creator', 'admin'] });
  });

  it('issue 25 item 14: table and bucket names as the product accepts them, camelCase included', () => {
    const ir = defineSchema({
      tables: { chatMessages: t => t.text('body'), Notes: t => t.text('body'), todo_items: t => t.text('body') },
      files: { userAvatars: {} },
      resources: { album: r => r.files('sharedPhotos').owns('albumPins', t => t.text('label')) },
    });
    expect(Object.keys(ir.tables).sort()).toEqual(['Notes', 'albumPins', 'chatMessages', 'todo_items']);
    expect(Object.keys(ir.buckets ?? {}).sort()).toEqual(['sharedPhotos', 'userAvatars']);
    expect(validateSchemaIR(JSON.parse(JSON.stringify(ir)))).toEqual(ir);
  });

  it('a bucket name is one per schema', () => {
    const issues = problemsOf(() => defineSchema({ files: { photos: {} }, resources: { album: r => r.files('photos') } }));
    expect(issues.map(i => i.message).join()).toMatch(/bucket "photos" is also declared/);
  });

  it.each<[string | number, number]>([
    ['500KB', 500 * 1024],
    ['1.5 MB', 1.5 * 1024 * 1024],
    ['1GB', 1024 ** 3],
    [4096, 4096],
    ['lots', Number.NaN],
  ])('parseSize(%j)', (size, bytes) => {
    expect(parseSize(size)).toBe(bytes);
  });
});

describe('validateSchemaIR: buckets', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['an unknown owner type', { b: bucket({ ownedBy: 'shelf' }) }, /ownedBy names unknown resource type "shelf"/],
    ['a bad name', { 'Bad-Name': bucket() }, /bucket name "Bad-Name"/],
    ['zero bytes', { b: bucket({ maxBytes: 0 }) }, /at least 1/],
    ['over 5 GiB', { b: bucket({ maxBytes: 6 * 1024 ** 3 }) }, /at most/],
    ['a fractional size', { b: bucket({ maxBytes: 1.5 }) }, /whole number/],
    ['no media types', { b: bucket({ contentTypes: [] }) }, /at least one media type/],
    ['a malformed media type', { b: bucket({ contentTypes: ['image'] }) }, /lower-case media type/],
    ['an upper-case media type', { b: bucket({ contentTypes: ['Image/PNG'] }) }, /lower-case media type/],
    ['a repeated media type', { b: bucket({ contentTypes: ['image/png', 'image/png'] }) }, /listed twice/],
    ['an unknown action', { b: bucket({ access: { create: ['writer'] } }) }, /create/],
    ['"none" with another rule', { b: bucket({ access: { read: ['none', 'reader'] } }) }, /"none" forbids/],
    ['rules on a user bucket', { b: bucket({ ownedBy: null, access: { read: ['reader'] } }) }, /user bucket/],
    ['an unknown key', { b: { ...bucket(), maxSize: 3 } }, /maxSize/],
  ])('refuses %s', (_what, buckets, message) => {
    const issues = problemsOf(() => validateSchemaIR(withBuckets(buckets)));
    expect(issues.map(i => `${i.path}: ${i.message}`).join('\n')).toMatch(message);
  });

  it('reads a schema deployed before buckets existed', () => {
    expect(validateSchemaIR({ version: 1, tables: {}, resources: { album } }).buckets).toBeUndefined();
  });
});
