import { describe, expect } from 'vitest';
import { TEST_SCHEMA } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice'] });

describe('apps', () => {
  it('creates and lists apps with a client id and origins', async ({ s }) => {
    const created = await s.developer.post('/dev/apps', {
      name: 'Photos',
      origins: ['https://photos.example.test'],
      redirectUris: ['https://photos.example.test/cb'],
    });
    expect(created.body).toEqual({
      id: expect.stringMatching(/^app_/),
      name: 'Photos',
      origins: ['https://photos.example.test'],
      clientIds: [expect.stringMatching(/^cli_/)],
      environments: [],
      createdAt: expect.any(String),
    });
    const listed = await s.developer.get('/dev/apps');
    expect(listed.body.apps.map((a: any) => a.id)).toContain(created.body.id);
  });

  it('validates origins and refuses one that belongs to another app', async ({ s }) => {
    expect((await s.developer.post('/dev/apps', { name: 'x', origins: ['not a url'] })).status).toBe(400);
    expect((await s.developer.post('/dev/apps', { name: 'x', origins: ['https://a.test/path'] })).body.message).toContain('origins');
    expect((await s.developer.post('/dev/apps', { name: 'x', origins: [s.origin] })).body.error).toBe('origin_taken');
  });

  it('needs a developer token', async ({ ctx, s }) => {
    expect((await ctx.anonymous.get('/dev/apps')).status).toBe(401);
    expect((await s.users.alice.get('/dev/apps')).status).toBe(403);
  });
});

describe('deploy', () => {
  it('refuses an invalid schema with every problem listed', async ({ s }) => {
    const bad = {
      version: 1,
      tables: {},
      resources: { _secret: { ...TEST_SCHEMA.resources.team }, team: { ...TEST_SCHEMA.resources.team, defaultRole: 'emperor' } },
    };
    const res = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/staging`, { schema: bad });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_schema');
    expect(res.body.message).toMatch(/_secret/);
    expect(res.body.message).toMatch(/defaultRole/);
  });

  it("answers 404 for another developer's app", async ({ ctx, s }) => {
    const other = await ctx.app.services.principals.createDeveloperToken('other@example.test');
    const res = await ctx.client(other.token).request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: TEST_SCHEMA });
    expect(res.status).toBe(404);
  });

  it('does not echo a 3,000-character app id whole', async ({ ctx }) => {
    const other = await ctx.app.services.principals.createDeveloperToken('echo@example.test');
    const id = `app_${'x'.repeat(3000)}`;
    for (const path of [`/dev/apps/${id}/deployments/dev`, `/dev/budgets?appId=${id}`]) {
      const client = ctx.client(other.token);
      const res = path.startsWith('/dev/apps') ? await client.request('PUT', path, { schema: TEST_SCHEMA }) : await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe('app_not_found');
      expect(res.body.message.length).toBeLessThan(200);
      expect(res.body.message).toContain(`No app ${id.slice(0, 100)}…`);
    }
  });
});

describe('docs/api.md §3.1 test sessions', () => {
  it('mints { user_id, token, expires_at, payer, env } with a short prefix and 24 h expiry', async ({ s }) => {
    const res = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'zoe', env: 'dev' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user_id: `test:${s.appId}:zoe`,
      token: expect.stringMatching(/^gst_/),
      expires_at: expect.any(String),
      payer: s.developerId,
      env: 'dev',
    });
    const hours = (new Date(res.body.expires_at).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.99);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('re-minting returns the same user, memberships intact, with a fresh token', async ({ ctx, s }) => {
    const first = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'yan', env: 'dev' });
    const yan = ctx.client(first.body.token);
    const created = await yan.post('/v1/resources', { type: 'team', name: 'Y' });
    const second = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'yan', env: 'dev' });
    expect(second.body.user_id).toBe(first.body.user_id);
    expect(second.body.token).not.toBe(first.body.token);
    const again = ctx.client(second.body.token);
    expect((await again.get('/v1/resources')).body.resources.map((r: any) => r.id)).toEqual([created.body.id]);
  });

  it('refuses a missing env, prod, an undeployed env, bad names and foreign apps', async ({ ctx, s }) => {
    const path = `/dev/apps/${s.appId}/test-users`;
    expect((await s.developer.post(path, { name: 'a' })).body.message).toContain('body.env');
    expect((await s.developer.post(path, { name: 'a', env: 'prod' })).body).toMatchObject({ error: 'prod_not_allowed' });
    const undeployed = await s.developer.post(path, { name: 'a', env: 'qa' });
    expect(undeployed).toMatchObject({ status: 409, body: { error: 'env_not_deployed' } });
    expect(undeployed.body.message).toContain('deploy');
    expect((await s.developer.post(path, { name: 'no spaces', env: 'dev' })).status).toBe(400);
    const other = await ctx.app.services.principals.createDeveloperToken('stranger@example.test');
    expect((await ctx.client(other.token).post(path, { name: 'a', env: 'dev' })).status).toBe(404);
    expect((await s.developer.post('/dev/apps/app_missing/test-users', { name: 'a', env: 'dev' })).status).toBe(404);
  });

  it('docs/api.md §3.1: tokens stop working after 24 hours', async ({ ctx, s }) => {
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'xia', env: 'dev' });
    const xia = ctx.client(minted.body.token);
    expect((await xia.get('/v1/resources')).status).toBe(200);
    ctx.advance(24 * 3_600_000 + 1000);
    try {
      expect((await xia.get('/v1/resources')).status).toBe(401);
    } finally {
      ctx.advance(-(24 * 3_600_000 + 1000));
    }
  });

  it('docs/api.md §3.1: a session is pinned to its environment', async ({ ctx, s }) => {
    await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/staging`, { schema: TEST_SCHEMA });
    const dev = ctx.client((await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'wu', env: 'dev' })).body.token);
    const staging = ctx.client((await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'wu', env: 'staging' })).body.token);
    const id = (await dev.post('/v1/resources', { type: 'album', name: 'dev only' })).body.id;
    expect((await staging.get(`/v1/resources/${id}`)).status).toBe(404);
  });
});

describe('HTTP edges', () => {
  it('answers malformed bodies with 400, oversized ones with 413, unknown routes with 404, wrong methods with 405', async ({ s }) => {
    const alice = s.users.alice;
    const malformed = await alice.request('POST', '/v1/resources', '{"type":', { 'content-type': 'application/json' });
    expect(malformed).toMatchObject({ status: 400, body: { error: 'invalid_json' } });
    expect((await alice.request('POST', '/v1/resources', '[1,2]', { 'content-type': 'application/json' })).status).toBe(400);
    const huge = await alice.post('/v1/resources', { type: 'team', name: 'x'.repeat(1024 * 1024) });
    expect(huge).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
    expect((await alice.post('/v1/resources', { type: 5, name: 'x' })).body.message).toContain('body.type');
    expect((await alice.get('/v1/nothing')).status).toBe(404);
    expect((await alice.request('DELETE', '/v1/resources')).status).toBe(405);
    expect((await alice.post('/v1/resources/x/join', { extra: 1 })).status).toBe(400);
  });

  it('GET /healthz answers 200 when ready', async ({ ctx }) => {
    expect((await ctx.anonymous.get('/healthz')).body).toEqual({ ok: true, status: 'ok', database: 'pglite', bus: { kind: 'memory', ok: true } });
  });
});
