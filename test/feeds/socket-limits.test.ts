/**
 * Live-feed caps (README "Live feeds"): subscriptions per socket, sockets per principal and
 * sockets per process are refused with their documented error or close code, and freed on close.
 */
import { type Client as WsClient, createClient } from 'graphql-ws';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_CODES, TOO_MANY_SUBSCRIPTIONS } from '../../src/feeds/websocket.routes.js';
import { type Seed, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';
import { MEMBERS_LIVE, RESOURCES_LIVE, wsUrl } from '../helpers/feeds.js';

/** A server on a loopback port (graphql-ws needs a socket) whose WS_MAX_* settings are `env`. */
const startWithLimits = (env: Record<string, string>): Promise<TestContext> => startTestApp({ listen: true, env });

interface Socket {
  client: WsClient;
  /** Resolves when connection_init is acknowledged; rejects with the close event if it is refused. */
  connected: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
}

/** One graphql-ws socket (several operations can share it). */
function openSocket(url: string, token: string): Socket {
  let onConnected!: () => void;
  let onClosed!: (event: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>(resolve => (onClosed = resolve));
  const connected = new Promise<void>((resolve, reject) => {
    onConnected = resolve;
    closed.then(event => reject(Object.assign(new Error(`closed ${event.code} ${event.reason}`), event)));
  });
  connected.catch(() => {});
  const client = createClient({
    url: wsUrl(url),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    // A refused connection is asserted through `closed`, not logged.
    onNonLazyError: () => {},
    on: {
      connected: () => onConnected(),
      closed: (event: any) => onClosed({ code: event?.code, reason: String(event?.reason ?? '') }),
    },
  });
  return { client, connected, closed };
}

interface Operation {
  /** The next data or error message. */
  next(): Promise<{ data?: any; errors?: any[] }>;
  /** Completes the operation (the client sends `complete`). */
  stop(): void;
}

function operation(socket: Socket, query: string, variables: Record<string, unknown> = {}): Operation {
  const queue: { data?: any; errors?: any[] }[] = [];
  const waiters: ((m: { data?: any; errors?: any[] }) => void)[] = [];
  const push = (m: { data?: any; errors?: any[] }) => (waiters.length ? waiters.shift()!(m) : queue.push(m));
  const stop = socket.client.subscribe(
    { query, variables },
    { next: value => push(value as any), error: error => push({ errors: Array.isArray(error) ? error : [error] }), complete: () => {} },
  );
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise(resolve => waiters.push(resolve))),
    stop,
  };
}

