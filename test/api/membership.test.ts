import { describe, expect } from 'vitest';
import { type Seed, addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'] });

const roster = async (as: Seed['users'][string], id: string) =>
  Object.fromEntries((await as.get(`/v1/resources/${id}/members`)).body.members.map((m: any) => [m.userId, `${m.role}/${m.state}`]));

describe('docs/api.md §5.2: invite and accept', () => {
  it('invite -> invited; accept by the invitee -> active; memberCount follows', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id, role: 'reader' })).body).toEqual({ ok: true, state: 'invited' });
    expect((await alice.get(`/v1/resources/${id}`)).body.memberCount).toBe(1);
    expect(await roster(alice, id)).toEqual({ [alice.id]: 'owner/active', [bob.id]: 'reader/invited' });
    expect((await bob.post(`/v1/resources/${id}/accept`)).body).toEqual({ ok: true, state: 'active' });
    expect((await alice.get(`/v1/resources/${id}`)).body.memberCount).toBe(2);
    expect((await bob.get(`/v1/resources/${id}`)).body.currentMember).toEqual({ role: 'reader', state: 'active' });
  });

  it("invite defaults to the type's default role", async ({ s }) => {
    const id = await createResource(s.users.alice, 'team', 'T');
    await s.users.alice.post(`/v1/resources/${id}/invite`, { userId: s.users.bob.id });
    expect(await roster(s.users.alice, id)).toMatchObject({ [s.users.bob.id]: 'writer/invited' });
  });

  it('docs/api.md §5.2: only admin+ invites; roles above the ceiling are 403 grant_ceiling', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await addMember(alice, bob, id, 'writer');
    expect((await bob.post(`/v1/resources/${id}/invite`, { userId: carol.id })).body.error).toBe('not_admin');
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: carol.id, role: 'owner' })).body).toMatchObject({ error: 'grant_ceiling' });
    await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'admin' });
    const overCeiling = await bob.post(`/v1/resources/${id}/invite`, { userId: carol.id, role: 'admin' });
    expect(overCeiling.status).toBe(403);
    expect(overCeiling.body.error).toBe('grant_ceiling');
    expect((await bob.post(`/v1/resources/${id}/invite`, { userId: carol.id, role: 'writer' })).body.state).toBe('invited');
  });

  it('refuses inviting members, pending invitees, unknown users', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id })).body.error).toBe('already_invited');
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: alice.id })).status).toBe(409);
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: 'test:nobody' })).status).toBe(404);
  });

  it('a third person cannot accept an invite for someone else', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    // Carol cannot see the members-only team: 404 before anything about Bob's row (issue #8 item 12).
    expect((await carol.post(`/v1/resources/${id}/accept`, { userId: bob.id })).body.error).toBe('resource_not_found');
    expect((await alice.post(`/v1/resources/${id}/accept`, { userId: bob.id })).body.error).toBe('not_invitee');
    expect((await carol.post(`/v1/resources/${id}/accept`)).body.error).toBe('resource_not_found');
    // On a resource she can see, the same calls answer with the transition's own codes.
    const forum = await createResource(alice, 'forum', 'F');
    await alice.post(`/v1/resources/${forum}/invite`, { userId: bob.id });
    expect((await carol.post(`/v1/resources/${forum}/accept`, { userId: bob.id })).status).toBe(403);
    expect((await carol.post(`/v1/resources/${forum}/accept`)).body.error).toBe('no_pending_invite');
  });

  it('reject deletes the pending row', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    expect((await bob.post(`/v1/resources/${id}/reject`)).body).toEqual({ ok: true });
    expect(await roster(alice, id)).toEqual({ [alice.id]: 'owner/active' });
    // The row is gone, so a new invite is possible.
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id })).body.state).toBe('invited');
  });
});

