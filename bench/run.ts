/**
 * `npm run bench [-- --backend postgres|pglite|both --duration 10 --warmup 2 --connections 50 --only ids]`
 *
 * Every server under test runs in a child process (bench/servers); load comes from autocannon
 * here. Per backend: Gatehouse (seeded in its child) first, then the DB floor and Prisma
 * baselines on the same data; the database-free baselines are measured once. Prints one table
 * per backend and always exits 0 unless the benchmark itself crashes.
 */
import { parseArgs } from 'node:util';
import { type Backend, type BackendName, DEFAULT_POSTGRES_URL, prepareBackend } from './backends.js';
import { busyElsewhere } from './cpu-usage.js';
import { measure, type LoadOptions, type Measurement } from './load.js';
import { EXTRAS, formatExtras, runExtra } from './extras.js';
import { formatReport, type RowResult, type Section } from './report.js';
import { peerScript } from './peers.js';
import {
  floorInsertWorkload,
  floorListWorkload,
  GATEHOUSE_SCENARIOS,
  type GatehouseScenario,
  gatehouseWorkload,
  graphqlHelloWorkload,
  helloWorkload,
  type PeerRow,
  peerWorkload,
  resourceRowWorkload,
  WRITE_SCENARIOS,
} from './scenarios.js';
import type { LoopDelay } from './servers/control.js';
import type { Seed } from './servers/gatehouse-seed.js';
import { type RunningServer, type SpawnOptions, spawnServer, stopAllServers } from './spawn-server.js';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    /** Comma-separated row ids to measure (the DB floor is always measured): hello, floor, prisma, yoga, yoga-jit, rest-get, rest-list, graphql-get, transitions, creates. */
    only: { type: 'string' },
    /** The stand-alone rows after the tables (bench/extras.ts): all, none, or some of feeds,auth,startup; none by default with --only. */
    extras: { type: 'string' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
    /**
     * Also the peers (bench/peers.ts, installed on demand outside the repository): PostGraphile v5
     * with RLS, Mercurius + graphql-jit, and in the fan-out extra a plain ws broadcast. With it every
     * server of a table stays up and the rows are measured interleaved, `--repeats` times (3), each
     * row's median reported.
     */
    peers: { type: 'boolean', default: false },
    repeats: { type: 'string' },
  },
});

const settings = {
  duration: positive('duration'),
  warmup: nonNegative('warmup'),
  connections: positive('connections'),
};
const peers = values.peers!;
const repeats = values.repeats === undefined ? (peers ? 3 : 1) : positiveInteger(values.repeats);
const backendNames: BackendName[] =
  values.backend === 'both'
    ? ['pglite', 'postgres']
    : values.backend === 'pglite' || values.backend === 'postgres'
      ? [values.backend]
      : usage(`--backend ${values.backend}`);
const only = values.only ? new Set(values.only.split(',').map(s => s.trim())) : undefined;
const PEER_ROWS: PeerRow[] = ['postgraphile-get', 'postgraphile-create', 'mercurius-jit'];
const anyWrite = () => WRITE_SCENARIOS.some(id => !only || only.has(id));
const wanted = (id: string) => {
  if (PEER_ROWS.includes(id as PeerRow)) return peers && (!only || only.has(id) || PEER_OF[id as PeerRow].some(row => only.has(row)));
  if (id === 'floor-insert') return anyWrite();
  if (id === 'floor-list') return !only || only.has('rest-list');
  if (id === 'floor-insert-100') return !only || only.has('row-insert-100');
  return id === 'floor' || !only || only.has(id);
};
/** A peer row is shown with the Gatehouse row it answers (--only of that row measures it too). */
const PEER_OF: Record<PeerRow, string[]> = {
  'postgraphile-get': ['graphql-get'],
  'postgraphile-create': ['row-insert'],
  'mercurius-jit': ['yoga-jit', 'graphql-me'],
};

const ROW_ORDER = [
  'hello',
  'floor',
  'floor-insert',
  'floor-list',
  'floor-insert-100',
  'prisma',
  'yoga',
  'yoga-jit',
  'mercurius-jit',
  'rest-get',
  'rest-list',
  'graphql-get',
  'postgraphile-get',
  'graphql-me',
  'transitions',
  'creates',
  'row-insert',
  'postgraphile-create',
  'row-update',
  'row-delete',
  'row-upsert',
  'row-insert-100',
];
/** Rows the write rows are judged against: the floor insert, and PostGraphile's create with RLS. */
const WRITE_ROW = { baseline: 'floor-insert', peer: 'postgraphile-create' };
/**
 * The delete row's seeded notes per connection (every run of the row has connections of its own): what one connection
 * deletes in a 7 s round (warmup included) at up to 5,700 deletes/s over 50 connections. A connection past its notes gets
 * 404s, shown as failures.
 */
