import { describe, expect, it } from 'vitest';
import { RESERVED_COLUMNS, SchemaValidationError, validateSchemaIR, type SchemaIR, type SchemaIssue } from './index.js';

/** A small valid IR; each case breaks exactly one rule in a copy of it. */
function baseIR(): SchemaIR {
  return {
    version: 1,
    tables: {
      messages: {
        columns: {
          body: { type: 'text', notNull: true, unique: false },
          parentId: { type: 'uuid', notNull: false, unique: false },
        },
        timestamps: true,
        indexes: [['parentId'], ['createdAt']],
        access: { read: ['reader'], unlink: ['admin'] },
        onOwnerDelete: 'tombstone',
        ownedBy: null,
      },
      notes: {
        columns: { title: { type: 'text', notNull: true, unique: true } },
        timestamps: false,
        indexes: [],
        access: null,
        onOwnerDelete: 'remove',
        ownedBy: null,
      },
      // Declared inline by `room`: owns('pins', table => ...).
      pins: {
        columns: { label: { type: 'text', notNull: false, unique: false } },
        timestamps: true,
        indexes: [['createdAt']],
        access: { read: ['reader'], delete: ['creator'] },
        onOwnerDelete: 'retain',
        ownedBy: 'room',
      },
    },
    resources: {
      room: {
        visibility: { default: 'members', allow: ['members', 'unlisted'] },
        defaultRole: 'writer',
        grant: { owner: 'admin', admin: 'writer', writer: null, reader: null },
        static: ['lobby'],
        shares: [{ table: 'messages', onMemberRemove: 'hide', access: null }],
        owns: [
          { table: 'notes', access: { read: ['reader'] } },
          { table: 'pins', access: null },
        ],
      },
      board: {
        visibility: { default: 'unlisted', allow: ['unlisted'] },
        defaultRole: 'reader',
        grant: { owner: 'admin', admin: 'writer', writer: null, reader: null },
        static: [],
        shares: [],
        owns: [],
      },
    },
  };
}

type Mutable = any; // cases write invalid values on purpose
const messages = (ir: Mutable) => ir.tables.messages;
const room = (ir: Mutable) => ir.resources.room;
const board = (ir: Mutable) => ir.resources.board;

function issuesOf(input: unknown): SchemaIssue[] {
  try {
    validateSchemaIR(input);
  } catch (error) {
    if (error instanceof SchemaValidationError) return error.issues;
    throw error;
  }
  return [];
}

interface Case {
  rule: string;
  break: (ir: Mutable) => void;
  path: string;
  message: string;
}

