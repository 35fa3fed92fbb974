/**
 * `npx tsx bench/scale.ts [--backend postgres|pglite] [--sizes 1000,10000,100000] [--duration 5]
 *   [--warmup 1] [--connections 50] [--list-connections 4] [--feed-rounds 50] [--explain] [--json]`
 *
 * How the cost of a request grows with the data (issue 13, "how it scales"). For each size N, on
 * a fresh scratch database seeded with set-based SQL (bench/servers/gatehouse-scale.ts):
 *   (a) a deployment holding N resources: a member's GET /v1/resources/:id and GET
 *       /v1/resources?type=room (10 rooms), and the list of a caller who owns all N;
 *   (b) one resource with N members: its roster (GET /v1/resources/:id/members) and
 *       invite/accept/remove on it by 2×connections admins;
 *   (c) one resource with N rows: the primary-key read and the first page of 50 (bench/rows.ts);
 *   and the DB floor on the same data (node:http + one prepared query).
 * Ratios compare each row with the same row at the smallest size, in the same run.
 * Then, on PostgreSQL with Redis: (d) one Gatehouse instance against two on the same database
 * with REDIS_URL set, load split over both (summed), and a live-feed change made on instance A
 * delivered to subscribers on A and on B, against a third instance on the in-process bus.
 * A measurement, not a test: exits 0 whatever the figures.
 */
import { createConnection } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import WebSocket from 'ws';
import { type Backend, type BackendName, DEFAULT_POSTGRES_URL, prepareBackend } from './backends.js';
import type { CpuShares } from './cpu-usage.js';
import { busyElsewhere } from './cpu-usage.js';
import { type LoadOptions, type Measurement, measure } from './load.js';
import type { ScalePair, ScaleSeed } from './servers/gatehouse-scale.js';
import { chooseBackend, cleanUpOnInterrupt, cores } from './standalone.js';
import { type RunningServer, spawnServer } from './spawn-server.js';