const DELETE_ROWS_PER_CONNECTION = 800;
/**
 * `connections` overrides --connections for a row whose workload is defined by its client count;
 * `baseline` is the row its ratio is taken against (the DB floor unless said), `peer` a peer's row
 * doing the same work, `perRequest` the units one request does (rows of a 100-row insert).
 */
type RowPlan = Pick<RowResult, 'label' | 'target' | 'baseline' | 'peer' | 'perRequest'> & { connections?: number };
const GATEHOUSE_ROWS: Record<GatehouseScenario, RowPlan> = {
  // Issue 27 item 3: resource by id >= 0.7 of the floor, lists >= 0.8.
  'rest-get': { label: 'Gatehouse REST GET /v1/resources/:id', target: { ratio: 0.7 } },
  // Its peer is the floor list (b''): the same page through one prepared query, with or without --peers.
  'rest-list': { label: 'Gatehouse REST GET /v1/resources?type=room (10 rows; vs peer: the floor list)', target: { ratio: 0.8 }, peer: 'floor-list' },
  'graphql-get': { label: 'Gatehouse GraphQL resource(id) (same read)', target: { ratio: 0.7 } },
  // Issue 27 item 2: the cheapest authenticated query, next to Mercurius + jit's { hello } (--peers).
  'graphql-me': { label: 'Gatehouse GraphQL { me { id } } (bearer; vs peer: Mercurius + jit { hello })', peer: 'mercurius-jit' },
  // The issue's shape: 20 clients on 20 resources, whatever --connections says.
  transitions: {
    label: 'Gatehouse invite/accept/setRole/remove, 20 clients on 20 rooms (transitions/s)',
    target: { rate: 1000 },
    connections: 20,
  },
  creates: { label: 'Gatehouse REST POST /v1/resources (room creates/s)', target: { rate: 1500 } },
  'row-insert': { label: 'Gatehouse POST /v1/db/query insert of one row', target: { ratio: 0.5 }, ...WRITE_ROW },
  'row-update': { label: 'Gatehouse POST /v1/db/query update by filter, one row', target: { ratio: 0.5 }, ...WRITE_ROW },
  'row-delete': { label: 'Gatehouse POST /v1/db/query delete by filter, one row', target: { ratio: 0.5 }, ...WRITE_ROW },
  'row-upsert': { label: 'Gatehouse POST /v1/db/query upsert of one row (by a unique key)', ...WRITE_ROW },
  // Its peer is the floor's 100-row insert (b'''), whose own rows/s over the floor insert's shows what the database allows.
  'row-insert-100': {
    label: "Gatehouse POST /v1/db/query insert of 100 rows (vs: rows/s over one-row inserts; vs peer: the floor's 100-row insert)",
    target: { ratio: 10 },
    baseline: 'row-insert',
    perRequest: 100,
    peer: 'floor-insert-100',
  },
};
const PEERS: Record<PeerRow, { label: string; server: string; baseline?: string }> = {
  'postgraphile-get': { label: 'peer: PostGraphile v5 + RLS resourceByRowId (same read)', server: 'postgraphile' },
  'postgraphile-create': { label: 'peer: PostGraphile v5 + RLS createRow (same row)', server: 'postgraphile', baseline: 'floor-insert' },
  'mercurius-jit': { label: 'peer: Mercurius + graphql-jit { hello }', server: 'mercurius' },
};
/** Each connection of a pair-cycling row needs two pairs (warmup connections get their own), in each of --repeats runs. */
const PAIRS = 2 * repeats * Math.max(settings.connections, ...Object.values(GATEHOUSE_ROWS).map(row => row.connections ?? 0));
/** Connections numbered so far per row: each run of a row (--repeats) gets connections, and so pairs and notes, of its own. */
const connectionsUsed = new Map<string, number>();

let current: Backend | undefined;
process.on('SIGINT', () => {
  log('interrupted: stopping servers and removing the scratch database');
  void stopAllServers()
    .then(() => current?.drop())
    .finally(() => process.exit(130));
});

