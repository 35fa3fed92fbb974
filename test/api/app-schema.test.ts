/**
 * The schema apps write (docs/api.md §5.5), through the real deploy route: inline owned tables,
 * single-string access rules, camelCase timestamps and an index on createdAt deploy and read back
 * as stored; a deploy that would drop a table or column holding rows is refused with 409
 * `schema_drops_data` naming it, on the embedded database and PostgreSQL alike.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import team from '../../examples/team-schema.js';
import { defineSchema, type SchemaIR } from '../../src/schema/index.js';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTest, appTestOn } from '../helpers/fixtures.js';

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice'] });
const namesOnBackend = appTestOn(available, { users: ['alice'] });
const creatorIdTest = appTest({ users: ['alice', 'bob'] });

/** A copy of `ir` changed by `edit`, as a developer would edit and redeploy their schema. */
function edited(ir: SchemaIR, edit: (copy: SchemaIR) => void): SchemaIR {
  const copy = structuredClone(ir);
  edit(copy);
  return copy;
}

/** Drops an inline table of `team` and its owns entry. */
const withoutTeamTable = (copy: SchemaIR, name: string) => {
  delete copy.tables[name];
  copy.resources.team.owns = copy.resources.team.owns.filter(own => own.table !== name);
};

describe.each(available)('app schemas on $name', backend => {
  let teamId: string;

  const it = onBackend(backend)
    .extend('deploy', async ({ s }) => {
      return (schema: unknown, env = 'dev') => s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/${env}`, { schema });
    })
    .extend('stored', async ({ ctx, s }) => {
      return async (env = 'dev') => {
        const row = await ctx.database.prisma.deployment.findUniqueOrThrow({ where: { appId_env: { appId: s.appId, env } } });
        return { id: row.id, version: row.version, schema: row.schema };
      };
    })
    /** A row written straight to the store: the row API is not what this file tests. */
    .extend('insertRow', async ({ ctx, s, stored }) => {
      return async (env: string, tableName: string, data: Record<string, unknown>, resourceId: string | null = teamId) => {
        const { id: deploymentId } = await stored(env);
        await ctx.database.prisma.row.create({
          data: { id: randomUUID(), deploymentId, tableName, creatorId: s.users.alice.id, resourceId, data: data as object },
        });
      };
    });

  it('deploys a schema shaped like a real app and stores its IR as compiled', async ({ ctx, s, deploy, stored }) => {
    const res = await deploy(team);
    expect(res.status).toBe(200);
    expect(res.body.tables).toEqual(['member_budgets', 'member_events', 'member_notes', 'member_presence', 'posts', 'profiles']);
    expect(res.body.buckets).toEqual(['docs', 'shared']);
    expect(res.body.resourceTypes).toEqual(['club', 'team']);

    const { schema } = await stored();
    expect(schema).toEqual(team);
    const ir = schema as unknown as SchemaIR;
    expect(ir.resources.team.owns).toEqual([
      { table: 'member_notes', access: null },
      { table: 'member_events', access: null },
      { table: 'member_presence', access: null },
      { table: 'member_budgets', access: null },
    ]);
    expect(ir.tables.member_presence.uniques).toEqual([['memberId', 'device']]);
    expect(ir.tables.member_notes).toMatchObject({
      ownedBy: 'team',
      timestamps: true,
      indexes: [['subjectId', 'createdAt']],
      access: { read: ['admin'], create: ['admin'], update: ['creator'], delete: ['admin'] },
    });
    expect(ir.tables.member_events.columns).toMatchObject({
      memberId: { type: 'uuid', notNull: true },
      payload: { type: 'jsonb', default: {} },
      sequence: { type: 'bigint', notNull: true },
    });
    expect(ir.tables.member_events).toMatchObject({ indexes: [['createdAt']], onOwnerDelete: 'tombstone' });
    expect(ir.tables.posts).toMatchObject({ ownedBy: null, access: { read: ['reader'], unlink: ['admin'] } });
    // The README's bucket example: a single rule is a one-rule list, as for tables (issue 24 item 27).
    expect(ir.buckets?.shared.access).toEqual({ upload: ['writer'] });
    expect(ir.resources.club.shares).toEqual([
      { table: 'posts', onMemberRemove: 'hide', access: null },
      { table: 'profiles', onMemberRemove: 'retain', access: null },
    ]);
    // The deployment the services read is the same IR.
    const { id } = await stored();
    expect((await ctx.app.services.apps.deployment(id)).schema).toEqual(team);
    teamId = await createResource(s.users.alice, 'team', `crew-${backend.name}`);
  });

  it('refuses an IR that uses the old snake_case timestamp names, naming the new ones', async ({ deploy }) => {
    const res = await deploy(edited(team, copy => (copy.tables.posts.indexes = [['created_at']])));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_schema');
    expect(res.body.issues).toEqual([
      {
        path: 'tables.posts.indexes[0][0]',
        message: 'index names unknown column "created_at": the timestamps() columns are createdAt and updatedAt',
      },
    ]);
  });

  it('allows dropping tables and columns that hold no rows, and adding is always allowed', async ({ deploy, insertRow }) => {
    await insertRow('dev', 'member_notes', { subjectId: randomUUID(), body: 'first' });
    const dropEmpty = edited(team, copy => {
      withoutTeamTable(copy, 'member_budgets');
      delete copy.tables.member_notes.columns.pinned; // no stored row has this key
    });
    expect((await deploy(dropEmpty)).status).toBe(200);
    expect((await deploy(team)).status).toBe(200);
    const added = edited(team, copy => {
      copy.tables.member_notes.columns.mood = { type: 'text', notNull: false, unique: false };
    });
    expect((await deploy(added)).status).toBe(200);
  });

  it('refuses dropping a table that holds rows, naming it, and keeps the deployed schema', async ({ deploy, stored }) => {
    await deploy(team);
    const before = await stored();
    const res = await deploy(edited(team, copy => withoutTeamTable(copy, 'member_notes')));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'schema_drops_data', tables: ['member_notes'], columns: [] });
    expect(res.body.message).toBe(
      `This deploy would drop table "member_notes", which still holds data in environment 'dev'. Keep it in the schema, or delete the rows or files first (a deploy never deletes data).`,
    );
    expect(await stored()).toEqual(before);
  });

  it('refuses dropping a column that any row holds, naming table and column, with every offender in one answer', async ({ deploy, insertRow }) => {
    await insertRow('dev', 'member_events', { memberId: randomUUID(), kind: 'joined', payload: {}, sequence: '1' });
    await insertRow('dev', 'profiles', { displayName: 'Alice', bio: null }, null);
    const res = await deploy(
      edited(team, copy => {
        withoutTeamTable(copy, 'member_events');
        delete copy.tables.member_notes.columns.body;
        delete copy.tables.member_notes.columns.pinned; // still held by no row: not named
        delete copy.tables.profiles.columns.bio; // a null value is still data the row holds
      }),
    );
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'schema_drops_data',
      tables: ['member_events'],
      columns: [
        { table: 'member_notes', column: 'body' },
        { table: 'profiles', column: 'bio' },
      ],
    });
    expect(res.body.message).toMatch(
      /^This deploy would drop table "member_events", column "member_notes.body", column "profiles.bio", which still hold data/,
    );
  });

  it("judges only this environment's rows", async ({ deploy, insertRow }) => {
    expect((await deploy(team, 'staging')).status).toBe(200);
    await insertRow('staging', 'posts', { title: 'staging only' }, null);
    const withoutPosts = edited(team, copy => {
      delete copy.tables.posts;
      copy.resources.club.shares = copy.resources.club.shares.filter(share => share.table !== 'posts');
    });
    // dev holds no posts: staging's rows do not stop dev from dropping the table.
    expect((await deploy(withoutPosts, 'dev')).status).toBe(200);
    expect((await deploy(team, 'dev')).status).toBe(200);
    const refused = await deploy(
      edited(team, copy => delete copy.tables.posts.columns.title),
      'staging',
    );
    expect(refused.status).toBe(409);
    expect(refused.body.columns).toEqual([{ table: 'posts', column: 'title' }]);
  });

  it('answers the same refusal over GraphQL', async ({ s }) => {
    const res = await s.developer.gql('mutation ($appId: ID!, $schema: JSON!) { deploy(appId: $appId, env: "dev", schema: $schema) { version } }', {
      appId: s.appId,
      schema: edited(team, copy => withoutTeamTable(copy, 'member_notes')),
    });
    expect(res.errors[0].extensions).toMatchObject({ code: 'schema_drops_data', status: 409, details: { tables: ['member_notes'] } });
  });
});

describe.each(available)('names as the product accepts them on $name (issue 25 item 14)', backend => {
  const it = namesOnBackend(backend);

  it('camelCase (and capitalised) table and bucket names deploy, index, and take rows and files', async ({ s }) => {
    const schema = defineSchema({
      tables: {
        chatMessages: table => table.text('body').notNull().timestamps().index(['body']),
        Drafts: table => table.text('body'),
      },
      files: { userAvatars: { accept: ['text/*'] } },
      resources: {
        team: resource => {
          resource.owns('teamPins', table => table.text('label').index(['label']));
          resource.files('sharedDocs', { accept: ['text/*'], access: { upload: 'writer' } });
        },
      },
    });
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    const { alice } = s.users;
    const team = await createResource(alice, 'team', 'Names');
    const query = (body: unknown) => alice.post('/v1/db/query', body);
    for (const [scope, table, values] of [
      [{ kind: 'user' }, 'chatMessages', { body: 'hi' }],
      [{ kind: 'user' }, 'Drafts', { body: 'later' }],
      [{ kind: 'resource', resourceId: team }, 'teamPins', { label: 'pinned' }],
    ] as const) {
      const inserted = await query({ scope, table, op: 'insert', values });
      expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
      const read = await query({ scope, table, op: 'select', where: Object.fromEntries(Object.entries(values)) });
      expect(read.body.rows).toEqual([expect.objectContaining(values)]);
    }
    const put = (path: string) => alice.request('PUT', path, 'bytes', { 'content-type': 'text/plain' });
    expect((await put('/v1/files/me/userAvatars/a.txt')).status).toBe(201);
    expect((await put(`/v1/files/resources/${team}/sharedDocs/b.txt`)).status).toBe(201);
    expect((await alice.get(`/v1/files/resources/${team}/sharedDocs`)).body.files.map((f: { path: string }) => f.path)).toEqual(['b.txt']);
  });
});

describe('an app column named creatorId (issue 25 item 15)', () => {
  const it = creatorIdTest;

  it("deploys and keeps the app's value; the server's creator reads back as _creatorId and the creator rule uses it", async ({ s }) => {
    // The product's apps write their own creatorId on every push.
    const schema = defineSchema({
      resources: {
        team: resource =>
          resource.owns('posts', table => table.text('title').text('creatorId').notNull().access({ update: 'creator', delete: 'creator' })),
      },
    });
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    const { alice, bob } = s.users;
    const team = await createResource(alice, 'team', 'Posts');
    await addMember(alice, bob, team, 'writer');
    const scope = { kind: 'resource', resourceId: team };
    // Alice writes a row whose app-level creatorId names bob.
    const inserted = await alice.post('/v1/db/query', { scope, table: 'posts', op: 'insert', values: { title: 'hi', creatorId: bob.id } });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    expect(inserted.body.rows[0]).toMatchObject({ title: 'hi', creatorId: bob.id, _creatorId: alice.id });
    const read = await bob.post('/v1/db/query', { scope, table: 'posts', op: 'select', where: { creatorId: bob.id } });
    expect(read.body.rows).toEqual([expect.objectContaining({ creatorId: bob.id, _creatorId: alice.id })]);
    // The `creator` rule is the server's creator: bob's name in the app column gives him nothing.
    const id = inserted.body.rows[0].id;
    const byBob = await bob.post('/v1/db/query', { scope, table: 'posts', op: 'update', ids: [id], values: { title: 'mine' } });
    expect(byBob.status).toBe(403);
    const byAlice = await alice.post('/v1/db/query', { scope, table: 'posts', op: 'update', ids: [id], values: { creatorId: alice.id } });
    expect(byAlice.body.rows[0]).toMatchObject({ creatorId: alice.id, _creatorId: alice.id });
    // The server's field is never written.
    const forged = await bob.post('/v1/db/query', {
      scope,
      table: 'posts',
      op: 'insert',
      values: { title: 'x', creatorId: 'x', _creatorId: alice.id },
    });
    expect(forged).toMatchObject({ status: 400, body: { error: 'column_not_writable' } });
  });
});