const cases: Case[] = [
  // The envelope
  {
    rule: 'the version must be 1',
    break: ir => {
      ir.version = 2;
    },
    path: 'version',
    message: 'unsupported schema version 2; this server reads version 1',
  },
  {
    rule: 'unknown top-level fields are rejected',
    break: ir => {
      ir.tabels = {};
    },
    path: 'tabels',
    message: 'unknown field',
  },
  {
    rule: 'tables must be an object',
    break: ir => {
      ir.tables = [];
    },
    path: 'tables',
    message: 'expected record, got an array',
  },
  {
    rule: 'resources are required',
    break: ir => {
      delete ir.resources;
    },
    path: 'resources',
    message: 'required',
  },

  // Identifiers
  {
    rule: 'table names are letters, digits and _ (the product pattern ^[a-zA-Z][a-zA-Z0-9_]*$)',
    break: ir => {
      ir.tables['Chat-Log'] = ir.tables.notes;
    },
    path: 'tables["Chat-Log"]',
    message: 'table name "Chat-Log" must start with a letter and use only letters, digits and _ (at most 63 characters)',
  },
  {
    rule: 'table names start with a letter',
    break: ir => {
      ir.tables._drafts = ir.tables.notes;
    },
    path: 'tables._drafts',
    message: 'table name "_drafts" must start with a letter and use only letters, digits and _ (at most 63 characters)',
  },
  {
    rule: 'table names are at most 63 characters',
    break: ir => {
      ir.tables[`t${'x'.repeat(63)}`] = ir.tables.notes;
    },
    path: `tables.t${'x'.repeat(63)}`,
    message: `table name "t${'x'.repeat(63)}" must start with a letter and use only letters, digits and _ (at most 63 characters)`,
  },
  {
    rule: 'column names start with a lowercase letter',
    break: ir => {
      messages(ir).columns.Body = { type: 'text', notNull: false, unique: false };
    },
    path: 'tables.messages.columns.Body',
    message: 'column name "Body" must start with a lowercase letter and use only letters, digits and _ (at most 63 characters)',
  },
  {
    rule: 'the column name id is reserved',
    break: ir => {
      messages(ir).columns.id = { type: 'uuid', notNull: true, unique: true };
    },
    path: 'tables.messages.columns.id',
    message: 'column name "id" is reserved: every row already has an id',
  },
  {
    rule: "docs/api.md §5.5: the server's fields start with _, which no column may",
    break: ir => {
      messages(ir).columns._creatorId = { type: 'uuid', notNull: false, unique: false };
    },
    path: 'tables.messages.columns._creatorId',
    message: 'column name "_creatorId" must start with a lowercase letter and use only letters, digits and _ (at most 63 characters)',
  },
  {
    rule: "docs/api.md §5.5: the holding resource is the server's",
    break: ir => {
      messages(ir).columns.resourceId = { type: 'text', notNull: false, unique: false };
    },
    path: 'tables.messages.columns.resourceId',
    message: 'column name "resourceId" is reserved: the server records which resource holds each row',
  },
  {
    rule: 'docs/api.md §5.5: room placement is never a column',
    break: ir => {
      messages(ir).columns.roomId = { type: 'uuid', notNull: false, unique: false };
    },
    path: 'tables.messages.columns.roomId',
    message: 'column name "roomId" is reserved: room placement is virtual and never a column (docs/api.md §5.5)',
  },
  {
    rule: 'docs/api.md §5.5: resource types starting with _ are reserved',
    break: ir => {
      ir.resources._app = ir.resources.board;
    },
    path: 'resources._app',
    message: 'resource type "_app" is reserved: names starting with "_" belong to the platform (docs/api.md §5.5)',
  },
  {
    rule: 'resource type names are lowercase identifiers',
    break: ir => {
      ir.resources.Room = ir.resources.board;
    },
    path: 'resources.Room',
    message: 'resource type name "Room" must start with a lowercase letter and use only lowercase letters, digits and _ (at most 63 characters)',
  },

  // Columns
  {
    rule: 'column types are a closed list',
    break: ir => {
      messages(ir).columns.body.type = 'varchar';
    },
    path: 'tables.messages.columns.body.type',
    message: 'unknown column type "varchar"; expected one of text, uuid, integer, bigint, boolean, jsonb, timestamp',
  },
  {
    rule: 'column flags are required',
    break: ir => {
      delete messages(ir).columns.body.notNull;
    },
    path: 'tables.messages.columns.body.notNull',
    message: 'required',
  },
  {
    rule: 'column flags are booleans',
    break: ir => {
      messages(ir).columns.body.unique = 'yes';
    },
    path: 'tables.messages.columns.body.unique',
    message: 'expected boolean, got string "yes"',
  },
  {
    rule: 'unknown column fields are rejected',
    break: ir => {
      messages(ir).columns.body.nullable = false;
    },
    path: 'tables.messages.columns.body.nullable',
    message: 'unknown field',
  },
  {
    rule: 'a default cannot be null',
    break: ir => {
      messages(ir).columns.body.default = null;
    },
    path: 'tables.messages.columns.body.default',
    message: 'a default cannot be null; leave the default out instead',
  },

  // Tables
  {
    rule: 'docs/api.md §5.5: createdAt is reserved for timestamps()',
    break: ir => {
      messages(ir).columns.createdAt = { type: 'timestamp', notNull: true, unique: false };
    },
    path: 'tables.messages.columns.createdAt',
    message: 'column name "createdAt" is reserved: the server sets createdAt and updatedAt: declare them with timestamps()',
  },
  {
    rule: 'docs/api.md §5.5: the timestamp names are reserved in snake_case too, and without timestamps()',
    break: ir => {
      ir.tables.notes.columns.updated_at = { type: 'timestamp', notNull: false, unique: false };
    },
    path: 'tables.notes.columns.updated_at',
    message: 'column name "updated_at" is reserved: the server sets createdAt and updatedAt: declare them with timestamps()',
  },
  {
    rule: 'an index names known columns',
    break: ir => {
      messages(ir).indexes.push(['body', 'author']);
    },
    path: 'tables.messages.indexes[2][1]',
    message: 'index names unknown column "author"',
  },
  {
    rule: 'timestamp columns are only known when timestamps() is on',
    break: ir => {
      messages(ir).timestamps = false;
    },
    path: 'tables.messages.indexes[1][0]',
    message: 'index names unknown column "createdAt": it exists only with timestamps()',
  },
  {
    rule: 'an index on created_at points to the camelCase name',
    break: ir => {
      messages(ir).indexes[1] = ['created_at'];
    },
    path: 'tables.messages.indexes[1][0]',
    message: 'index names unknown column "created_at": the timestamps() columns are createdAt and updatedAt',
  },
  {
    rule: "docs/api.md §5.5: a table's onOwnerDelete is remove, tombstone or retain",
    break: ir => {
      messages(ir).onOwnerDelete = 'hide';
    },
    path: 'tables.messages.onOwnerDelete',
    message: 'unknown onOwnerDelete policy "hide"; expected one of remove, tombstone, retain',
  },
  {
    rule: 'an index has at least one column',
    break: ir => {
      messages(ir).indexes.push([]);
    },
    path: 'tables.messages.indexes[2]',
    message: 'an index needs at least one column',
  },
  {
    rule: 'an index lists a column once',
    break: ir => {
      messages(ir).indexes.push(['body', 'body']);
    },
    path: 'tables.messages.indexes[2][1]',
    message: 'column "body" appears twice in this index',
  },
  {
    rule: 'an index is declared once',
    break: ir => {
      messages(ir).indexes.push(['parentId']);
    },
    path: 'tables.messages.indexes[2]',
    message: 'duplicates index 0 (same columns in the same order)',
  },

  // Access rules
  {
    rule: 'access rules are roles, creator or none',
    break: ir => {
      messages(ir).access.read = ['everyone'];
    },
    path: 'tables.messages.access.read[0]',
    message: 'unknown access rule "everyone"; expected one of owner, admin, writer, reader, creator, none',
  },
  {
    rule: 'access actions are a closed list',
    break: ir => {
      messages(ir).access.write = ['writer'];
    },
    path: 'tables.messages.access.write',
    message: 'unknown field',
  },
  {
    rule: 'an access list is not empty',
    break: ir => {
      messages(ir).access.delete = [];
    },
    path: 'tables.messages.access.delete',
    message: 'list at least one rule, or ["none"] to forbid delete',
  },
  {
    rule: 'none stands alone',
    break: ir => {
      messages(ir).access.update = ['none', 'admin'];
    },
    path: 'tables.messages.access.update',
    message: '"none" forbids the action, so it cannot be combined with other rules',
  },
  {
    rule: 'an access rule is listed once',
    break: ir => {
      messages(ir).access.read = ['reader', 'reader'];
    },
    path: 'tables.messages.access.read[1]',
    message: 'rule "reader" is listed twice',
  },
  {
    rule: 'owned tables have nothing to unlink',
    break: ir => {
      room(ir).owns[0].access.unlink = ['admin'];
    },
    path: 'resources.room.owns[0].access.unlink',
    message: 'owned rows are not linked into the resource, so there is nothing to unlink',
  },

  // Resource types
  {
    rule: 'docs/api.md §5.5: visibility is members, unlisted or discoverable',
    break: ir => {
      room(ir).visibility.allow = ['members', 'public'];
    },
    path: 'resources.room.visibility.allow[1]',
    message: 'unknown visibility "public"; expected one of members, unlisted, discoverable',
  },
  {
    rule: 'docs/api.md §5.5: the default visibility is among the allowed ones',
    break: ir => {
      room(ir).visibility.default = 'discoverable';
    },
    path: 'resources.room.visibility.default',
    message: 'default "discoverable" is not in allow [members, unlisted]; allow must include the default',
  },
  {
    rule: 'an allowed visibility is listed once',
    break: ir => {
      room(ir).visibility.allow = ['members', 'unlisted', 'members'];
    },
    path: 'resources.room.visibility.allow[2]',
    message: '"members" is listed twice',
  },
  {
    rule: 'allow is not empty',
    break: ir => {
      room(ir).visibility.allow = [];
    },
    path: 'resources.room.visibility.allow',
    message: 'allow must list at least the default visibility',
  },
  {
    rule: 'docs/api.md §5.1: roles are owner, admin, writer, reader',
    break: ir => {
      room(ir).defaultRole = 'member';
    },
    path: 'resources.room.defaultRole',
    message: 'unknown role "member"; expected one of owner, admin, writer, reader',
  },
  {
    rule: 'docs/api.md §5.5: join cannot make someone owner',
    break: ir => {
      room(ir).defaultRole = 'owner';
    },
    path: 'resources.room.defaultRole',
    message: 'defaultRole cannot be "owner": the creator is the only owner, and joiners get the default role',
  },
  {
    rule: 'docs/api.md §5.5: a grant ceiling cannot exceed the role itself',
    break: ir => {
      room(ir).grant.writer = 'admin';
    },
    path: 'resources.room.grant.writer',
    message: '"writer" cannot grant "admin": a role\'s ceiling may not exceed the role itself',
  },
  {
    rule: 'docs/api.md §5.5: ownership cannot be handed out by grant',
    break: ir => {
      room(ir).grant.owner = 'owner';
    },
    path: 'resources.room.grant.owner',
    message: 'ownership cannot be handed out by grant (docs/api.md §5.5); the highest ceiling is "admin"',
  },
  {
    rule: 'a grant names every role',
    break: ir => {
      delete room(ir).grant.reader;
    },
    path: 'resources.room.grant.reader',
    message: 'required',
  },
  {
    rule: 'a grant ceiling is a role or null',
    break: ir => {
      room(ir).grant.admin = 'moderator';
    },
    path: 'resources.room.grant.admin',
    message: 'unknown role "moderator"; expected one of owner, admin, writer, reader',
  },
  {
    rule: 'static slugs are lowercase, digits and dashes',
    break: ir => {
      room(ir).static.push('Main Hall');
    },
    path: 'resources.room.static[1]',
    message:
      'static slug "Main Hall" must start with a lowercase letter or digit and use only lowercase letters, digits and - (at most 63 characters)',
  },
  {
    rule: 'static slugs are unique',
    break: ir => {
      room(ir).static.push('lobby');
    },
    path: 'resources.room.static[1]',
    message: 'static slug "lobby" is listed twice',
  },
  {
    rule: 'shares names a declared table',
    break: ir => {
      room(ir).shares[0].table = 'chats';
    },
    path: 'resources.room.shares[0].table',
    message: 'shares unknown table "chats"',
  },
  {
    rule: 'owns names a declared table',
    break: ir => {
      room(ir).owns[0].table = 'memos';
    },
    path: 'resources.room.owns[0].table',
    message: 'owns unknown table "memos": declare it under tables, or define it inline with owns("memos", table => ...)',
  },
  {
    rule: 'a table is shared once per type',
    break: ir => {
      room(ir).shares.push({ ...room(ir).shares[0] });
    },
    path: 'resources.room.shares[1].table',
    message: 'table "messages" is listed twice in shares',
  },
  {
    rule: 'a type does not both share and own a table',
    break: ir => {
      room(ir).owns.push({ table: 'messages', access: null });
    },
    path: 'resources.room.owns[2].table',
    message: 'table "messages" is both shared and owned by "room"; its rows are either linked in or owned, not both',
  },
  {
    rule: 'docs/api.md §5.5: onMemberRemove is remove, hide or retain',
    break: ir => {
      room(ir).shares[0].onMemberRemove = 'delete';
    },
    path: 'resources.room.shares[0].onMemberRemove',
    message: 'unknown onMemberRemove policy "delete"; expected one of remove, hide, retain',
  },
  {
    rule: 'docs/api.md §5.5: onOwnerDelete written on a share is a known policy too',
    break: ir => {
      room(ir).shares[0].onOwnerDelete = 'hide';
    },
    path: 'resources.room.shares[0].onOwnerDelete',
    message: 'unknown onOwnerDelete policy "hide"; expected one of remove, tombstone, retain',
  },
  {
    rule: 'docs/api.md §5.5: onOwnerDelete is one policy per table, so a share cannot contradict the table',
    break: ir => {
      room(ir).shares[0].onOwnerDelete = 'remove';
    },
    path: 'resources.room.shares[0].onOwnerDelete',
    message:
      'onOwnerDelete "remove" disagrees with "tombstone" on table "messages"; account deletion has one policy per table, so declare it once, on the table',
  },
  {
    rule: 'docs/api.md §5.5: shares of one table written with different onOwnerDelete policies disagree',
    break: ir => {
      delete messages(ir).onOwnerDelete;
      room(ir).shares[0].onOwnerDelete = 'retain';
      board(ir).shares.push({ table: 'messages', onMemberRemove: 'remove', onOwnerDelete: 'remove', access: null });
    },
    path: 'resources.board.shares[0].onOwnerDelete',
    message:
      'onOwnerDelete "remove" disagrees with "retain" on its first share (resources.room.shares[0].onOwnerDelete); account deletion has one policy per table, so declare it once, on the table',
  },

  // Inline owned tables
  {
    rule: 'docs/api.md §5.5: an inline table names a declared resource type',
    break: ir => {
      ir.tables.pins.ownedBy = 'channel';
      room(ir).owns.pop();
    },
    path: 'tables.pins.ownedBy',
    message: 'ownedBy names unknown resource type "channel"',
  },
  {
    rule: "docs/api.md §5.5: an inline table is in its type's owns",
    break: ir => {
      room(ir).owns.pop();
    },
    path: 'tables.pins.ownedBy',
    message: 'resource type "room" does not list "pins" in owns; an inline table belongs to the type that owns it',
  },
  {
    rule: 'docs/api.md §5.5: no other type owns an inline table',
    break: ir => {
      board(ir).owns.push({ table: 'pins', access: null });
    },
    path: 'resources.board.owns[0].table',
    message: 'table "pins" is declared inline by resource type "room"; its rows exist only in resources of that type, so "board" cannot own it',
  },
  {
    rule: 'docs/api.md §5.5: an inline table is never shared',
    break: ir => {
      board(ir).shares.push({ table: 'pins', onMemberRemove: 'remove', access: null });
    },
    path: 'resources.board.shares[0].table',
    message: 'table "pins" is declared inline by resource type "room"; its rows exist only in resources of that type, so "board" cannot share it',
  },
  {
    rule: 'an inline table has nothing to unlink',
    break: ir => {
      ir.tables.pins.access.unlink = ['admin'];
    },
    path: 'tables.pins.access.unlink',
    message: 'owned rows are not linked into the resource, so there is nothing to unlink',
  },
  {
    rule: 'ownedBy is a type name or null',
    break: ir => {
      ir.tables.pins.ownedBy = 7;
    },
    path: 'tables.pins.ownedBy',
    message: 'expected string, got number 7',
  },
];

