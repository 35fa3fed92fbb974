/**
 * `npx tsx bench/auth/session.ts [--backend postgres|pglite] [--duration 10] [--warmup 2]
 *   [--connections 50] [--misses 10000] [--opaque-misses 2000] [--profile] [--json]`
 *
 * Gateway authentication on the hot read (`GET /v1/resources/:id`), each row next to the cached
 * Gatehouse test-session token (row 1) in the same run: the provider session cookie, the provider
 * access token as a bearer (both validated once, then cached for 60 s), a different never-seen
 * provider token on every request (a JWT access token verified locally against the provider's
 * JWKS; an opaque one introspected at the embedded provider), and `GET /auth/session`. The server
 * runs in a child (bench/servers/gatehouse-auth.ts), which signs people in through the real
 * provider over HTTP: the first child with IDP_JWT_ACCESS_TOKENS=1 (rows 1-4 and 6), a second on
 * the same database with opaque access tokens (row 5). `--json` ends the output with one JSON line
 * (`{ bench: 'auth', rows: [...] }`) for `npm run bench`. A measurement, not a test: exits 0
 * whatever the figures.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Client, type Request, type Result } from 'autocannon';
import { type Backend, type BackendName, DEFAULT_POSTGRES_URL } from '../backends.js';
import { type BenchRow, chooseBackend, cleanUpOnInterrupt, cores } from '../standalone.js';
import { type CpuProfile, formatProfileSummary, summarizeProfile } from '../cpu-profile.js';
import { busyElsewhere, startCpuWindow } from '../cpu-usage.js';
import { measure, type Measurement } from '../load.js';
import { type RunningServer, spawnServer } from '../spawn-server.js';
import type { SessionSeed } from '../servers/gatehouse-auth.js';

const { values } = parseArgs({
  options: {
    /** Default: PostgreSQL when it answers, else PGlite. */
    backend: { type: 'string' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    /** Requests of the JWT cache-miss row (a fixed count, one fresh token each; its warmup uses 10% more). */
    misses: { type: 'string', default: '10000' },
    /** The same for the opaque-token row, about ten times slower. */
    'opaque-misses': { type: 'string', default: '2000' },
    /** CPU-profile the server child during row 3 and each cache-miss row's measured requests. */
    profile: { type: 'boolean', default: false },
    /** End with one JSON line of the rows (for bench/run.ts). */
    json: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
  },
});

const settings = { duration: number('duration', 1), warmup: number('warmup', 0), connections: number('connections', 1) };
const misses = number('misses', settings.connections);
const opaqueMisses = number('opaque-misses', settings.connections);
/** Unmeasured requests before a cache-miss row: 10% of it, at least one per connection. */
function warmupOf(count: number): number {
  return Math.max(settings.connections, Math.round(count / 10));
}
if (values.backend !== undefined && values.backend !== 'postgres' && values.backend !== 'pglite') usage(`--backend ${values.backend}`);

const SERVER = 'gatehouse-auth';

interface Announced {
  baseline: { token: string; resourceId: string };
  session: SessionSeed;
}

type Row = BenchRow & { id: string };

let backend: Backend | undefined;
cleanUpOnInterrupt(() => backend, log);

backend = await chooseBackend(values.backend as BackendName | undefined, values['postgres-url'] as string, log);
log(
  `${backend.label}: about ${4 * (settings.duration + settings.warmup)} s of timed rows, plus two start-ups, sign-in, minting tokens and two cache-miss rows (${misses} and ${opaqueMisses} requests)`,
);
const busy = await busyElsewhere();
if (busy !== undefined && busy > 0.2)
  log(`warning: ${busy.toFixed(2)} cores are busy with other processes before any load; figures will be low (see the "other" CPU column)`);
let rows: Row[] = [];
try {
  // Both settings explicitly, whatever the configuration's default: the rows compare them.
  log('starting Gatehouse (JWT access tokens), seeding and signing two people in through the embedded provider');
  rows = await withServer('1', measureRows);
  log('starting Gatehouse again on the same database, with opaque access tokens (introspected)');
  const opaque = await withServer('0', measureOpaque);
  rows.splice(4, 0, opaque);
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await backend.drop().catch(error => log(`could not remove the scratch database: ${error.message}`));
}
if (rows.length) process.stdout.write(`\n${formatTable(backend, rows)}`);
if (values.json) process.stdout.write(`${JSON.stringify(jsonReport(backend, rows))}\n`);