const { values } = parseArgs({
  options: {
    /** Default: PostgreSQL when it answers, else PGlite. */
    backend: { type: 'string' },
    sizes: { type: 'string', default: '1000,10000,100000' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '50' },
    /** The unpaged whole-list rows (a3, b1) answer N items per request: fewer connections, at every size. */
    'list-connections': { type: 'string', default: '2' },
    'feed-rounds': { type: 'string', default: '50' },
    /** Print EXPLAIN (ANALYZE, BUFFERS) of every hot read at the largest size (default: only of rows that degrade). */
    explain: { type: 'boolean', default: false },
    /** Skip (d), the two-instance rows. */
    'no-instances': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
    'redis-url': { type: 'string', default: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379' },
  },
});

const settings = { duration: number('duration', 1), warmup: number('warmup', 0), connections: number('connections', 2) };
const listConnections = number('list-connections', 1);
const feedRounds = number('feed-rounds', 1);
const sizes = (values.sizes ?? '')
  .split(',')
  .map(s => Number(s.trim()))
  .sort((a, b) => a - b);
if (sizes.length === 0 || sizes.some(n => !Number.isInteger(n) || n < 10)) usage(`--sizes ${values.sizes} (integers of at least 10)`);
if (values.backend !== undefined && values.backend !== 'postgres' && values.backend !== 'pglite') usage(`--backend ${values.backend}`);
/** Connections are numbered across the warmup and the measured run; each takes a pair of its own. */
const pairsPerRun = settings.connections * (settings.warmup > 0 ? 2 : 1);
/** A degraded row at the largest size (under this ratio) gets its EXPLAIN printed. */
const DEGRADED = 0.7;

type Workload = Pick<LoadOptions, 'requests' | 'requestsFor'> & { connections?: number };

interface ScaleRow {
  id: string;
  label: string;
  /** How many connections, when not `settings.connections`. */
  connections?: number;
  bySize: Map<number, SizeResult>;
}

interface SizeResult {
  result?: Measurement;
  error?: string;
  /** One request alone before the load (reads only): ms and response bytes. */
  alone?: { ms: number; bytes: number };
}

interface InstanceRow {
  id: string;
  label: string;
  /** The id of the row this one is compared with. */
  baseline?: string;
  result?: Measurement;
  error?: string;
}

interface FeedRow {
  id: string;
  label: string;
  baseline?: string;
  deliveries: number;
  expected: number;
  p50?: number;
  p99?: number;
  max?: number;
  /** The change request's own response time (ms), the part of delivery that is not the feed. */
  responseP50?: number;
  /** Arrival minus the change's response (ms): negative when the event beat the response. */
  afterResponseP50?: number;
  error?: string;
}

const ROWS: { id: string; label: string; connections?: number; workload: (seed: ScaleSeed) => Workload }[] = [
  {
    id: 'a1',
    label: 'a1 GET /v1/resources/:id (member)',
    workload: seed => ({ requests: [get(`/v1/resources/${seed.sharedRoomId}`, seed.reader.token)] }),
  },
  {
    id: 'a2',
    label: 'a2 GET /v1/resources?type=room (member of 10)',
    workload: seed => ({ requests: [get('/v1/resources?type=room', seed.reader.token)] }),
  },
  {
    id: 'a3',
    label: 'a3 GET /v1/resources?type=room (owner of N, unpaged)',
    connections: listConnections,
    workload: seed => ({ requests: [get('/v1/resources?type=room', seed.landlord.token)] }),
  },
  {
    id: 'b1',
    label: 'b1 GET /v1/resources/:id/members (N, unpaged)',
    connections: listConnections,
    workload: seed => ({ requests: [get(`/v1/resources/${seed.crowdId}/members`, seed.host.token)] }),
  },
  {
    id: 'b2',
    label: 'b2 invite/accept/remove on it (transitions/s)',
    workload: seed => ({ requestsFor: connection => cycle(pairOf(seed, connection), seed.crowdId) }),
  },
  {
    id: 'c1',
    label: 'c1 POST /v1/db/query primary-key read',
    workload: seed => ({ requests: [rowQuery(seed, { ids: [seed.rowId] })] }),
  },
  {
    id: 'c2',
    label: 'c2 POST /v1/db/query first page of 50',
    workload: seed => ({ requests: [rowQuery(seed, { limit: 50 })] }),
  },
];

let backend: Backend | undefined;
cleanUpOnInterrupt(() => backend, log);

const first = await chooseBackend(values.backend as BackendName | undefined, values['postgres-url'] as string, log);
const backendName = first.name;
await first.drop();
const perSize = (ROWS.length + 1) * (settings.duration + settings.warmup);
log(
  `${backendName}: sizes ${sizes.join(', ')}; about ${Math.ceil((perSize * sizes.length + 4 * (settings.duration + settings.warmup)) / 60)} min of load plus seeding`,
);
const busy = await busyElsewhere();
if (busy !== undefined && busy > 0.2) log(`warning: ${busy.toFixed(2)} cores are busy with other processes before any load; figures will be low`);

const scaleRows: ScaleRow[] = [
  ...ROWS.map(({ id, label, connections }) => ({ id, label, connections, bySize: new Map() })),
  { id: 'floor', label: 'DB floor (node:http + 1 prepared query)', bySize: new Map() },
];
const seeds = new Map<number, ScaleSeed>();
let backendLabel = '';
for (const size of sizes) await measureSize(size);

let instances: InstanceRow[] = [];
let feeds: FeedRow[] = [];
let instancesSkipped: string | undefined;
if (values['no-instances']) instancesSkipped = '--no-instances';
else if (backendName !== 'postgres') instancesSkipped = 'needs PostgreSQL (one PGlite data directory serves one process)';
else if (!(await reachable(values['redis-url'] as string))) instancesSkipped = `Redis not reachable at ${values['redis-url']}`;
else ({ instances, feeds } = await measureInstances());
if (instancesSkipped) log(`(d) skipped: ${instancesSkipped}`);

process.stdout.write(`\n${formatReport()}`);
if (values.json) process.stdout.write(`${JSON.stringify(jsonReport())}\n`);

/** One size: a fresh database, Gatehouse seeded at N and measured, then the DB floor on the same data. */
async function measureSize(size: number): Promise<void> {
  backend = (await prepareBackend(backendName, values['postgres-url'])) as Backend;
  backendLabel ||= backend.label.replace(/\s*\(scratch database.*\)$/, '');
  try {
    const explain = size === sizes[sizes.length - 1];
    log(`N = ${size}: starting and seeding Gatehouse`);
    let server: RunningServer<{ seed: ScaleSeed }>;
    try {
      server = await spawnServer<{ seed: ScaleSeed }>('gatehouse-scale', {
        env: { ...backend.env, REDIS_URL: undefined },
        args: ['--size', String(size), '--pairs', String(pairsPerRun), ...(explain ? ['--explain'] : [])],
      });
    } catch (error) {
      for (const row of scaleRows) row.bySize.set(size, { error: `server did not start: ${(error as Error).message.split('\n')[0]}` });
      log(`N = ${size}: ${(error as Error).message}`);
      return;
    }
    const { seed } = server.info;
    seeds.set(size, seed);
    log(
      `N = ${size}: seeded in ${seed.seedSeconds.toFixed(1)} s (${seed.deploymentResources} resources, crowd of ${seed.crowdMembers}, ${seed.rows} rows; ${Object.entries(
        seed.steps,
      )
        .map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`)
        .join(', ')})`,
    );
    try {
      // The unpaged lists last: at 100k a response takes seconds, and the requests the load left
      // in flight keep the server busy after the run ends (they would weigh on the next row).
      for (const spec of [...ROWS.filter(r => !r.connections), ...ROWS.filter(r => r.connections)]) {
        const row = scaleRows.find(r => r.id === spec.id)!;
        const workload = spec.workload(seed);
        const alone = workload.requests ? await timeAlone(server.info.url, workload.requests[0]) : undefined;
        row.bySize.set(size, { ...(await measureRow(server, `N = ${size}: ${spec.label}`, { ...workload, connections: spec.connections })), alone });
      }
    } finally {
      await server.stop();
    }
    // After Gatehouse stops: an embedded data directory opens in one process at a time.
    const floorRow = scaleRows.find(r => r.id === 'floor')!;
    try {
      const floor = await spawnServer('db-floor', { env: backend.env });
      try {
        const requests = [{ method: 'GET', path: `/resources/${encodeURIComponent(seed.sharedRoomId)}` }];
        floorRow.bySize.set(size, await measureRow(floor, `N = ${size}: ${floorRow.label}`, { requests }));
      } finally {
        await floor.stop();
      }
    } catch (error) {
      floorRow.bySize.set(size, { error: (error as Error).message.split('\n')[0] });
    }
  } finally {
    await backend.drop().catch(error => log(`could not remove the scratch database: ${error.message}`));
    backend = undefined;
  }
}

async function measureRow(
  server: RunningServer<object>,
  label: string,
  workload: Workload,
  pairOffset = 0,
): Promise<{ result?: Measurement; error?: string }> {
  log(`${label} (${settings.warmup} s warmup + ${settings.duration} s)`);
  try {
    const { connections, requestsFor, ...load } = workload;
    const result = await measure({
      url: server.info.url,
      serverPid: server.pid,
      ...settings,
      ...load,
      ...(requestsFor ? { requestsFor: c => requestsFor(c + pairOffset) } : {}),
      ...(connections ? { connections } : {}),
    });
    log(`  ${brief(result)}`);
    return { result };
  } catch (error) {
    log(`  failed: ${(error as Error).message}`);
    return { error: (error as Error).message };
  }
}

/**
 * (d) Two instances on one PostgreSQL database, both with REDIS_URL: reads and transitions on one
 * instance, then the same connections split over both (run in parallel, summed); then live-feed
 * delivery from a change on A to a subscriber on A and on B, and on a third instance without Redis.
 */
async function measureInstances(): Promise<{ instances: InstanceRow[]; feeds: FeedRow[] }> {
  const size = sizes[0];
  const redisUrl = values['redis-url'] as string;
  const rows: InstanceRow[] = [
    { id: 'd1', label: 'd1 GET /v1/resources/:id, 1 instance' },
    { id: 'd2', label: 'd2 the same over 2 instances (summed)', baseline: 'd1' },
    { id: 'd3', label: 'd3 invite/accept/remove, own rooms, 1 instance', baseline: undefined },
    { id: 'd4', label: 'd4 the same over 2 instances (summed)', baseline: 'd3' },
  ];
  const feedRows: FeedRow[] = [
    { id: 'f1', label: 'f1 same instance, in-process bus (no Redis)', deliveries: 0, expected: feedRounds },
    { id: 'f2', label: 'f2 same instance, through Redis', baseline: 'f1', deliveries: 0, expected: feedRounds },
    { id: 'f3', label: 'f3 change on A, subscriber on B (Redis)', baseline: 'f2', deliveries: 0, expected: feedRounds },
  ];
  backend = (await prepareBackend('postgres', values['postgres-url'])) as Backend;
  const started: RunningServer<object>[] = [];
  try {
    log(`(d) N = ${size}: starting Gatehouse A (seeded) and B, both with REDIS_URL, and C without it`);
    const a = await spawnServer<{ seed: ScaleSeed }>('gatehouse-scale', {
      env: { ...backend.env, REDIS_URL: redisUrl },
      // d3 takes pairsPerRun pairs, d4 as many, B's warm-up half as many.
      args: ['--size', String(size), '--pairs', String(pairsPerRun * 3), '--pair-rooms'],
    });
    started.push(a);
    const b = await spawnServer('gatehouse-scale', { env: { ...backend.env, REDIS_URL: redisUrl }, args: ['--size', '0'] });
    started.push(b);
    const { seed } = a.info;
    const read = { requests: [get(`/v1/resources/${seed.sharedRoomId}`, seed.reader.token)] };
    const transitions = { requestsFor: (connection: number) => cycle(pairOf(seed, connection), pairOf(seed, connection).roomId) };
    // B serves its first requests here; A was warmed by seeding and by d1/d3. Without its own
    // unmeasured run first, B's cold code (JIT) weighs on both halves of the split rows.
    const warmB = (workload: Workload, pairOffset: number) =>
      measureRow(b, '(d) warming B, unmeasured', { ...workload, connections: Math.ceil(settings.connections / 2) }, pairOffset);
    Object.assign(rows[0], await measureRow(a, `(d) ${rows[0].label}`, read));
    await warmB(read, 0);
    Object.assign(rows[1], await measureSplit(a, b, `(d) ${rows[1].label}`, read, 0));
    Object.assign(rows[2], await measureRow(a, `(d) ${rows[2].label}`, transitions));
    await warmB(transitions, 2 * pairsPerRun);
    // The 1-instance run used pairs [0, pairsPerRun): the split run takes the next ones.
    Object.assign(rows[3], await measureSplit(a, b, `(d) ${rows[3].label}`, transitions, pairsPerRun));

    log(`(d) live feeds: ${feedRounds} role changes through A, then through C`);
    const [onA, onB] = await Promise.all([subscribe(a.info.url, seed), subscribe(b.info.url, seed)]);
    try {
      const timed = await changeRounds(a.info.url, seed, [onA, onB]);
      Object.assign(feedRows[1], timed[0]);
      Object.assign(feedRows[2], timed[1]);
    } finally {
      onA.close();
      onB.close();
    }
    const c = await spawnServer('gatehouse-scale', { env: { ...backend.env, REDIS_URL: undefined }, args: ['--size', '0'] });
    started.push(c);
    const onC = await subscribe(c.info.url, seed);
    try {
      Object.assign(feedRows[0], (await changeRounds(c.info.url, seed, [onC]))[0]);
    } finally {
      onC.close();
    }
  } catch (error) {
    log(`(d) failed: ${(error as Error).stack ?? error}`);
    for (const row of [...rows, ...feedRows]) if (!('result' in row) && !('p50' in row)) row.error ??= (error as Error).message.split('\n')[0];
  } finally {
    for (const server of started.reverse()) await server.stop();
    await backend.drop().catch(error => log(`could not remove the scratch database: ${error.message}`));
    backend = undefined;
  }
  return { instances: rows, feeds: feedRows };
}

/** The same connections split over two instances, run in parallel; req/s summed, latency the worse of the two. */
async function measureSplit(
  a: RunningServer<object>,
  b: RunningServer<object>,
  label: string,
  workload: Workload,
  pairOffset: number,
): Promise<{ result?: Measurement; error?: string }> {
  const half = Math.floor(settings.connections / 2);
  const halfPairs = half * (settings.warmup > 0 ? 2 : 1);
  log(`${label} (${half} + ${settings.connections - half} connections)`);
  const [ra, rb] = await Promise.all([
    measureRow(a, `  on A`, { ...workload, connections: half }, pairOffset),
    measureRow(b, `  on B`, { ...workload, connections: settings.connections - half }, pairOffset + halfPairs),
  ]);
  if (!ra.result || !rb.result) return { error: ra.error ?? rb.error };
  const [x, y] = [ra.result, rb.result];
  const cpu: CpuShares | undefined =
    x.cpu && y.cpu
      ? {
          server: x.cpu.server + y.cpu.server,
          database: x.cpu.database,
          loadGenerator: x.cpu.loadGenerator,
          other: Math.max(0, x.cpu.other - y.cpu.server),
        }
      : undefined;
  const statusCodes = { ...x.statusCodes };
  for (const [code, n] of Object.entries(y.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const result: Measurement = {
    rps: x.rps + y.rps,
    p50: Math.max(x.p50, y.p50),
    p99: Math.max(x.p99, y.p99),
    ok: x.ok + y.ok,
    failed: x.failed + y.failed,
    statusCodes,
    cpu,
  };
  log(`  summed: ${brief(result)}`);
  return { result };
}

interface Subscriber {
  /** Arrival times (performance.now()) of `next` messages since the last `reset`. */
  arrivals: number[];
  close(): void;
}

/** The reader's subscription to the shared room's roster, spoken by hand (as bench/feeds/fanout.ts). */
function subscribe(url: string, seed: ScaleSeed): Promise<Subscriber> {
  const query = 'subscription($id: ID!) { membersLive(resourceId: $id) { op row { id role state } } }';
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { perMessageDeflate: false });
    const subscriber: Subscriber = { arrivals: [], close: () => socket.terminate() };
    const timer = setTimeout(() => reject(new Error(`${url}: no connection_ack within 10 s`)), 10_000);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${seed.reader.token}` } })));
    socket.on('message', raw => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables: { id: seed.sharedRoomId } } }));
        clearTimeout(timer);
        resolve(subscriber);
      } else if (message.type === 'next') subscriber.arrivals.push(performance.now());
      else if (message.type === 'error') reject(new Error(JSON.stringify(message.payload)));
    });
    socket.on('error', reject);
  });
}

