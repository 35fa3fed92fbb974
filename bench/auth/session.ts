/**
 * `npx tsx bench/auth/session.ts [--backend postgres|pglite] [--duration 10] [--warmup 2]
 *   [--connections 50] [--misses 2500] [--profile]`
 *
 * Gateway authentication on the hot read (`GET /v1/resources/:id`), each row next to the cached
 * Gatehouse test-session token (row 1) in the same run: the provider session cookie, the provider
 * access token as a bearer (both validated once, then cached for 60 s), a different valid
 * provider token on every request (each one introspected at the embedded provider), and
 * `GET /auth/session`. The server runs in a child (bench/servers/gatehouse-auth.ts), which signs people in
 * through the real provider over HTTP. A measurement, not a test: exits 0 whatever the figures.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request, type Result } from 'autocannon';
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
    /** Requests of the cache-miss row (a fixed count, one fresh token each; its warmup uses 10% more). */
    misses: { type: 'string', default: '2500' },
    /** CPU-profile the server child during the cache-miss row's measured requests. */
    profile: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
  },
});

const settings = { duration: number('duration', 1), warmup: number('warmup', 0), connections: number('connections', 1) };
const misses = number('misses', settings.connections);
const missWarmup = Math.max(settings.connections, Math.round(misses / 10));
if (values.backend !== undefined && values.backend !== 'postgres' && values.backend !== 'pglite') usage(`--backend ${values.backend}`);

const SERVER = 'gatehouse-auth';

interface Announced {
  baseline: { token: string; resourceId: string };
  session: SessionSeed;
}

type Row = BenchRow;

let backend: Backend | undefined;
cleanUpOnInterrupt(() => backend, log);

backend = await chooseBackend(values.backend as BackendName | undefined, values['postgres-url'] as string, log);
log(
  `${backend.label}: about ${4 * (settings.duration + settings.warmup)} s of timed rows, plus start-up, sign-in, minting tokens and the cache-miss row (${missWarmup} + ${misses} requests)`,
);
const busy = await busyElsewhere();
if (busy !== undefined && busy > 0.2)
  log(`warning: ${busy.toFixed(2)} cores are busy with other processes before any load; figures will be low (see the "other" CPU column)`);
let rows: Row[] = [];
try {
  log('starting Gatehouse, seeding and signing two people in through the embedded provider');
  const server = await spawnServer<Announced>(SERVER, { env: backend.env });
  try {
    rows = await measureRows(server);
  } finally {
    await server.stop();
  }
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await backend.drop().catch(error => log(`could not remove the scratch database: ${error.message}`));
}
if (rows.length) process.stdout.write(`\n${formatTable(backend, rows)}`);

async function measureRows(server: RunningServer<Announced>): Promise<Row[]> {
  const { url, baseline, session } = server.info;
  const read = `/v1/resources/${session.resourceId}`;
  // Minted before any row runs, so minting load is in no measurement; none of them is validated before row 4.
  // autocannon builds a connection's next request after each response, the last one unsent: one spare per connection and run.
  const needed = missWarmup + misses + 2 * settings.connections;
  log(`minting ${needed} provider access tokens (refresh_token grant at /idp/oauth2/token, one after another)`);
  const started = Date.now();
  const fresh = await mintAccessTokens(url, session, needed);
  log(`  ${fresh.length} tokens in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const get = (path: string, headers: Record<string, string>): Request[] => [{ method: 'GET', path, headers }];
  const rows: [Row, () => Promise<Measurement>][] = [
    [
      {
        label: '1. test-session bearer (gst_), cached',
        what: "GET /v1/resources/:id by a writer member of a room of two, in a dev deployment (npm run bench's rest-get)",
      },
      () => timed(get(`/v1/resources/${baseline.resourceId}`, { authorization: `Bearer ${baseline.token}` })),
    ],
    [
      { label: '2. session cookie, cached', what: 'the same read in the prod deployment (GATEWAY_ENV), Cookie: gh_session + gh_client' },
      () => timed(get(read, { cookie: session.cookie })),
    ],
    [
      { label: '3. provider bearer, cached', what: 'the same read, Authorization: Bearer <access token>' },
      () => timed(get(read, { authorization: `Bearer ${session.accessToken}` })),
    ],
    [
      {
        label: '4. provider bearer, every one a miss',
        what: `the same read, a new token per request: ${misses} requests (fixed count) after ${missWarmup}`,
      },
      () => measureMisses(server, read, fresh),
    ],
    [
      { label: '5. GET /auth/session, cookie, cached', what: '{ authenticated, user_id }' },
      () => timed(get('/auth/session', { cookie: session.cookie })),
    ],
  ];

  function timed(requests: Request[]) {
    return measure({ url, serverPid: server.pid, beforeMeasuring: () => server.startLoopMonitor(), requests, ...settings });
  }

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
 * Row 4: every request carries the next unused token, so each is introspected at the provider.
 * The tokens are minted beforehand, so the row runs for a fixed number of requests.
 */
async function measureMisses(server: RunningServer<Announced>, read: string, tokens: string[]): Promise<Measurement> {
  let next = 0;
  const requests: Request[] = [
    {
      method: 'GET',
      path: read,
      // Out of tokens (not expected: see `needed`), a request is refused and shows as a failure.
      setupRequest: req => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[next++] ?? 'out-of-tokens'}` } }),
    },
  ];
  const run = (amount: number) => autocannon({ url: server.info.url, connections: settings.connections, amount, requests });
  const warmup = await run(missWarmup);
  await server.startLoopMonitor();
  if (values.profile) await server.startProfile();
  const endCpuWindow = startCpuWindow(server.pid);
  const result = await run(misses);
  const cpu = endCpuWindow?.();
  if (values.profile) await printProfile(server);
  const warm = summarize(warmup);
  return { ...summarize(result), cpu, ...(warm.failed ? { warmup: { failed: warm.failed, statusCodes: warm.statusCodes } } : {}) };
}