async function withServer<T>(jwtAccessTokens: '0' | '1', run: (server: RunningServer<Announced>) => Promise<T>): Promise<T> {
  const server = await spawnServer<Announced>(SERVER, {
    env: { ...backend!.env, IDP_JWT_ACCESS_TOKENS: jwtAccessTokens },
  });
  try {
    if (server.info.session.jwtAccessTokens !== (jwtAccessTokens === '1'))
      throw new Error(`the child did not take IDP_JWT_ACCESS_TOKENS=${jwtAccessTokens}`);
    return await run(server);
  } finally {
    await server.stop();
  }
}

async function measureRows(server: RunningServer<Announced>): Promise<Row[]> {
  const { url, baseline, session } = server.info;
  const read = `/v1/resources/${session.resourceId}`;
  const get = (path: string, headers: Record<string, string>): Request[] => [{ method: 'GET', path, headers }];
  const timed = async (requests: Request[], profiled = false) => {
    const profile = profiled && values.profile;
    const beforeMeasuring = async () => {
      await server.startLoopMonitor();
      if (profile) await server.startProfile();
    };
    const measured = await measure({ url, serverPid: server.pid, beforeMeasuring, requests, ...settings });
    if (profile) await printProfile(server, 'row 3 (cached provider bearer)');
    return measured;
  };
  return runRows(server, [
    [
      {
        id: 'test-session-cached',
        label: '1. test-session bearer (gst_), cached',
        what: "GET /v1/resources/:id by a writer member of a room of two, in a dev deployment (npm run bench's rest-get)",
      },
      () => timed(get(`/v1/resources/${baseline.resourceId}`, { authorization: `Bearer ${baseline.token}` })),
    ],
    [
      {
        id: 'cookie-cached',
        label: '2. session cookie, cached',
        what: 'the same read in the prod deployment (GATEWAY_ENV), Cookie: gh_session + gh_client',
      },
      () => timed(get(read, { cookie: session.cookie })),
    ],
    [
      { id: 'provider-bearer-cached', label: '3. provider bearer, cached', what: 'the same read, Authorization: Bearer <JWT access token>' },
      () => timed(get(read, { authorization: `Bearer ${session.accessToken}` }), true),
    ],
    [
      {
        id: 'jwt-miss',
        label: '4. provider JWT, every one a miss',
        what: `the same read, a new JWT access token per request, verified against the JWKS: ${misses} requests (fixed count) after ${warmupOf(misses)}`,
      },
      async () => measureMisses(server, read, await mint(session, 'JWT', misses), misses),
    ],
    [
      { id: 'auth-session-cached', label: '6. GET /auth/session, cookie, cached', what: '{ authenticated, user_id }' },
      () => timed(get('/auth/session', { cookie: session.cookie })),
    ],
  ]);
}

/** Row 5, in the second child (opaque access tokens): every request introspected at the embedded provider. */
async function measureOpaque(server: RunningServer<Announced>): Promise<Row> {
  const { session } = server.info;
  const [row] = await runRows(server, [
    [
      {
        id: 'opaque-miss',
        label: '5. provider opaque, every one a miss',
        what: `the same read with IDP_JWT_ACCESS_TOKENS=0, a new opaque token per request, introspected: ${opaqueMisses} requests after ${warmupOf(opaqueMisses)}`,
      },
      async () => measureMisses(server, `/v1/resources/${session.resourceId}`, await mint(session, 'opaque', opaqueMisses), opaqueMisses),
    ],
  ]);
  return row;
}

async function runRows(server: RunningServer<Announced>, rows: [Row, () => Promise<Measurement>][]): Promise<Row[]> {
  for (const [row, run] of rows) {
    log(`${row.label}: ${row.what}`);
    try {
      row.result = await run();
      row.loop = await server.stopLoopMonitor();
      const failed = row.result.failed + (row.result.warmup?.failed ?? 0);
      log(
        `  ${Math.round(row.result.rps)} req/s, p50 ${row.result.p50} ms, p99 ${row.result.p99} ms${failed ? `, ${failed} FAILED ${JSON.stringify(row.result.statusCodes)}` : ''}`,
      );
    } catch (error) {
      row.error = (error as Error).message;
      log(`  failed: ${row.error}`);
    }
  }
  return rows.map(([row]) => row);
}

