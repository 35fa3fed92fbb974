/**
 * PostgreSQL text cannot hold U+0000 (error 22021). A NUL in any string input is refused in one
 * place per channel (URL, body, GraphQL operation) with 400 invalid_argument naming where: never
 * a 500 from the database.
 */
import { describe, expect } from 'vitest';
import { describeError } from '../../src/http/error-responses.js';
import { createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { MEMBERS_LIVE, subscribe } from '../helpers/feeds.js';

// One test subscribes over graphql-ws, which needs a real socket.
const it = appTest({ app: { listen: true }, users: ['alice', 'bob'] });
let team: string;

it.beforeAll(async ({ s }) => {
  team = await createResource(s.users.alice, 'team', 'Core');
});

const NUL = '\u0000';

const refused = (where: string) => ({
  status: 400,
  body: { error: 'invalid_argument', message: expect.stringContaining(`${where}: must not contain NUL bytes`) },
});

describe('NUL bytes in REST and gateway input', () => {
  it('refuses them in body fields (name, type, userId, agent name, app name)', async ({ s }) => {
    const { alice, bob } = s.users;
    expect(await alice.post('/v1/resources', { type: 'team', name: `a${NUL}b` })).toMatchObject(refused('body.name'));
    expect(await alice.post('/v1/resources', { type: `te${NUL}am`, name: 'x' })).toMatchObject(refused('body.type'));
    expect(await alice.post(`/v1/resources/${team}/invite`, { userId: `${bob.id}${NUL}` })).toMatchObject(refused('body.userId'));
    expect(await alice.post(`/v1/resources/${team}/remove`, { userId: NUL })).toMatchObject(refused('body.userId'));
    expect(await alice.post('/v1/blocks', { userId: `x${NUL}` })).toMatchObject(refused('body.userId'));
    expect(await alice.post('/v1/agents', { name: `Scout${NUL}` })).toMatchObject(refused('body.name'));
    expect(await s.developer.post('/dev/apps', { name: `App${NUL}` })).toMatchObject(refused('body.name'));
    expect(await s.developer.post('/dev/apps', { name: 'App', origins: [`https://a${NUL}.example`] })).toMatchObject(refused('body.origins.0'));
  });

  it('refuses them in path ids', async ({ s }) => {
    const { alice } = s.users;
    expect(await alice.get(`/v1/resources/${team}%00`)).toMatchObject(refused('path'));
    expect(await alice.get(`/v1/resources/abc%00def/members`)).toMatchObject(refused('path'));
    expect(await alice.post(`/v1/resources/${team}%00/join`)).toMatchObject(refused('path'));
    expect(await alice.request('DELETE', '/v1/blocks/x%00y')).toMatchObject(refused('path'));
    expect(await s.developer.post(`/dev/apps/${s.appId}%00/test-users`, { name: 'x', env: 'dev' })).toMatchObject(refused('path'));
  });

  it('refuses them in query parameters (type, browse query, slug, cursor)', async ({ s }) => {
    const { alice } = s.users;
    expect(await alice.get('/v1/resources?type=te%00am')).toMatchObject(refused('query.type'));
    expect(await alice.get('/v1/resources/browse?type=room&query=a%00b')).toMatchObject(refused('query.query'));
    expect(await alice.get('/v1/resources/browse?type=room&cursor=%00')).toMatchObject(refused('query.cursor'));
    expect(await alice.get('/v1/resources/static?type=settings&slug=glo%00bal')).toMatchObject(refused('query.slug'));
    expect(await alice.get('/v1/resources/invitations?type=%00')).toMatchObject(refused('query.type'));
  });

  it('refuses them on gateway routes (query and body)', async ({ ctx }) => {
    expect(await ctx.anonymous.get('/auth/consent-request?challenge=%00')).toMatchObject(refused('query.challenge'));
    expect(await ctx.anonymous.get('/auth/identity/flow?type=login&id=a%00')).toMatchObject(refused('query.id'));
    const token = await ctx.anonymous.post('/auth/token', {
      code: `c${NUL}`,
      code_verifier: 'v'.repeat(43),
      redirect_uri: 'https://a.example/cb',
      client_id: 'x',
    });
    expect(token).toMatchObject(refused('body.code'));
  });
});

describe('NUL bytes in GraphQL operations', () => {
  it('refuses them in variables, with HTTP 400', async ({ s }) => {
    const { alice, bob } = s.users;
    const create = await alice.request('POST', '/graphql', {
      query: 'mutation($input: CreateResourceInput!) { createResource(input: $input) { id } }',
      variables: { input: { type: 'team', name: `a${NUL}` } },
    });
    expect(create.status).toBe(400);
    expect(create.body.errors[0]).toMatchObject({
      message: expect.stringContaining('variables.input.name: must not contain NUL bytes'),
      extensions: { code: 'invalid_argument', status: 400 },
    });
    for (const [query, variables, where] of [
      ['mutation($id: ID!, $u: ID!) { invite(resourceId: $id, userId: $u) { ok } }', { id: team, u: `${bob.id}${NUL}` }, 'variables.u'],
      ['query($id: ID!) { resource(id: $id) { id } }', { id: `${team}${NUL}` }, 'variables.id'],
      ['query($t: String) { browseResources(type: $t, query: "x") { nextCursor } }', { t: NUL }, 'variables.t'],
      ['query($q: String) { browseResources(type: "room", query: $q) { nextCursor } }', { q: `a${NUL}` }, 'variables.q'],
      ['query($c: String) { browseResources(type: "room", cursor: $c) { nextCursor } }', { c: NUL }, 'variables.c'],
      ['mutation($n: String!) { createAgent(name: $n) { id } }', { n: `a${NUL}` }, 'variables.n'],
    ] as const) {
      const res = await alice.request('POST', '/graphql', { query, variables });
      expect(res.status, where).toBe(400);
      expect(res.body.errors[0].message, where).toContain(`${where}: must not contain NUL bytes`);
    }
  });

  it('refuses them in string literals of the document, over POST and GET', async ({ s }) => {
    const { alice } = s.users;
    const query = 'mutation { createResource(input: { type: "team", name: "a\\u0000b" }) { id } }';
    const post = await alice.request('POST', '/graphql', { query });
    expect(post.status).toBe(400);
    expect(post.body.errors[0]).toMatchObject({ message: expect.stringContaining('NUL'), extensions: { code: 'invalid_argument' } });
    const braced = await alice.request('POST', '/graphql', { query: '{ resource(id: "x\\u{0}") { id } }' });
    expect(braced.status).toBe(400);
    const get = await alice.get(
      `/graphql?query=${encodeURIComponent('query($id: ID!) { resource(id: $id) { id } }')}&variables=${encodeURIComponent(JSON.stringify({ id: NUL }))}`,
    );
    expect(get.status).toBe(400);
    expect(get.body.errors[0].extensions).toMatchObject({ code: 'invalid_argument' });
  });

  it('leaves an escaped backslash followed by u0000 alone (it is not a NUL)', async ({ s }) => {
    const res = await s.users.alice.gql('mutation { createResource(input: { type: "team", name: "a\\\\u0000b" }) { name } }');
    expect(res.data.createResource.name).toBe('a\\u0000b');
  });
});

describe('NUL bytes past the edge', () => {
  it('a well-formed cursor whose id holds a NUL is invalid_cursor, not a database error', async ({ s }) => {
    const cursor = Buffer.from(JSON.stringify([new Date().toISOString(), `x${NUL}`])).toString('base64url');
    const res = await s.users.alice.get(`/v1/resources/browse?type=room&cursor=${cursor}`);
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_cursor' } });
  });

  it('a subscription over the socket refuses them like HTTP does', async ({ ctx, s }) => {
    const sub = subscribe(ctx.url, s.users.alice.token!, MEMBERS_LIVE, { id: `${team}${NUL}` });
    try {
      const message = await sub.next();
      expect(message.errors?.[0]).toMatchObject({
        message: expect.stringContaining('must not contain NUL bytes'),
        extensions: { code: 'invalid_argument' },
      });
    } finally {
      await sub.dispose();
    }
  });

  it('a NUL that still reaches the database (PostgreSQL 22021) is a 400, never a 500', async ({ ctx }) => {
    const error = await ctx.database.prisma.$queryRaw`SELECT ${`a${NUL}b`}::text AS x`.catch((e: unknown) => e);
    expect(describeError(error)).toMatchObject({ status: 400, code: 'invalid_argument' });
  });
});
