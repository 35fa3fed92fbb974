/** docs/api.md §6: live feeds over real sockets (graphql-ws) and over SSE. */
import { describe, expect } from 'vitest';
import { addMember, createResource, seed } from '../helpers/app.js';
import { MEMBERS_LIVE, RESOURCES_LIVE, snapshotOf, subscribe } from '../helpers/feeds.js';
import { appTest } from '../helpers/fixtures.js';

// graphql-ws needs a real socket; the SSE test goes through ctx.fetch either way.
const it = appTest({ app: { listen: true }, users: ['alice', 'bob', 'carol'] });

const row = (resourceId: string, userId: string, role: string, state: string) => ({ id: `${resourceId}:${userId}`, resourceId, userId, role, state });
/** A delete carries the row's identity, not its data columns (docs/api.md §6). */
const gone = (resourceId: string, userId: string) => ({ id: `${resourceId}:${userId}`, resourceId, userId, role: null, state: null });
const change = (op: string, r: ReturnType<typeof row> | ReturnType<typeof gone>) => ({ data: { membersLive: { op, row: r } } });
const token = (c: { token?: string }) => c.token!;

describe('members.live()', () => {
  it('carries every roster change in commit order, rows of exactly { id, resourceId, userId, role, state }', async ({ ctx, s }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'Live');
    const feed = subscribe(ctx.url, token(alice), MEMBERS_LIVE, { id });
    expect(await snapshotOf(feed)).toEqual([row(id, alice.id, 'owner', 'active')]);
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id, role: 'reader' });
    await bob.post(`/v1/resources/${id}/accept`);
    await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'writer' });
    await carol.post(`/v1/resources/${id}/request`);
    await alice.post(`/v1/resources/${id}/reject`, { userId: carol.id });
    await bob.post(`/v1/resources/${id}/leave`);
    expect(await feed.next()).toEqual(change('insert', row(id, bob.id, 'reader', 'invited')));
    expect(await feed.next()).toEqual(change('update', row(id, bob.id, 'reader', 'active')));
    expect(await feed.next()).toEqual(change('update', row(id, bob.id, 'writer', 'active')));
    expect(await feed.next()).toEqual(change('insert', row(id, carol.id, 'writer', 'requested')));
    expect(await feed.next()).toEqual(change('delete', gone(id, carol.id)));
    expect(await feed.next()).toEqual(change('delete', gone(id, bob.id)));
    await feed.dispose();
  });

  it('sends nothing for a refused or rolled-back transition', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'Quiet');
    const feed = subscribe(ctx.url, token(alice), MEMBERS_LIVE, { id });
    await snapshotOf(feed);
    expect((await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id, role: 'owner' })).status).toBe(403);
    expect((await alice.post(`/v1/resources/${id}/leave`)).status).toBe(403);
    expect(await feed.quiet(400)).toBe(true);
    await feed.dispose();
  });

  it('is gated like GET members: non-members are refused at subscribe time', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const team = await createResource(alice, 'team', 'Gated');
    const hidden = subscribe(ctx.url, token(bob), MEMBERS_LIVE, { id: team });
    const refused = await hidden.next();
    expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'resource_not_found', status: 404 } });
    const forum = await createResource(alice, 'forum', 'Public');
    const outsider = subscribe(ctx.url, token(bob), MEMBERS_LIVE, { id: forum });
    expect((await outsider.next()).errors?.[0]).toMatchObject({ extensions: { code: 'not_resource_member' } });
    await hidden.dispose();
    await outsider.dispose();
  });

  it("delivers the subscriber's own removal, then ends the subscription", async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'Exit');
    await addMember(alice, bob, id, 'reader');
    const feed = subscribe(ctx.url, token(bob), MEMBERS_LIVE, { id });
    expect(await snapshotOf(feed)).toHaveLength(2);
    await alice.post(`/v1/resources/${id}/remove`, { userId: bob.id });
    expect(await feed.next()).toEqual(change('delete', gone(id, bob.id)));
    await feed.completed;
    await feed.dispose();
  });

  it('reports expiry of pending rows when they are purged', async ({ ctx }) => {
    const fresh = await seed(ctx, ['ivy', 'jon']);
    const id = await createResource(fresh.users.ivy, 'team', 'TTL');
    await fresh.users.ivy.post(`/v1/resources/${id}/invite`, { userId: fresh.users.jon.id });
    ctx.advance(15 * 86_400_000);
    try {
      const ivy = await fresh.user('ivy');
      const feed = subscribe(ctx.url, ivy.token!, MEMBERS_LIVE, { id });
      // The expired invite reads as gone in the snapshot, as it does in GET members.
      expect(await snapshotOf(feed)).toEqual([row(id, fresh.users.ivy.id, 'owner', 'active')]);
      // Any transition touching the expired row purges it, and the purge is a delete.
      await ivy.post(`/v1/resources/${id}/invite`, { userId: fresh.users.jon.id });
      expect(await feed.next()).toEqual(change('delete', gone(id, fresh.users.jon.id)));
      expect(await feed.next()).toEqual(change('insert', row(id, fresh.users.jon.id, 'writer', 'invited')));
      await feed.dispose();
    } finally {
      ctx.advance(-15 * 86_400_000);
    }
  });
});