/**
 * Tokens for a cache-miss row of `count` requests, each used once (tokensNeeded), from the child's
 * minter: right before the row, so the rows before it do not run among the minting's garbage (the
 * row's own warmup does), and never in a measurement.
 */
async function mint(session: SessionSeed, kind: string, count: number): Promise<string[]> {
  const needed = tokensNeeded(count);
  log(`minting ${needed} ${kind} access tokens of the reader's grant (servers/token-minter.ts)`);
  const started = Date.now();
  const tokens: string[] = [];
  while (tokens.length < needed) {
    const res = await fetch(`${session.minter}?count=${Math.min(5_000, needed - tokens.length)}`);
    if (!res.ok) throw new Error(`minting tokens: ${res.status} ${await res.text()}`);
    tokens.push(...((await res.json()) as string[]));
  }
  const seconds = (Date.now() - started) / 1000;
  log(`  ${tokens.length} tokens in ${seconds.toFixed(1)} s (${Math.round(tokens.length / seconds)}/s)`);
  if (new Set(tokens).size !== tokens.length) throw new Error('minting tokens: the provider issued a token twice');
  // Let the child's collector catch up with the minting before the warmup starts.
  await new Promise(resolve => setTimeout(resolve, 2_000));
  return tokens;
}

/**
 * Rows 4 and 5: every request carries the next unused token, so each is a cache miss.
 * The tokens are minted beforehand, so the row runs for a fixed number of requests.
 */
async function measureMisses(server: RunningServer<Announced>, read: string, tokens: string[], count: number): Promise<Measurement> {
  let next = 0;
  // Each connection cycles through a list of its own, prebuilt (a setupRequest per request would
  // load the load generator more than the cached rows'), one token more than it sends (below).
  const run = (amount: number) =>
    counted(server.info.url, amount, client => {
      const own = tokens.slice(next, (next += perConnection(amount)));
      if (own.length < perConnection(amount)) throw new Error('out of minted tokens (see tokensNeeded)');
      client.setRequests(own.map(token => ({ method: 'GET', path: read, headers: { authorization: `Bearer ${token}` } })));
    });
  const warmup = await run(warmupOf(count));
  await server.startLoopMonitor();
  if (values.profile) await server.startProfile();
  const endCpuWindow = startCpuWindow(server.pid);
  const result = await run(count);
  const cpu = endCpuWindow?.();
  if (values.profile) await printProfile(server, 'the cache-miss row');
  const warm = summarize(warmup);
  return { ...summarize(result), cpu, ...(warm.failed ? { warmup: { failed: warm.failed, statusCodes: warm.statusCodes } } : {}) };
}

/**
 * A fixed number of requests, timed from the start to the last response: autocannon ends an
 * `amount` run only on its next sampling tick (1 s by default) and reports that duration, which
 * counted up to a second of idle time (2,500 requests done in 1.1 s read as 2.0 s, about half the
 * real rate). Ticks of 50 ms also keep that idle tail out of the CPU columns.
 */
async function counted(url: string, amount: number, setupClient: (client: Client) => void): Promise<Result & { elapsed: number }> {
  const instance = autocannon({ url, connections: settings.connections, amount, setupClient, sampleInt: 50 });
  // After the connections' request lists are built (synchronously, above), before any is sent.
  const started = performance.now();
  let last = started;
  instance.on('response', () => {
    last = performance.now();
  });
  const result = await instance;
  return { ...result, elapsed: (last - started) / 1000 };
}

