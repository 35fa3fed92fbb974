/**
 * Issue #8 items 11-15: who may learn what. Each case fails on the code before the fix: join on
 * members answered 404, transitions leaked target state to strangers, `_app` was visible through
 * static lookup, principals crossed app boundaries, and app registration took any URL.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'] })
  /** A second app on the same server, with an alice of its own. */
  .extend('b', { scope: 'file', auto: true }, async ({ ctx }) => seed(ctx, ['mallory', 'alice']))
  /** The first app's seed, named as the counterpart of b. */
  .extend('a', async ({ s }) => s);

const gqlError = (res: any) => res.errors?.[0]?.extensions;

describe('item 11: join on a members resource is 403 (docs/api.md §5.2)', () => {
  it('REST: a stranger gets 403 members_only; a missing id is still 404', async ({ a }) => {
    const id = await createResource(a.users.alice, 'team', 'T');
    expect(await a.users.carol.post(`/v1/resources/${id}/join`)).toMatchObject({ status: 403, body: { error: 'members_only' } });
    expect(await a.users.alice.post(`/v1/resources/${id}/join`)).toMatchObject({ status: 403, body: { error: 'members_only' } });
    expect((await a.users.carol.post('/v1/resources/res_missing/join')).body.error).toBe('resource_not_found');
  });

  it('GraphQL: join answers members_only with status 403', async ({ a }) => {
    const id = await createResource(a.users.alice, 'team', 'T');
    const res = await a.users.carol.gql(`mutation($id: ID!) { join(resourceId: $id) { state } }`, { id });
    expect(gqlError(res)).toMatchObject({ code: 'members_only', status: 403 });
  });
});

describe('item 12: per-resource routes answer 404 to a caller who cannot see the resource', () => {
  it('REST: every transition answers a stranger exactly like a missing resource, whatever the target', async ({ a }) => {
    const { alice, bob, carol, dave } = a.users;
    const id = await createResource(alice, 'team', 'Secret');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id }); // bob: invited
    await addMember(alice, dave, id, 'reader'); // dave: active
    const calls: [string, unknown][] = [
      ['accept', { userId: bob.id }],
      ['accept', { userId: dave.id }],
      ['accept', { userId: 'test:nobody' }],
      ['accept', {}],
      ['reject', { userId: bob.id }],
      ['reject', { userId: dave.id }],
      ['reject', {}],
      ['invite', { userId: bob.id }],
      ['invite', { userId: 'test:nobody' }],
      ['invite-link', {}],
      ['leave', {}],
      ['setRole', { userId: dave.id, role: 'writer' }],
      ['remove', { userId: dave.id }],
      ['remove', { userId: 'test:nobody' }],
    ];
    for (const [route, body] of calls) {
      const seen = await carol.post(`/v1/resources/${id}/${route}`, body);
      const missing = await carol.post(`/v1/resources/res_missing0000/${route}`, body);
      expect({ route, body, status: seen.status, error: seen.body.error }).toEqual({ route, body, status: 404, error: 'resource_not_found' });
      expect(seen.body.message.replace(id, 'ID')).toBe(missing.body.message.replace('res_missing0000', 'ID'));
    }
  });

  it('GraphQL: accept with a userId answers resource_not_found (404) to a stranger', async ({ a }) => {
    const { alice, bob, carol } = a.users;
    const id = await createResource(alice, 'team', 'Secret');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    const res = await carol.gql(`mutation($id: ID!, $u: ID!) { accept(resourceId: $id, userId: $u) { state } }`, { id, u: bob.id });
    expect(gqlError(res)).toMatchObject({ code: 'resource_not_found', status: 404 });
    const setRole = await carol.gql(`mutation($id: ID!, $u: ID!) { setRole(resourceId: $id, userId: $u, role: reader) { role } }`, {
      id,
      u: alice.id,
    });
    expect(gqlError(setRole)).toMatchObject({ code: 'resource_not_found', status: 404 });
  });

  it('a pending member answers their own row but cannot probe anyone else on the resource', async ({ a }) => {
    const { alice, bob, carol } = a.users;
    const id = await createResource(alice, 'team', 'Secret');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    await carol.post(`/v1/resources/${id}/request`);
    // Carol (requested) learns nothing about Bob's invite or about unknown ids.
    for (const userId of [bob.id, alice.id, 'test:nobody']) {
      expect((await carol.post(`/v1/resources/${id}/accept`, { userId })).body.error).toBe('resource_not_found');
      expect((await carol.post(`/v1/resources/${id}/reject`, { userId })).body.error).toBe('resource_not_found');
    }
    // Her own row is hers to withdraw; Bob accepts his own invite.
    expect((await carol.post(`/v1/resources/${id}/reject`)).body).toEqual({ ok: true });
    expect((await bob.post(`/v1/resources/${id}/accept`)).body).toEqual({ ok: true, state: 'active' });
  });

  it('the owner of an invited agent answers for it without being a member', async ({ a }) => {
    const { alice, bob } = a.users;
    const agent = (await bob.post('/v1/agents', { name: 'helper' })).body;
    const id = await createResource(alice, 'team', 'Secret');
    await alice.post(`/v1/resources/${id}/invite`, { userId: agent.id });
    expect((await bob.post(`/v1/resources/${id}/accept`, { userId: agent.id })).body).toEqual({ ok: true, state: 'active' });
  });

  it('request stays the way into a members resource', async ({ a }) => {
    const id = await createResource(a.users.alice, 'team', 'Secret');
    expect((await a.users.carol.post(`/v1/resources/${id}/request`)).body).toEqual({ ok: true, state: 'requested' });
  });
});