describe('subscriptions per socket and sockets per principal', () => {
  let ctx: TestContext;
  let s: Seed;
  let team: string;
  let bobRole = 'reader';
  const sockets: Socket[] = [];
  const open = (token: string) => {
    const socket = openSocket(ctx.url, token);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    ctx = await startWithLimits({ WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '3', WS_MAX_SOCKETS_PER_PRINCIPAL: '2' });
    s = await seed(ctx, ['alice', 'bob']);
    team = await createResource(s.users.alice, 'team', 'Watched');
  });
  afterAll(async () => {
    await Promise.all(sockets.map(socket => socket.client.dispose()));
    await ctx.close();
  });

  /** Changes the roster until `feed` delivers an event: proves the subscription is attached, without a fixed sleep. */
  async function delivers(feed: Operation) {
    // Past its snapshot (inserts, then ready); then a change proves the subscription is attached.
    while ((await feed.next()).data?.membersLive.op !== 'ready');
    const event = feed.next();
    await vi.waitFor(
      async () => {
        bobRole = bobRole === 'reader' ? 'writer' : 'reader';
        await s.users.alice.post(`/v1/resources/${team}/setRole`, { userId: s.users.bob.id, role: bobRole });
        const got = await Promise.race([event, new Promise(resolve => setTimeout(resolve, 200, null))]);
        if (!got) throw new Error('no event yet');
      },
      { timeout: 10_000, interval: 10 },
    );
    expect((await event).data?.membersLive.op).toBe('update');
  }

  it('refuses the subscription past the cap with too_many_subscriptions, and frees the slot on complete', async () => {
    const { alice, bob } = s.users;
    await alice.post(`/v1/resources/${team}/invite`, { userId: bob.id, role: 'reader' });
    await bob.post(`/v1/resources/${team}/accept`);
    const socket = open(alice.token!);
    await socket.connected;
    const feeds = Array.from({ length: 3 }, () => operation(socket, MEMBERS_LIVE, { id: team }));
    const excess = operation(socket, MEMBERS_LIVE, { id: team });
    const refused = await excess.next();
    expect(refused.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/at most 3 per socket/),
      extensions: { code: TOO_MANY_SUBSCRIPTIONS, status: 429 },
    });
    await delivers(feeds[0]);

    // The same socket stays usable; completing one subscription makes room for another.
    feeds[2].stop();
    const replacement = operation(socket, MEMBERS_LIVE, { id: team });
    await delivers(replacement);
  });

  it('a completed subscription on a quiet topic stops listening at once (subscribe/complete cycles hold no memory)', async () => {
    const quiet = await createResource(s.users.alice, 'team', 'Quiet');
    // Its own socket, closed at the end: the next test counts alice's sockets.
    const socket = openSocket(ctx.url, s.users.alice.token!);
    await socket.connected;
    const bus = ctx.app.services.deps.bus;
    for (let round = 0; round < 3; round++) {
      const feed = operation(socket, MEMBERS_LIVE, { id: quiet });
      await ctx.attached(`member:${quiet}`);
      feed.stop();
      // No event follows on this topic: the listener must go on `complete` alone.
      await vi.waitFor(() => expect(bus.hasListeners(`member:${quiet}`)).toBe(false), { timeout: 5000, interval: 10 });
    }
    await socket.client.dispose();
    await socket.closed;
  });

  it('closes the socket past the per-principal cap with 4429, other principals are unaffected', async () => {
    const { alice, bob } = s.users;
    // The first test's socket still counts for alice: one more reaches her cap of 2.
    const second = open(alice.token!);
    await second.connected;
    const third = open(alice.token!);
    await expect(third.connected).rejects.toMatchObject({ code: CLOSE_CODES.tooManySockets });
    expect((await third.closed).reason).toMatch(/at most 2 sockets per user/);
    const other = open(bob.token!);
    await other.connected;

    // Closing one of alice's sockets frees a slot once the server has seen the close.
    await second.client.dispose();
    await second.closed;
    await vi.waitFor(
      async () => {
        const retry = open(alice.token!);
        await retry.connected;
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe("per person: an agent's sockets, subscriptions and streams count against its owner's", () => {
  let ctx: TestContext;
  let s: Seed;
  let team: string;
  const sockets: Socket[] = [];
  const open = (token: string) => {
    const socket = openSocket(ctx.url, token);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    ctx = await startWithLimits({ WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '3', WS_MAX_SOCKETS_PER_PRINCIPAL: '2', WS_MAX_SUBSCRIPTIONS_PER_PERSON: '4' });
    s = await seed(ctx, ['gina', 'hugo']);
    team = await createResource(s.users.gina, 'team', 'Agents watch');
  });
  afterAll(async () => {
    await Promise.all(sockets.map(socket => socket.client.dispose()));
    await ctx.close();
  });

  const agentOf = async (owner: Seed['users'][string], name: string) => {
    const created = await owner.post('/v1/agents', { name });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // The owner's own agent joins at once (spec 3: the owner's decision is the consent).
    expect((await owner.post(`/v1/resources/${team}/invite`, { userId: created.body.id, role: 'reader' })).status).toBe(200);
    return { id: created.body.id as string, token: created.body.token as string };
  };

  it('sockets and subscriptions: the owner and their agents share the caps; another person is unaffected', async () => {
    const one = await agentOf(s.users.gina, 'one');
    const two = await agentOf(s.users.gina, 'two');
    const [first, second, secondId] = [one.token, two.token, two.id];
    let role = 'reader';
    const own = open(s.users.gina.token!);
    await own.connected;
    const byAgent = open(first);
    await byAgent.connected;
    // Two held by gina (one hers, one her agent's): every further socket of hers or her agents' is refused.
    for (const token of [first, second, s.users.gina.token!]) {
      const refused = open(token);
      await expect(refused.connected).rejects.toMatchObject({ code: CLOSE_CODES.tooManySockets });
      expect((await refused.closed).reason).toMatch(/at most 2 sockets per user/);
    }
    await open(s.users.hugo.token!).connected;

    // Subscriptions: 2 on her socket and 2 on her agent's reach her 4 (each socket is under its own
    // 3); the next, on either socket, is refused.
    const feeds = [own, own, byAgent, byAgent].map(socket => operation(socket, MEMBERS_LIVE, { id: team }));
    // All four are served (each gets a roster event) before the next is asked for.
    const firsts = Promise.all(feeds.map(feed => feed.next()));
    let settled = false;
    void firsts.finally(() => (settled = true));
    while (!settled) {
      role = role === 'reader' ? 'writer' : 'reader';
      await s.users.gina.post(`/v1/resources/${team}/setRole`, { userId: secondId, role });
      await Promise.race([firsts, new Promise(resolve => setTimeout(resolve, 200))]);
    }
    for (const first of await firsts) expect(first.errors).toBeUndefined();
    for (const socket of [byAgent, own]) {
      const excess = await operation(socket, MEMBERS_LIVE, { id: team }).next();
      expect(excess.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/at most 4 per user over all their sockets/),
        extensions: { code: TOO_MANY_SUBSCRIPTIONS, status: 429 },
      });
    }
    // Completing one gives its place back to the person, on any of their sockets: once the server
    // has seen the complete, a new subscription on the agent's socket is served (it gets events).
    feeds[0].stop();
    await vi.waitFor(
      async () => {
        const replacement = operation(byAgent, MEMBERS_LIVE, { id: team });
        for (;;) {
          role = role === 'reader' ? 'writer' : 'reader';
          await s.users.gina.post(`/v1/resources/${team}/setRole`, { userId: secondId, role });
          const got = await Promise.race([replacement.next(), new Promise<null>(resolve => setTimeout(resolve, 200, null))]);
          if (got?.errors) throw new Error('still refused');
          if (got) return;
        }
      },
      { timeout: 10_000, interval: 50 },
    );
    for (const feed of feeds.slice(1)) feed.stop();
  });
});

describe('sockets per process', () => {
  let ctx: TestContext;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startWithLimits({ WS_MAX_SOCKETS: '1' });
    s = await seed(ctx, ['carol']);
  });
  afterAll(() => ctx.close());

  it('answers the upgrade past WS_MAX_SOCKETS with 503 and Retry-After, before any handshake', async () => {
    const first = openSocket(ctx.url, s.users.carol.token!);
    await first.connected;
    const response = await refusedUpgrade(wsUrl(ctx.url));
    expect(response).toMatchObject({ status: 503, retryAfter: '5', body: { error: 'busy', message: expect.stringContaining('maximum of 1') } });
    await first.client.dispose();
  });

  it('answers an upgrade on a path that has no feed with 404 not_found, naming where the feeds are', async () => {
    const response = await refusedUpgrade(wsUrl(ctx.url).replace('/graphql', '/v1/resources'));
    expect(response).toMatchObject({ status: 404, body: { error: 'not_found', message: expect.stringContaining('/graphql') } });
  });
});

