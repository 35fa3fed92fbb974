/**
 * Fan-out of one roster change to N concurrent graphql-ws subscribers on one instance
 * (issues 4 and 13): delivery latency p50/p99 from the moment the role change is requested to
 * its arrival at every subscriber, and server memory per idle connection. Not a test: it prints
 * and exits 0.
 *
 *   npx tsx bench/feeds/fanout.ts [--subscribers 1000,5000] [--rounds 5] [--gap 200] [--per-principal 10] [--instances 1] [--postgres] [--peers] [--json]
 *   FANOUT_PROF=/tmp/prof npx tsx bench/feeds/fanout.ts --subscribers 5000   # + a CPU profile of the rounds
 *   FANOUT_HEAP=/tmp/heap npx tsx bench/feeds/fanout.ts --subscribers 1000   # + a heap snapshot of the idle sockets
 *
 * Subscribers are spread over active members of the resource, `--per-principal` sockets each
 * (the default cap is WS_MAX_SOCKETS_PER_PRINCIPAL=20). `--json` ends the output with one line
 * `{"rows":[{server, subscribers, first, p50, p99, max, roundP99s, roundDeliveries, heldSeconds, pingsAnswered, closedByServer, bytesPerSocket, heapPerSocket, rssPerSocket, deliveries, expected}]}`
 * (milliseconds and bytes) for `npm run bench`.
 *
 * `--instances N` (N > 1) runs N Gatehouse processes on a scratch PostgreSQL database with the Redis
 * event bus (REDIS_URL, default redis://127.0.0.1:6379), as a scaled-out deployment does: sockets are
 * dealt over them in turn, the change is made on the first, and memory is read on the first.
 * `--postgres` runs one instance that way (the same path as N, for comparison).
 *
 * `--peers` also measures a plain `ws` broadcast of the same frames (ws-broadcast-server.ts) at each
 * size, after Gatehouse, with the same receiver. `--gap` (ms between rounds) makes a long run: the
 * receiver answers pings as real clients do, so sockets outlive graphql-ws' keepalive (~24 s).
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { connect as netConnect, type Socket } from 'node:net';
import { serverEnv, serverNodeFlags } from '../../bin/server-flags.mjs';
import { prepareBackend } from '../backends.js';
import { childScript } from '../spawn-server.js';
import { childIpc } from './child-ipc.js';
import { clientFrame, frameReader, OPCODE, upgradeRequest } from './raw-websocket.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000,5000' },
    rounds: { type: 'string', default: '5' },
    'per-principal': { type: 'string', default: '10' },
    instances: { type: 'string', default: '1' },
    postgres: { type: 'boolean', default: false },
    /** Also the peer: a plain `ws` broadcast of the same frames (ws-broadcast-server.ts), measured after Gatehouse at each size. */
    peers: { type: 'boolean', default: false },
    /** Milliseconds between rounds: with rounds x gap past 24 s a run shows whether sockets outlive graphql-ws' keepalive. */
    gap: { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
  },
});
const counts = values.subscribers!.split(',').map(Number);
const rounds = Number(values.rounds);
const perPrincipal = Number(values['per-principal']);
const gapMs = Number(values.gap);
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
async function startInstance(role: 'primary' | 'secondary', env: NodeJS.ProcessEnv, entry = 'feeds/fanout-server') {
  // Built as the other bench children are (bench/spawn-server.ts), with the server's Node flags.
  const { script, nodeArgs } = await childScript(entry);
  const child = fork(script, [String(Math.ceil(Math.max(...counts) / perPrincipal)), role], {
    execArgv: [...serverNodeFlags([], {}), ...nodeArgs, '--expose-gc', '--max-old-space-size=4096'],
    stdio: ['ignore', values.json ? 'ignore' : 'inherit', 'inherit', 'ipc'],
    env: { ...env, ...serverEnv(env) },
  });
  return childIpc<Ready>(child, 'fan-out server');
}

const backend = instanceCount > 1 || values.postgres ? await prepareBackend('postgres') : null;
if (backend && !('env' in backend)) throw new Error(`--instances and --postgres need PostgreSQL: ${backend.skipped}`);
const env =
  backend && 'env' in backend ? { ...process.env, ...backend.env, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } : process.env;
const first = await startInstance('primary', env);
const server = await first.ready;
const others = await Promise.all(Array.from({ length: instanceCount - 1 }, () => startInstance('secondary', env)));
const urls = [server.url, ...(await Promise.all(others.map(other => other.ready))).map(other => other.url)];
const peer = values.peers ? await startInstance('primary', process.env, 'feeds/ws-broadcast-server') : null;
const peerServer = peer ? await peer.ready : null;

const NEXT = Buffer.from('"type":"next"');

/** What the receivers saw besides `next` frames: pings answered, sockets the server closed. */
const wire = { pings: 0, closed: 0 };

