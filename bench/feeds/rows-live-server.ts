/**
 * The server side of the live-rows benchmark (bench/feeds/rows-live.ts), a forked child so the
 * load generator has its own core: Gatehouse on the store its environment names (DATA_DIR or
 * DATABASE_URL), one `project` resource, its owner and `argv[2] - 1` more active members (the
 * subscribers' principals). The parent asks over IPC for an insert into the resource's `tasks`
 * (it says when it was asked), for the fan-out's counters and for its CPU time.
 */
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';
import { client, mapLimit } from '../servers/gatehouse-seed.js';
import { ROWS_BENCH_SCHEMA } from '../servers/rows-schema.js';

const principals = Math.max(1, Number(process.argv[2] ?? 1));
const app = await buildApp({ config: loadConfig({ ...process.env, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'production' }) });
const { url } = await app.start();
const call = client(url);

type User = { user_id: string; token: string };
const developer = await app.services.principals.createDeveloperToken('rows-live@bench.local');
const created = await call<{ id: string }>(developer.token, 'POST', '/dev/apps', { name: 'rows-live' });
await call(developer.token, 'PUT', `/dev/apps/${created.id}/deployments/dev`, { schema: ROWS_BENCH_SCHEMA });
const owner = await call<User>(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: 'owner', env: 'dev' });
const resource = await call<{ id: string }>(owner.token, 'POST', '/v1/resources', { type: 'project', name: 'Live rows' });
const members = await mapLimit(principals - 1, 10, async i => {
  const user = await call<User>(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: `member-${i}`, env: 'dev' });
  await call(owner.token, 'POST', `/v1/resources/${resource.id}/invite`, { userId: user.user_id, role: 'reader' });
  await call(user.token, 'POST', `/v1/resources/${resource.id}/accept`, undefined);
  return user;
});

let inserted = 0;
process.on('message', async (message: { type: string; id: number }) => {
  try {
    if (message.type === 'insert') {
      const sentAt = performance.timeOrigin + performance.now();
      await call(owner.token, 'POST', '/v1/db/query', {
        op: 'insert',
        scope: { kind: 'resource', resourceId: resource.id },
        table: 'tasks',
        values: { title: `change ${++inserted}` },
      });
      process.send!({ id: message.id, sentAt });
    } else if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ id: message.id, cpuMs: (user + system) / 1000 });
    } else if (message.type === 'stats') {
      process.send!({ id: message.id, stats: app.services.liveRows.stats() });
    } else if (message.type === 'stop') {
      await app.stop();
      process.exit(0);
    }
  } catch (error) {
    process.send!({ id: message.id, error: String(error) });
  }
});
process.send!({ ready: true, url, resourceId: resource.id, tokens: [owner.token, ...members.map(m => m.token)] });
