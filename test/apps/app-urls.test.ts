/**
 * Changing an existing app's origins and redirect URIs, and listing an environment's test users,
 * through GraphQL (the console's way) and REST: only the app's developer, with a developer token.
 */
import { describe, expect } from 'vitest';
import { seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice'] });

const code = (body: any) => body.errors?.[0]?.extensions?.code;
const host = () => `urls-${Math.random().toString(36).slice(2, 10)}.example.test`;

const ADD = 'mutation($appId: ID!, $origin: String!) { result: addAppOrigin(appId: $appId, origin: $origin) { origins } }';
const REMOVE = 'mutation($appId: ID!, $origin: String!) { result: removeAppOrigin(appId: $appId, origin: $origin) { origins } }';
const SET_REDIRECTS = 'mutation($appId: ID!, $uris: [String!]!) { result: setAppRedirectUris(appId: $appId, redirectUris: $uris) { redirectUris } }';
const TEST_USERS = 'query($appId: ID!, $env: String!) { testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens } }';

describe('app origins and redirect URIs', () => {
  it('adds and removes an origin: it names the app at once, then no more', async ({ ctx, s }) => {
    const origin = `https://${host()}`;
    const { apps } = ctx.app.services;
    const added = await s.developer.gql(ADD, { appId: s.appId, origin });
    expect(added.data.result.origins).toEqual([s.origin, origin]);
    expect(await apps.appOfOrigin(origin)).toEqual({ appId: s.appId, origin });
    // The same rules as at creation: another app's origin is taken.
    const other = await seed(ctx, []);
    expect(code(await other.developer.gql(ADD, { appId: other.appId, origin }))).toBe('origin_taken');

    const removed = await s.developer.gql(REMOVE, { appId: s.appId, origin });
    expect(removed.data.result.origins).toEqual([s.origin]);
    expect(await apps.appOfOrigin(origin)).toBeNull();
    // Now free for another app.
    expect((await other.developer.gql(ADD, { appId: other.appId, origin })).data.result.origins).toContain(origin);
    // REST: DELETE /dev/apps/:appId/origins?origin=…, the other app's developer only.
    const path = `/dev/apps/${other.appId}/origins?origin=${encodeURIComponent(origin)}`;
    expect((await s.developer.request('DELETE', path)).body.error).toBe('app_not_found');
    const viaRest = await other.developer.request('DELETE', path);
    expect([viaRest.status, viaRest.body.origins]).toEqual([200, [other.origin]]);
    expect(await apps.appOfOrigin(origin)).toBeNull();
    expect((await other.developer.request('DELETE', `/dev/apps/${other.appId}/origins`)).body.error).toBe('invalid_argument');
  });

  it('replaces the redirect URIs, each validated exactly as at creation (GraphQL and REST)', async ({ s }) => {
    const uris = [`${s.origin}/callback`, 'http://127.0.0.1:8765/cb'];
    expect((await s.developer.gql(SET_REDIRECTS, { appId: s.appId, uris })).data.result.redirectUris).toEqual(uris);
    for (const bad of ['/relative', 'http://remote.example.test/cb', `${s.origin}/cb#fragment`]) {
      expect(code(await s.developer.gql(SET_REDIRECTS, { appId: s.appId, uris: [bad] })), bad).toBe('invalid_redirect_uri');
    }
    const rest = await s.developer.request('PUT', `/dev/apps/${s.appId}/redirect-uris`, { redirectUris: [`${s.origin}/other`] });
    expect(rest.status).toBe(200);
    const refused = await s.developer.request('PUT', `/dev/apps/${s.appId}/redirect-uris`, { redirectUris: ['nope'] });
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_redirect_uri']);
    const app = await s.developer.gql('query { apps { id redirectUris } }');
    expect(app.data.apps.find((a: any) => a.id === s.appId).redirectUris).toEqual([`${s.origin}/other`]);
  });

  it("another developer's app is not found; an app credential is refused", async ({ ctx, s }) => {
    const other = await seed(ctx, []);
    const vars = { appId: s.appId, origin: `https://${host()}`, uris: [], env: 'dev' };
    for (const operation of [ADD, REMOVE, SET_REDIRECTS, TEST_USERS]) {
      expect(code(await other.developer.gql(operation, vars)), operation).toBe('app_not_found');
      expect(code(await s.users.alice.gql(operation, vars)), operation).toBe('wrong_credential');
    }
    const rest = await other.developer.request('PUT', `/dev/apps/${s.appId}/redirect-uris`, { redirectUris: [] });
    expect([rest.status, rest.body.error]).toEqual([404, 'app_not_found']);
    expect((await s.users.alice.request('PUT', `/dev/apps/${s.appId}/redirect-uris`, { redirectUris: [] })).status).toBe(403);
  });
});

describe('testUsers', () => {
  it("lists an environment's test users with whether they have live tokens, never the tokens", async ({ s }) => {
    await s.user('bob');
    const listed = await s.developer.gql(TEST_USERS, { appId: s.appId, env: 'dev' });
    expect(listed.data.testUsers).toEqual([
      { userId: s.users.alice.id, name: 'alice', createdAt: expect.any(String), hasLiveTokens: true },
      { userId: s.users.bob.id, name: 'bob', createdAt: expect.any(String), hasLiveTokens: true },
    ]);
    expect(JSON.stringify(listed)).not.toContain(s.users.alice.token!);

    await s.developer.gql('mutation($appId: ID!) { revokeTestUser(appId: $appId, env: "dev", name: "alice") { revoked } }', { appId: s.appId });
    const after = await s.developer.gql(TEST_USERS, { appId: s.appId, env: 'dev' });
    expect(after.data.testUsers.map((u: any) => [u.name, u.hasLiveTokens])).toEqual([
      ['alice', false],
      ['bob', true],
    ]);
    expect(code(await s.developer.gql(TEST_USERS, { appId: s.appId, env: 'staging' }))).toBe('env_not_found');
    // REST: GET /dev/apps/:appId/test-users?env=…
    const rest = await s.developer.get(`/dev/apps/${s.appId}/test-users?env=dev`);
    expect(rest.status).toBe(200);
    expect(rest.body.testUsers.map((u: any) => [u.name, u.hasLiveTokens])).toEqual([
      ['alice', false],
      ['bob', true],
    ]);
    expect(JSON.stringify(rest.body)).not.toContain(s.users.bob.token!);
    expect((await s.developer.get(`/dev/apps/${s.appId}/test-users`)).body.error).toBe('invalid_argument');
  });
});