/**
 * Toggles the mover's role in the shared room through `url`, one change at a time, and times its
 * arrival at each subscriber from the moment the change request was sent. A few unrecorded rounds
 * first: the subscriptions attach asynchronously after the ack.
 */
async function changeRounds(url: string, seed: ScaleSeed, subscribers: Subscriber[]): Promise<Omit<FeedRow, 'id' | 'label'>[]> {
  const latencies = subscribers.map(() => [] as number[]);
  const afterResponse = subscribers.map(() => [] as number[]);
  const responses: number[] = [];
  let role: 'reader' | 'writer' = 'writer';
  const warm = 3;
  for (let round = 0; round < feedRounds + warm; round++) {
    for (const s of subscribers) s.arrivals = [];
    role = role === 'writer' ? 'reader' : 'writer';
    const sent = performance.now();
    const res = await fetch(`${url}/v1/resources/${seed.sharedRoomId}/setRole`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seed.host.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: seed.mover.id, role }),
    });
    const answered = performance.now();
    if (res.status !== 200) throw new Error(`setRole -> ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const deadline = Date.now() + (round < warm ? 3_000 : 5_000);
    while (subscribers.some(s => s.arrivals.length === 0) && Date.now() < deadline) await sleep(1);
    if (round < warm) continue;
    responses.push(answered - sent);
    subscribers.forEach((s, i) => {
      if (s.arrivals.length === 0) return;
      latencies[i].push(s.arrivals[0] - sent);
      afterResponse[i].push(s.arrivals[0] - answered);
    });
    await sleep(10);
  }
  const responseP50 = percentile(responses, 50);
  return latencies.map((list, i) => ({
    deliveries: list.length,
    expected: feedRounds,
    p50: percentile(list, 50),
    p99: percentile(list, 99),
    max: percentile(list, 100),
    responseP50,
    afterResponseP50: percentile(afterResponse[i], 50),
  }));
}

function formatReport(): string {
  const cpus = os.cpus();
  const base = sizes[0];
  const out = [
    `How it scales, on ${backendLabel} (a fresh scratch database per size)`,
    `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${os
      .loadavg()
      .map(n => n.toFixed(2))
      .join(' ')} at the end.`,
    `${settings.connections} connections (a3, b1: ${listConnections}); ${settings.duration} s per row after ${settings.warmup} s of warmup.`,
    `req/s = 2xx per second (b2, d3, d4: transitions); p50/p99 = ms, "-" when no response completed within the run;`,
    `vs N=${int(base)} = req/s over the same row at N = ${int(base)} in this run; alone = one request with no other load, and its response size.`,
    ...[...seeds.values()].map(
      s =>
        `  N = ${int(s.size)}: ${int(s.deploymentResources)} resources in the deployment, ${int(s.crowdMembers)} memberships of the crowd (incl. ${pairsPerRun} admins), ${int(s.rows)} rows (seeded in ${s.seedSeconds.toFixed(1)} s)`,
    ),
    '',
  ];
  const header = ['', 'N', 'req/s', 'p50', 'p99', `vs N=${int(base)}`, 'failed', 'alone ms', 'bytes', 'cpu: server', 'db', 'loadgen', 'other'];
  const lines: string[][] = [];
  const errors: string[] = [];
  for (const row of scaleRows) {
    const baseRps = row.bySize.get(base)?.result?.rps;
    sizes.forEach((size, i) => {
      const label = i === 0 ? row.label : '';
      const m = row.bySize.get(size);
      if (!m?.result) {
        errors.push(`  ${row.id} N=${size}: ${m?.error ?? 'not measured'}`);
        lines.push([label, int(size), 'error', ...header.slice(3).map(() => '')]);
        return;
      }
      const { rps, p50, p99, failed, ok, cpu } = m.result;
      // No response within the run: autocannon has no latency to give (and counts no failure).
      const [q50, q99] = ok > 0 ? [String(p50), String(p99)] : ['-', '-'];
      const alone = m.alone ? [int(m.alone.ms), bytes(m.alone.bytes)] : ['', ''];
      lines.push([
        label,
        int(size),
        int(rps),
        q50,
        q99,
        baseRps ? (rps / baseRps).toFixed(2) : '-',
        failed ? int(failed) : '',
        ...alone,
        ...cores(cpu),
      ]);
    });
  }
  out.push(...table([header, ...lines]));
  if (errors.length) out.push('  errors:', ...errors.map(e => e.split('\n')[0]));
  out.push(...failureNotes(scaleRows.flatMap(row => sizes.map(size => [`${row.id} N=${size}`, row.bySize.get(size)?.result] as const))));

  out.push(
    '',
    `(d) A second instance behind Redis (PostgreSQL, N = ${int(base)}; ${instancesSkipped ? `skipped: ${instancesSkipped}` : `REDIS_URL ${values['redis-url']}`})`,
  );
  if (!instancesSkipped) {
    const header2 = ['', 'req/s', 'p50', 'p99', 'vs 1 instance', 'failed', 'cpu: servers', 'db', 'loadgen', 'other'];
    const lines2 = instances.map(row => {
      if (!row.result) return [row.label, `error: ${row.error ?? 'not measured'}`.slice(0, 60), ...header2.slice(2).map(() => '')];
      const { rps, p50, p99, failed, cpu } = row.result;
      const baseRps = instances.find(r => r.id === row.baseline)?.result?.rps;
      return [row.label, int(rps), String(p50), String(p99), baseRps ? (rps / baseRps).toFixed(2) : '-', failed ? int(failed) : '', ...cores(cpu)];
    });
    out.push(...table([header2, ...lines2]));
    out.push(...failureNotes(instances.map(row => [row.id, row.result] as const)));
    out.push(
      '',
      `Live feed: a role change (POST …/setRole) to the reader's membersLive subscription, ${feedRounds} changes one at a time;`,
      'ms from sending the change request to the event arriving (includes the request itself: "request p50";',
      '"after response" = arrival minus the response, negative when the event arrived first).',
    );
    const header3 = ['', 'delivered', 'p50', 'p99', 'max', 'request p50', 'after response p50', 'p50 vs'];
    const lines3 = feeds.map(row => {
      if (row.p50 === undefined) return [row.label, `error: ${row.error ?? 'not measured'}`.slice(0, 60), '', '', '', '', '', ''];
      const basis = feeds.find(f => f.id === row.baseline);
      return [
        row.label,
        `${row.deliveries}/${row.expected}`,
        ms(row.p50),
        ms(row.p99),
        ms(row.max),
        ms(row.responseP50),
        ms(row.afterResponseP50),
        basis?.p50 ? `${(row.p50 / basis.p50).toFixed(2)} x ${basis.id}` : '',
      ];
    });
    out.push(...table([header3, ...lines3]));
  }

  const largest = seeds.get(sizes[sizes.length - 1]);
  if (largest?.explain) {
    const degraded = scaleRows.filter(row => {
      const [b, l] = [row.bySize.get(base)?.result?.rps, row.bySize.get(largest.size)?.result?.rps];
      return b && l && l / b < DEGRADED;
    });
    const shown = Object.entries(largest.explain).filter(([key]) => values.explain || degraded.some(row => key.startsWith(`${row.id} `)));
    if (shown.length > 0) {
      out.push(
        '',
        `EXPLAIN (ANALYZE, BUFFERS) at N = ${int(largest.size)}${values.explain ? '' : ` of the rows under ${DEGRADED} of N = ${int(base)}`}:`,
      );
      for (const [key, plan] of shown) out.push(`  ${key}:`, ...plan.map(line => `    ${line}`));
    }
  }
  return `${out.join('\n')}\n`;
}