const SHARED_ROWS = 3 + (peers ? 1 : 0);
const ROWS_PER_BACKEND = 3 + GATEHOUSE_SCENARIOS.length + (peers ? 2 : 0);
const estimate = repeats * (settings.duration + settings.warmup) * (SHARED_ROWS + ROWS_PER_BACKEND * backendNames.length);
log(`about ${Math.ceil(estimate / 60)} min of load (${settings.connections} connections), plus start-up and seeding`);

const busy = await busyElsewhere();
if (busy !== undefined && busy > 0.2) {
  log(`warning: ${busy.toFixed(2)} cores are busy with other processes before any load; figures will be low (see the "other" CPU column)`);
}

const shared = await measureShared();
const sections: Section[] = [];
for (const name of backendNames) sections.push(await measureBackend(name));
const report = sections.map(section => ({ ...section, rows: inReportOrder([...shared, ...section.rows]) }));
process.stdout.write(`\n${formatReport(settings, report)}`);

const extrasOption = values.extras ?? (only ? 'none' : 'all');
const extrasWanted = extrasOption === 'none' ? new Set<string>() : extrasOption === 'all' ? null : new Set(extrasOption.split(','));
const extras = EXTRAS.filter(extra => !extrasWanted || extrasWanted.has(extra.id));
if (extras.length) {
  const results = [];
  for (const extra of extras) {
    log(`${extra.id}: ${extra.title}`);
    results.push(await runExtra(extra, { backend: values.backend!, duration: settings.duration, peers }));
  }
  process.stdout.write(formatExtras(results));
}

function inReportOrder(rows: RowResult[]): RowResult[] {
  return rows.filter(row => wanted(row.id)).sort((a, b) => ROW_ORDER.indexOf(a.id) - ROW_ORDER.indexOf(b.id));
}

async function measureShared(): Promise<RowResult[]> {
  const rows: RowResult[] = [
    { id: 'hello', label: '(a) node:http hello', shared: true },
    { id: 'yoga', label: '(d) graphql-yoga + Pothos { hello }', shared: true },
    { id: 'yoga-jit', label: "(d') graphql-yoga + Pothos + graphql-jit { hello }", shared: true, peer: 'mercurius-jit' },
  ];
  if (peers) {
    // Every server up at once, the rows measured in turn `repeats` times. Mercurius is measured
    // with the PostgreSQL rows instead, interleaved with the `me` row it is the peer of.
    await interleave('shared', [
      { server: 'hello', options: {}, rows: [[rows[0], helloWorkload()]] },
      { server: 'yoga-hello', options: {}, rows: [[rows[1], graphqlHelloWorkload()]] },
      { server: 'yoga-hello', options: { args: ['--jit'] }, rows: [[rows[2], graphqlHelloWorkload()]] },
    ]);
    return rows;
  }
  await onServer('shared', 'hello', {}, [[rows[0], helloWorkload()]]);
  await onServer('shared', 'yoga-hello', {}, [[rows[1], graphqlHelloWorkload()]]);
  await onServer('shared', 'yoga-hello', { args: ['--jit'] }, [[rows[2], graphqlHelloWorkload()]]);
  return rows;
}

type RowWork<T> = [RowResult, Workload | ((info: T) => Workload)];
interface ServerPlan<T = any> {
  server: string;
  options: SpawnOptions;
  rows: RowWork<T>[];
}

/**
 * The peers' way (--peers): every server of a table up at once (each idle while the others are
 * measured), the wanted rows measured in turn, all of them `repeats` times, so that the machine's
 * drift over minutes falls on every row alike; each row's figure is its median run. The first
 * plan's child starts first and the others get its announcement (Gatehouse's seed).
 */
async function interleave(scope: string, plans: ServerPlan[], after: (first: any) => ServerPlan[] = () => []): Promise<any> {
  const running: RunningServer<any>[] = [];
  const all = [...plans];
  const runs = new Map<RowResult, RowResult[]>();
  try {
    for (let i = 0; i < all.length; i++) {
      const plan = all[i];
      const todo = plan.rows.filter(([row]) => wanted(row.id));
      if (i > 0 && todo.length === 0) continue;
      try {
        log(`${scope}: starting ${plan.server}`);
        running[i] = await spawnServer(plan.server, plan.options);
      } catch (error) {
        for (const [row] of todo) row.error = `server did not start: ${(error as Error).message.split('\n')[0]}`;
        log(`${scope}: ${plan.server} did not start: ${(error as Error).message}`);
        if (i === 0) return undefined;
        continue;
      }
      if (i === 0) all.push(...after(running[0].info));
    }
    for (let round = 1; round <= repeats; round++) {
      for (let i = 0; i < all.length; i++) {
        if (!running[i]) continue;
        for (const [row, workload] of all[i].rows.filter(([r]) => wanted(r.id))) {
          const run: RowResult = { ...row };
          await measureRow(`${scope} (round ${round}/${repeats})`, running[i], run, workload);
          runs.set(row, [...(runs.get(row) ?? []), run]);
        }
      }
    }
    for (const [row, measured] of runs) Object.assign(row, medianOf(row, measured));
    return running[0]?.info;
  } finally {
    for (const child of running.filter(Boolean)) await child.stop();
  }
}