describe('docs/api.md §5.2: requests', () => {
  it('request -> requested; an admin accepts it by userId -> active', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    expect((await bob.post(`/v1/resources/${id}/request`)).body).toEqual({ ok: true, state: 'requested' });
    expect((await bob.post(`/v1/resources/${id}/request`)).body.state).toBe('requested');
    expect((await bob.post(`/v1/resources/${id}/accept`)).body.error).toBe('not_admin');
    expect((await alice.post(`/v1/resources/${id}/accept`, { userId: bob.id })).body).toEqual({ ok: true, state: 'active' });
  });

  it('setRole does not change a pending request', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await bob.post(`/v1/resources/${id}/request`, { role: 'reader' });
    expect((await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'writer' })).body.error).toBe('pending_request');
    expect(await roster(alice, id)).toMatchObject({ [bob.id]: 'reader/requested' });
  });

  it('an admin rejects a request; the requester may withdraw their own', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await bob.post(`/v1/resources/${id}/request`);
    await carol.post(`/v1/resources/${id}/request`);
    expect((await alice.post(`/v1/resources/${id}/reject`, { userId: bob.id })).body).toEqual({ ok: true });
    expect((await carol.post(`/v1/resources/${id}/reject`)).body).toEqual({ ok: true });
    expect(await roster(alice, id)).toEqual({ [alice.id]: 'owner/active' });
  });

  it('a request above what anyone can grant is refused', async ({ s }) => {
    const id = await createResource(s.users.alice, 'team', 'T');
    expect((await s.users.bob.post(`/v1/resources/${id}/request`, { role: 'owner' })).body.error).toBe('grant_ceiling');
  });
});

describe('docs/api.md §5.2: join and leave', () => {
  it("join on a public resource -> active at the type's default role; idempotent", async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'forum', 'F');
    expect((await bob.post(`/v1/resources/${id}/join`)).body).toEqual({ ok: true, state: 'active' });
    expect((await bob.post(`/v1/resources/${id}/join`)).body).toEqual({ ok: true, state: 'active' });
    expect(await roster(alice, id)).toMatchObject({ [bob.id]: 'reader/active' });
    expect((await alice.get(`/v1/resources/${id}`)).body.memberCount).toBe(2);
  });

  it('join on a members resource is 403 members_only for everyone (docs/api.md §5.2), an invitee included', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    expect((await bob.post(`/v1/resources/${id}/join`)).body.error).toBe('members_only');
    expect((await bob.post(`/v1/resources/${id}/join`)).status).toBe(403);
    expect(await carol.post(`/v1/resources/${id}/join`)).toMatchObject({ status: 403, body: { error: 'members_only' } });
    expect((await carol.post('/v1/resources/res_missing/join')).status).toBe(404);
  });

  it('leave ends membership; the owner can never leave', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'forum', 'F');
    await bob.post(`/v1/resources/${id}/join`);
    expect((await bob.post(`/v1/resources/${id}/leave`)).body).toEqual({ ok: true });
    expect((await bob.post(`/v1/resources/${id}/leave`)).status).toBe(404);
    const owner = await alice.post(`/v1/resources/${id}/leave`);
    expect(owner).toMatchObject({ status: 403, body: { error: 'owner_cannot_leave' } });
    expect((await alice.get(`/v1/resources/${id}`)).body.memberCount).toBe(1);
  });
});

