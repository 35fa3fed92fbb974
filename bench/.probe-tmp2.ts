import autocannon from 'autocannon';
import { prepareBackend } from './backends.js';
import { gatehouseWorkload } from './scenarios.js';
import type { Seed } from './servers/gatehouse-seed.js';
import { spawnServer } from './spawn-server.js';

const backend = await prepareBackend((process.argv[2] ?? 'pglite') as 'pglite');
if ('skipped' in backend) throw new Error(backend.skipped);
const server = await spawnServer<{ seed: Seed }>('gatehouse', { env: backend.env, args: ['--pairs', '100'] });
const load = gatehouseWorkload((process.argv[3] ?? 'membership') as 'membership', server.info.seed);
let n = 0;
const inst = autocannon({ url: server.info.url, connections: 50, duration: 12, requests: load.requests,
  setupClient: load.requestsFor ? (c: any) => c.setRequests(load.requestsFor!(n++)) : undefined });
const ticks: number[] = [];
(inst as any).on('tick', (t: { counter: number }) => ticks.push(t.counter));
const r = await inst;
console.log('per second:', ticks.join(' '));
console.log('latency', r.latency, 'non2xx', r.non2xx, 'errors', r.errors);
await server.stop();
await backend.drop();