describe('resources.live()', () => {
  it("carries the caller's own rows: a new invite, an accepted request, a role change, being removed", async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const feed = subscribe(ctx.url, token(bob), RESOURCES_LIVE);
    await snapshotOf(feed);
    const team = await createResource(alice, 'team', 'Mine');
    await alice.post(`/v1/resources/${team}/invite`, { userId: bob.id });
    const other = await createResource(alice, 'team', 'Requested');
    await bob.post(`/v1/resources/${other}/request`, { role: 'reader' });
    await alice.post(`/v1/resources/${other}/accept`, { userId: bob.id });
    await alice.post(`/v1/resources/${other}/setRole`, { userId: bob.id, role: 'writer' });
    await alice.post(`/v1/resources/${other}/remove`, { userId: bob.id });
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push((await feed.next()).data!.resourcesLive);
    expect(seen).toEqual([
      { op: 'insert', row: row(team, bob.id, 'writer', 'invited') },
      { op: 'insert', row: row(other, bob.id, 'reader', 'requested') },
      { op: 'update', row: row(other, bob.id, 'reader', 'active') },
      { op: 'update', row: row(other, bob.id, 'writer', 'active') },
      { op: 'delete', row: gone(other, bob.id) },
    ]);
    // Other people's rows never show up.
    await alice.post(`/v1/resources/${team}/invite`, { userId: s.users.carol.id });
    expect(await feed.quiet(300)).toBe(true);
    await feed.dispose();
  });

  it('the membershipLive alias is the same feed', async ({ ctx, s }) => {
    const { alice, carol } = s.users;
    const feed = subscribe(ctx.url, token(carol), 'subscription { membershipLive { op row { id state } } }');
    await snapshotOf(feed);
    const id = await createResource(alice, 'forum', 'Alias');
    await carol.post(`/v1/resources/${id}/join`);
    expect((await feed.next()).data).toEqual({ membershipLive: { op: 'insert', row: { id: `${id}:${carol.id}`, state: 'active' } } });
    await feed.dispose();
  });
});

describe('connections', () => {
  it('refuses a socket without a valid credential with 4403', async ({ ctx }) => {
    const feed = subscribe(ctx.url, 'gst_invalid', RESOURCES_LIVE);
    expect((await feed.closeEvent).code).toBe(4403);
    await feed.dispose();
  });

  it('closes the socket with 4401 when the credential expires', async ({ ctx, s }) => {
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'short', env: 'dev' });
    ctx.advance(24 * 3_600_000 - 500);
    try {
      const feed = subscribe(ctx.url, minted.body.token, RESOURCES_LIVE);
      const closed = await feed.closeEvent;
      expect(closed.code).toBe(4401);
      expect(closed.reason).toMatch(/expired/i);
      await feed.dispose();
    } finally {
      ctx.advance(-(24 * 3_600_000 - 500));
    }
  });
});

describe('SSE', () => {
  it('serves the same subscriptions as server-sent events', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'SSE');
    const controller = new AbortController();
    const res = await ctx.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: MEMBERS_LIVE, variables: { id } }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    const events = () =>
      text
        .split('\n')
        .filter(l => l.startsWith('data:') && l.includes('"op"'))
        .map(l => JSON.parse(l.slice(5)));
    while (!text.includes('"ready"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(events()).toEqual([change('insert', row(id, alice.id, 'owner', 'active')), { data: { membersLive: { op: 'ready', row: null } } }]);
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    while (events().length < 3) text += new TextDecoder().decode((await reader.read()).value);
    expect(events()[2]).toEqual(change('insert', row(id, bob.id, 'writer', 'invited')));
    controller.abort();
  });
});