describe('SSE streams per principal and per process', () => {
  let ctx: TestContext;
  let s: Seed;
  let team: string;

  beforeAll(async () => {
    // Over a socket: a stream ends when its client's connection does.
    ctx = await startWithLimits({ WS_MAX_SOCKETS_PER_PRINCIPAL: '2', WS_MAX_SOCKETS: '3' });
    s = await seed(ctx, ['erin', 'frank']);
    team = await createResource(s.users.erin, 'team', 'Streamed');
    await s.users.erin.post(`/v1/resources/${team}/invite`, { userId: s.users.frank.id, role: 'reader' });
    await s.users.frank.post(`/v1/resources/${team}/accept`);
  });
  afterAll(() => ctx.close());

  /** An SSE subscription to the roster; `first` is the first event's data (a refusal arrives at once). */
  async function stream(token: string) {
    const controller = new AbortController();
    const res = await ctx.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      // Changes only (no snapshot): a stream that is live and idle sends nothing.
      body: JSON.stringify({ query: 'subscription($id: ID!) { membersLive(resourceId: $id, snapshot: false) { op } }', variables: { id: team } }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    /** The first `data:` line of an event, parsed; null when nothing came within 300 ms (a live stream, idle). */
    const first = async () => {
      let text = '';
      const deadline = Date.now() + 300;
      while (Date.now() < deadline) {
        const chunk = await Promise.race([reader.read(), new Promise<null>(resolve => setTimeout(resolve, 50, null))]);
        if (chunk?.value) text += new TextDecoder().decode(chunk.value);
        const data = text.split('\n').find(line => line.startsWith('data:') && line.length > 6);
        if (data) return JSON.parse(data.slice(5));
      }
      return null;
    };
    return { first, close: () => controller.abort() };
  }

  it('refuses the stream past WS_MAX_SOCKETS_PER_PRINCIPAL with 429 too_many_sockets, and frees the place when one closes', async () => {
    const [a, b] = [await stream(s.users.erin.token!), await stream(s.users.erin.token!)];
    expect(await a.first()).toBeNull();
    expect(await b.first()).toBeNull();
    const third = await stream(s.users.erin.token!);
    expect((await third.first()).errors[0]).toMatchObject({
      message: expect.stringContaining('at most 2 SSE subscriptions per user'),
      extensions: { code: 'too_many_sockets', status: 429 },
    });
    // Another principal has places of its own.
    const other = await stream(s.users.frank.token!);
    expect(await other.first()).toBeNull();
    // A closed stream gives its place back (once the server has seen the client go).
    a.close();
    let reopened: Awaited<ReturnType<typeof stream>> | undefined;
    await vi.waitFor(
      async () => {
        const again = await stream(s.users.erin.token!);
        if ((await again.first()) !== null) {
          again.close();
          throw new Error('still refused');
        }
        reopened = again;
      },
      { timeout: 5_000, interval: 100 },
    );
    // The process-wide bound: erin's 2 and frank's 1 fill WS_MAX_SOCKETS=3.
    const overProcess = await stream(s.users.frank.token!);
    expect((await overProcess.first()).errors[0].extensions).toMatchObject({ code: 'busy', status: 503 });
    for (const open of [b, other, reopened!]) open.close();
  });
});

describe("SSE streams per person: an agent's count against its owner's", () => {
  let ctx: TestContext;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startWithLimits({ WS_MAX_SOCKETS_PER_PRINCIPAL: '2' });
    s = await seed(ctx, ['iris', 'jon']);
  });
  afterAll(() => ctx.close());

  /** An SSE subscription to the caller's own memberships; `first()` is its first event's data. */
  async function stream(token: string) {
    const controller = new AbortController();
    const res = await ctx.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: RESOURCES_LIVE }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const first = async () => {
      let text = '';
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`the stream ended without an event: ${text}`);
        text += new TextDecoder().decode(chunk.value);
        const data = text.split('\n').find(line => line.startsWith('data:') && line.length > 6);
        if (data) return JSON.parse(data.slice(5));
      }
    };
    return { first, close: () => controller.abort() };
  }

  it('the owner and their agents share WS_MAX_SOCKETS_PER_PRINCIPAL streams; another person is unaffected', async () => {
    const { iris, jon } = s.users;
    const agent = await iris.post('/v1/agents', { name: 'streamer' });
    // A live stream listens on its principal's topic; a refused one answers its refusal as its event.
    const byAgent = await stream(agent.body.token);
    await ctx.attached(`principal:${agent.body.id}`);
    const own = await stream(iris.token!);
    await ctx.attached(`principal:${iris.id}`);
    for (const token of [agent.body.token, iris.token!]) {
      const refused = await stream(token);
      expect((await refused.first()).errors[0]).toMatchObject({
        message: expect.stringContaining('at most 2 SSE subscriptions per user'),
        extensions: { code: 'too_many_sockets', status: 429 },
      });
      refused.close();
    }
    const other = await stream(jon.token!);
    await ctx.attached(`principal:${jon.id}`);
    for (const open of [byAgent, own, other]) open.close();
  });
});