/**
 * One subscriber speaking WebSocket and graphql-transport-ws by hand over a TCP socket, so the
 * load generator stays light: 5,000 `ws` clients in one process took longer to parse their frames
 * than the server took to send them, and the tail measured the receiver. It reads frames as a
 * real client does and answers the server's pings (without that, graphql-ws terminated every
 * socket about 24 s after it connected). After the subscribe it only looks for `"type":"next"` in
 * each text frame (one small frame per change); the frames kept for the content check are parsed
 * afterwards.
 */
function connect(server: Ready, instanceUrl: string, token: string, onNext: (payload: Buffer) => void): Promise<Socket> {
  const url = new URL(instanceUrl);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let state: 'upgrading' | 'init' | 'subscribed' = 'upgrading';
    let handshake = Buffer.alloc(0);
    const readFrames = frameReader((opcode, payload) => {
      if (opcode === OPCODE.ping) {
        wire.pings++;
        socket.write(clientFrame(payload, OPCODE.pong));
      } else if (opcode !== OPCODE.text) {
        return;
      } else if (state === 'subscribed') {
        if (payload.includes(NEXT)) onNext(payload);
      } else {
        const message = JSON.parse(String(payload));
        if (message.type !== 'connection_ack') return reject(new Error(`unexpected ${JSON.stringify(message)}`));
        socket.write(clientFrame(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id: server.resourceId } } })));
        state = 'subscribed';
        resolve(socket);
      }
    });
    socket.on('connect', () => socket.write(upgradeRequest(url.host)));
    socket.on('data', (chunk: Buffer) => {
      if (state !== 'upgrading') return readFrames(chunk);
      handshake = Buffer.concat([handshake, chunk]);
      const end = handshake.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!handshake.subarray(0, 12).toString().includes('101'))
        return reject(new Error(`upgrade refused: ${handshake.toString().split('\r\n')[0]}`));
      state = 'init';
      socket.write(clientFrame(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
      if (handshake.length > end + 4) readFrames(handshake.subarray(end + 4));
    });
    socket.on('close', () => {
      if (state === 'subscribed') wire.closed++;
      reject(new Error('closed'));
    });
    socket.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One size on one server: `urls` are the instances the sockets are dealt over, `ask` the first's IPC. */
async function measure(server: Ready, urls: string[], ask: (type: string) => Promise<any>, count: number) {
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
  const connectedAt = Date.now();
  await new Promise(r => setTimeout(r, 1000)); // subscriptions attach asynchronously
  const idle = (await ask('memory')).memory;
  if (process.env.FANOUT_HEAP) log(`  heap snapshot with ${count} idle sockets: ${(await ask('heap-snapshot')).file}`);
  const latencies: number[] = [];
  const roundP99s: number[] = [];
  const roundDeliveries: number[] = [];
  const wireBefore = { ...wire };
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
    const thisRound = arrivals.map(t => t - sentAt).sort((a, b) => a - b);
    latencies.push(...thisRound);
    roundP99s.push(percentile(thisRound, 99));
    roundDeliveries.push(thisRound.length);
    if (round < rounds - 1) await new Promise(r => setTimeout(r, gapMs));
  }
  // How long the sockets were held by the last round: past ~24 s only a client that answers pings is still there.
  const heldSeconds = (Date.now() - connectedAt) / 1000;
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
    roundDeliveries,
    heldSeconds,
    pingsAnswered: wire.pings - wireBefore.pings,
    closedByServer: wire.closed - wireBefore.closed,
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
type Row = Awaited<ReturnType<typeof measure>> & { server: string; vsPeerP99?: number };
function print(r: Row) {
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
      r.server === 'gatehouse' && r.subscribers >= 5000 ? verdict : r.server === 'gatehouse' ? '' : `  peer: ${r.server}`,
    ].join(' '),
  );
  log(`${''.padStart(11)} p99 by round: ${r.roundP99s.map(p => p.toFixed(1)).join(', ')} ms`);
  log(
    `${''.padStart(11)} deliveries by round: ${r.roundDeliveries.join(', ')} of ${r.subscribers}; sockets held ${r.heldSeconds.toFixed(1)} s, ${r.pingsAnswered} pings answered, ${r.closedByServer} closed by the server`,
  );
}
const rows: Row[] = [];
for (const count of counts) {
  const gatehouse: Row = { server: 'gatehouse', ...(await measure(server, urls, first.ask, count)) };
  rows.push(gatehouse);
  print(gatehouse);
  if (peer && peerServer) {
    // The peer's clock starts when it is asked to broadcast; Gatehouse's when the role change is
    // requested (its REST call and commit are in the figure, the broadcast has neither).
    const broadcast: Row = { server: 'ws broadcast', ...(await measure(peerServer, [peerServer.url], peer.ask, count)) };
    rows.push(broadcast);
    gatehouse.vsPeerP99 = gatehouse.p99 / broadcast.p99;
    print(broadcast);
    log(`${''.padStart(11)} Gatehouse p99 / ws broadcast p99: ${gatehouse.vsPeerP99.toFixed(2)}`);
  }
}
await Promise.all([first, ...others, ...(peer ? [peer] : [])].map(instance => instance.stop()));
await backend?.drop();
if (values.json) console.log(JSON.stringify({ rows }));
process.exit(0);
