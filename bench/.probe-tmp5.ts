import autocannon from 'autocannon';
import { prepareBackend } from './backends.js';
import { gatehouseWorkload } from './scenarios.js';
import type { Seed } from './servers/gatehouse-seed.js';
import { spawnServer } from './spawn-server.js';

const pause = Number(process.argv[2] ?? 0);
const backend = await prepareBackend('pglite');
if ('skipped' in backend) throw new Error('x');
const server = await spawnServer<{ seed: Seed }>('probe-trace', { env: backend.env, args: ['--pairs', '150'] });
const load = gatehouseWorkload('membership', server.info.seed);
let n = 0;
const run = async (duration: number) => {
  const inst = autocannon({ url: server.info.url, connections: 50, duration, setupClient: (c: any) => c.setRequests(load.requestsFor!(n++)) });
  const ticks: number[] = [];
  const t0 = Date.now();
  const ids = new Map<unknown, number>();
  const counts = new Map<unknown, number>();
  const slow: string[] = [];
  (inst as any).on('response', (client: any, status: number, _b: number, rt: number) => {
    if (!ids.has(client)) ids.set(client, ids.size);
    counts.set(client, (counts.get(client) ?? 0) + 1);
    if (rt > 2000) slow.push(`client ${ids.get(client)} resp#${counts.get(client)} at ${((Date.now() - t0) / 1000).toFixed(2)}s rt ${rt.toFixed(0)} status ${status}`);
  });
  (inst as any).on('tick', (t: { counter: number }) => ticks.push(t.counter));
  const r = await inst;
  console.log(slow.slice(0, 15).join('\n'), slow.length);
  console.log(`duration ${duration}: ticks ${ticks.join(' ')} p50 ${r.latency.p50} p99 ${r.latency.p99} max ${r.latency.max} timeouts ${r.timeouts} errors ${r.errors} sent ${r.requests.sent} 2xx ${r['2xx']}`);
};
await run(2);
await new Promise(r => setTimeout(r, pause));
await run(10);
await server.stop();
await backend.drop();
