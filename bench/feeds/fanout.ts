/**
 * Fan-out of one roster change to N concurrent graphql-ws subscribers on one instance
 * (issues 4 and 13): delivery latency p50/p99 from the moment the role change is requested to
 * its arrival at every subscriber, and server memory per idle connection. Not a test: it prints
 * and exits 0.
 *
 *   npx tsx bench/feeds/fanout.ts [--subscribers 1000,5000] [--rounds 5] [--per-principal 10] [--instances 1] [--postgres] [--json]
 *   FANOUT_PROF=/tmp/prof npx tsx bench/feeds/fanout.ts --subscribers 5000   # + a CPU profile of the rounds
 *   FANOUT_HEAP=/tmp/heap npx tsx bench/feeds/fanout.ts --subscribers 1000   # + a heap snapshot of the idle sockets
 *
 * Subscribers are spread over active members of the resource, `--per-principal` sockets each
 * (the default cap is WS_MAX_SOCKETS_PER_PRINCIPAL=20). `--json` ends the output with one line
 * `{"rows":[{subscribers, first, p50, p99, max, roundP99s, bytesPerSocket, heapPerSocket, rssPerSocket, deliveries, expected}]}`
 * (milliseconds and bytes) for `npm run bench`.
 *
 * `--instances N` (N > 1) runs N Gatehouse processes on a scratch PostgreSQL database with the Redis
 * event bus (REDIS_URL, default redis://127.0.0.1:6379), as a scaled-out deployment does: sockets are
 * dealt over them in turn, the change is made on the first, and memory is read on the first.
 * `--postgres` runs one instance that way (the same path as N, for comparison).
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { serverEnv, serverNodeFlags } from '../../bin/server-flags.mjs';
import { prepareBackend } from '../backends.js';
import { childScript } from '../spawn-server.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000,5000' },
    rounds: { type: 'string', default: '5' },
    'per-principal': { type: 'string', default: '10' },
    instances: { type: 'string', default: '1' },
    postgres: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const counts = values.subscribers!.split(',').map(Number);
const rounds = Number(values.rounds);
const perPrincipal = Number(values['per-principal']);
const instanceCount = Math.max(1, Number(values.instances));
const log = values.json ? (..._: unknown[]) => {} : console.log;

// Changes only: the fan-out of one change is measured, not each subscriber's snapshot (docs/api.md §6).
const QUERY = 'subscription($id: ID!) { membersLive(resourceId: $id, snapshot: false) { op row { id role state } } }';

interface Ready {
  url: string;
  /** The primary's only: the subscribers' tokens and the resource they watch. */
  tokens: string[];
  resourceId: string;
}

