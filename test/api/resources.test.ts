import { describe, expect } from 'vitest';
import { addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest();

describe('POST /v1/resources', () => {
  it('creates a resource and makes the caller its active owner (docs/api.md §2.2 view)', async ({ s }) => {
    const res = await s.users.alice.post('/v1/resources', { type: 'team', name: 'Core team' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^res_/),
      type: 'team',
      name: 'Core team',
      visibility: 'members',
      discoverable: false,
      memberCount: 1,
      currentMember: { role: 'owner', state: 'active' },
    });
  });

  it.for([
    ['members', 'members', false],
    ['unlisted', 'public', false],
    ['discoverable', 'public', true],
  ])('docs/api.md §5.1: choosing %s from the allow list stores (%s, %s)', async ([choice, visibility, discoverable], { s }) => {
    const res = await s.users.alice.post('/v1/resources', { type: 'room', name: `r-${choice}`, visibility: choice });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ visibility, discoverable });
  });

  it("uses the type's declared state by default, and naming it is always accepted", async ({ s }) => {
    expect((await s.users.alice.post('/v1/resources', { type: 'forum', name: 'f' })).body).toMatchObject({
      visibility: 'public',
      discoverable: true,
    });
    expect((await s.users.alice.post('/v1/resources', { type: 'forum', name: 'f', visibility: 'discoverable' })).status).toBe(200);
  });

  it('refuses a visibility outside the allow list with 403', async ({ s }) => {
    const res = await s.users.alice.post('/v1/resources', { type: 'team', name: 'x', visibility: 'discoverable' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('visibility_not_allowed');
  });

  it('refuses an unknown visibility value with 400 naming the field', async ({ s }) => {
    const res = await s.users.alice.post('/v1/resources', { type: 'team', name: 'x', visibility: 'secret' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('body.visibility');
  });

  it('refuses reserved types with 403 and unknown types with 404', async ({ s }) => {
    const reserved = await s.users.alice.post('/v1/resources', { type: '_app', name: 'x' });
    expect(reserved).toMatchObject({ status: 403, body: { error: 'reserved_type' } });
    const unknown = await s.users.alice.post('/v1/resources', { type: 'spaceship', name: 'x' });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'unknown_type' } });
  });

  it('validates the body', async ({ s }) => {
    expect((await s.users.alice.post('/v1/resources', { type: 'team' })).body.message).toContain('body.name');
    expect((await s.users.alice.post('/v1/resources', { type: 'team', name: '   ' })).status).toBe(400);
    expect((await s.users.alice.post('/v1/resources', { type: 'team', name: 'x'.repeat(201) })).status).toBe(400);
    const extra = await s.users.alice.post('/v1/resources', { type: 'team', name: 'x', owner: 'bob' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('owner');
  });

  it('requires authentication', async ({ ctx }) => {
    const res = await ctx.anonymous.post('/v1/resources', { type: 'team', name: 'x' });
    expect(res).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    const bad = await ctx.anonymous.request('GET', '/v1/resources', undefined, { authorization: 'Bearer gst_nope' });
    expect(bad.status).toBe(401);
  });

  it('answers 401 account_deleted when the account went away while its credential was still cached', async ({ ctx }) => {
    const fresh = await seed(ctx, ['ghost']);
    const { ghost } = fresh.users;
    await createResource(ghost, 'team', 'Before');
    // The account's rows go at once; its token is still in this instance's credential cache.
    await ctx.database.prisma.$executeRaw`DELETE FROM principals WHERE id = ${ghost.id}`;
    const res = await ghost.post('/v1/resources', { type: 'team', name: 'After' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('account_deleted');
  });

  it('refuses a developer token on app routes', async ({ s }) => {
    expect((await s.developer.get('/v1/resources')).body.error).toBe('wrong_credential');
  });
});

describe('GET /v1/resources/:id', () => {
  it('shows currentMember to active members only (docs/api.md §2.2)', async ({ s }) => {
    const id = await createResource(s.users.alice, 'album', 'Holiday');
    const own = await s.users.alice.get(`/v1/resources/${id}`);
    expect(own.body.currentMember).toEqual({ role: 'owner', state: 'active' });
    const stranger = await s.users.bob.get(`/v1/resources/${id}`);
    expect(stranger.status).toBe(200);
    expect(stranger.body).not.toHaveProperty('currentMember');
    await s.users.alice.post(`/v1/resources/${id}/invite`, { userId: s.users.carol.id });
    const invited = await s.users.carol.get(`/v1/resources/${id}`);
    expect(invited.body).not.toHaveProperty('currentMember');
  });

  it('answers 404 to non-members of a members resource, and to unknown ids', async ({ s }) => {
    const id = await createResource(s.users.alice, 'team', 'Secret');
    expect((await s.users.bob.get(`/v1/resources/${id}`)).status).toBe(404);
    expect((await s.users.bob.get('/v1/resources/res_missing')).body.error).toBe('resource_not_found');
  });

  it('never exposes owner_principal or deployment internals', async ({ s }) => {
    const id = await createResource(s.users.alice, 'album', 'Internals');
    const body = (await s.users.alice.get(`/v1/resources/${id}`)).body;
    expect(Object.keys(body).sort()).toEqual(['currentMember', 'discoverable', 'id', 'memberCount', 'name', 'type', 'visibility']);
  });

  it('keeps resources of another app environment invisible', async ({ ctx, s }) => {
    const other = await seed(ctx, ['mallory'], 'https://other.example.test');
    const id = await createResource(s.users.alice, 'album', 'Mine');
    expect((await other.users.mallory.get(`/v1/resources/${id}`)).status).toBe(404);
    expect((await other.users.mallory.post(`/v1/resources/${id}/join`)).status).toBe(404);
  });
});

describe('GET /v1/resources', () => {
  it('lists active memberships with currentMember, filtered by type', async ({ ctx }) => {
    const fresh = await seed(ctx, ['dora', 'eve']);
    const team = await createResource(fresh.users.dora, 'team', 'T');
    await new Promise(resolve => setTimeout(resolve, 2));
    const album = await createResource(fresh.users.eve, 'album', 'A');
    await addMember(fresh.users.eve, fresh.users.dora, album, 'writer');
    await fresh.users.eve.post(`/v1/resources/${await createResource(fresh.users.eve, 'team', 'pending')}/invite`, { userId: fresh.users.dora.id });
    const all = await fresh.users.dora.get('/v1/resources');
    expect(all.body.resources.map((r: any) => [r.id, r.currentMember])).toEqual([
      [album, { role: 'writer', state: 'active' }],
      [team, { role: 'owner', state: 'active' }],
    ]);
    const teams = await fresh.users.dora.get('/v1/resources?type=team');
    expect(teams.body.resources.map((r: any) => r.id)).toEqual([team]);
    expect(all.body.resources[0].memberCount).toBe(2);
  });
});

describe('GET /v1/resources/browse', () => {
  it('lists discoverable public resources, keyset-paginated with an opaque cursor', async ({ ctx }) => {
    const fresh = await seed(ctx, ['fay']);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push(await createResource(fresh.users.fay, 'forum', `Forum ${i}`));
      // Newest first is by creation time, then id: a later millisecond makes the order the creation order.
      await new Promise(resolve => setTimeout(resolve, 2));
    }
    await createResource(fresh.users.fay, 'room', 'hidden unlisted room', 'unlisted');
    await createResource(fresh.users.fay, 'room', 'visible room', 'discoverable');

    const first = await fresh.users.fay.get('/v1/resources/browse?type=forum');
    expect(first.status).toBe(200);
    expect(first.body.resources).toHaveLength(20);
    expect(first.body.resources[0]).toEqual({ id: ids[24], type: 'forum', name: 'Forum 24', memberCount: 1, createdAt: expect.any(String) });
    const second = await fresh.users.fay.get(`/v1/resources/browse?type=forum&cursor=${first.body.nextCursor}`);
    expect(second.body.resources.map((r: any) => r.id)).toEqual(ids.slice(0, 5).reverse());
    expect(second.body.nextCursor).toBeNull();

    const rooms = await fresh.users.fay.get('/v1/resources/browse?type=room');
    expect(rooms.body.resources.map((r: any) => r.name)).toEqual(['visible room']);
    const searched = await fresh.users.fay.get('/v1/resources/browse?type=forum&query=um%202&limit=100');
    expect(searched.body.resources.map((r: any) => r.name).sort()).toEqual(['Forum 2', 'Forum 20', 'Forum 21', 'Forum 22', 'Forum 23', 'Forum 24']);
  });

  it('treats LIKE wildcards in query literally', async ({ ctx }) => {
    const fresh = await seed(ctx, ['gil']);
    await createResource(fresh.users.gil, 'forum', '100% fun');
    await createResource(fresh.users.gil, 'forum', 'plain');
    const res = await fresh.users.gil.get('/v1/resources/browse?query=%25');
    expect(res.body.resources.map((r: any) => r.name)).toEqual(['100% fun']);
  });

  it.for([
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['limit=2.5', 'query.limit'],
  ])('refuses %s with 400', async ([qs, field], { s }) => {
    const res = await s.users.alice.get(`/v1/resources/browse?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('refuses a cursor it did not issue', async ({ s }) => {
    const res = await s.users.alice.get('/v1/resources/browse?cursor=garbage');
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_cursor' } });
  });
});

describe('GET /v1/resources/static', () => {
  it('returns the singleton reconciled at deploy, without currentMember', async ({ s }) => {
    const res = await s.users.alice.get('/v1/resources/static?type=settings&slug=global');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      type: 'settings',
      name: 'global',
      visibility: 'public',
      discoverable: false,
      memberCount: 0,
    });
    const again = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, {
      schema: (await import('../helpers/app.js')).TEST_SCHEMA,
    });
    expect(again.body.version).toBe(2);
    expect((await s.users.alice.get('/v1/resources/static?type=settings&slug=global')).body.id).toBe(res.body.id);
  });

  it('answers 404 for an unknown slug and 400 without type or slug', async ({ s }) => {
    expect((await s.users.alice.get('/v1/resources/static?type=settings&slug=nope')).status).toBe(404);
    const missing = await s.users.alice.get('/v1/resources/static?type=settings');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('query.slug');
  });
});