/** As bench/load.ts reports a run: 2xx responses per second, their latency, failures by status. */
function summarize(result: Result): Measurement {
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/** A chain of refresh_token grants as the app's public client: each answer's refresh token is the next request's (rotation). */
async function mintAccessTokens(url: string, session: SessionSeed, count: number): Promise<string[]> {
  const tokens: string[] = [];
  let refreshToken = session.refreshToken;
  while (tokens.length < count) {
    const res = await fetch(`${url}/idp/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: session.clientId }),
    });
    const body = (await res.json()) as { access_token?: string; refresh_token?: string; error?: string };
    if (res.status !== 200 || !body.access_token) throw new Error(`minting tokens: refresh -> ${res.status} ${JSON.stringify(body)}`);
    tokens.push(body.access_token);
    refreshToken = body.refresh_token ?? refreshToken;
  }
  return tokens;
}

async function printProfile(server: RunningServer<Announced>) {
  const file = path.join(os.tmpdir(), `gh-bench-auth-misses-${Date.now()}.cpuprofile`);
  await server.stopProfile(file);
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  process.stderr.write(
    `\ncache-miss row, server child CPU profile (profiling slows the server):\n${formatProfileSummary(summarizeProfile(profile), 25)}\n\nprofile: ${file}\n\n`,
  );
}

function formatTable(on: Backend, rows: Row[]): string {
  const base = rows[0].result?.rps;
  const int = (n: number) => Math.round(n).toLocaleString('en-US');
  const header = ['', 'req/s', 'p50', 'p99', 'vs row 1', 'non-2xx', 'errors', 'loop max', 'cpu: server', 'db', 'loadgen', 'other'];
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
      String(non2xx),
      String(failed - non2xx),
      row.loop ? int(row.loop.max) : '',
      ...cores(cpu),
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map(r => r[i].length)));
  const cpus = os.cpus();
  return `${[
    `Gateway auth on ${on.label}`,
    `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; ${settings.connections} connections; rows 1-3 and 5: ${settings.duration} s after ${settings.warmup} s of warmup; row 4: ${misses} requests after ${missWarmup}.`,
    'req/s = 2xx per second; p50/p99 = ms (1 ms resolution); vs row 1 = req/s over row 1 (the test-session bearer) in this run;',
    "loop max = the server's event-loop delay in ms; cpu = cores used by the server child, PostgreSQL, the load generator, everything else.",
    ...[header, ...lines].map(r => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd()),
    ...rows.map(row => `  ${row.label.split('.')[0]}: ${row.what}`),
    ...(notes.length ? ['  notes:', ...notes] : []),
  ].join('\n')}\n`;
}

function number(name: 'duration' | 'warmup' | 'connections' | 'misses', min: number): number {
  const n = Number(values[name]);
  return Number.isFinite(n) && n >= min ? n : usage(`--${name} ${values[name]} (at least ${min})`);
}

function usage(bad: string): never {
  console.error(
    `bench/auth/session: bad option ${bad}\nusage: npx tsx bench/auth/session.ts [--backend postgres|pglite] [--duration 10] [--warmup 2] [--connections 50] [--misses 2500] [--profile]`,
  );
  process.exit(2);
}

function log(message: string) {
  process.stderr.write(`[bench auth] ${message}\n`);
}
