/**
 * Fan-out of one roster change to N concurrent graphql-ws subscribers on one instance
 * (issue 4): delivery latency p50/p99 from the commit of a role change to its arrival at every
 * subscriber, and server memory per idle connection. Not a test: it prints and exits 0.
 *
 *   npx tsx bench/feeds/fanout.ts [--subscribers 1000,5000] [--rounds 5]
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values } = parseArgs({ options: { subscribers: { type: 'string', default: '1000,5000' }, rounds: { type: 'string', default: '5' } } });
const counts = values.subscribers!.split(',').map(Number);
const rounds = Number(values.rounds);

const QUERY = 'subscription($id: ID!) { membersLive(resourceId: $id) { op row { id role state } } }';

interface Ready {
  url: string;
  token: string;
  resourceId: string;
}

const child = fork(fileURLToPath(new URL('./fanout-server.ts', import.meta.url)), [], {
  execArgv: [
    '--import',
    'tsx',
    '--expose-gc',
    '--max-old-space-size=4096',
    ...(process.env.FANOUT_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FANOUT_PROF}`] : []),
  ],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
let nextId = 1;
const pending = new Map<number, (reply: any) => void>();
const ready = new Promise<Ready>(resolve => {
  child.on('message', (message: any) => {
    if (message.ready) resolve(message);
    else pending.get(message.id)?.(message);
  });
});
const ask = (type: string) =>
  new Promise<any>(resolve => {
    const id = nextId++;
    pending.set(id, resolve);
    child.send({ type, id });
  });

/** One subscriber speaking graphql-transport-ws by hand: the load generator stays light. */
function connect(server: Ready, onChange: () => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { perMessageDeflate: false });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${server.token}` } })));
    socket.on('message', raw => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id: server.resourceId } } }));
        resolve(socket);
      } else if (message.type === 'next') onChange();
      else if (message.type === 'error') reject(new Error(JSON.stringify(message.payload)));
    });
    socket.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(server: Ready, count: number) {
  const before = (await ask('memory')).memory;
  let arrivals: number[] = [];
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = Array.from({ length: Math.min(200, count - i) }, () =>
      connect(server, () => arrivals.push(performance.timeOrigin + performance.now())),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  await new Promise(r => setTimeout(r, 1000)); // subscriptions attach asynchronously
  const idle = (await ask('memory')).memory;
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round++) {
    arrivals = [];
    const { sentAt } = await ask('change');
    const deadline = Date.now() + 10_000;
    while (arrivals.length < count && Date.now() < deadline) await new Promise(r => setTimeout(r, 5));
    if (arrivals.length < count) console.warn(`  round ${round}: only ${arrivals.length}/${count} deliveries within 10 s`);
    latencies.push(...arrivals.map(t => t - sentAt));
  }
  for (const socket of sockets) socket.terminate();
  await new Promise(r => setTimeout(r, 500));
  latencies.sort((a, b) => a - b);
  return {
    subscribers: count,
    deliveries: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    bytesPerConnection: (idle.rss - before.rss) / count,
    heapPerConnection: (idle.heapUsed - before.heapUsed) / count,
  };
}

const server = await ready;
console.log(`fan-out of one role change, ${rounds} rounds per size (server: Gatehouse, embedded database)\n`);
console.log('subscribers  deliveries   p50 ms   p99 ms   max ms   RSS/conn KB   heap/conn KB   target');
for (const count of counts) {
  const r = await measure(server, count);
  const verdict = `  p99 < 100 ms: ${r.p99 < 100 ? 'pass' : 'MISS'}, < 30 KB/conn: ${r.bytesPerConnection < 30 * 1024 ? 'pass' : 'MISS'}`;
  console.log(
    [
      String(r.subscribers).padStart(11),
      String(r.deliveries).padStart(11),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      r.max.toFixed(1).padStart(8),
      (r.bytesPerConnection / 1024).toFixed(1).padStart(13),
      (r.heapPerConnection / 1024).toFixed(1).padStart(14),
      count >= 5000 ? verdict : '',
    ].join(' '),
  );
}
await ask('stop').catch(() => {});
child.kill();