describe('item 13: the members-only _app resource', () => {
  it('REST: static lookup of _app is 404 to a non-member, like a missing singleton; a member sees it', async ({ ctx, a }) => {
    const { alice } = a.users;
    const hidden = await alice.get('/v1/resources/static?type=_app&slug=app');
    const missing = await alice.get('/v1/resources/static?type=_app&slug=nope');
    expect(hidden).toMatchObject({ status: 404, body: { error: 'static_not_found' } });
    expect(hidden.body.message.replace('app', 'X')).toBe(missing.body.message.replace('nope', 'X'));

    const appResource = await ctx.database.prisma.resource.findFirstOrThrow({ where: { type: '_app', deployment: { appId: a.appId } } });
    await ctx.database.prisma.membership.create({ data: { resourceId: appResource.id, principalId: alice.id, role: 'reader', state: 'active' } });
    expect((await alice.get('/v1/resources/static?type=_app&slug=app')).body).toMatchObject({ id: appResource.id, type: '_app' });
    // A public singleton stays visible to everyone.
    expect((await a.users.bob.get('/v1/resources/static?type=settings&slug=global')).status).toBe(200);
  });

  it('GraphQL: staticResource hides _app from a non-member', async ({ a }) => {
    const res = await a.users.bob.gql(`{ staticResource(type: "_app", slug: "app") { id } }`);
    expect(gqlError(res)).toMatchObject({ code: 'static_not_found', status: 404 });
  });

  it('request on a reserved type is 403 reserved_type (REST and GraphQL), and writes nothing', async ({ ctx, a }) => {
    const appResource = await ctx.database.prisma.resource.findFirstOrThrow({ where: { type: '_app', deployment: { appId: a.appId } } });
    expect(await a.users.carol.post(`/v1/resources/${appResource.id}/request`)).toMatchObject({ status: 403, body: { error: 'reserved_type' } });
    const res = await a.users.carol.gql(`mutation($id: ID!) { requestAccess(resourceId: $id) { state } }`, { id: appResource.id });
    expect(gqlError(res)).toMatchObject({ code: 'reserved_type', status: 403 });
    expect(await ctx.database.prisma.membership.count({ where: { resourceId: appResource.id, principalId: a.users.carol.id } })).toBe(0);
  });
});

