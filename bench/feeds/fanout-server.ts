/**
 * The server side of the fan-out benchmark, run as a forked child so the load generator has
 * its own core: Gatehouse on an in-memory database, one resource with `--members` active
 * members (the subscribers' principals; WS_MAX_SOCKETS_PER_PRINCIPAL stays at its default, so
 * sockets are spread over them). The parent asks over IPC for a role change (to time delivery)
 * or a memory reading (after a forced GC).
 *
 * With DATABASE_URL and REDIS_URL set (`fanout.ts --instances N`), it runs on that shared database
 * and event bus: argv[3] `primary` seeds and takes the role changes, `secondary` only holds sockets.
 */
import { writeFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { Session } from 'node:inspector/promises';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';
import { BENCH_SCHEMA, client, mapLimit } from '../servers/gatehouse-seed.js';

const members = Number(process.argv[2] ?? 250);
const primary = (process.argv[3] ?? 'primary') === 'primary';
const store = process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL } : { DATA_DIR: 'memory://' };
const app = await buildApp({ config: loadConfig({ ...store, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'production' }) });
const { url } = await app.start();
const { services } = app;

if (!primary) {
  serve(async () => {
    throw new Error('role changes go to the primary');
  });
  process.send!({ ready: true, url });
} else {
  const seeded = await seed();
  serve(seeded.change);
  process.send!({ ready: true, url, tokens: seeded.tokens, resourceId: seeded.resourceId });
}

/** Answers the parent's requests over IPC; `change` flips the target member's role and says when it was asked. */
function serve(change: () => Promise<{ sentAt: number; role: string }>) {
  let profiler: Session | undefined;
  process.on('message', async (message: { type: string; id: number }) => {
    try {
      if (message.type === 'change') {
        process.send!({ id: message.id, ...(await change()) });
      } else if (message.type === 'profile-start') {
        // FANOUT_PROF: a CPU profile of the delivery rounds only (not the set-up), written into that directory.
        profiler = new Session();
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        process.send!({ id: message.id });
      } else if (message.type === 'profile-stop') {
        const { profile } = await profiler!.post('Profiler.stop');
        const file = `${process.env.FANOUT_PROF}/fanout-${Date.now()}.cpuprofile`;
        writeFileSync(file, JSON.stringify(profile));
        profiler!.disconnect();
        process.send!({ id: message.id, file });
      } else if (message.type === 'heap-snapshot') {
        // FANOUT_HEAP: what the idle sockets hold, for a look in DevTools' Memory tab.
        process.send!({ id: message.id, file: writeHeapSnapshot(`${process.env.FANOUT_HEAP}/fanout-${Date.now()}.heapsnapshot`) });
      } else if (message.type === 'memory') {
        for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
        process.send!({ id: message.id, memory: process.memoryUsage() });
      } else if (message.type === 'stop') {
        await app.stop();
        process.exit(0);
      }
    } catch (error) {
      process.send!({ id: message.id, error: String(error) });
    }
  });
}

/** The app, its room and its members (the subscribers' principals); the first member's role flips each round. */
async function seed() {
  const call = client(url);
  const developer = await services.principals.createDeveloperToken('fanout@bench.local');
  const created = await call<{ id: string }>(developer.token, 'POST', '/dev/apps', { name: 'fanout' });
  await call(developer.token, 'PUT', `/dev/apps/${created.id}/deployments/dev`, { schema: BENCH_SCHEMA });
  type User = { user_id: string; token: string };
  const owner = await call<User>(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: 'owner', env: 'dev' });
  const resource = await call<{ id: string }>(owner.token, 'POST', '/v1/resources', { type: 'room', name: 'Town square' });

  /** A test user who is an active member of the resource; its token subscribes. */
  async function addMember(i: number) {
    const user = await call<User>(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: `member-${i}`, env: 'dev' });
    await call(owner.token, 'POST', `/v1/resources/${resource.id}/invite`, { userId: user.user_id, role: 'reader' });
    await call(user.token, 'POST', `/v1/resources/${resource.id}/accept`, undefined);
    return user;
  }
  const users = await mapLimit(members, 10, addMember);
  const target = users[0];

  let role: 'reader' | 'writer' = 'reader';
  return {
    tokens: users.map(u => u.token),
    resourceId: resource.id,
    async change() {
      role = role === 'reader' ? 'writer' : 'reader';
      const sentAt = performance.timeOrigin + performance.now();
      await call(owner.token, 'POST', `/v1/resources/${resource.id}/setRole`, { userId: target.user_id, role });
      return { sentAt, role };
    },
  };
}