/** A row measured `repeats` times, as its median run by req/s (the whole run: latencies, CPU and failures with it). */
function medianOf(row: RowResult, runs: RowResult[]): Partial<RowResult> {
  const measured = runs.filter(run => run.result).sort((a, b) => a.result!.rps - b.result!.rps);
  if (measured.length === 0) return { error: runs.find(run => run.error)?.error ?? 'not measured' };
  const median = measured[Math.floor((measured.length - 1) / 2)];
  if (runs.length === 1) return { result: median.result, loop: median.loop };
  return {
    label: `${row.label} (median of ${measured.length}: ${measured.map(run => Math.round(run.result!.rps)).join(', ')} req/s)`,
    result: median.result,
    loop: median.loop,
  };
}

async function measureBackend(name: BackendName): Promise<Section> {
  const prepared = await prepareBackend(name, values['postgres-url']);
  const title = name === 'pglite' ? 'PGlite' : 'PostgreSQL';
  if ('skipped' in prepared) {
    log(`${name}: skipped: ${prepared.skipped}`);
    return { title, skipped: prepared.skipped, rows: [], judged: false };
  }
  current = prepared;
  const floor: RowResult = { id: 'floor', label: `(b) DB floor: ${prepared.floorQuery}` };
  const floorInsert: RowResult = {
    id: 'floor-insert',
    label: `(b') DB floor insert: node:http + 1 ${name === 'postgres' ? 'prepared ' : ''}INSERT INTO rows`,
  };
  const floorList: RowResult = {
    id: 'floor-list',
    label: `(b'') DB floor list: node:http + 1 ${name === 'postgres' ? 'prepared ' : ''}query of the same 10 rooms`,
  };
  const floorInsert100: RowResult = {
    id: 'floor-insert-100',
    label: `(b''') DB floor insert of 100 rows: node:http + 1 ${name === 'postgres' ? 'prepared ' : ''}INSERT ... SELECT (vs: rows/s over the floor insert)`,
    baseline: 'floor-insert',
    perRequest: 100,
  };
  const prisma: RowResult = { id: 'prisma', label: '(c) node:http + Prisma findUnique (openDatabase)' };
  const baselines = [floor, floorInsert, floorList, floorInsert100, prisma];
  const unseeded = () => {
    for (const row of baselines) row.error = 'no seeded database (Gatehouse did not start)';
  };
  const gatehouse: RowResult[] = GATEHOUSE_SCENARIOS.map(id => {
    const { connections: _, ...plan } = GATEHOUSE_ROWS[id];
    return { id, ...plan, peer: plan.peer ?? (id === 'graphql-get' ? 'postgraphile-get' : undefined) };
  });
  if (!peers) for (const row of gatehouse) if (!row.peer?.startsWith('floor-')) delete row.peer;
  const peerRows: RowResult[] = (['postgraphile-get', 'postgraphile-create'] as const).map(id => ({
    id,
    label: PEERS[id].label,
    baseline: PEERS[id].baseline,
  }));
  const gatehouseArgs = ['--pairs', String(PAIRS), ...(wanted('row-delete') ? ['--delete-rows', String(DELETE_ROWS_PER_CONNECTION)] : [])];
  if (peers && name === 'postgres') {
    const mercurius: RowResult = { id: 'mercurius-jit', label: PEERS['mercurius-jit'].label };
    try {
      const script = await peerScript('postgraphile', log);
      const mercuriusScript = await peerScript('mercurius', log);
      const rowWork = (row: RowResult): RowWork<{ seed: Seed }> => [row, info => gatehouseWorkload(row.id as GatehouseScenario, info.seed)];
      const seeded = await interleave(
        name,
        [{ server: 'gatehouse', options: { env: prepared.env, args: gatehouseArgs }, rows: gatehouse.map(rowWork) }],
        (info: { seed: Seed }) => [
          {
            server: 'db-floor',
            options: { env: prepared.env },
            rows: [
              [floor, resourceRowWorkload(info.seed.resourceId)],
              [floorInsert, floorInsertWorkload(info.seed)],
              [floorList, floorListWorkload(info.seed)],
              [floorInsert100, floorInsertWorkload(info.seed, 100)],
            ],
          },
          { server: 'prisma-find', options: { env: prepared.env }, rows: [[prisma, resourceRowWorkload(info.seed.resourceId)]] },
          {
            server: 'postgraphile',
            options: { env: prepared.env, script },
            rows: peerRows.map(row => [row, peerWorkload(row.id as Exclude<PeerRow, 'mercurius-jit'>, info.seed)] as RowWork<unknown>),
          },
          { server: 'mercurius', options: { script: mercuriusScript }, rows: [[mercurius, graphqlHelloWorkload()]] },
        ],
      );
      if (!seeded) unseeded();
    } finally {
      await prepared.drop().catch(error => log(`${name}: could not remove the scratch database: ${error.message}`));
      current = undefined;
    }
    return { title: `${title}: ${prepared.label}`, rows: [...baselines, ...gatehouse, ...peerRows, mercurius], judged: true };
  }
  for (const row of peerRows) row.error = 'PostGraphile runs on PostgreSQL only';
  try {
    // Gatehouse first: its child migrates and seeds the database the baselines then read. On
    // PostgreSQL the floor runs beside the idle Gatehouse child, before and after its rows, and
    // counts as the mean of the two: throughput drifts for minutes at a time, and a floor measured
    // only afterwards compared moments far apart. An embedded data directory has one process at a
    // time (its lock), so there the floor runs once the Gatehouse child has stopped.
    const floorRuns = ['before', 'after'].map(when => ({ ...floor, label: `${floor.label}, ${when} the Gatehouse rows` }));
    const beside = name === 'postgres';
    const seed = await onServer<{ seed: Seed }>(
      name,
      'gatehouse',
      { env: prepared.env, args: gatehouseArgs },
      gatehouse.map(row => [row, (info: { seed: Seed }) => gatehouseWorkload(row.id as GatehouseScenario, info.seed)]),
      {
        always: true,
        around: async (info, measureRows) => {
          if (!beside) return measureRows();
          const rowRead = resourceRowWorkload(info.seed.resourceId);
          await onServer(name, 'db-floor', { env: prepared.env }, [[floorRuns[0], rowRead]]);
          await measureRows();
          await onServer(name, 'db-floor', { env: prepared.env }, [
            [floorRuns[1], rowRead],
            [floorInsert, floorInsertWorkload(info.seed)],
            [floorList, floorListWorkload(info.seed)],
            [floorInsert100, floorInsertWorkload(info.seed, 100)],
          ]);
        },
      },
    );
    if (seed) {
      if (beside) Object.assign(floor, meanOf(floor, floorRuns));
      else
        await onServer(name, 'db-floor', { env: prepared.env }, [
          [floor, resourceRowWorkload(seed.seed.resourceId)],
          [floorInsert, floorInsertWorkload(seed.seed)],
          [floorList, floorListWorkload(seed.seed)],
          [floorInsert100, floorInsertWorkload(seed.seed, 100)],
        ]);
      await onServer(name, 'prisma-find', { env: prepared.env }, [[prisma, resourceRowWorkload(seed.seed.resourceId)]]);
    } else {
      unseeded();
    }
  } finally {
    await prepared.drop().catch(error => log(`${name}: could not remove the scratch database: ${error.message}`));
    current = undefined;
  }
  return {
    title: `${title}: ${prepared.label}`,
    rows: [...baselines, ...gatehouse, ...(peers ? peerRows : [])],
    judged: name === 'postgres',
  };
}