describe('docs/api.md §5.2: setRole and remove', () => {
  it('outranking: admins change writers but not peers or the owner', async ({ s }) => {
    const { alice, bob, carol, dave } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await addMember(alice, bob, id, 'admin');
    await addMember(alice, carol, id, 'admin');
    await addMember(alice, dave, id, 'writer');
    expect((await bob.post(`/v1/resources/${id}/setRole`, { userId: dave.id, role: 'reader' })).body).toEqual({ ok: true, role: 'reader' });
    expect((await bob.post(`/v1/resources/${id}/setRole`, { userId: carol.id, role: 'writer' })).body.error).toBe('outranked');
    expect((await bob.post(`/v1/resources/${id}/remove`, { userId: carol.id })).body.error).toBe('outranked');
    expect((await bob.post(`/v1/resources/${id}/remove`, { userId: alice.id })).status).toBe(403);
    expect((await bob.post(`/v1/resources/${id}/setRole`, { userId: dave.id, role: 'admin' })).body.error).toBe('grant_ceiling');
    expect((await dave.post(`/v1/resources/${id}/remove`, { userId: bob.id })).body.error).toBe('not_admin');
    expect((await bob.post(`/v1/resources/${id}/remove`, { userId: dave.id })).body).toEqual({ ok: true });
    expect(await roster(alice, id)).not.toHaveProperty(dave.id);
    expect((await alice.get(`/v1/resources/${id}`)).body.memberCount).toBe(3);
  });

  it('setRole on an invite sets the role received on accept; remove withdraws it', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id, role: 'reader' });
    await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'admin' });
    await bob.post(`/v1/resources/${id}/accept`);
    expect(await roster(alice, id)).toMatchObject({ [bob.id]: 'admin/active' });
    await alice.post(`/v1/resources/${id}/invite`, { userId: carol.id });
    expect((await alice.post(`/v1/resources/${id}/remove`, { userId: carol.id })).body).toEqual({ ok: true });
    // The withdrawn invitee no longer reaches the members-only team.
    expect((await carol.post(`/v1/resources/${id}/accept`)).body.error).toBe('resource_not_found');
  });
});

describe('GET members', () => {
  it('is visible to active members only', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const team = await createResource(alice, 'team', 'T');
    await alice.post(`/v1/resources/${team}/invite`, { userId: bob.id });
    expect((await bob.get(`/v1/resources/${team}/members`)).status).toBe(404);
    const forum = await createResource(alice, 'forum', 'F');
    expect((await carol.get(`/v1/resources/${forum}/members`)).body.error).toBe('not_resource_member');
  });

  it('discloses the owner of an agent (docs/api.md §2.2)', async ({ s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    const agent = await bob.post('/v1/agents', { name: 'Bob bot' });
    await alice.post(`/v1/resources/${id}/invite`, { userId: agent.body.id });
    const members = (await alice.get(`/v1/resources/${id}/members`)).body.members;
    expect(members).toContainEqual({
      userId: agent.body.id,
      role: 'writer',
      state: 'invited',
      kind: 'agent',
      ownerId: bob.id,
      ownerHandle: null,
      ownerDisplayName: 'bob',
    });
    expect(members).toContainEqual({
      userId: alice.id,
      role: 'owner',
      state: 'active',
      kind: 'user',
      ownerId: null,
      ownerHandle: null,
      ownerDisplayName: null,
    });
  });
});

describe('agents', () => {
  it("docs/api.md §5.2: the owner's invite of their own agent is immediately active", async ({ s }) => {
    const { alice } = s.users;
    const agent = await alice.post('/v1/agents', { name: 'Helper' });
    expect(agent.body).toEqual({ id: expect.stringMatching(/^agt_/), name: 'Helper', ownerId: alice.id, token: expect.stringMatching(/^gha_/) });
    const id = await createResource(alice, 'team', 'T');
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: agent.body.id })).body).toEqual({ ok: true, state: 'active' });
  });

  it('docs/api.md §5.4: an agent cannot accept its own invite; its owner accepts or rejects for it', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const agent = await bob.post('/v1/agents', { name: 'Bot' });
    const bot = ctx.client(agent.body.token);
    const id = await createResource(alice, 'team', 'T');
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: agent.body.id })).body.state).toBe('invited');
    const own = await bot.post(`/v1/resources/${id}/accept`);
    expect(own).toMatchObject({ status: 403, body: { error: 'agent_cannot_accept' } });
    expect((await bot.post(`/v1/resources/${id}/accept`, { userId: agent.body.id })).status).toBe(403);
    expect((await bob.post(`/v1/resources/${id}/accept`, { userId: agent.body.id })).body).toEqual({ ok: true, state: 'active' });
    // The agent acts with its own token.
    expect((await bot.get(`/v1/resources/${id}`)).body.currentMember).toEqual({ role: 'writer', state: 'active' });

    const second = await createResource(alice, 'team', 'T2');
    await alice.post(`/v1/resources/${second}/invite`, { userId: agent.body.id });
    expect((await bob.post(`/v1/resources/${second}/reject`, { userId: agent.body.id })).body).toEqual({ ok: true });
  });

  it('validates the agent name', async ({ s }) => {
    expect((await s.users.alice.post('/v1/agents', { name: '' })).status).toBe(400);
    expect((await s.users.alice.post('/v1/agents', {})).body.message).toContain('body.name');
  });
});