function jsonReport() {
  const base = sizes[0];
  const pick = (m?: Measurement) => (m ? { rps: round(m.rps), p50: m.ok ? m.p50 : null, p99: m.ok ? m.p99 : null, failed: m.failed } : undefined);
  return {
    bench: 'scale',
    backend: backendName,
    at: new Date().toISOString(),
    loadavg: os.loadavg().map(round),
    settings: { ...settings, listConnections, sizes },
    rows: scaleRows.flatMap(row =>
      sizes.map(size => {
        const m = row.bySize.get(size);
        const baseRps = row.bySize.get(base)?.result?.rps;
        return {
          id: row.id,
          size,
          ...pick(m?.result),
          vsSmallest: m?.result && baseRps ? round(m.result.rps / baseRps) : undefined,
          aloneMs: m?.alone ? round(m.alone.ms) : undefined,
          bytes: m?.alone?.bytes,
          error: m?.error,
        };
      }),
    ),
    instances: instancesSkipped
      ? { skipped: instancesSkipped }
      : instances.map(row => {
          const baseRps = instances.find(r => r.id === row.baseline)?.result?.rps;
          return {
            id: row.id,
            ...pick(row.result),
            vsOneInstance: row.result && baseRps ? round(row.result.rps / baseRps) : undefined,
            error: row.error,
          };
        }),
    feeds: instancesSkipped
      ? undefined
      : feeds.map(({ id, deliveries, expected, p50, p99, max, responseP50, afterResponseP50, error }) => ({
          id,
          deliveries,
          expected,
          p50: p50 === undefined ? undefined : round(p50),
          p99: p99 === undefined ? undefined : round(p99),
          max: max === undefined ? undefined : round(max),
          requestP50: responseP50 === undefined ? undefined : round(responseP50),
          afterResponseP50: afterResponseP50 === undefined ? undefined : round(afterResponseP50),
          error,
        })),
  };
}