type Workload = Pick<LoadOptions, 'requests' | 'requestsFor'>;

/**
 * Starts one server child, measures its rows one after another, stops it. A failure marks the
 * rows instead of ending the run. Returns the child's announcement (undefined when it failed).
 */
async function onServer<T extends object>(
  scope: string,
  server: string,
  options: SpawnOptions,
  rows: [RowResult, Workload | ((info: T) => Workload)][],
  { always = false, around }: { always?: boolean; around?: (info: T, measureRows: () => Promise<void>) => Promise<void> } = {},
): Promise<(T & { url: string }) | undefined> {
  const todo = rows.filter(([row]) => wanted(row.id));
  if (todo.length === 0 && !always) return undefined;
  let running: RunningServer<T>;
  try {
    log(`${scope}: starting ${server}`);
    running = await spawnServer<T>(server, options);
  } catch (error) {
    for (const [row] of todo) row.error = `server did not start: ${(error as Error).message.split('\n')[0]}`;
    log(`${scope}: ${server} did not start: ${(error as Error).message}`);
    return undefined;
  }
  const measureRows = async () => {
    for (const [row, workload] of todo) await measureRow(scope, running, row, workload);
  };
  try {
    await (around ? around(running.info, measureRows) : measureRows());
    return running.info;
  } finally {
    await running.stop();
  }
}