describe('validateSchemaIR', () => {
  it('accepts the base IR', () => {
    expect(validateSchemaIR(baseIR())).toEqual(baseIR());
  });

  it.each(cases)('$rule', ({ break: breakIt, path, message }) => {
    const ir = baseIR();
    breakIt(ir);
    expect(issuesOf(ir)).toEqual([{ path, message }]);
  });

  it('rejects input that is not an object', () => {
    expect(issuesOf('schema')).toEqual([{ path: '', message: 'expected a schema object { version, tables, resources }' }]);
  });
});

describe('reserved column names (docs/api.md §5.5)', () => {
  it('issue 25 item 15: an app may declare its own creatorId column (the server reads back _creatorId)', () => {
    const ir: Mutable = baseIR();
    ir.tables.notes.columns.creatorId = { type: 'text', notNull: true, unique: false };
    expect(issuesOf(ir)).toEqual([]);
    expect(RESERVED_COLUMNS).not.toContain('creatorId');
  });

  it.each(RESERVED_COLUMNS)('%s is refused as a column, with or without timestamps()', name => {
    for (const timestamps of [true, false]) {
      const ir: Mutable = baseIR();
      ir.tables.notes.timestamps = timestamps;
      ir.tables.notes.columns[name] = { type: 'text', notNull: false, unique: false };
      expect(issuesOf(ir)).toEqual([
        { path: `tables.notes.columns.${name}`, message: expect.stringMatching(`^column name "${name}" is reserved: `) },
      ]);
    }
  });
});

