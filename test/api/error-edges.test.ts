/**
 * Issue #24: every bad input at the edges is a 4xx with a JSON body and a code, never a 5xx or an
 * empty answer, and a credential that cannot be one is refused without asking the provider.
 * (The fuzz, test/fuzz/, finds these by the thousand; these are the cases it found, one each.)
 *
 * In process, the embedded provider has no backchannel (nothing listens): a request that reached
 * it would answer 502 provider_unavailable, so a 401 here proves the decision was local.
 */
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice'] });

const body = async (res: Response) => ({ status: res.status, type: res.headers.get('content-type'), json: JSON.parse((await res.text()) || 'null') });
const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const codesTable = api.slice(api.indexOf('### 8.2 Codes'), api.indexOf('## 9. Limits'));

describe('GraphQL answers', () => {
  it('item 21: an Accept /graphql cannot serve is 406 with a JSON body and a code', async ({ ctx, s }) => {
    const res = await ctx.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/xml', authorization: `Bearer ${s.users.alice.token}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const answer = await body(res);
    expect(answer.status).toBe(406);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.json.errors[0].extensions).toEqual({ code: 'not_acceptable', status: 406 });
    expect(answer.json.errors[0].message).toMatch(/text\/xml/);
    expect(codesTable).toMatch(/\|\s*406\s*\|\s*`not_acceptable`/);
  });

  it('item 32: a validation error carries GRAPHQL_VALIDATION_FAILED with status 400, documented in §8.2', async ({ s }) => {
    const unknownField = await s.users.alice.gql('{ nope }');
    expect(unknownField.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', status: 400 });
    const wrongVariable = await s.users.alice.gql('query($id: String) { resource(id: $id) { id } }', { id: 'x' });
    expect(wrongVariable.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', status: 400 });
    expect(codesTable).toMatch(/\|\s*400\s*\|\s*`GRAPHQL_VALIDATION_FAILED`/);
  });

  it('a subscription variable of the wrong type is 400 invalid_argument, as for a query, not a masked 500', async ({ ctx, s }) => {
    const abort = new AbortController();
    const res = await ctx.fetch('/graphql', {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${s.users.alice.token}` },
      body: JSON.stringify({ query: 'subscription($id: ID!) { membersLive(resourceId: $id) { op } }', variables: { id: true } }),
    });
    let text = '';
    const reader = res.body!.getReader();
    while (!/^data: \{/m.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    abort.abort();
    const event = JSON.parse(/^data: (\{.*)$/m.exec(text)![1]);
    expect(event.errors[0].extensions).toEqual({ code: 'invalid_argument', status: 400 });
    expect(event.errors[0].message).toMatch(/\$id/);
  });

  it('a limit refused at validation keeps its own code', async ({ s }) => {
    const deep = await s.users.alice.gql(`{ me { ${'owner { '.repeat(20)}id${' }'.repeat(20)} } }`);
    expect(deep.errors[0].extensions).toMatchObject({ code: 'query_too_deep', status: 400 });
  });
});

describe('names that are Object.prototype’s', () => {
  it('a resource type named constructor or toString is unknown_type, not a 500 (the schema’s maps have no prototype)', async ({ s }) => {
    for (const type of ['constructor', 'toString', 'hasOwnProperty']) {
      const res = await s.users.alice.post('/v1/resources', { type, name: 'x' });
      expect(res, type).toMatchObject({ status: 404, body: { error: 'unknown_type' } });
    }
  });
});

describe('a value the database refuses (SQLSTATE class 22) is bad input', () => {
  // The row store's own validation (another item) may refuse these first, with its own code: either way a 400.
  it('a lone surrogate in a row value, a timestamp filter past the calendar: 400 with a code, never 500', async ({ s }) => {
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, {
      schema: {
        version: 1,
        resources: {},
        tables: { notes: { columns: { title: { type: 'text', notNull: false, unique: false } }, timestamps: true, indexes: [], access: null } },
      },
    });
    expect(deployed.status).toBe(200);
    const query = (body: unknown) => s.users.alice.post('/v1/db/query', body);
    for (const res of [
      await query({ scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { title: 'a\ud800b' } }),
      await query({ scope: { kind: 'user' }, table: 'notes', op: 'select', where: { createdAt: { gte: '0001-01-01T00:00:00+14:00' } } }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatch(/^[a-z_]+$/);
    }
  });
});

describe('REST paths', () => {
  it('a path segment that is not percent-encoded UTF-8 is 400 invalid_argument on its route, not "no route"', async ({ ctx, s }) => {
    for (const segment of ['%ED%A0%80', '%zz', '%']) {
      const answer = await body(await ctx.fetch(`/v1/resources/${segment}/members`, { headers: { authorization: `Bearer ${s.users.alice.token}` } }));
      expect(answer, segment).toMatchObject({ status: 400, json: { error: 'invalid_argument', message: expect.stringContaining('path.id') } });
    }
  });
});

describe('the consent routes (no credential needed)', () => {
  const csrf = { 'content-type': 'application/json', 'x-service-csrf': '1' };

  it('item 18: a lone surrogate in challenge is 400 invalid_argument, not a 500 from encodeURIComponent', async ({ ctx }) => {
    for (const path of ['/auth/consent/accept', '/auth/consent/reject']) {
      const res = await ctx.fetch(path, { method: 'POST', headers: csrf, body: '{"challenge":"a\\ud800b","grant_scope":[]}' });
      expect(await body(res), path).toMatchObject({
        status: 400,
        json: { error: 'invalid_argument', message: expect.stringContaining('body.challenge') },
      });
    }
  });

  it('an empty challenge is 400 invalid_argument naming it', async ({ ctx }) => {
    const answer = await body(await ctx.fetch('/auth/consent-request?challenge='));
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_argument', message: expect.stringContaining('query.challenge') } });
  });
});

describe('item 23: a session cookie that cannot be a session never leaves the process', () => {
  const garbage = ['garbage', 'x'.repeat(5000), '%zz', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'a'.repeat(42), `${'a'.repeat(43)}!`];

  it.for(garbage.map(value => [value.slice(0, 40), value]))('gh_session=%s is 401 session_expired', async ([_name, value], { ctx }) => {
    const res = await ctx.fetch('/v1/resources', { headers: { cookie: `gh_session=${value}` } });
    const answer = await body(res);
    // `%zz` does not decode: no cookie at all.
    expect(answer.status).toBe(401);
    expect(['session_expired', 'unauthenticated']).toContain(answer.json.error);
  });

  it('on /auth/session too: not signed in, without a provider call', async ({ ctx }) => {
    const answer = await body(await ctx.fetch('/auth/session', { headers: { cookie: 'gh_session=garbage' } }));
    expect(answer).toEqual({ status: 200, type: expect.stringMatching(/json/), json: { authenticated: false } });
  });

  it('a cookie shaped like the provider’s tokens is still asked about (the provider is down here: 502)', async ({ ctx }) => {
    const answer = await body(await ctx.fetch('/v1/resources', { headers: { cookie: `gh_session=${'a'.repeat(43)}` } }));
    expect(answer).toMatchObject({ status: 502, json: { error: 'provider_unavailable' } });
  });
});
