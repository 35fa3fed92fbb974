/**
 * Two gateway processes sharing one PostgreSQL and one Redis: a change made through A reaches a
 * subscriber connected to B. Skipped, with the reason printed, where either server is missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pgClient from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { EventBus } from '../../src/bus/event-bus.js';
import { createServices } from '../../src/services.js';
import { Client, TEST_SCHEMA, createResource, seed, startTestApp } from '../helpers/app.js';
import { type ScratchPostgresDatabase, createPostgresScratchDatabase, postgresTestUrl } from '../helpers/db.js';
import { MEMBERS_LIVE, snapshotOf, subscribe } from '../helpers/feeds.js';

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

const pg = await postgresTestUrl();
const redis = await redisReachable();
const reason = !pg ? 'PostgreSQL not reachable' : !redis ? `Redis not reachable at ${REDIS_URL}` : '';
// CI must run this suite: there a missing server is a failure, not a skip (.ci/run sets CI=true).
if (reason && process.env.CI) throw new Error(`CI needs PostgreSQL and Redis for the two-instance feed test: ${reason}.`);
if (reason) console.warn(`[gatehouse tests] two-instance feed test skipped: ${reason}.`);

const bin = fileURLToPath(new URL('../../bin/gatehouse.mjs', import.meta.url));

function startInstance(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL, PORT: '0', LOG_LEVEL: 'warn', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /(http:\/\/[\d.:[\]]+)/.exec(output);
      if (match) resolve({ url: match[1], child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', chunk => (output += chunk));
    child.on('exit', code => reject(new Error(`instance exited with ${code}: ${output}`)));
  });
}

/**
 * Resolves once some Redis client subscribes to `topic` (PUBSUB CHANNELS, not a sleep), with the
 * channels that carry it: the event target uses topic names as channels, under the deployment's
 * namespace (`<namespace>:<topic>`).
 */
async function redisSubscribed(topic: string, ms = 5000): Promise<string[]> {
  const client = new Redis(REDIS_URL);
  try {
    return await vi.waitFor(
      async () => {
        const channels = (await client.pubsub('CHANNELS', `*:${topic}`)) as string[];
        if (channels.length < 1) throw new Error(`nobody subscribed to ${topic} yet`);
        return channels;
      },
      { timeout: ms, interval: 10 },
    );
  } finally {
    client.disconnect();
  }
}

describe.skipIf(Boolean(reason))('scale-out over Redis', () => {
  let scratch: ScratchPostgresDatabase;
  let a: { url: string; child: ChildProcess };
  let b: { url: string; child: ChildProcess };
  let devToken: string;

  beforeAll(async () => {
    scratch = await createPostgresScratchDatabase();
    // Migrate once, then start both instances on the same database.
    const db = await openDatabase({ databaseUrl: scratch.url });
    const bus = EventBus.inProcess();
    const services = createServices({
      prisma: db.prisma,
      transaction: fn => db.transaction(fn),
      sql: db.sql,
      sqlWrites: db.sqlWrites,
      sqlTransaction: fn => db.sqlTransaction(fn),
      query: db.query,
      bus,
      config: loadConfig({}),
      now: () => new Date(),
    });
    const dev = await services.principals.createDeveloperToken('scale@example.test');
    await db.close();
    a = await startInstance(scratch.url);
    b = await startInstance(scratch.url);
    devToken = dev.token;
    // Two server starts (the first builds the server after a source change) on a loaded machine.
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b]) {
      if (!instance) continue;
      instance.child.kill('SIGTERM');
      await new Promise(resolve => instance.child.once('exit', resolve));
    }
    await scratch?.drop();
  });

  it('a subscriber on B receives a change made on A', async () => {
    const developer = new Client(a.url, devToken);
    const app = await developer.post('/dev/apps', { name: 'scale' });
    await developer.request('PUT', `/dev/apps/${app.body.id}/deployments/dev`, { schema: TEST_SCHEMA });
    const alice = (await developer.post(`/dev/apps/${app.body.id}/test-users`, { name: 'alice', env: 'dev' })).body;
    const bob = (await developer.post(`/dev/apps/${app.body.id}/test-users`, { name: 'bob', env: 'dev' })).body;
    const onA = new Client(a.url, alice.token);
    const resource = (await onA.post('/v1/resources', { type: 'team', name: 'Shared' })).body.id;

    const feed = subscribe(b.url, alice.token, MEMBERS_LIVE, { id: resource });
    // The snapshot is read once B's Redis subscription is in place (EventBus.settled): after ready,
    // every change reaches the feed. The channel is checked too (a server-side fact, not a sleep).
    expect(await snapshotOf(feed)).toHaveLength(1);
    await redisSubscribed(`member:${resource}`);
    await onA.post(`/v1/resources/${resource}/invite`, { userId: bob.user_id, role: 'reader' });
    const message = await feed.next(5000);
    expect(message.data.membersLive).toEqual({
      op: 'insert',
      row: { id: `${resource}:${bob.user_id}`, resourceId: resource, userId: bob.user_id, role: 'reader', state: 'invited' },
    });
    await feed.dispose();
  });
});