describe('IRs written before onOwnerDelete and ownedBy moved onto tables', () => {
  it('fills a table without onOwnerDelete or ownedBy with the defaults', () => {
    const ir: Mutable = baseIR();
    delete ir.tables.notes.onOwnerDelete;
    delete ir.tables.notes.ownedBy;
    expect(validateSchemaIR(ir).tables.notes).toEqual(baseIR().tables.notes);
  });

  it("moves a share's onOwnerDelete onto its table", () => {
    const ir: Mutable = baseIR();
    delete ir.tables.messages.onOwnerDelete;
    ir.resources.room.shares[0].onOwnerDelete = 'tombstone';
    expect(validateSchemaIR(ir)).toEqual(baseIR());
  });

  it('accepts a share that repeats the table policy', () => {
    const ir: Mutable = baseIR();
    ir.resources.room.shares[0].onOwnerDelete = 'tombstone';
    expect(validateSchemaIR(ir)).toEqual(baseIR());
  });
});

describe('column defaults fit the column type', () => {
  const BIGINT_EXPECTED = 'a 64-bit integer as a decimal string (JSON numbers cannot hold every 64-bit integer)';
  const defaults: { type: string; value: unknown; expected: string | null }[] = [
    { type: 'text', value: 'hello', expected: null },
    { type: 'text', value: 1, expected: 'a string' },
    { type: 'uuid', value: '0190c4a2-7b1e-7c3a-9f10-3c5d2e1f4a6b', expected: null },
    { type: 'uuid', value: 'not-a-uuid', expected: 'a UUID string' },
    { type: 'integer', value: -5, expected: null },
    { type: 'integer', value: 1.5, expected: 'a 32-bit integer' },
    { type: 'integer', value: 2 ** 31, expected: 'a 32-bit integer' },
    { type: 'bigint', value: '9223372036854775807', expected: null },
    { type: 'bigint', value: '9223372036854775808', expected: BIGINT_EXPECTED },
    { type: 'bigint', value: 5, expected: BIGINT_EXPECTED },
    { type: 'boolean', value: false, expected: null },
    { type: 'boolean', value: 'true', expected: 'true or false' },
    { type: 'timestamp', value: '2024-05-01T12:00:00Z', expected: null },
    { type: 'timestamp', value: '2024-05-01T12:00:00+02:00', expected: null },
    { type: 'timestamp', value: 'yesterday', expected: 'an ISO 8601 date-time string' },
    { type: 'jsonb', value: { tags: ['a'], n: 1, ok: true }, expected: null },
  ];

  it.each(defaults)('$type default $value', ({ type, value, expected }) => {
    const ir: Mutable = baseIR();
    ir.tables.notes.columns.extra = { type, notNull: false, unique: false, default: value };
    const issues = expected
      ? [
          {
            path: 'tables.notes.columns.extra.default',
            message: `default ${JSON.stringify(value)} does not fit column type ${type}: expected ${expected}`,
          },
        ]
      : [];
    expect(issuesOf(ir)).toEqual(issues);
  });
});