function failureNotes(entries: (readonly [string, Measurement | undefined])[]): string[] {
  const notes = entries
    .filter(([, m]) => m && (m.failed > 0 || m.warmup))
    .map(([id, m]) => {
      const codes = Object.entries(m!.statusCodes)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, n]) => `status ${code} x${n}`);
      const warm = m!.warmup ? `; ${m!.warmup.failed} failed in the warmup ${JSON.stringify(m!.warmup.statusCodes)}` : '';
      return `  ${id}: ${m!.failed} failed${codes.length ? ` (${codes.join(', ')})` : ''}${warm}`;
    });
  return notes.length ? ['  notes:', ...notes] : [];
}

// --- requests ---

function get(path: string, token: string): Request {
  return { method: 'GET', path, headers: { authorization: `Bearer ${token}` } };
}

function post(path: string, body: unknown, token: string): Request {
  return { method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function rowQuery(seed: ScaleSeed, body: Record<string, unknown>): Request {
  return post('/v1/db/query', { scope: { kind: 'resource', resourceId: seed.projectId }, table: 'tasks', op: 'select', ...body }, seed.reader.token);
}

function pairOf(seed: ScaleSeed, connection: number): ScalePair {
  const pair = seed.pairs[connection];
  if (!pair) throw new Error(`only ${seed.pairs.length} seeded pairs for connection ${connection + 1}`);
  return pair;
}

/** One member's way in and out, as bench/scenarios.ts's membership row: three transitions. */
function cycle(pair: ScalePair, resourceId: string): Request[] {
  const at = `/v1/resources/${resourceId}`;
  return [
    post(`${at}/invite`, { userId: pair.member.id }, pair.owner.token),
    post(`${at}/accept`, {}, pair.member.token),
    post(`${at}/remove`, { userId: pair.member.id }, pair.owner.token),
  ];
}

// --- helpers ---

/**
 * One request with nothing else running: its latency and response size. The first of a kind pays
 * for cold paths (compiling the operation, the pool's first statement), so a fast one is timed again.
 */
async function timeAlone(url: string, request: Request): Promise<{ ms: number; bytes: number } | undefined> {
  const once = async () => {
    const started = performance.now();
    const res = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body as string | undefined });
    const body = await res.arrayBuffer();
    return res.status === 200 ? { ms: performance.now() - started, bytes: body.byteLength } : undefined;
  };
  try {
    const first = await once();
    return first && first.ms < 1_500 ? await once() : first;
  } catch {
    return undefined;
  }
}

function bytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`;
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise(resolve => {
    const socket = createConnection({ host: hostname, port: Number(port) || 6379 });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.setTimeout(2_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function percentile(list: number[], p: number): number | undefined {
  if (list.length === 0) return undefined;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function brief(m: Measurement): string {
  return `${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.failed ? `, ${m.failed} FAILED ${JSON.stringify(m.statusCodes)}` : ''}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => r[i].length)));
  return rows.map(r => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd());
}

function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function ms(n: number | undefined): string {
  return n === undefined ? '-' : n.toFixed(1);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, milliseconds));
}

function number(name: 'duration' | 'warmup' | 'connections' | 'list-connections' | 'feed-rounds', min: number): number {
  const n = Number(values[name]);
  return Number.isFinite(n) && n >= min ? n : usage(`--${name} ${values[name]} (at least ${min})`);
}

function usage(bad: string): never {
  console.error(
    `bench/scale: bad option ${bad}\nusage: npx tsx bench/scale.ts [--backend postgres|pglite] [--sizes 1000,10000,100000] [--duration 5] [--warmup 1] [--connections 50] [--list-connections 4] [--feed-rounds 50] [--explain] [--no-instances] [--json]`,
  );
  process.exit(2);
}

function log(message: string) {
  process.stderr.write(`[bench scale] ${message}\n`);
}
