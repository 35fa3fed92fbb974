/** docs/api.md §10.4: the rooms feed (`roomsLive`) over graphql-ws and SSE, and its snapshot GET /v1/resources/grants. */
import { describe, expect } from 'vitest';
import { type Client, addMember, createResource } from '../helpers/app.js';
import { snapshotOf, subscribe } from '../helpers/feeds.js';
import { appTest } from '../helpers/fixtures.js';

type User = Client & { id: string };

const ROOMS_LIVE = 'subscription { roomsLive { op row { resourceId roomId role } } }';
const change = (op: string, resourceId: string, roomId: string, role: string) => ({ data: { roomsLive: { op, row: { resourceId, roomId, role } } } });
/** A delete carries the grant's identity, not its role (docs/api.md §6). */
const dropped = (resourceId: string, roomId: string) => ({ data: { roomsLive: { op: 'delete', row: { resourceId, roomId, role: null } } } });

// graphql-ws needs a real socket; the SSE test goes through ctx.fetch either way.
const it = appTest({ app: { listen: true }, users: ['alice', 'bob', 'carol'] })
  /** live(user) subscribes and reads the snapshot: once it ends (`ready`), every later change reaches the feed. */
  .extend('live', async ({ ctx }) => {
    return async (user: User) => {
      const feed = subscribe(ctx.url, user.token!, ROOMS_LIVE);
      await snapshotOf(feed);
      return feed;
    };
  });

async function newRoom(as: User, id: string, name = 'R'): Promise<string> {
  const res = await as.post(`/v1/resources/${id}/rooms`, { name });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}
const put = (as: User, id: string, roomId: string, userId: string, role: string) =>
  as.request('PUT', `/v1/resources/${id}/rooms/${roomId}/grants/${userId}`, { role });
const drop = (as: User, id: string, roomId: string, userId: string) => as.request('DELETE', `/v1/resources/${id}/rooms/${roomId}/grants/${userId}`);

describe('roomsLive', () => {
  it('carries your own grants, insert, update and delete, in commit order; rows of exactly { resourceId, roomId, role }', async ({ s, live }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'Live');
    await addMember(alice, bob, id, 'writer');
    const a = await newRoom(alice, id, 'A');
    const feed = await live(bob);
    await put(alice, id, a, bob.id, 'reader');
    await put(alice, id, a, bob.id, 'reader'); // idempotent: no event
    await put(alice, id, a, bob.id, 'writer');
    await drop(alice, id, a, bob.id);
    expect(await feed.next()).toEqual(change('insert', id, a, 'reader'));
    expect(await feed.next()).toEqual(change('update', id, a, 'writer'));
    expect(await feed.next()).toEqual(dropped(id, a));
    expect(await feed.quiet(300)).toBe(true);
    await feed.dispose();
  });

  it("shows nobody else's grants, and nothing for refused changes", async ({ s, live }) => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'Private feed');
    await addMember(alice, bob, id, 'admin');
    await addMember(alice, carol, id, 'writer');
    const a = await newRoom(alice, id);
    const feed = await live(carol);
    await put(alice, id, a, bob.id, 'writer');
    expect((await put(bob, id, a, carol.id, 'admin')).status).toBe(403); // over bob's ceiling
    expect((await put(carol, id, a, carol.id, 'writer')).status).toBe(403); // not admin
    expect(await feed.quiet(400)).toBe(true);
    await feed.dispose();
  });

  it('publishes deletes when a leave, a removal, a room deletion or a resource deletion takes grants away', async ({ ctx, s, live }) => {
    const { alice } = s.users;
    // Someone new: the snapshot below is app wide, and the other tests give bob grants.
    const bob = await s.user('leaver');
    const feed = await live(bob);
    const left = await createResource(alice, 'team', 'Left');
    const removed = await createResource(alice, 'team', 'Removed');
    const roomGone = await createResource(alice, 'team', 'Room gone');
    const deleted = await createResource(alice, 'team', 'Deleted');
    const rooms: Record<string, string[]> = {};
    for (const id of [left, removed, roomGone, deleted]) {
      await addMember(alice, bob, id, 'writer');
      rooms[id] = [await newRoom(alice, id, 'one'), await newRoom(alice, id, 'two')];
      for (const r of rooms[id]) await put(alice, id, r, bob.id, 'reader');
    }
    for (const id of [left, removed, roomGone, deleted]) {
      for (const r of rooms[id]) expect(await feed.next()).toEqual(change('insert', id, r, 'reader'));
    }
    expect((await bob.get('/v1/resources/grants')).body.grants).toHaveLength(8);

    const gone = (id: string, r: string[]) => new Set(r.map(roomId => JSON.stringify(dropped(id, roomId))));
    const nextTwo = async () => new Set([JSON.stringify(await feed.next()), JSON.stringify(await feed.next())]);

    await bob.post(`/v1/resources/${left}/leave`);
    expect(await nextTwo()).toEqual(gone(left, rooms[left]));
    await alice.post(`/v1/resources/${removed}/remove`, { userId: bob.id });
    expect(await nextTwo()).toEqual(gone(removed, rooms[removed]));
    await alice.request('DELETE', `/v1/resources/${roomGone}/rooms/${rooms[roomGone][0]}`);
    expect(await feed.next()).toEqual(dropped(roomGone, rooms[roomGone][0]));
    await ctx.app.services.resourceDeletion.deleteAsOwner(alice.id, s.appId, deleted);
    expect(await nextTwo()).toEqual(gone(deleted, rooms[deleted]));
    expect(await feed.quiet(300)).toBe(true);
    // The snapshot agrees with the feed: only the room that survived.
    expect((await bob.get('/v1/resources/grants')).body.grants).toEqual([{ resourceId: roomGone, roomId: rooms[roomGone][1], role: 'reader' }]);
    await feed.dispose();
  });

  it('a demotion at the resource sends nothing: the feed carries grants, the effective role is computed', async ({ s, live }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'Demoted');
    await addMember(alice, bob, id, 'writer');
    const a = await newRoom(alice, id);
    await put(alice, id, a, bob.id, 'writer');
    const feed = await live(bob);
    await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'reader' });
    expect(await feed.quiet(300)).toBe(true);
    expect((await bob.get(`/v1/resources/${id}/rooms/${a}`)).body).toMatchObject({ currentGrant: { role: 'writer' }, effectiveRole: 'reader' });
    await feed.dispose();
  });

  it('needs a credential', async ({ ctx }) => {
    const feed = subscribe(ctx.url, null, ROOMS_LIVE);
    expect((await feed.closeEvent).code).toBe(4403);
    await feed.dispose();
  });
});

describe('roomsLive over SSE', () => {
  it('serves the same subscription as server-sent events', async ({ ctx, s }) => {
    const { alice, carol } = s.users;
    const id = await createResource(alice, 'team', 'SSE rooms');
    await addMember(alice, carol, id, 'writer');
    const a = await newRoom(alice, id);
    await put(alice, id, a, carol.id, 'reader');
    const controller = new AbortController();
    const res = await ctx.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: ROOMS_LIVE }),
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
    // The snapshot (carol's grants, this one among them), then ready.
    expect(events()).toContainEqual(change('insert', id, a, 'reader'));
    expect(events().at(-1)).toEqual({ data: { roomsLive: { op: 'ready', row: null } } });
    const before = events().length;
    await put(alice, id, a, carol.id, 'writer');
    while (events().length === before) text += new TextDecoder().decode((await reader.read()).value);
    expect(events()[before]).toEqual(change('update', id, a, 'writer'));
    controller.abort();
  });
});
