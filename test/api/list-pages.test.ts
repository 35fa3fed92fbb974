/**
 * The caller's resources, a members list and the caller's invitations are keyset pages (docs/api.md §2.1): REST pages with
 * `limit` and `cursor` (default and max 1000), GraphQL has `resourcePage` / `memberPage` / `invitationPage`, and the
 * whole-list fields refuse past one page (400 too_many_results) instead of cutting the list or
 * answering without bound. The SDK's list() reads every page.
 */
import { describe, expect } from 'vitest';
import { createClient } from '../../src/sdk/index.js';
import { type Client, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

/** Every page of a REST list, `limit` at a time. */
async function everyPage(client: Client, path: string, key: 'resources' | 'members', limit: number) {
  const entries: { id?: string; userId?: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    // biome-ignore lint/suspicious/noExplicitAny: a JSON body
    const res: { status: number; body: any } = await client.get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
    expect(res.status).toBe(200);
    expect(res.body[key].length).toBeLessThanOrEqual(limit);
    entries.push(...res.body[key]);
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor);
  return { entries, pages };
}

const it = appTest({ app: { listen: true }, users: ['owner', 'ann', 'ben', 'cid', 'dot'] });

describe('paged lists', () => {
  let team: string;

  it.beforeAll(async ({ s }) => {
    for (let i = 0; i < 7; i++) await createResource(s.users.owner, i % 2 ? 'team' : 'room', `R${i}`);
    team = await createResource(s.users.owner, 'team', 'Crowd');
    for (const name of ['ann', 'ben', 'cid']) {
      await s.users.owner.post(`/v1/resources/${team}/invite`, { userId: s.users[name].id });
      if (name !== 'cid') await s.users[name].post(`/v1/resources/${team}/accept`, {});
    }
    await s.users.owner.post(`/v1/resources/${team}/setRole`, { userId: s.users.ben.id, role: 'admin' });
  });

  it('GET /v1/resources: pages of `limit`, newest first, add up to the whole list', async ({ s }) => {
    const whole = await s.users.owner.get('/v1/resources');
    expect(whole.body.resources).toHaveLength(8);
    expect(whole.body.nextCursor).toBeNull();
    const paged = await everyPage(s.users.owner, '/v1/resources', 'resources', 3);
    expect(paged.pages).toBe(3);
    expect(paged.entries).toEqual(whole.body.resources);
    const typed = await everyPage(s.users.owner, '/v1/resources?type=team', 'resources', 2);
    expect(typed.entries.map(r => r.id)).toEqual(
      whole.body.resources.filter((r: { type: string }) => r.type === 'team').map((r: { id: string }) => r.id),
    );
  });

  it('GET /v1/resources/:id/members: pages, owner first, add up to the whole list', async ({ s }) => {
    const whole = await s.users.owner.get(`/v1/resources/${team}/members`);
    expect(whole.body.members.map((m: { role: string; state: string }) => `${m.role}/${m.state}`)).toEqual([
      'owner/active',
      'admin/active',
      'writer/active',
      'writer/invited',
    ]);
    expect(whole.body.nextCursor).toBeNull();
    for (const limit of [1, 2, 3]) {
      const paged = await everyPage(s.users.owner, `/v1/resources/${team}/members`, 'members', limit);
      expect(paged.entries).toEqual(whole.body.members);
    }
  });

  it('entries created in the same millisecond are neither skipped nor repeated across pages', async ({ ctx, s }) => {
    // A key that went back to a timestamp through a float could land a microsecond off.
    await ctx.database.prisma.$executeRaw`UPDATE resources SET created_at = '2026-03-01 12:34:56.789' WHERE owner_principal = ${s.users.owner.id}`;
    await ctx.database.prisma.$executeRaw`UPDATE memberships SET created_at = '2026-03-01 12:34:56.789' WHERE resource_id = ${team}`;
    const whole = await s.users.owner.get('/v1/resources');
    expect((await everyPage(s.users.owner, '/v1/resources', 'resources', 1)).entries).toEqual(whole.body.resources);
    const members = await s.users.owner.get(`/v1/resources/${team}/members`);
    expect((await everyPage(s.users.owner, `/v1/resources/${team}/members`, 'members', 1)).entries).toEqual(members.body.members);
    const browsed = await s.users.owner.get('/v1/resources/browse?type=team&limit=100');
    expect(browsed.status).toBe(200);
  });

  it('refuses a limit out of bounds and a cursor it did not issue, naming them', async ({ s }) => {
    for (const query of ['limit=0', 'limit=1001', 'limit=two']) {
      const res = await s.users.owner.get(`/v1/resources?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('invalid_argument');
      expect(res.body.message).toMatch(/limit/);
    }
    for (const cursor of [
      'nope',
      Buffer.from('["x",1]').toString('base64url'),
      Buffer.from('[1,"a\\u0000"]').toString('base64url'),
      Buffer.from('[1,1.5,"a"]').toString('base64url'),
    ]) {
      const res = await s.users.owner.get(`/v1/resources/${team}/members?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_cursor');
    }
    const gql = await s.users.owner.gql('query($c: String) { resourcePage(cursor: $c) { nextCursor } }', { c: 'nope' });
    expect(gql.errors?.[0].extensions).toMatchObject({ code: 'invalid_cursor', status: 400 });
  });

  describe('past one page (1000)', () => {
    let crowd: string;
    it.beforeAll(async ({ ctx, s }) => {
      crowd = await createResource(s.users.owner, 'team', 'Stadium');
      // 1,001 more members, written directly: the API would take minutes.
      await ctx.database.prisma.$executeRaw`
        WITH made AS (
          INSERT INTO principals (id, kind, name) SELECT 'usr_fan' || n, 'user', 'fan ' || n FROM generate_series(1, 1001) n RETURNING id)
        INSERT INTO memberships (resource_id, principal_id, role, state, created_at, updated_at)
        SELECT ${crowd}, id, 'reader', 'active', now(), now() FROM made`;
    });

    it('REST pages it; GraphQL memberPage pages it; GraphQL members refuses with too_many_results', async ({ s }) => {
      const first = await s.users.owner.get(`/v1/resources/${crowd}/members`);
      expect(first.body.members).toHaveLength(1000);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const rest = await s.users.owner.get(`/v1/resources/${crowd}/members?cursor=${first.body.nextCursor}`);
      expect(rest.body.members).toHaveLength(2);
      expect(rest.body.nextCursor).toBeNull();
      const ids = new Set([...first.body.members, ...rest.body.members].map((m: { userId: string }) => m.userId));
      expect(ids.size).toBe(1002);

      const whole = await s.users.owner.gql('query($id: ID!) { members(resourceId: $id) { userId } }', { id: crowd });
      expect(whole.errors?.[0].extensions).toMatchObject({ code: 'too_many_results', status: 400 });
      expect(whole.errors?.[0].message).toMatch(/memberPage/);
      const page = await s.users.owner.gql('query($id: ID!) { memberPage(resourceId: $id, limit: 5) { members { userId } nextCursor } }', {
        id: crowd,
      });
      expect(page.data.memberPage.members).toHaveLength(5);
    });

    it("the default room's grants (its active members) refuse past one page with too_many_results, naming the members list", async ({ s }) => {
      const res = await s.users.owner.get(`/v1/resources/${crowd}/rooms/${crowd}/grants`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('too_many_results');
      expect(res.body.message).toMatch(/members list/);
    });

    it('blocks refuse past one page rather than answering without bound', async ({ ctx, s }) => {
      await ctx.database.prisma.$executeRaw`
        INSERT INTO blocks (blocker_id, blocked_id) SELECT ${s.users.dot.id}, 'usr_fan' || n FROM generate_series(1, 1001) n`;
      const res = await s.users.dot.gql('{ blocks { userId } }');
      expect(res.errors?.[0].extensions).toMatchObject({ code: 'too_many_results', status: 400 });
      await ctx.database.prisma.$executeRaw`DELETE FROM blocks WHERE blocker_id = ${s.users.dot.id} AND blocked_id = 'usr_fan1001'`;
      expect((await s.users.dot.gql('{ blocks { userId } }')).data.blocks).toHaveLength(1000);
    });

    it('invitations: REST and invitationPage page them, newest first; GraphQL invitations refuses; the SDK reads every page', async ({ ctx, s }) => {
      // 1,001 more invitations for cid, each to its own resource, newer than the one cid holds already.
      await ctx.database.prisma.$executeRaw`
        WITH made AS (
          INSERT INTO resources (id, deployment_id, type, name, visibility, discoverable, owner_principal, member_count, created_at)
          SELECT 'res_inv' || n, deployment_id, type, 'Inv ' || n, visibility, false, owner_principal, 1, now() - n * INTERVAL '1 second'
          FROM resources, generate_series(1, 1001) n WHERE id = ${team}
          RETURNING id, created_at)
        INSERT INTO memberships (resource_id, principal_id, role, state, invited_by, expires_at, created_at, updated_at)
        SELECT id, ${s.users.cid.id}, 'reader', 'invited', ${s.users.owner.id}, now() + INTERVAL '1 day', created_at, created_at FROM made`;
      const first = await s.users.cid.get('/v1/resources/invitations');
      expect(first.body.invitations).toHaveLength(1000);
      expect(first.body.invitations[0].resourceId).toBe('res_inv1');
      const rest = await s.users.cid.get(`/v1/resources/invitations?cursor=${first.body.nextCursor}`);
      expect(rest.body.invitations).toHaveLength(2);
      expect(rest.body.nextCursor).toBeNull();
      expect(rest.body.invitations.map((i: { resourceId: string }) => i.resourceId)).toEqual(['res_inv1001', team]);

      const whole = await s.users.cid.gql('{ invitations { resourceId } }');
      expect(whole.errors?.[0].extensions).toMatchObject({ code: 'too_many_results', status: 400 });
      expect(whole.errors?.[0].message).toMatch(/invitationPage/);
      const page = await s.users.cid.gql('{ invitationPage(limit: 3) { invitations { resourceId } nextCursor } }');
      expect(page.data.invitationPage.invitations.map((i: { resourceId: string }) => i.resourceId)).toEqual(['res_inv1', 'res_inv2', 'res_inv3']);

      const client = createClient({ gatewayUrl: ctx.url, accessToken: s.users.cid.token! });
      try {
        const all = await client.resource.invitations();
        expect(all).toHaveLength(1002);
        expect(new Set(all.map(i => i.resourceId)).size).toBe(1002);
        expect((await client.resource.invitationPage({ limit: 2 })).rows.map(i => i.resourceId)).toEqual(['res_inv1', 'res_inv2']);
      } finally {
        client.close();
      }
    });

    it("the SDK's members.list() reads every page", async ({ ctx, s }) => {
      const client = createClient({ gatewayUrl: ctx.url, accessToken: s.users.owner.token! });
      try {
        const all = await client.resource(crowd).members.list();
        expect(all).toHaveLength(1002);
        expect(all[0].role).toBe('owner');
        const page = await client.resource(crowd).members.page({ limit: 10 });
        expect(page.rows).toHaveLength(10);
        expect((await client.resource(crowd).members.page({ limit: 10, cursor: page.nextCursor })).rows[0]).toEqual(all[10]);
      } finally {
        client.close();
      }
    });
  });
});
