/**
 * The event bus over Redis (src/bus/redis-bus.ts): channels under a namespace per deployment,
 * and a connection that goes away: /healthz says degraded and why, the log says so once and once
 * more when it returns, nothing the bus sends meanwhile ends the process, and afterwards events
 * cross instances again. Redis is reached through a proxy the test cuts and restores.
 */
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureLogs } from '../../src/lib/logger.js';
import { EventBus, type MembershipEvent } from '../../src/bus/event-bus.js';
import { defaultRedisNamespace, namespacedTarget } from '../../src/bus/redis-bus.js';
import { createResource, seed, startTestApp, type TestContext } from '../helpers/app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const reachable = await redisReachable();
if (!reachable && process.env.CI) throw new Error(`CI needs Redis at ${REDIS_URL} for the event-bus tests.`);
if (!reachable) console.warn(`[gatehouse tests] Redis event-bus tests skipped: Redis not reachable at ${REDIS_URL}.`);

describe('namespaces', () => {
  it('one per database identity: the same for every instance of a deployment, different for another', () => {
    const a = defaultRedisNamespace('postgres:7712742575958505610/gatehouse');
    expect(a).toMatch(/^gh-[0-9a-f]{16}$/);
    expect(defaultRedisNamespace('postgres:7712742575958505610/gatehouse')).toBe(a);
    expect(defaultRedisNamespace('postgres:7712742575958505610/gatehouse_staging')).not.toBe(a);
  });

  it('a namespaced target sends and listens on `<namespace>:<topic>`', () => {
    const wire = new EventTarget();
    const seen: string[] = [];
    wire.addEventListener('ns:member:r1', event => seen.push(`wire ${(event as CustomEvent).detail}`));
    const target = namespacedTarget(wire, 'ns');
    target.addEventListener('member:r1', event => seen.push(`topic ${(event as CustomEvent).detail}`));
    target.dispatchEvent(new CustomEvent('member:r1', { detail: 'x' }));
    expect(seen).toEqual(['wire x', 'topic x']);
  });
});

/** A TCP proxy to Redis that can be cut (connections dropped, new ones closed at once) and restored. */
async function redisProxy() {
  const upstream = new URL(REDIS_URL);
  const open = new Set<net.Socket>();
  let up = false;
  let attemptsWhileDown = 0;
  const server = net.createServer(socket => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
    if (!up) {
      attemptsWhileDown++;
      socket.destroy();
      return;
    }
    const remote = net.connect(Number(upstream.port || 6379), upstream.hostname);
    open.add(remote);
    remote.on('close', () => open.delete(remote));
    remote.on('error', () => socket.destroy());
    socket.pipe(remote).pipe(socket);
    socket.on('close', () => remote.destroy());
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    up = false;
    for (const socket of open) socket.destroy();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    attempts: () => attemptsWhileDown,
    cut,
    restore() {
      up = true;
    },
    close: () =>
      new Promise<void>(resolve => {
        cut();
        server.close(() => resolve());
      }),
  };
}

const subscribers = (channel: string) => {
  const client = new Redis(REDIS_URL);
  return client
    .pubsub('NUMSUB', channel)
    .then(reply => Number((reply as [string, number])[1]))
    .finally(() => client.disconnect());
};

describe.skipIf(!reachable)('a Redis that is down, then back', () => {
  let proxy: Awaited<ReturnType<typeof redisProxy>>;
  let ctx: TestContext;
  let logs: ReturnType<typeof captureLogs>;

  beforeAll(async () => {
    proxy = await redisProxy();
    logs = captureLogs();
    ctx = await startTestApp({ env: { REDIS_URL: proxy.url, LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    logs?.stop();
    await ctx?.close();
    await proxy?.close();
  });

  const lines = (pattern: RegExp) => logs.lines.filter(line => pattern.test(line.msg));
  const health = async () => (await ctx.anonymous.get('/healthz')).body;

  it('down from the start: /healthz is 200 degraded with the reason, and the log says so once however often it retries', async () => {
    await vi.waitFor(() => expect(proxy.attempts()).toBeGreaterThanOrEqual(8), { timeout: 30_000, interval: 50 });
    const answer = await ctx.anonymous.get('/healthz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: false,
      status: 'degraded',
      database: 'pglite',
      bus: { kind: 'redis', ok: false, reason: expect.stringMatching(/^Redis /) },
    });
    expect(JSON.stringify(answer.body)).not.toContain(proxy.url.split('//')[1]);
    expect(lines(/redis connection lost/)).toHaveLength(1);
    expect(lines(/^redis error$/)).toEqual([]);
  }, 60_000);

  it('a change published while it is down is dropped, not thrown (the process lives on), and a feed started meanwhile attaches when it returns', async () => {
    const dropped = () => lines(/redis command failed while disconnected/).length;
    const droppedAtStart = dropped();
    let published = 0;
    const stopCounting = ctx.app.services.deps.bus.subscribe(() => published++);
    const s = await seed(ctx, ['owner', 'guest']);
    const resourceId = await createResource(s.users.owner, 'team', 'While down');
    const heard: MembershipEvent[] = [];
    // Listens on this instance's bus while Redis is away.
    ctx.app.services.deps.bus.listen(`member:${resourceId}`, event => heard.push(event));
    const invited = await s.users.owner.post(`/v1/resources/${resourceId}/invite`, { userId: s.users.guest.id });
    expect(invited.status).toBe(200);
    // Every publish so far (the resource's creation and the invite, each to the resource's channel
    // and the member's) gave up after its retries: caught and counted. Waiting for all of them, not
    // the first, keeps the invite's from arriving after Redis returns.
    stopCounting();
    expect(published).toBeGreaterThanOrEqual(2);
    await vi.waitFor(() => expect(dropped()).toBe(droppedAtStart + 2 * published), { timeout: 30_000, interval: 50 });

    proxy.restore();
    await vi.waitFor(async () => expect((await health()).ok).toBe(true), { timeout: 30_000, interval: 50 });
    expect(await health()).toEqual({ ok: true, status: 'ok', database: 'pglite', bus: { kind: 'redis', ok: true } });
    expect(lines(/redis connection restored/)).toHaveLength(1);
    expect(lines(/redis connection lost/)).toHaveLength(1);

    // Another instance of the same deployment: same database identity, same namespace.
    const namespace = defaultRedisNamespace(await ctx.database.identity());
    const other = await EventBus.redis(proxy.url, { namespace });
    try {
      await vi.waitFor(async () => expect(await subscribers(`${namespace}:member:${resourceId}`)).toBe(1), { timeout: 10_000, interval: 20 });
      other.publish([{ op: 'update', deploymentId: 'd', row: { id: `${resourceId}:x`, resourceId, userId: 'x', role: 'reader', state: 'active' } }]);
      await vi.waitFor(() => expect(heard.map(event => event.row.userId)).toEqual(['x']), { timeout: 10_000, interval: 20 });
    } finally {
      await other.close();
    }
  }, 90_000);

  it('stops at once while Redis is away', async () => {
    proxy.cut();
    await vi.waitFor(async () => expect((await health()).status).toBe('degraded'), { timeout: 30_000, interval: 50 });
    const namespace = defaultRedisNamespace(await ctx.database.identity());
    const stranded = await EventBus.redis(proxy.url, { namespace });
    stranded.listen('member:nowhere', () => {});
    await stranded.close();
  }, 60_000);
});
