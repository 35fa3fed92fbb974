/**
 * src/sdk/live.ts against a real listening server: feed events, one shared socket, lazy open and
 * close, typed errors, reconnect after the server is killed and restarted mid-feed, and the
 * refresh-once rule on a 4401 close (docs/api.md §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLiveConnection, type LiveConnection, MEMBER_IDENTITY } from '../../src/sdk/live.js';
import { addMember, createResource, type Seed, seed, startTestApp, type TestContext } from '../helpers/app.js';
import { type CuttableProxy, cuttableProxy } from '../helpers/cuttable-proxy.js';
import { MEMBERS_LIVE, nextFeedAttached, RESOURCES_LIVE, wsUrl } from '../helpers/feeds.js';
import { record, type SocketWatch, watchSockets } from './live-recorder.js';

type MemberRow = { id: string; resourceId: string; userId: string; role: string; state: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** A live connection to `ctx` as the bearer `token()` (asked at every connect), with short backoff. */
function connect(
  ctx: TestContext,
  token: () => string,
  refresh: () => Promise<boolean> = async () => false,
  webSocketImpl?: unknown,
): LiveConnection {
  return createLiveConnection({
    url: wsUrl(ctx.url),
    connectionParams: async () => ({ authorization: `Bearer ${token()}` }),
    refresh,
    backoff: { baseMs: 20, maxMs: 200 },
    webSocketImpl,
  });
}

/** `ws` (the Node option) counting the sockets this process opens. */
let constructed = 0;
class CountingWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    constructed++;
  }
}

