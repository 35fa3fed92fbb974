/**
 * /graphql's fast path (src/http/graphql-fast-path.ts) answers exactly as Yoga does: every request
 * below goes to two apps on one database, one with the fast path and one without, and the status,
 * content type and body must be the same, for the requests it serves and the ones it leaves to Yoga.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seed, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';

const READ = 'query Read($id: ID!) { resource(id: $id) { id name memberCount currentMember { role state } } }';

interface Case {
  name: string;
  /** Whether the fast path answers it (the rest is Yoga's). */
  fast?: boolean;
  body: unknown;
  as?: 'owner' | 'stranger' | 'anonymous' | 'bad-token';
  accept?: string;
  contentType?: string;
}

describe('/graphql fast path', () => {
  let fast: TestContext;
  let yoga: TestContext;
  let s: Seed;
  let room: string;
  let served = 0;

  beforeAll(async () => {
    fast = await startTestApp({ graphqlFastPath: { onServed: () => served++ } });
    yoga = await startTestApp({ database: fast.database, graphqlFastPath: false });
    s = await seed(fast, ['owner', 'stranger']);
    room = await createResource(s.users.owner, 'team', 'Fast');
  });
  afterAll(async () => {
    await yoga?.app.stop();
    await fast?.close();
  });

  async function answer(ctx: TestContext, c: Case) {
    const token = { owner: s.users.owner.token, stranger: s.users.stranger.token, anonymous: undefined, 'bad-token': 'gst_not-a-token' }[
      c.as ?? 'owner'
    ];
    const headers: Record<string, string> = { 'content-type': c.contentType ?? 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (c.accept) headers.accept = c.accept;
    const response = await ctx.fetch('/graphql', { method: 'POST', headers, body: typeof c.body === 'string' ? c.body : JSON.stringify(c.body) });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
  }

  const cases = (): Case[] => [
    { name: 'a read', fast: true, body: { query: READ, variables: { id: room } } },
    {
      name: 'a read as application/graphql-response+json',
      fast: true,
      body: { query: READ, variables: { id: room } },
      accept: 'application/graphql-response+json',
    },
    {
      name: 'a read with a listed Accept',
      fast: true,
      body: { query: READ, variables: { id: room } },
      accept: 'application/json, application/graphql-response+json',
    },
    { name: 'a read with Accept */*', fast: true, body: { query: READ, variables: { id: room } }, accept: '*/*' },
    { name: 'a resource the caller cannot see (an error in the result)', fast: true, body: { query: READ, variables: { id: room } }, as: 'stranger' },
    {
      name: 'an error in the result as application/graphql-response+json',
      fast: true,
      body: { query: READ, variables: { id: room } },
      as: 'stranger',
      accept: 'application/graphql-response+json',
    },
    {
      name: 'an error in the result, Accept listing both',
      fast: true,
      body: { query: READ, variables: { id: room } },
      as: 'stranger',
      accept: 'application/graphql-response+json, application/json',
    },
    {
      name: 'a missing variable as application/graphql-response+json',
      fast: true,
      body: { query: READ },
      accept: 'application/graphql-response+json',
    },
    { name: 'no credential', fast: true, body: { query: READ, variables: { id: room } }, as: 'anonymous' },
    { name: 'a credential that does not work', body: { query: READ, variables: { id: room } }, as: 'bad-token' },
    { name: 'a missing variable', fast: true, body: { query: READ } },
    { name: 'a variable of the wrong type', fast: true, body: { query: READ, variables: { id: 5 } } },
    { name: 'two operations, one named', fast: true, body: { query: `${READ} query Me { me { id } }`, operationName: 'Me' } },
    { name: 'two operations, none named', body: { query: `${READ} query Me { me { id } }` } },
    { name: 'an unknown field (validation)', body: { query: '{ nope }' } },
    { name: 'unparsable', body: { query: '{ resource(' } },
    { name: 'too deep for the limits', body: { query: `{ me { ${'a: me { '.repeat(12)}id${' }'.repeat(12)} } }` } },
    { name: 'a NUL byte in a variable', body: { query: READ, variables: { id: 'a\u0000b' } } },
    { name: 'a mutation', body: { query: 'mutation { createResource(input: { type: "team", name: "M" }) { name } }' } },
    { name: 'extensions', body: { query: READ, variables: { id: room }, extensions: {} } },
    { name: 'not JSON', body: '{"query":' },
    { name: 'an array (batch)', body: [{ query: READ, variables: { id: room } }] },
    { name: 'variables not an object', body: { query: READ, variables: [room] } },
    { name: 'text/event-stream', body: { query: READ, variables: { id: room } }, accept: 'text/event-stream' },
    { name: 'a text/plain body', body: { query: READ, variables: { id: room } }, contentType: 'text/plain' },
  ];

  it('answers every request exactly as Yoga does', async () => {
    for (const c of cases()) {
      const before = served;
      const [viaFast, viaYoga] = [await answer(fast, c), await answer(yoga, c)];
      expect(served - before, `${c.name}: answered by the fast path`).toBe(c.fast ? 1 : 0);
      // Mutations run once per app: compare the shapes, names aside.
      if (c.name === 'a mutation') expect({ ...viaFast, body: undefined }, c.name).toEqual({ ...viaYoga, body: undefined });
      else expect(viaFast, c.name).toEqual(viaYoga);
    }
  });

  it('serves the repeated read from its cache with the current data', async () => {
    const before = JSON.parse((await answer(fast, cases()[0])).body);
    await s.users.owner.post(`/v1/resources/${room}/invite`, { userId: s.users.stranger.id });
    await s.users.stranger.post(`/v1/resources/${room}/accept`, {});
    const after = JSON.parse((await answer(fast, cases()[0])).body);
    expect(after.data.resource.memberCount).toBe(before.data.resource.memberCount + 1);
  });
});