describe('blocks', () => {
  it('docs/api.md §5.4: a block gates invites in both directions and hides invitations across it', async ({ s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'T');
    expect((await bob.post('/v1/blocks', { userId: alice.id })).body).toEqual({ ok: true, userId: alice.id });
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id })).body).toMatchObject({ error: 'blocked' });
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id })).status).toBe(403);
    expect((await bob.request('DELETE', `/v1/blocks/${encodeURIComponent(alice.id)}`)).body).toEqual({ ok: true, userId: alice.id });
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id })).body.state).toBe('invited');

    // An invite made before the block is hidden from the invitee while the block stands.
    await alice.post(`/v1/resources/${id}/invite`, { userId: carol.id });
    await alice.post('/v1/blocks', { userId: carol.id });
    expect((await carol.get('/v1/resources/invitations')).body.invitations.map((i: any) => i.resourceId)).not.toContain(id);
    await alice.request('DELETE', `/v1/blocks/${encodeURIComponent(carol.id)}`);
    expect((await carol.get('/v1/resources/invitations')).body.invitations.map((i: any) => i.resourceId)).toContain(id);
  });

  it('GET /v1/blocks lists your own blocks, oldest first, and not the blocks of you', async ({ ctx, s }) => {
    const { alice, bob, carol } = s.users;
    const anonymous = await ctx.fetch('/v1/blocks');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect((await alice.get('/v1/blocks')).body).toEqual({ blocks: [] });
    await alice.post('/v1/blocks', { userId: carol.id });
    await alice.post('/v1/blocks', { userId: bob.id });
    await bob.post('/v1/blocks', { userId: alice.id });
    const listed = await alice.get('/v1/blocks');
    expect(listed.status).toBe(200);
    expect(listed.body.blocks.map((b: any) => b.userId)).toEqual([carol.id, bob.id]);
    expect(Date.parse(listed.body.blocks[0].createdAt)).not.toBeNaN();
    expect((await bob.get('/v1/blocks')).body.blocks.map((b: any) => b.userId)).toEqual([alice.id]);
    expect((await carol.get('/v1/blocks')).body).toEqual({ blocks: [] });
    await alice.request('DELETE', `/v1/blocks/${encodeURIComponent(carol.id)}`);
    expect((await alice.get('/v1/blocks')).body.blocks.map((b: any) => b.userId)).toEqual([bob.id]);
  });

  it('refuses blocking yourself or an unknown user', async ({ s }) => {
    expect((await s.users.alice.post('/v1/blocks', { userId: s.users.alice.id })).status).toBe(400);
    expect((await s.users.alice.post('/v1/blocks', { userId: 'test:none' })).status).toBe(404);
  });
});