describe('live feeds', () => {
  let ctx: TestContext;
  let s: Seed;
  let sockets: SocketWatch;

  beforeAll(async () => {
    ctx = await startTestApp({ listen: true });
    s = await seed(ctx);
    sockets = watchSockets(ctx.app.server);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('members feed: invite, accept and leave arrive as insert, update and delete', async () => {
    const { alice, bob } = s.users;
    const resourceId = await createResource(alice, 'team', 'Feed');
    const live = connect(ctx, () => alice.token!);
    const feed = record(live.subscribe<MemberRow>(MEMBERS_LIVE, { id: resourceId }));
    await feed.status('live');
    // The snapshot first: the roster as it was, marked as such.
    expect(feed.events).toEqual([
      { op: 'insert', row: { id: `${resourceId}:${alice.id}`, resourceId, userId: alice.id, role: 'owner', state: 'active' }, snapshot: true },
    ]);

    expect((await alice.post(`/v1/resources/${resourceId}/invite`, { userId: bob.id })).status).toBe(200);
    const invited = await feed.event(e => e.op === 'insert' && !e.snapshot);
    expect(invited.row).toEqual({ id: `${resourceId}:${bob.id}`, resourceId, userId: bob.id, role: 'writer', state: 'invited' });
    expect((await bob.post(`/v1/resources/${resourceId}/accept`)).status).toBe(200);
    expect((await feed.event(e => e.op === 'update')).row.state).toBe('active');
    expect((await bob.post(`/v1/resources/${resourceId}/leave`)).status).toBe(200);
    // A delete carries the row's identity, not its data columns.
    expect((await feed.event(e => e.op === 'delete')).row).toEqual({ id: `${resourceId}:${bob.id}`, resourceId, userId: bob.id });

    live.close();
    expect(feed.statuses).toEqual(['connecting', 'live', 'closed']);
    expect(feed.errors).toEqual([]);
    await sockets.until(w => w.open === 0, 'the socket closed');
  });

  it('opens lazily and shares one socket between handles; close() closes it', async () => {
    const { alice, carol } = s.users;
    const resourceId = await createResource(alice, 'team', 'Shared');
    const before = sockets.opened;
    const made = constructed;
    const live = connect(ctx, () => alice.token!, undefined, CountingWebSocket);
    // Nothing subscribed yet: no socket.
    expect(constructed).toBe(made);

    const members = record(live.subscribe<MemberRow>(MEMBERS_LIVE, { id: resourceId }));
    const mine = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    expect(constructed - made).toBe(1);
    await ctx.attached(`member:${resourceId}`);
    await ctx.attached(`principal:${alice.id}`);
    await Promise.all([members.status('live'), mine.status('live')]);
    expect(sockets.opened - before).toBe(1);
    expect(sockets.open).toBe(1);

    await alice.post(`/v1/resources/${resourceId}/invite`, { userId: carol.id });
    expect((await members.event(e => e.op === 'insert' && !e.snapshot)).row.userId).toBe(carol.id);
    const second = await createResource(alice, 'team', 'Second');
    expect((await mine.event(e => e.op === 'insert' && e.row.resourceId === second)).row).toMatchObject({ userId: alice.id, role: 'owner' });

    live.close();
    expect(members.statuses.at(-1)).toBe('closed');
    expect(mine.statuses.at(-1)).toBe('closed');
    await sockets.until(w => w.open === 0, 'the socket closed');
    expect(sockets.opened - before).toBe(1);
  });

  it('closing one handle keeps the socket; closing the last closes it; a later subscribe opens a new one', async () => {
    const { alice } = s.users;
    const resourceId = await createResource(alice, 'team', 'Handles');
    const before = sockets.opened;
    const live = connect(ctx, () => alice.token!);
    const membersHandle = live.subscribe<MemberRow>(MEMBERS_LIVE, { id: resourceId });
    const mineHandle = live.subscribe<MemberRow>(RESOURCES_LIVE);
    const members = record(membersHandle);
    const mine = record(mineHandle);
    await ctx.attached(`principal:${alice.id}`);
    await ctx.attached(`member:${resourceId}`);
    await mine.status('live');

    membersHandle.close();
    expect(members.statuses.at(-1)).toBe('closed');
    const next = await createResource(alice, 'team', 'Still live');
    expect((await mine.event(e => e.row.resourceId === next)).op).toBe('insert');
    expect(sockets.open).toBe(1);

    mineHandle.close();
    await sockets.until(w => w.open === 0, 'the socket closed after the last handle');
    expect(sockets.opened - before).toBe(1);

    const again = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await again.status('live');
    expect(sockets.opened - before).toBe(2);
    live.close();
    await sockets.until(w => w.open === 0, 'the socket closed');
  });

  it('a refused subscription ends only its own handle, with a typed error', async () => {
    const { alice, bob } = s.users;
    const hidden = await createResource(alice, 'team', 'Hidden');
    const live = connect(ctx, () => bob.token!);
    const mine = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    const refused = record(live.subscribe<MemberRow>(MEMBERS_LIVE, { id: hidden }));
    const error = await refused.error();
    expect(error.name).toBe('GatehouseError');
    expect(error).toMatchObject({ code: 'resource_not_found', status: 404 });
    expect(refused.statuses.at(-1)).toBe('closed');

    await ctx.attached(`principal:${bob.id}`);
    await mine.status('live');
    const own = await createResource(bob, 'team', 'Own');
    expect((await mine.event(e => e.row.resourceId === own)).op).toBe('insert');
    live.close();
  });

  it('a feed the server ends (your own removal, §6) delivers the delete, then closes without an error', async () => {
    const { alice, carol } = s.users;
    const resourceId = await createResource(alice, 'team', 'Removal');
    await addMember(alice, carol, resourceId);
    const live = connect(ctx, () => carol.token!);
    const feed = record(live.subscribe<MemberRow>(MEMBERS_LIVE, { id: resourceId }));
    await ctx.attached(`member:${resourceId}`);
    await feed.status('live');
    expect((await alice.post(`/v1/resources/${resourceId}/remove`, { userId: carol.id })).status).toBe(200);
    expect((await feed.event(e => e.op === 'delete')).row.userId).toBe(carol.id);
    await feed.status('closed');
    expect(feed.errors).toEqual([]);
    await sockets.until(w => w.open === 0, 'the socket closed with its last feed');
  });

  it('a bad credential (4403) ends every handle with a typed error and no refresh', async () => {
    let refreshes = 0;
    const live = connect(
      ctx,
      () => 'gst_not-a-token',
      async () => {
        refreshes++;
        return true;
      },
    );
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    const error = await feed.error();
    expect(error).toMatchObject({ name: 'GatehouseError', code: 'unauthenticated', status: 401 });
    expect(feed.statuses).toEqual(['connecting', 'closed']);
    expect(refreshes).toBe(0);
  });
});

describe('live feeds across a server restart', () => {
  let ctx: TestContext;
  let restarted: TestContext | undefined;

  beforeAll(async () => {
    ctx = await startTestApp({ listen: true });
  });
  afterAll(async () => {
    // The restarted app shares the first one's database: closing it closes that database.
    if (restarted) await restarted.close();
    else await ctx?.close();
  });

  it('server killed and restarted mid-feed: offline, then live with only what changed meanwhile, and events flow again', async () => {
    const s = await seed(ctx);
    const { alice, bob, carol } = s.users;
    const resourceId = await createResource(alice, 'team', 'Restart');
    await addMember(alice, bob, resourceId);
    await addMember(alice, carol, resourceId);
    const live = connect(ctx, () => alice.token!);
    const feed = record(live.subscribe<MemberRow>(MEMBERS_LIVE, { id: resourceId }, MEMBER_IDENTITY));
    await feed.status('live');
    expect(feed.events.map(e => [e.op, e.row.userId, e.snapshot])).toEqual(
      [alice.id, bob.id, carol.id].sort().map(userId => ['insert', userId, true]),
    );

    await ctx.app.stop();
    await feed.status('offline');
    // While nobody serves the feed, bob's role changes and carol's row goes (straight in the
    // database: no event is sent for either).
    const offlineFrom = feed.events.length;
    await ctx.database.prisma.membership.update({
      where: { resourceId_principalId: { resourceId, principalId: bob.id } },
      data: { role: 'admin' },
    });
    await ctx.database.prisma.membership.delete({ where: { resourceId_principalId: { resourceId, principalId: carol.id } } });

    // The same port and database: a restarted process, as the browser sees it.
    restarted = await startTestApp({ database: ctx.database, listen: true, env: { PORT: new URL(ctx.url).port } });
    expect(restarted.url).toBe(ctx.url);
    await feed.status('live', 10_000);
    // The fresh snapshot is reconciled: only the difference arrives, nothing already reported repeats.
    expect(feed.events.slice(offlineFrom)).toEqual([
      { op: 'update', row: { id: `${resourceId}:${bob.id}`, resourceId, userId: bob.id, role: 'admin', state: 'active' }, snapshot: true },
      { op: 'delete', row: { id: `${resourceId}:${carol.id}`, resourceId, userId: carol.id }, snapshot: true },
    ]);

    const from = feed.events.length;
    expect((await alice.post(`/v1/resources/${resourceId}/invite`, { userId: carol.id })).status).toBe(200);
    expect((await feed.event(e => e.op === 'insert', from)).row.userId).toBe(carol.id);
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'live']);
    expect(feed.errors).toEqual([]);
    live.close();
  });
});

