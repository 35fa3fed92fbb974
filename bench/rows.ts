/**
 * `npx tsx bench/rows.ts [--backend postgres|pglite] [--duration 10] [--warmup 2] [--connections 50]
 *   [--rows 100000] [--rooms 100] [--grants 10]`
 *
 * The row store's hot read (docs/api.md §11): one resource holding --rows rows across --rooms
 * rooms, read by a member holding grants in --grants of them. Rows, all through
 * `POST /v1/db/query` as that member, measured in the same run:
 *   1. a primary-key read (`select` with `ids: [one]`): the baseline;
 *   2. the first resource-scoped page of 50 (rule 4: the union of the member's rooms, one cursor);
 *   3. a later page (the keyset cursor after 5,000 rows);
 *   4. a room-scoped page of 50 (rule 6).
 * Prints req/s, latency and each row's ratio to row 1, then EXPLAIN (ANALYZE, BUFFERS) of the page
 * query and of the primary-key read. The server runs in a child (bench/servers/gatehouse-rows.ts).
 * A measurement, not a test: exits 0 whatever the figures.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Request } from 'autocannon';
import { type Backend, type BackendName, DEFAULT_POSTGRES_URL } from './backends.js';
import { type BenchRow, chooseBackend, cleanUpOnInterrupt, cores } from './standalone.js';
import { busyElsewhere } from './cpu-usage.js';
import { type LoadOptions, measure } from './load.js';
import type { RowsBenchSeed } from './servers/gatehouse-rows.js';
import { type RunningServer, spawnServer } from './spawn-server.js';

const { values } = parseArgs({
  options: {
    /** Default: PostgreSQL when it answers, else PGlite. */
    backend: { type: 'string' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    rows: { type: 'string', default: '100000' },
    rooms: { type: 'string', default: '100' },
    grants: { type: 'string', default: '10' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
  },
});

const settings = { duration: number('duration', 1), warmup: number('warmup', 0), connections: number('connections', 1) };
const shape = { rows: number('rows', 100), rooms: number('rooms', 1), grants: number('grants', 1) };
if (shape.grants > shape.rooms) usage(`--grants ${shape.grants} (at most --rooms)`);
if (values.backend !== undefined && values.backend !== 'postgres' && values.backend !== 'pglite') usage(`--backend ${values.backend}`);

type Row = BenchRow;

let backend: Backend | undefined;
cleanUpOnInterrupt(() => backend, log);

backend = await chooseBackend(values.backend as BackendName | undefined, values['postgres-url'] as string, log);
log(
  `${backend.label}: seeding ${shape.rows} rows in ${shape.rooms} rooms through the API, then 4 rows of ${settings.warmup} + ${settings.duration} s`,
);
const busy = await busyElsewhere();
if (busy !== undefined && busy > 0.2) log(`warning: ${busy.toFixed(2)} cores are busy with other processes before any load; figures will be low`);
let report = '';
try {
  const server = await spawnServer<{ seed: RowsBenchSeed }>('gatehouse-rows', {
    env: backend.env,
    args: ['--rows', String(shape.rows), '--rooms', String(shape.rooms), '--grants', String(shape.grants)],
  });
  try {
    log(`seeded in ${server.info.seed.seedSeconds.toFixed(1)} s`);
    const rows = await measureRows(server);
    report = formatReport(backend, server.info.seed, rows);
  } finally {
    await server.stop();
  }
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await backend.drop().catch(error => log(`could not remove the scratch database: ${error.message}`));
}
if (report) process.stdout.write(`\n${report}`);

async function measureRows(server: RunningServer<{ seed: RowsBenchSeed }>): Promise<Row[]> {
  const { url, seed } = server.info;
  const scope = { kind: 'resource', resourceId: seed.resourceId };
  const query = (body: Record<string, unknown>): Request[] => [
    {
      method: 'POST',
      path: '/v1/db/query',
      headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ table: 'tasks', op: 'select', ...body }),
    },
  ];
  const cursor = await cursorAfter(url, seed, 5000);
  const rows: [Row, Request[]][] = [
    [{ label: '1. primary-key read', what: 'select ids: [one row of a granted room] at resource scope' }, query({ scope, ids: [seed.rowId] })],
    [
      { label: '2. resource page of 50', what: `select limit 50, resource scope: the union of ${seed.grants} granted rooms and the default room` },
      query({ scope, limit: 50 }),
    ],
    [{ label: '3. page after 5,000 rows', what: 'the same with the keyset cursor of page 101' }, query({ scope, limit: 50, cursor })],
    [
      { label: '4. room page of 50', what: 'select limit 50, scope.roomId = one granted room (rule 6)' },
      query({ scope: { ...scope, roomId: seed.rowRoom }, limit: 50 }),
    ],
  ];
  // Writes last: their inserts grow the default room the reads above read.
  const write = (body: Record<string, unknown>): Request => ({
    method: 'POST',
    path: '/v1/db/query',
    headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ table: 'tasks', scope, ...body }),
  });
  const own = await writableRows(url, seed, settings.connections);
  const writes: [Row, (connection: number) => Request[]][] = [
    [
      { label: '5. insert one row', what: 'insert one row into the default room (the member writes as a writer there)' },
      () => [write({ op: 'insert', values: { title: 'written', priority: 1 } })],
    ],
    [
      {
        label: '6. update one row by id',
        what: "update one of the member's own rows by id, a row per connection (no lock waits between connections)",
      },
      connection => [write({ op: 'update', ids: [own[connection % own.length]], values: { priority: 2 } })],
    ],
  ];
  const measured: [Row, Pick<LoadOptions, 'requests' | 'requestsFor'>][] = [
    ...rows.map(([row, requests]) => [row, { requests }] as [Row, { requests: Request[] }]),
    ...writes.map(([row, requestsFor]) => [row, { requestsFor }] as [Row, { requestsFor: (connection: number) => Request[] }]),
  ];
  for (const [row, requests] of measured) {
    log(`${row.label}: ${row.what}`);
    try {
      row.result = await measure({ url, serverPid: server.pid, beforeMeasuring: () => server.startLoopMonitor(), ...requests, ...settings });
      row.loop = await server.stopLoopMonitor();
      const { rps, p50, p99, failed, statusCodes } = row.result;
      log(`  ${Math.round(rps)} req/s, p50 ${p50} ms, p99 ${p99} ms${failed ? `, ${failed} FAILED ${JSON.stringify(statusCodes)}` : ''}`);
    } catch (error) {
      row.error = (error as Error).message;
      log(`  failed: ${row.error}`);
    }
  }
  return measured.map(([row]) => row);
}