/** Measures one row on a running child; a failure marks the row instead of ending the run. */
async function measureRow<T extends object>(scope: string, running: RunningServer<T>, row: RowResult, workload: RowWork<T>[1]): Promise<void> {
  log(`${scope}: ${row.label} (${settings.warmup} s warmup + ${settings.duration} s)`);
  try {
    const load = typeof workload === 'function' ? workload(running.info) : workload;
    const beforeMeasuring = () => running.startLoopMonitor();
    const connections = GATEHOUSE_ROWS[row.id as GatehouseScenario]?.connections ?? settings.connections;
    const firstConnection = connectionsUsed.get(row.id) ?? 0;
    // The warmup's connections and the measured run's.
    connectionsUsed.set(row.id, firstConnection + 2 * connections);
    row.result = await measure({
      url: running.info.url,
      serverPid: running.pid,
      beforeMeasuring,
      ...settings,
      connections,
      firstConnection,
      ...load,
    });
    row.loop = await running.stopLoopMonitor();
    log(`${scope}:   ${summary(row.result, row.loop)}`);
  } catch (error) {
    row.error = (error as Error).message;
    log(`${scope}:   failed: ${row.error}`);
  }
}

/** A row measured more than once, as the mean of its runs: req/s and CPU averaged, latencies and failures of the worst run. */
function meanOf(row: RowResult, runs: RowResult[]): Partial<RowResult> {
  const results = runs.map(run => run.result);
  if (results.some(result => !result)) return { error: runs.find(run => run.error)?.error ?? 'not measured' };
  const measured = results as Measurement[];
  const mean = (pick: (m: Measurement) => number) => measured.reduce((sum, m) => sum + pick(m), 0) / measured.length;
  const cpu = measured.every(m => m.cpu)
    ? {
        server: mean(m => m.cpu!.server),
        database: mean(m => m.cpu!.database),
        loadGenerator: mean(m => m.cpu!.loadGenerator),
        other: mean(m => m.cpu!.other),
      }
    : undefined;
  const worst = measured.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  log(`${row.label}: ${measured.map(m => Math.round(m.rps)).join(' and ')} req/s; the mean is the floor`);
  return {
    label: `${row.label} (mean of a run before and one after the Gatehouse rows)`,
    result: { ...worst, rps: mean(m => m.rps), cpu, failed: measured.reduce((sum, m) => sum + m.failed, 0) },
    loop: runs.map(run => run.loop!).reduce((a, b) => (b.max > a.max ? b : a)),
  };
}

function summary(m: Measurement, loop: LoopDelay): string {
  const failures = [m.failed ? `${m.failed} failed` : '', m.warmup ? `${m.warmup.failed} failed in warmup` : ''].filter(Boolean);
  return `${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${failures.map(f => `, ${f}`).join('')}, loop delay max ${Math.round(loop.max)} ms`;
}

function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

function positive(name: 'duration' | 'connections'): number {
  const n = Number(values[name]);
  return Number.isFinite(n) && n > 0 ? n : usage(`--${name} ${values[name]}`);
}

function nonNegative(name: 'warmup'): number {
  const n = Number(values[name]);
  return Number.isFinite(n) && n >= 0 ? n : usage(`--${name} ${values[name]}`);
}

function positiveInteger(text: string): number {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : usage(`--repeats ${text}`);
}

function usage(bad: string): never {
  console.error(
    `bench: bad option ${bad}\nusage: npm run bench -- [--backend postgres|pglite|both] [--duration 10] [--warmup 2] [--connections 50] [--only rest-get,graphql-get] [--peers] [--repeats 3]`,
  );
  process.exit(2);
}