describe('upgrades whose client resets the connection at once', () => {
  let ctx: TestContext;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startWithLimits({ WS_MAX_SOCKETS: '1' });
    s = await seed(ctx, ['dave']);
  });
  afterAll(() => ctx.close());

  it('leave the server up, whether refused (no feed there, process full) or handed to the handshake', async () => {
    const { port } = new URL(ctx.url);
    const resetAfterUpgrade = (path: string) =>
      new Promise<void>(resolve => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
              'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
          );
          socket.resetAndDestroy();
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
    // A feed socket first, so the rest of /graphql's upgrades meet the full process.
    const held = openSocket(ctx.url, s.users.dave.token!);
    await held.connected;
    for (const path of ['/v1/resources', '/graphql']) await Promise.all(Array.from({ length: 50 }, () => resetAfterUpgrade(path)));
    await held.client.dispose();
    await new Promise(resolve => setTimeout(resolve, 200));
    expect((await ctx.fetch('/healthz')).status).toBe(200);
    const after = openSocket(ctx.url, s.users.dave.token!);
    await after.connected;
    await after.client.dispose();
  });
});

/** An upgrade the server answers with an HTTP response instead of the handshake: its status, Retry-After and JSON body. */
function refusedUpgrade(url: string): Promise<{ status?: number; retryAfter?: string; body: unknown }> {
  const refused = new WebSocket(url, 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    refused.on('unexpected-response', (_request, res) => {
      let text = '';
      res.setEncoding('utf8').on('data', chunk => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], body: JSON.parse(text) }));
    });
    refused.on('open', () => reject(new Error('the upgrade was accepted')));
    refused.on('error', () => {});
  });
}