/** Rows of the member's own in the default room, one per connection, for the update row. */
async function writableRows(url: string, seed: RowsBenchSeed, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let left = count; left > 0; left -= 100) {
    const res = await fetch(`${url}/v1/db/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        scope: { kind: 'resource', resourceId: seed.resourceId },
        table: 'tasks',
        op: 'insert',
        values: Array.from({ length: Math.min(100, left) }, (_, i) => ({ title: `own ${i}`, priority: 0 })),
      }),
    });
    if (res.status !== 200) throw new Error(`rows: inserting the member's rows -> ${res.status} ${await res.text()}`);
    ids.push(...((await res.json()) as { rows: { id: string }[] }).rows.map(row => row.id));
  }
  return ids;
}

/** Pages through the member's rows to the cursor after `skip` of them. */
async function cursorAfter(url: string, seed: RowsBenchSeed, skip: number): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let read = 0; read < skip; read += 50) {
    const res = await fetch(`${url}/v1/db/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        scope: { kind: 'resource', resourceId: seed.resourceId },
        table: 'tasks',
        op: 'select',
        limit: 50,
        ...(cursor ? { cursor } : {}),
      }),
    });
    const page = (await res.json()) as { nextCursor?: string | null };
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return cursor;
}

function formatReport(on: Backend, seed: RowsBenchSeed, rows: Row[]): string {
  const base = rows[0].result?.rps;
  const int = (n: number) => Math.round(n).toLocaleString('en-US');
  const header = ['', 'req/s', 'p50', 'p99', 'vs row 1', 'failed', 'loop max', 'cpu: server', 'db', 'loadgen', 'other'];
  const lines = rows.map(row => {
    if (!row.result) return [row.label, `error: ${row.error ?? 'not measured'}`, ...header.slice(2).map(() => '')];
    const { rps, p50, p99, failed, cpu } = row.result;
    return [
      row.label,
      int(rps),
      String(p50),
      String(p99),
      base ? (rps / base).toFixed(2) : '-',
      String(failed),
      row.loop ? int(row.loop.max) : '',
      ...cores(cpu),
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map(r => r[i].length)));
  const cpus = os.cpus();
  return `${[
    `Row store on ${on.label}`,
    `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; ${settings.connections} connections; ${settings.duration} s per row after ${settings.warmup} s of warmup.`,
    `Data: ${int(seed.rows)} rows of one resource in ${seed.rooms.length} rooms (${int(seed.rows / seed.rooms.length)} each); the reader holds grants in ${seed.grants}.`,
    'req/s = 2xx per second; p50/p99 = ms (1 ms resolution); vs row 1 = req/s over the primary-key read in this run.',
    ...[header, ...lines].map(r => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd()),
    ...rows.map(row => `  ${row.label.split('.')[0]}: ${row.what}`),
    '',
    'EXPLAIN (ANALYZE, BUFFERS) of row 2 (the page query):',
    ...seed.explainPage.map(line => `  ${line}`),
    '',
    'EXPLAIN (ANALYZE, BUFFERS) of row 1 (the primary-key read):',
    ...seed.explainPk.map(line => `  ${line}`),
  ].join('\n')}\n`;
}

function number(name: 'duration' | 'warmup' | 'connections' | 'rows' | 'rooms' | 'grants', min: number): number {
  const n = Number(values[name]);
  return Number.isFinite(n) && n >= min ? n : usage(`--${name} ${values[name]} (at least ${min})`);
}

function usage(bad: string): never {
  console.error(
    `bench/rows: bad option ${bad}\nusage: npx tsx bench/rows.ts [--backend postgres|pglite] [--duration 10] [--warmup 2] [--connections 50] [--rows 100000] [--rooms 100] [--grants 10]`,
  );
  process.exit(2);
}

function log(message: string) {
  process.stderr.write(`[bench rows] ${message}\n`);
}