describe('collecting problems', () => {
  it('reports every problem across tables and resource types in one error', () => {
    const ir: Mutable = baseIR();
    ir.tables.messages.columns.body.type = 'varchar';
    ir.tables.notes.indexes = [['missing']];
    ir.resources.room.grant.writer = 'admin';
    ir.resources._app = baseIR().resources.board;
    expect(issuesOf(ir).map(issue => issue.path)).toEqual([
      'tables.messages.columns.body.type',
      'tables.notes.indexes[0][0]',
      'resources.room.grant.writer',
      'resources._app',
    ]);
  });

  it('does not call a table unknown because one of its columns is broken', () => {
    const ir: Mutable = baseIR();
    ir.tables.messages.columns.body.type = 'varchar';
    expect(issuesOf(ir)).toHaveLength(1);
  });

  it('writes a readable multi-line message', () => {
    const ir: Mutable = baseIR();
    ir.version = 2;
    ir.resources.room.defaultRole = 'owner';
    expect(() => validateSchemaIR(ir)).toThrow(
      [
        'Invalid app schema (2 problems):',
        '  - version: unsupported schema version 2; this server reads version 1',
        '  - resources.room.defaultRole: defaultRole cannot be "owner": the creator is the only owner, and joiners get the default role',
      ].join('\n'),
    );
  });

  it('is an Error named SchemaValidationError', () => {
    const error = (() => {
      try {
        return validateSchemaIR(null);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(SchemaValidationError);
    expect((error as Error).name).toBe('SchemaValidationError');
    expect((error as Error).message).toBe('Invalid app schema (1 problem):\n  - (root): expected a schema object { version, tables, resources }');
  });
});

describe('round trip', () => {
  it('IR -> JSON -> validateSchemaIR gives back an equal, separate IR', () => {
    const ir = baseIR();
    const parsed = validateSchemaIR(JSON.parse(JSON.stringify(ir)));
    expect(parsed).toEqual(ir);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(ir));
  });

  it('returns a copy, not the input', () => {
    const input = baseIR();
    const parsed = validateSchemaIR(input);
    expect(parsed).not.toBe(input);
    expect(parsed.resources.room).not.toBe(input.resources.room);
  });
});