/** As bench/load.ts reports a run: 2xx responses per second (over the measured time), their latency, failures by status. */
function summarize(result: Result & { elapsed: number }): Measurement {
  return {
    rps: result['2xx'] / result.elapsed,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/**
 * autocannon spreads an `amount` over the connections (at most ceil(amount / connections) each) and
 * builds each connection's next request after every response, the last one unsent: one spare each.
 */
function perConnection(amount: number): number {
  return Math.ceil(amount / settings.connections) + 1;
}

function tokensNeeded(count: number): number {
  return settings.connections * (perConnection(warmupOf(count)) + perConnection(count));
}

async function printProfile(server: RunningServer<Announced>, what: string) {
  const file = path.join(os.tmpdir(), `gh-bench-auth-${Date.now()}.cpuprofile`);
  await server.stopProfile(file);
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  process.stderr.write(
    `\n${what}, server child CPU profile (profiling slows the server):\n${formatProfileSummary(summarizeProfile(profile), 25)}\n\nprofile: ${file}\n\n`,
  );
}

function formatTable(on: Backend, rows: Row[]): string {
  const base = rows[0].result?.rps;
  const int = (n: number) => Math.round(n).toLocaleString('en-US');
  const cached = rows.find(row => row.id === 'provider-bearer-cached')?.result?.rps;
  const header = [
    '',
    'req/s',
    'p50',
    'p99',
    'vs row 1',
    'vs row 3',
    'non-2xx',
    'errors',
    'loop max',
    'server µs/req',
    'cpu: server',
    'db',
    'loadgen',
    'other',
  ];
  const notes: string[] = [];
  const lines = rows.map(row => {
    if (!row.result) return [row.label, `error: ${row.error ?? 'not measured'}`, ...header.slice(2).map(() => '')];
    const { rps, p50, p99, statusCodes, failed, cpu, warmup } = row.result;
    const non2xx = Object.entries(statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? 0 : count), 0);
    if (failed) notes.push(`  ${row.label}: status codes ${JSON.stringify(statusCodes)}`);
    if (warmup) notes.push(`  ${row.label}: ${warmup.failed} failed in the warmup, status codes ${JSON.stringify(warmup.statusCodes)}`);
    return [
      row.label,
      int(rps),
      String(p50),
      String(p99),
      base ? (rps / base).toFixed(2) : '-',
      cached ? (rps / cached).toFixed(2) : '-',
      String(non2xx),
      String(failed - non2xx),
      row.loop ? int(row.loop.max) : '',
      cpu ? int((cpu.server / rps) * 1e6) : '',
      ...cores(cpu),
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map(r => r[i].length)));
  const cpus = os.cpus();
  return `${[
    `Gateway auth on ${on.label}`,
    `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; ${settings.connections} connections; rows 1-3 and 6: ${settings.duration} s after ${settings.warmup} s of warmup; rows 4 and 5: ${misses} and ${opaqueMisses} requests after 10% more.`,
    'req/s = 2xx per second; p50/p99 = ms (1 ms resolution); vs row 1/3 = req/s over row 1 (the test-session bearer) or row 3',
    '(the cached provider bearer: the same token kind, deployment and read as rows 4 and 5) in this run;',
    "loop max = the server's event-loop delay in ms; server µs/req = the server child's CPU per 2xx response (steadier than req/s",
    'when other processes take CPU); cpu = cores used by the server child, PostgreSQL, the load generator, everything else.',
    ...[header, ...lines].map(r => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd()),
    ...rows.map(row => `  ${row.label.split('.')[0]}: ${row.what}`),
    ...(notes.length ? ['  notes:', ...notes] : []),
  ].join('\n')}\n`;
}

function jsonReport(on: Backend, rows: Row[]) {
  const base = rows[0]?.result?.rps;
  const cached = rows.find(row => row.id === 'provider-bearer-cached')?.result?.rps;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    bench: 'auth',
    backend: on.name,
    at: new Date().toISOString(),
    loadavg: os.loadavg().map(round),
    settings: { ...settings, misses, opaqueMisses },
    rows: rows.map(({ id, label, result, error }) => ({
      id,
      label,
      rps: result ? Math.round(result.rps) : undefined,
      p50: result?.p50,
      p99: result?.p99,
      failed: result ? result.failed + (result.warmup?.failed ?? 0) : undefined,
      serverUsPerRequest: result?.cpu ? Math.round((result.cpu.server / result.rps) * 1e6) : undefined,
      vsRow1: result && base ? round(result.rps / base) : undefined,
      // The cached provider bearer: the same token kind, deployment and read as the miss rows.
      vsRow3: result && cached ? round(result.rps / cached) : undefined,
      error,
    })),
  };
}

function number(name: 'duration' | 'warmup' | 'connections' | 'misses' | 'opaque-misses', min: number): number {
  const n = Number(values[name]);
  return Number.isFinite(n) && n >= min ? n : usage(`--${name} ${values[name]} (at least ${min})`);
}

function usage(bad: string): never {
  console.error(
    `bench/auth/session: bad option ${bad}\nusage: npx tsx bench/auth/session.ts [--backend postgres|pglite] [--duration 10] [--warmup 2] [--connections 50] [--misses 10000] [--opaque-misses 2000] [--profile] [--json]`,
  );
  process.exit(2);
}

function log(message: string) {
  process.stderr.write(`[bench auth] ${message}\n`);
}