describe('item 14: test users and agents of another app answer like unknown ones', () => {
  const unknownLike = (res: { status: number; body: any }, id: string) => {
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('user_not_found');
    expect(res.body.message).toBe(`No user or agent ${id} in this app.`);
  };

  it("REST: inviting another app's test user or agent is user_not_found, word for word as an unknown id", async ({ a, b }) => {
    const { alice } = a.users;
    const id = await createResource(alice, 'team', 'T');
    const foreignAgent = (await b.users.mallory.post('/v1/agents', { name: 'spy' })).body;
    for (const target of [b.users.mallory.id, b.users.alice.id, foreignAgent.id, `test:${a.appId}:nobody`]) {
      unknownLike(await alice.post(`/v1/resources/${id}/invite`, { userId: target }), target);
    }
    // B's own users still reach their own agent.
    const bRes = await createResource(b.users.alice, 'team', 'T');
    expect((await b.users.alice.post(`/v1/resources/${bRes}/invite`, { userId: foreignAgent.id })).body.state).toBe('invited');
  });

  it('people are platform identities: a person who so far used only app B can be invited in app A', async ({ ctx, a, b }) => {
    const person = `usr_b_only_${Math.random().toString(36).slice(2, 8)}`;
    await ctx.database.prisma.principal.create({ data: { id: person, kind: 'user' } });
    const bApp = await ctx.database.prisma.resource.findFirstOrThrow({ where: { type: '_app', deployment: { appId: b.appId } } });
    await ctx.database.prisma.membership.create({ data: { resourceId: bApp.id, principalId: person, role: 'reader', state: 'active' } });
    const id = await createResource(a.users.alice, 'team', 'T');
    expect((await a.users.alice.post(`/v1/resources/${id}/invite`, { userId: person })).body.state).toBe('invited');
  });

  it('REST: blocking a test user of another app is user_not_found, like an unknown one', async ({ a, b }) => {
    unknownLike(await a.users.alice.post('/v1/blocks', { userId: b.users.mallory.id }), b.users.mallory.id);
    unknownLike(await a.users.alice.post('/v1/blocks', { userId: `test:${a.appId}:ghost` }), `test:${a.appId}:ghost`);
    expect((await a.users.alice.post('/v1/blocks', { userId: a.users.dave.id })).status).toBe(200);
  });

  it('GraphQL: invite and blockUser across apps answer user_not_found', async ({ a, b }) => {
    const id = await createResource(a.users.alice, 'team', 'T');
    const invite = await a.users.alice.gql(`mutation($id: ID!, $u: ID!) { invite(resourceId: $id, userId: $u) { state } }`, {
      id,
      u: b.users.mallory.id,
    });
    expect(gqlError(invite)).toMatchObject({ code: 'user_not_found', status: 404 });
    const block = await a.users.alice.gql(`mutation($u: ID!) { blockUser(userId: $u) { ok } }`, { u: b.users.mallory.id });
    expect(gqlError(block)).toMatchObject({ code: 'user_not_found', status: 404 });
  });
});

describe("item 15: app registration refuses the gateway's hosts and unsafe redirect URIs", () => {
  it("REST: the gateway's own host (PUBLIC_URL) is never an app origin", async ({ ctx, a }) => {
    for (const origin of ['https://gatehouse.test', 'http://gatehouse.test', 'https://GATEHOUSE.test:443']) {
      const res = await a.developer.post('/dev/apps', { name: 'hijack', origins: [origin] });
      expect({ origin, status: res.status, error: res.body.error }).toEqual({ origin, status: 400, error: 'origin_reserved' });
    }
    expect(await ctx.database.prisma.appOrigin.count({ where: { origin: { contains: 'gatehouse.test' } } })).toBe(0);
  });

  it('REST: redirect URIs must be http(s); plain http only on loopback hosts', async ({ a }) => {
    for (const uri of ['javascript:alert(1)', 'data:text/html,x', 'http://evil.example.com/cb', 'myapp://cb', '/relative']) {
      const res = await a.developer.post('/dev/apps', { name: 'x', redirectUris: [uri] });
      expect({ uri, status: res.status, error: res.body.error }).toEqual({ uri, status: 400, error: 'invalid_redirect_uri' });
      expect(res.body.message).toContain('redirectUris[0]');
    }
    const ok = await a.developer.post('/dev/apps', {
      name: 'ok',
      redirectUris: ['https://ok.example.com/cb', 'http://localhost:5173/cb', 'http://127.0.0.1:8080/cb', 'http://[::1]/cb'],
    });
    expect(ok.status).toBe(200);
  });

  it('GraphQL: createApp applies the same checks', async ({ a }) => {
    const CREATE = `mutation($input: CreateAppInput!) { createApp(input: $input) { id } }`;
    const origin = await a.developer.gql(CREATE, { input: { name: 'x', origins: ['https://gatehouse.test'] } });
    expect(gqlError(origin)).toMatchObject({ code: 'origin_reserved', status: 400 });
    const redirect = await a.developer.gql(CREATE, { input: { name: 'x', redirectUris: ['javascript:alert(1)'] } });
    expect(gqlError(redirect)).toMatchObject({ code: 'invalid_redirect_uri', status: 400 });
  });
});

describe('the credential is checked before the input', () => {
  it('a refused bearer token (a test-session token this server never minted) with a malformed body is 401 invalid_token', async ({ ctx }) => {
    const res = await ctx.fetch('/v1/resources', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer gst_not-a-token-this-server-minted' },
      body: JSON.stringify({ name: 5 }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('invalid_token');
  });
});