describe('pending limits and TTL', () => {
  it('docs/api.md §9.6: at most 50 pending invites per inviting member (409 pending_limit)', async ({ ctx }) => {
    const fresh = await seed(ctx, ['owner']);
    const id = await createResource(fresh.users.owner, 'team', 'Big');
    for (let i = 0; i < 50; i++) {
      const u = await fresh.user(`invitee${i}`);
      expect((await fresh.users.owner.post(`/v1/resources/${id}/invite`, { userId: u.id })).status).toBe(200);
    }
    const extra = await fresh.user('extra');
    const refused = await fresh.users.owner.post(`/v1/resources/${id}/invite`, { userId: extra.id });
    expect(refused).toMatchObject({ status: 409, body: { error: 'pending_limit' } });
    // Answered invites free a slot.
    await fresh.users.invitee0.post(`/v1/resources/${id}/accept`);
    expect((await fresh.users.owner.post(`/v1/resources/${id}/invite`, { userId: extra.id })).status).toBe(200);
  });

  it('docs/api.md §5.2: pending rows expire after 14 days, behave as absent and are purged', async ({ ctx }) => {
    const fresh = await seed(ctx, ['olga', 'pete', 'quin']);
    const { users } = fresh;
    const id = await createResource(users.olga, 'team', 'T');
    await users.olga.post(`/v1/resources/${id}/invite`, { userId: users.pete.id });
    await users.quin.post(`/v1/resources/${id}/request`);
    const listed = (await users.pete.get('/v1/resources/invitations')).body.invitations;
    expect(listed).toEqual([{ resourceId: id, type: 'team', name: 'T', role: 'writer', invitedBy: users.olga.id, expiresAt: expect.any(String) }]);
    expect(new Date(listed[0].expiresAt).getTime() - Date.now()).toBeGreaterThan(13.9 * DAY);

    ctx.advance(14 * DAY + 1000);
    try {
      // Test-session tokens last 24 hours: re-mint (same users, fresh tokens) after the jump.
      const [olga, pete, quin] = [await fresh.user('olga'), await fresh.user('pete'), await fresh.user('quin')];
      expect((await pete.get('/v1/resources/invitations')).body.invitations).toEqual([]);
      expect(await roster(olga, id)).toEqual({ [olga.id]: 'owner/active' });
      // An expired invite is absent, so the members-only team is invisible to Pete again.
      expect((await pete.post(`/v1/resources/${id}/accept`)).body.error).toBe('resource_not_found');
      expect((await olga.post(`/v1/resources/${id}/accept`, { userId: quin.id })).status).toBe(404);
      // Absent, so both can start over.
      expect((await olga.post(`/v1/resources/${id}/invite`, { userId: pete.id })).body.state).toBe('invited');
      expect((await quin.post(`/v1/resources/${id}/request`)).body.state).toBe('requested');
      const purged = await ctx.database.prisma.membership.findMany({ where: { resourceId: id } });
      expect(purged.every(row => row.state === 'active' || row.expiresAt! > new Date(Date.now() + 13 * DAY))).toBe(true);
    } finally {
      ctx.advance(-(14 * DAY + 1000));
    }
  });
});

describe('GET /v1/resources/invitations', () => {
  it("lists only the caller's own invites, filtered by type", async ({ ctx }) => {
    const fresh = await seed(ctx, ['rita', 'sam']);
    const { rita, sam } = fresh.users;
    const team = await createResource(rita, 'team', 'Team R');
    const room = await createResource(rita, 'room', 'Room R');
    await rita.post(`/v1/resources/${team}/invite`, { userId: sam.id, role: 'reader' });
    await rita.post(`/v1/resources/${room}/invite`, { userId: sam.id });
    expect((await sam.get('/v1/resources/invitations')).body.invitations.map((i: any) => i.name).sort()).toEqual(['Room R', 'Team R']);
    expect((await sam.get('/v1/resources/invitations?type=team')).body.invitations).toEqual([
      { resourceId: team, type: 'team', name: 'Team R', role: 'reader', invitedBy: rita.id, expiresAt: expect.any(String) },
    ]);
    expect((await rita.get('/v1/resources/invitations')).body.invitations).toEqual([]);
  });
});
