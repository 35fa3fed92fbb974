/**
 * The server side of the fan-out benchmark, run as a forked child so the load generator has
 * its own core: Gatehouse on an in-memory database, one resource, two members. The parent asks
 * over IPC for a role change (to time delivery) or a memory reading (after a forced GC).
 */
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';

const app = await buildApp({ config: loadConfig({ DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'production' }) });
const { url } = await app.start();
const { services } = app;

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const developer = await services.principals.createDeveloperToken('fanout@bench.local');
const created = await call(developer.token, 'POST', '/dev/apps', { name: 'fanout' });
await call(developer.token, 'PUT', `/dev/apps/${created.id}/deployments/dev`, {
  schema: {
    version: 1,
    tables: {},
    resources: {
      room: {
        visibility: { default: 'members', allow: ['members'] },
        defaultRole: 'writer',
        grant: { owner: 'admin', admin: 'writer', writer: null, reader: null },
        static: [],
        shares: [],
        owns: [],
      },
    },
  },
});
const owner = await call(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: 'owner', env: 'dev' });
const member = await call(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: 'member', env: 'dev' });
const resource = await call(owner.token, 'POST', '/v1/resources', { type: 'room', name: 'Town square' });
await call(owner.token, 'POST', `/v1/resources/${resource.id}/invite`, { userId: member.user_id, role: 'reader' });
await call(member.token, 'POST', `/v1/resources/${resource.id}/accept`);

let role: 'reader' | 'writer' = 'reader';

process.on('message', async (message: { type: string; id: number }) => {
  try {
    if (message.type === 'change') {
      role = role === 'reader' ? 'writer' : 'reader';
      const sentAt = performance.timeOrigin + performance.now();
      await call(owner.token, 'POST', `/v1/resources/${resource.id}/setRole`, { userId: member.user_id, role });
      process.send!({ id: message.id, sentAt, role });
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

process.send!({ ready: true, url, token: owner.token, resourceId: resource.id });