describe('live feeds over a connection that drops and comes back', () => {
  let ctx: TestContext;
  let proxy: CuttableProxy;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startTestApp({ listen: true });
    proxy = await cuttableProxy(ctx.url);
    s = await seed(ctx, ['gil', 'hana']);
  });
  afterAll(async () => {
    await proxy?.close();
    await ctx?.close();
  });

  /** Alike `connect`, through the proxy: the client's own line to the server. */
  const throughProxy = (token: string, backoff = { baseMs: 20, maxMs: 200 }) =>
    createLiveConnection({
      url: wsUrl(proxy.url),
      connectionParams: async () => ({ authorization: `Bearer ${token}` }),
      refresh: async () => false,
      backoff,
    });

  // Node's WebSocket reports a socket that fails to open with an error event and no close event.
  it('a gateway that does not answer at first: offline, then live once it answers', async () => {
    proxy.cut();
    const live = throughProxy(s.users.gil.token!);
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await feed.status('offline');
    proxy.restore();
    await feed.status('live', 10_000);
    expect(feed.statuses).toEqual(['connecting', 'offline', 'live']);
    expect(feed.errors).toEqual([]);
    live.close();
  });

  it('every reconnect fails while the line is down, and the feed keeps trying: live again once it is back, with what changed meanwhile', async () => {
    const { hana } = s.users;
    const live = throughProxy(hana.token!);
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await feed.status('live');
    proxy.cut();
    await feed.status('offline');
    // Two refused attempts: the feed tried again after a failed try.
    await proxy.nextRefused();
    await proxy.nextRefused();
    const made = await createResource(hana, 'team', 'Made while offline');
    proxy.restore();
    await feed.status('live', 10_000);
    expect(feed.events).toEqual([
      { op: 'insert', row: { id: `${made}:${hana.id}`, resourceId: made, userId: hana.id, role: 'owner', state: 'active' }, snapshot: true },
    ]);
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'live']);
    live.close();
  });

  it('reconnect(): the network is back, so the feed tries now instead of waiting out its backoff', async () => {
    const { gil } = s.users;
    // A backoff of up to ten minutes: the first retry comes long after this test.
    const live = throughProxy(gil.token!, { baseMs: 600_000, maxMs: 600_000 });
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await feed.status('live');
    proxy.cut();
    await feed.status('offline');
    proxy.restore();
    live.reconnect();
    await feed.status('live');
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'live']);
    // Live already: nothing to do.
    live.reconnect();
    expect(feed.statuses.at(-1)).toBe('live');
    live.close();
  });
});

