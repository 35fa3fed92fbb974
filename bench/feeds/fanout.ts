/**
 * Fan-out of one roster change to N concurrent graphql-ws subscribers on one instance
 * (issues 4 and 13): delivery latency p50/p99 from the moment the role change is requested to
 * its arrival at every subscriber, and server memory per idle connection. Not a test: it prints
 * and exits 0.
 *
 *   npx tsx bench/feeds/fanout.ts [--subscribers 1000,5000] [--rounds 5] [--per-principal 10] [--json]
 *   FANOUT_PROF=/tmp/prof npx tsx bench/feeds/fanout.ts --subscribers 5000   # + a CPU profile of the rounds
 *   FANOUT_HEAP=/tmp/heap npx tsx bench/feeds/fanout.ts --subscribers 1000   # + a heap snapshot of the idle sockets
 *
 * Subscribers are spread over active members of the resource, `--per-principal` sockets each
 * (the default cap is WS_MAX_SOCKETS_PER_PRINCIPAL=20). `--json` ends the output with one line
 * `{"rows":[{subscribers, p50, p99, max, bytesPerSocket, heapPerSocket, rssPerSocket, deliveries, expected}]}`
 * (milliseconds and bytes) for `npm run bench`.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000,5000' },
    rounds: { type: 'string', default: '5' },
    'per-principal': { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
  },
});
const counts = values.subscribers!.split(',').map(Number);
const rounds = Number(values.rounds);
const perPrincipal = Number(values['per-principal']);
const log = values.json ? (..._: unknown[]) => {} : console.log;

const QUERY = 'subscription($id: ID!) { membersLive(resourceId: $id) { op row { id role state } } }';

interface Ready {
  url: string;
  tokens: string[];
  resourceId: string;
}

const child = fork(fileURLToPath(new URL('./fanout-server.ts', import.meta.url)), [String(Math.ceil(Math.max(...counts) / perPrincipal))], {
  execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=4096'],
  stdio: ['ignore', values.json ? 'ignore' : 'inherit', 'inherit', 'ipc'],
});
let nextId = 1;
const pending = new Map<number, (reply: any) => void>();
const ready = new Promise<Ready>((resolve, reject) => {
  child.on('message', (message: any) => {
    if (message.ready) resolve(message);
    else pending.get(message.id)?.(message);
  });
  child.on('exit', code => reject(new Error(`fan-out server exited (${code})`)));
});
const ask = (type: string) =>
  new Promise<any>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, reply => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
    child.send({ type, id });
  });

const NEXT = Buffer.from('"type":"next"');

/**
 * One subscriber speaking graphql-transport-ws by hand, so the load generator stays light: after
 * the subscribe it only looks for `"type":"next"` in each frame; `check` parses the frames it is given.
 */
function connect(server: Ready, token: string, onNext: (raw: Buffer) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { perMessageDeflate: false });
    let subscribed = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    socket.on('message', (raw: Buffer) => {
      if (subscribed && raw.includes(NEXT)) return onNext(raw);
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id: server.resourceId } } }));
        subscribed = true;
        resolve(socket);
      } else reject(new Error(`unexpected ${String(raw)}`));
    });
    socket.on('close', (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
    socket.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(server: Ready, count: number) {
  const before = (await ask('memory')).memory;
  let arrivals: number[] = [];
  const seen: { sample: Buffer | null } = { sample: null };
  const onNext = (raw: Buffer) => {
    arrivals.push(performance.timeOrigin + performance.now());
    seen.sample ??= raw;
  };
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = Array.from({ length: Math.min(200, count - i) }, (_, j) =>
      connect(server, server.tokens[Math.floor((i + j) / perPrincipal)], onNext),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  await new Promise(r => setTimeout(r, 1000)); // subscriptions attach asynchronously
  const idle = (await ask('memory')).memory;
  if (process.env.FANOUT_HEAP) log(`  heap snapshot with ${count} idle sockets: ${(await ask('heap-snapshot')).file}`);
  const latencies: number[] = [];
  if (process.env.FANOUT_PROF) await ask('profile-start');
  for (let round = 0; round < rounds; round++) {
    arrivals = [];
    seen.sample = null;
    const { sentAt, role } = await ask('change');
    const deadline = Date.now() + 10_000;
    while (arrivals.length < count && Date.now() < deadline) await new Promise(r => setTimeout(r, 5));
    if (arrivals.length < count) console.warn(`  round ${round}: only ${arrivals.length}/${count} deliveries within 10 s`);
    // Every frame carries the same change: one parsed frame per round checks its content.
    // (a cast: TypeScript does not see the callback's assignment after `seen.sample = null`)
    const sample = seen.sample as Buffer | null;
    const row = sample && JSON.parse(String(sample)).payload?.data?.membersLive?.row;
    if (row?.role !== role) console.warn(`  round ${round}: expected role ${role}, got ${sample}`);
    latencies.push(...arrivals.map(t => t - sentAt));
    await new Promise(r => setTimeout(r, 200));
  }
  if (process.env.FANOUT_PROF) log(`  CPU profile of the rounds: ${(await ask('profile-stop')).file}`);
  for (const socket of sockets) {
    socket.removeAllListeners('close');
    socket.on('error', () => {});
    socket.terminate();
  }
  await new Promise(r => setTimeout(r, 1000));
  latencies.sort((a, b) => a - b);
  return {
    subscribers: count,
    expected: count * rounds,
    deliveries: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    // What the process holds per socket (JS heap + buffers); RSS moves in pages and heap reservations.
    bytesPerSocket: (idle.heapUsed + idle.external - before.heapUsed - before.external) / count,
    heapPerSocket: (idle.heapUsed - before.heapUsed) / count,
    rssPerSocket: (idle.rss - before.rss) / count,
  };
}

const server = await ready;
log(`fan-out of one role change, ${rounds} rounds per size, ${perPrincipal} sockets per principal (server: Gatehouse, embedded database)\n`);
log('subscribers  deliveries   p50 ms   p99 ms   max ms   KB/conn (heap+ext)   heap KB   RSS KB   target');
const rows = [];
for (const count of counts) {
  const r = await measure(server, count);
  rows.push(r);
  const verdict = `  p99 < 100 ms: ${r.p99 < 100 ? 'pass' : 'MISS'}, < 20 KB/conn: ${r.bytesPerSocket < 20 * 1024 ? 'pass' : 'MISS'}`;
  log(
    [
      String(r.subscribers).padStart(11),
      String(r.deliveries).padStart(11),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      r.max.toFixed(1).padStart(8),
      (r.bytesPerSocket / 1024).toFixed(1).padStart(20),
      (r.heapPerSocket / 1024).toFixed(1).padStart(9),
      (r.rssPerSocket / 1024).toFixed(1).padStart(8),
      count >= 5000 ? verdict : '',
    ].join(' '),
  );
}
// The child exits on `stop` without answering.
await new Promise(resolve => {
  child.once('exit', resolve);
  child.send({ type: 'stop', id: 0 });
  setTimeout(() => child.kill(), 5000).unref();
});
if (values.json) console.log(JSON.stringify({ rows }));
process.exit(0);
