import { prepareBackend } from './backends.js';
import { measure } from './load.js';
import { gatehouseWorkload } from './scenarios.js';
import type { Seed } from './servers/gatehouse-seed.js';
import { spawnServer } from './spawn-server.js';

for (const warmup of [2]) {
  const backend = await prepareBackend('pglite');
  if ('skipped' in backend) throw new Error('x');
  const server = await spawnServer<{ seed: Seed }>('probe-trace', { env: backend.env, args: ['--pairs', '100'] });
  const m = await measure({ url: server.info.url, connections: 50, duration: 10, warmup, serverPid: server.pid, ...gatehouseWorkload('membership', server.info.seed) });
  console.log(`warmup ${warmup}: ${m.rps.toFixed(0)}/s p50 ${m.p50} p99 ${m.p99} failed ${m.failed} other ${m.cpu?.other.toFixed(2)}`);
  await server.stop();
  await backend.drop();
}