describe('live feeds when the credential expires (4401)', () => {
  let ctx: TestContext;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startTestApp({ listen: true });
    s = await seed(ctx, []);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** Mints (or re-mints: a fresh token, same user) test user `name`. */
  async function mint(name: string) {
    return s.user(name);
  }

  it('refreshes exactly once, reconnects with the new credential, and reports offline -> live', async () => {
    let user = await mint('dave');
    // The token has ~3 s left on the server's clock: the socket is closed with 4401 then.
    ctx.advance(DAY_MS - 3000);
    let refreshes = 0;
    const live = connect(
      ctx,
      () => user.token!,
      async () => {
        refreshes++;
        user = await mint('dave');
        return true;
      },
    );
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await ctx.attached(`principal:${user.id}`);
    await feed.status('live');
    const reattached = nextFeedAttached(ctx.app.services.deps.bus, 10_000);

    await feed.status('offline', 10_000);
    await feed.status('live');
    await reattached;
    const resourceId = await createResource(user, 'team', 'After refresh');
    expect((await feed.event(e => e.row.resourceId === resourceId)).op).toBe('insert');
    expect(refreshes).toBe(1);
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'live']);
    expect(feed.errors).toEqual([]);
    live.close();
  });

  it('a refresh that fails ends the feed: status closed and a session_expired error', async () => {
    const user = await mint('erin');
    ctx.advance(DAY_MS - 3000);
    let refreshes = 0;
    const live = connect(
      ctx,
      () => user.token!,
      async () => {
        refreshes++;
        return false;
      },
    );
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await feed.status('live');
    const error = await feed.error(10_000);
    expect(error).toMatchObject({ name: 'GatehouseError', code: 'session_expired', status: 401 });
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'closed']);
    expect(refreshes).toBe(1);
  });
  it('a refreshed credential that expires at once again ends the feed instead of looping', async () => {
    let user = await mint('frank');
    ctx.advance(DAY_MS - 3000);
    let refreshes = 0;
    const live = connect(
      ctx,
      () => user.token!,
      async () => {
        refreshes++;
        user = await mint('frank');
        // The new token has ~1.5 s left too: the next socket expires well within 5 s of the refresh.
        ctx.advance(DAY_MS - 1500);
        return true;
      },
    );
    const feed = record(live.subscribe<MemberRow>(RESOURCES_LIVE));
    await feed.status('live');
    const error = await feed.error(10_000);
    expect(error).toMatchObject({ name: 'GatehouseError', code: 'token_expired', status: 401 });
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'live', 'closed']);
    expect(refreshes).toBe(1);
  });
});