/** One Gatehouse child (fanout-server.ts) and its IPC requests. */
async function startInstance(role: 'primary' | 'secondary', env: NodeJS.ProcessEnv) {
  // Built as the other bench children are (bench/spawn-server.ts), with the server's Node flags.
  const { script, nodeArgs } = await childScript('feeds/fanout-server');
  const child = fork(script, [String(Math.ceil(Math.max(...counts) / perPrincipal)), role], {
    execArgv: [...serverNodeFlags([], {}), ...nodeArgs, '--expose-gc', '--max-old-space-size=4096'],
    stdio: ['ignore', values.json ? 'ignore' : 'inherit', 'inherit', 'ipc'],
    env: { ...env, ...serverEnv(env) },
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
  // The child exits on `stop` without answering.
  const stop = () =>
    new Promise(resolve => {
      child.once('exit', resolve);
      child.send({ type: 'stop', id: 0 });
      setTimeout(() => child.kill(), 5000).unref();
    });
  return { ready, ask, stop };
}

const backend = instanceCount > 1 || values.postgres ? await prepareBackend('postgres') : null;
if (backend && !('env' in backend)) throw new Error(`--instances and --postgres need PostgreSQL: ${backend.skipped}`);
const env =
  backend && 'env' in backend ? { ...process.env, ...backend.env, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } : process.env;
const first = await startInstance('primary', env);
const server = await first.ready;
const others = await Promise.all(Array.from({ length: instanceCount - 1 }, () => startInstance('secondary', env)));
const urls = [server.url, ...(await Promise.all(others.map(other => other.ready))).map(other => other.url)];
const { ask } = first;

const NEXT = Buffer.from('"type":"next"');

/** A client's masked text frame (RFC 6455 §5.2): clients must mask what they send. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const head = length > 125 ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 255]) : Buffer.from([0x81, 0x80 | length]);
  const mask = randomBytes(4);
  for (let i = 0; i < length; i++) payload[i] ^= mask[i & 3];
  return Buffer.concat([head, mask, payload]);
}

/** The payload of the first (unmasked, server) frame in `chunk`. */
function firstFramePayload(chunk: Buffer): Buffer {
  const short = chunk[1] & 0x7f;
  const start = short === 126 ? 4 : short === 127 ? 10 : 2;
  const length = short === 126 ? chunk.readUInt16BE(2) : short === 127 ? Number(chunk.readBigUInt64BE(2)) : short;
  return chunk.subarray(start, start + length);
}

/**
 * One subscriber speaking WebSocket and graphql-transport-ws by hand over a TCP socket, so the
 * load generator stays light: 5,000 `ws` clients in one process took longer to parse their frames
 * than the server took to send them, and the tail measured the receiver. After the subscribe it
 * only looks for `"type":"next"` in what arrives (one small frame per change); the frames kept
 * for the content check are parsed afterwards.
 */
function connect(server: Ready, instanceUrl: string, token: string, onNext: (raw: Buffer) => void): Promise<Socket> {
  const url = new URL(instanceUrl);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let state: 'upgrading' | 'init' | 'subscribed' = 'upgrading';
    let pending = Buffer.alloc(0);
    socket.on('connect', () =>
      socket.write(
        `GET /graphql HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      if (state === 'subscribed') {
        if (chunk.includes(NEXT)) onNext(chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      if (state === 'upgrading') {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!pending.subarray(0, 12).toString().includes('101')) return reject(new Error(`upgrade refused: ${pending.toString().split('\r\n')[0]}`));
        pending = pending.subarray(end + 4);
        state = 'init';
        socket.write(clientFrame(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
      }
      if (state === 'init' && pending.length >= 2) {
        const message = JSON.parse(String(firstFramePayload(pending)));
        if (message.type !== 'connection_ack') return reject(new Error(`unexpected ${JSON.stringify(message)}`));
        socket.write(clientFrame(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id: server.resourceId } } })));
        state = 'subscribed';
        resolve(socket);
      }
    });
    socket.on('close', () => reject(new Error('closed')));
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
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = Array.from({ length: Math.min(200, count - i) }, (_, j) =>
      connect(server, urls[(i + j) % urls.length], server.tokens[Math.floor((i + j) / perPrincipal)], onNext),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  await new Promise(r => setTimeout(r, 1000)); // subscriptions attach asynchronously
  const idle = (await ask('memory')).memory;
  if (process.env.FANOUT_HEAP) log(`  heap snapshot with ${count} idle sockets: ${(await ask('heap-snapshot')).file}`);
  const latencies: number[] = [];
  const roundP99s: number[] = [];
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
    const row = sample && JSON.parse(String(firstFramePayload(sample))).payload?.data?.membersLive?.row;
    if (row?.role !== role) console.warn(`  round ${round}: expected role ${role}, got ${sample}`);
    const thisRound = arrivals.map(t => t - sentAt).sort((a, b) => a - b);
    latencies.push(...thisRound);
    roundP99s.push(percentile(thisRound, 99));
    await new Promise(r => setTimeout(r, 200));
  }
  if (process.env.FANOUT_PROF) log(`  CPU profile of the rounds: ${(await ask('profile-stop')).file}`);
  for (const socket of sockets) {
    socket.removeAllListeners('close');
    socket.on('error', () => {});
    socket.destroy();
  }
  await new Promise(r => setTimeout(r, 1000));
  latencies.sort((a, b) => a - b);
  // Memory is read on the first instance, which holds every urls.length-th socket.
  const onFirst = Math.ceil(count / urls.length);
  return {
    subscribers: count,
    expected: count * rounds,
    deliveries: latencies.length,
    // The first delivery: the change's own path (REST call, transaction, event); the rest is fan-out.
    first: latencies[0],
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    roundP99s,
    // What the process holds per socket (JS heap + buffers); RSS moves in pages and heap reservations.
    bytesPerSocket: (idle.heapUsed + idle.external - before.heapUsed - before.external) / onFirst,
    heapPerSocket: (idle.heapUsed - before.heapUsed) / onFirst,
    rssPerSocket: (idle.rss - before.rss) / onFirst,
  };
}

const where = backend
  ? `${instanceCount === 1 ? 'one instance' : `${instanceCount} instances`} on ${backend.label} with Redis`
  : 'one instance, embedded database';
log(`fan-out of one role change, ${rounds} rounds per size, ${perPrincipal} sockets per principal (server: Gatehouse, ${where})\n`);
log('subscribers  deliveries first ms   p50 ms   p99 ms   max ms   KB/conn (heap+ext)   heap KB   RSS KB   target');
const rows = [];
for (const count of counts) {
  const r = await measure(server, count);
  rows.push(r);
  const verdict = `  p99 < 100 ms: ${r.p99 < 100 ? 'pass' : 'MISS'}, < 20 KB/conn: ${r.bytesPerSocket < 20 * 1024 ? 'pass' : 'MISS'}`;
  log(
    [
      String(r.subscribers).padStart(11),
      String(r.deliveries).padStart(11),
      r.first.toFixed(1).padStart(8),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      r.max.toFixed(1).padStart(8),
      (r.bytesPerSocket / 1024).toFixed(1).padStart(20),
      (r.heapPerSocket / 1024).toFixed(1).padStart(9),
      (r.rssPerSocket / 1024).toFixed(1).padStart(8),
      count >= 5000 ? verdict : '',
    ].join(' '),
  );
  log(`${''.padStart(11)} p99 by round: ${r.roundP99s.map(p => p.toFixed(1)).join(', ')} ms`);
}
await Promise.all([first, ...others].map(instance => instance.stop()));
await backend?.drop();
if (values.json) console.log(JSON.stringify({ rows }));
process.exit(0);
