import { describe, expect } from 'vitest';
import { addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'] });

const codeOf = (url: string) => url.split('/_invite/')[1];

describe('POST /v1/resources/:id/invite-link', () => {
  it("docs/api.md §2.2: returns { url, role, expiresAt } on the app's origin; only the code's hash is stored", async ({ ctx, s }) => {
    const id = await createResource(s.users.alice, 'team', 'T');
    const res = await s.users.alice.post(`/v1/resources/${id}/invite-link`, { role: 'reader' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: expect.stringMatching(new RegExp(`^${s.origin}/_invite/inv_`)), role: 'reader', expiresAt: expect.any(String) });
    const days = (new Date(res.body.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const stored = await ctx.database.prisma.inviteLink.findMany({ where: { resourceId: id } });
    expect(JSON.stringify(stored)).not.toContain(codeOf(res.body.url));
  });

  it("uses the gateway's PUBLIC_URL when the app has no origin", async ({ ctx, s }) => {
    const dev = await s.developer.post('/dev/apps', { name: 'no origin' });
    expect(dev.body.origins).toEqual([]);
    const app = await s.developer.request('PUT', `/dev/apps/${dev.body.id}/deployments/dev`, {
      schema: (await import('../helpers/app.js')).TEST_SCHEMA,
    });
    expect(app.status).toBe(200);
    const user = await s.developer.post(`/dev/apps/${dev.body.id}/test-users`, { name: 'ona', env: 'dev' });
    const ona = ctx.client(user.body.token);
    const rid = await createResource(ona, 'team', 'T');
    const link = await ona.post(`/v1/resources/${rid}/invite-link`);
    expect(link.body.url).toMatch(/^https:\/\/gatehouse\.test\/_invite\/inv_/);
  });

  it('admin+ only, within the ceiling', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await addMember(alice, bob, id, 'writer');
    expect((await bob.post(`/v1/resources/${id}/invite-link`)).body.error).toBe('not_admin');
    expect((await alice.post(`/v1/resources/${id}/invite-link`, { role: 'owner' })).body.error).toBe('grant_ceiling');
  });

  it('docs/api.md §9.6: at most 50 live links per person per resource (409 invite_link_limit)', async ({ s }) => {
    const id = await createResource(s.users.alice, 'team', 'T');
    for (let i = 0; i < 50; i++) expect((await s.users.alice.post(`/v1/resources/${id}/invite-link`)).status).toBe(200);
    expect((await s.users.alice.post(`/v1/resources/${id}/invite-link`)).body).toMatchObject({ error: 'invite_link_limit' });
    expect((await s.users.alice.post(`/v1/resources/${id}/invite-link`)).status).toBe(409);
  });
});

describe('POST /v1/invite-links/claim', () => {
  it("docs/api.md §5.2: claim -> active at the link's role; single use", async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    const link = await alice.post(`/v1/resources/${id}/invite-link`, { role: 'reader' });
    const claim = await bob.post('/v1/invite-links/claim', { code: codeOf(link.body.url) });
    expect(claim.body).toEqual({ ok: true, resourceId: id, state: 'active', role: 'reader' });
    const again = await carol.post('/v1/invite-links/claim', { code: codeOf(link.body.url) });
    expect(again).toMatchObject({ status: 410, body: { error: 'invite_link_used' } });
    expect((await alice.get(`/v1/resources/${id}`)).body.memberCount).toBe(2);
  });

  it('a pending invite is absorbed and the link role wins', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id, role: 'reader' });
    const link = await alice.post(`/v1/resources/${id}/invite-link`, { role: 'admin' });
    expect((await bob.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body.role).toBe('admin');
    expect((await bob.get(`/v1/resources/${id}`)).body.currentMember).toEqual({ role: 'admin', state: 'active' });
  });

  it("docs/api.md §5.2: a demoted creator's links stop working, are not consumed, and revive when the role is restored", async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await addMember(alice, bob, id, 'admin');
    const link = await bob.post(`/v1/resources/${id}/invite-link`, { role: 'writer' });
    await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'writer' });
    const refused = await carol.post('/v1/invite-links/claim', { code: codeOf(link.body.url) });
    expect(refused).toMatchObject({ status: 403, body: { error: 'invite_link_inactive' } });
    await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'admin' });
    expect((await carol.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body.state).toBe('active');
  });

  it('docs/api.md §5.4: a block between claimer and creator refuses the claim without consuming the link', async ({ s }) => {
    const { alice, dave, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    const link = await alice.post(`/v1/resources/${id}/invite-link`);
    await alice.post('/v1/blocks', { userId: dave.id });
    expect((await dave.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body).toMatchObject({ error: 'blocked' });
    await alice.request('DELETE', `/v1/blocks/${encodeURIComponent(dave.id)}`);
    await dave.post('/v1/blocks', { userId: alice.id });
    expect((await dave.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).status).toBe(403);
    expect((await carol.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body.state).toBe('active');
  });

  it('docs/api.md §9.6: links expire after 7 days', async ({ ctx, s }) => {
    const { alice } = s.users;
    const id = await createResource(alice, 'team', 'T');
    const link = await alice.post(`/v1/resources/${id}/invite-link`);
    ctx.advance(7 * 86_400_000 + 1000);
    try {
      const bob = await s.user('bob');
      expect((await bob.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body).toMatchObject({ error: 'invite_link_expired' });
    } finally {
      ctx.advance(-(7 * 86_400_000 + 1000));
    }
  });

  it('refuses unknown codes, codes of another app, existing members and agents', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    expect((await bob.post('/v1/invite-links/claim', { code: 'inv_nope' })).status).toBe(404);
    const id = await createResource(alice, 'team', 'T');
    const link = await alice.post(`/v1/resources/${id}/invite-link`);
    const other = await seed(ctx, ['zed'], 'https://zed.example.test');
    expect((await other.users.zed.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).status).toBe(404);
    expect((await alice.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body.error).toBe('already_member');
    const agent = await bob.post('/v1/agents', { name: 'b' });
    const bot = ctx.client(agent.body.token);
    expect((await bot.post('/v1/invite-links/claim', { code: codeOf(link.body.url) })).body.error).toBe('agent_cannot_accept');
    expect((await bob.post('/v1/invite-links/claim', {})).status).toBe(400);
  });
});