describe.skipIf(Boolean(reason))('two deployments on one Redis', () => {
  let source: ScratchPostgresDatabase;
  let copy: ScratchPostgresDatabase;
  let a: { url: string; child: ChildProcess };
  let b: { url: string; child: ChildProcess };
  let alice: { token: string };
  let bob: { id: string };
  let resource: string;

  beforeAll(async () => {
    // Deployment B is a copy of A's database (a staging copy of production, say): every id is the
    // same in both, so without a namespace each would deliver the other's events.
    source = await createPostgresScratchDatabase();
    const ctx = await startTestApp({ database: await openDatabase({ databaseUrl: source.url }) });
    const s = await seed(ctx, ['alice', 'bob']);
    alice = { token: s.users.alice.token! };
    bob = s.users.bob;
    resource = await createResource(s.users.alice, 'team', 'Shared');
    await ctx.close();
    copy = await createPostgresScratchDatabase();
    await copyDatabase(source.url, copy.url);
    a = await startInstance(source.url);
    b = await startInstance(copy.url);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b]) {
      if (!instance) continue;
      instance.child.kill('SIGTERM');
      await new Promise(resolve => instance.child.once('exit', resolve));
    }
    await source?.drop();
    await copy?.drop();
  });

  it("A's changes travel on A's channels only: B, listening to the same resource id, is on its own", async () => {
    // Everything published about the resource, on any namespace.
    const observer = new Redis(REDIS_URL);
    const published: string[] = [];
    observer.on('pmessage', (_pattern, channel) => published.push(channel));
    await observer.psubscribe(`*:member:${resource}`);
    try {
      const feed = subscribe(b.url, alice.token, MEMBERS_LIVE, { id: resource });
      const [onB] = await redisSubscribed(`member:${resource}`);
      await new Client(a.url, alice.token).post(`/v1/resources/${resource}/invite`, { userId: bob.id, role: 'reader' });
      await vi.waitFor(() => expect(published).toHaveLength(1), { timeout: 5000, interval: 10 });
      // Redis delivers a message to the subscribers of its exact channel: B's is another one.
      expect(published[0]).toMatch(new RegExp(`^gh-[0-9a-f]{16}:member:${resource}$`));
      expect(onB).toMatch(new RegExp(`^gh-[0-9a-f]{16}:member:${resource}$`));
      expect(published[0]).not.toBe(onB);
      // B's own change is on B's channel.
      await new Client(b.url, alice.token).post(`/v1/resources/${resource}/invite`, { userId: bob.id, role: 'writer' });
      await vi.waitFor(() => expect(published).toHaveLength(2), { timeout: 5000, interval: 10 });
      expect(published[1]).toBe(onB);
      await feed.dispose();
    } finally {
      observer.disconnect();
    }
  });
});

/** Makes `to` (an empty database) a copy of `from` (CREATE DATABASE ... TEMPLATE needs no session on `from`). */
async function copyDatabase(from: string, to: string) {
  const admin = new pgClient.Client({ connectionString: pg! });
  await admin.connect();
  try {
    const name = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
    await admin.query(`DROP DATABASE "${name(to)}"`);
    await admin.query(`CREATE DATABASE "${name(to)}" TEMPLATE "${name(from)}"`);
  } finally {
    await admin.end();
  }
}
