/**
 * `npx tsx bench/startup.ts [--runs 3] [--idle 2] [--only pglite-cold,pglite-fresh,pglite-restart,postgres-fresh,postgres-restart]
 *   [--root DIR] [--json]`
 *
 * Start-up and memory of `gatehouse serve` (bin/gatehouse.mjs, exactly as users start it):
 *   0. embedded store, a fresh DATA_DIR on a machine that has never run Gatehouse: no cluster
 *      template cached yet (GATEHOUSE_CACHE_DIR empty), so initdb runs;
 *   1. embedded store, another fresh DATA_DIR, the template now cached (every later new data dir);
 *   2. embedded store, a restart on the data directory of (1);
 *   3. PostgreSQL, a fresh scratch database (migrations on an empty database);
 *   4. PostgreSQL, a restart on that database.
 * Per row: ms from spawn to the first 200 from /healthz (polled every 10 ms on a port chosen
 * beforehand), the CPU the server used until then (utime + stime, all its threads: robust when
 * the machine is busy), and its RSS (VmRSS of /proc/<pid>/status) after it has been idle --idle
 * seconds, plus its peak (VmHWM). Baseline in the same run: `node -e` doing nothing (its time to
 * exit, and the RSS of an idle `node -e`), so ratios hold across machines. Each figure is the
 * median of --runs runs. --root runs another checkout's bin (e.g. the commit before, for a
 * same-run before/after). With --json one JSON line ({ bench: 'startup', rows: [...] }) ends
 * stdout. A measurement, not a test: exits 0 whatever the figures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Backend, DEFAULT_POSTGRES_URL, prepareBackend } from './backends.js';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 120_000;
const POLL_MS = 10;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    idle: { type: 'string', default: '2' },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
    root: { type: 'string' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
  },
});
const runs = Math.max(1, Number(values.runs) || 1);
const idleMs = Math.max(0, Number(values.idle) * 1000);
const only = values.only ? new Set(values.only.split(',').map(s => s.trim())) : undefined;
const wanted = (id: string) => !only || only.has(id);
const ROOT = path.resolve(values.root ?? HERE);
const BIN = path.join(ROOT, 'bin', 'gatehouse.mjs');
const TICKS_PER_SECOND = 100;

interface Sample {
  ms: number;
  /** CPU ms the process used until healthy (0 for the node baseline: its whole run is `ms`). */
  cpuMs: number;
  rssMB: number;
  peakMB: number;
}

interface Row {
  id: string;
  label: string;
  target?: { ms?: number; rssMB?: number };
  samples: Sample[];
  error?: string;
}

const ROWS: { id: string; label: string; target?: Row['target'] }[] = [
  { id: 'node', label: '(a) node -e "" (baseline: time to exit; RSS of an idle node -e)' },
  { id: 'pglite-cold', label: '(0) serve, embedded store, fresh DATA_DIR, no cluster template cached', target: { rssMB: 200 } },
  { id: 'pglite-fresh', label: '(1) serve, embedded store, fresh DATA_DIR (template cached)', target: { ms: 2000, rssMB: 200 } },
  { id: 'pglite-restart', label: '(2) serve, embedded store, restart on the same DATA_DIR', target: { ms: 1000, rssMB: 200 } },
  { id: 'postgres-fresh', label: '(3) serve, PostgreSQL, fresh scratch database', target: { rssMB: 120 } },
  { id: 'postgres-restart', label: '(4) serve, PostgreSQL, restart on the same database', target: { rssMB: 120 } },
];
const rows: Row[] = ROWS.filter(row => row.id === 'node' || wanted(row.id)).map(row => ({ ...row, samples: [] }));
const row = (id: string) => rows.find(r => r.id === id);

const live = new Set<ChildProcess>();
const scratch: Backend[] = [];
process.on('SIGINT', () => {
  log('interrupted: stopping servers and removing scratch data');
  for (const child of live) child.kill('SIGKILL');
  void Promise.all(scratch.map(b => b.drop().catch(() => {}))).finally(() => process.exit(130));
});

log(`${runs} run(s) per row, RSS read after ${idleMs / 1000} s idle`);
for (let run = 0; run < runs; run++) {
  await measureRow(row('node'), () => nodeBaseline());
  if (row('pglite-cold') || row('pglite-fresh') || row('pglite-restart')) await embedded();
  if (row('postgres-fresh') || row('postgres-restart')) await pair('postgres', 'postgres-fresh', 'postgres-restart');
}

process.stdout.write(`\n${formatReport()}`);
if (values.json) process.stdout.write(`${JSON.stringify(jsonReport())}\n`);
process.exit(0);

/**
 * The embedded rows on a cache directory of this run's own: the cold start fills it (initdb into
 * the template), the fresh start copies it, the restart reuses the fresh start's data.
 */
async function embedded(): Promise<void> {
  const cache = await mkdtemp(path.join(os.tmpdir(), 'gh-bench-cache-'));
  const cold = await prepareBackend('pglite');
  scratch.push(cold as Backend);
  try {
    // Always run: the rows after it need the template it leaves.
    await measureRow(row('pglite-cold'), () => serve({ ...(cold as Backend).env, GATEHOUSE_CACHE_DIR: cache }));
  } finally {
    await (cold as Backend).drop();
    scratch.splice(scratch.indexOf(cold as Backend), 1);
  }
  try {
    if (row('pglite-fresh') || row('pglite-restart')) await pair('pglite', 'pglite-fresh', 'pglite-restart', { GATEHOUSE_CACHE_DIR: cache });
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
}

/** A fresh start and a restart on the same data. */
async function pair(name: 'pglite' | 'postgres', freshId: string, restartId: string, env: Record<string, string> = {}): Promise<void> {
  const prepared = await prepareBackend(name, values['postgres-url']);
  if ('skipped' in prepared) {
    for (const id of [freshId, restartId]) {
      const r = row(id);
      if (r) r.error = prepared.skipped;
    }
    return;
  }
  scratch.push(prepared);
  try {
    // The fresh start always runs: the restart needs the data it leaves behind.
    const fresh = await measureRow(row(freshId), () => serve({ ...prepared.env, ...env }));
    if (fresh) await measureRow(row(restartId), () => serve({ ...prepared.env, ...env }));
  } finally {
    await prepared.drop().catch(error => log(`could not remove scratch data: ${error.message}`));
    scratch.splice(scratch.indexOf(prepared), 1);
  }
}

async function measureRow(target: Row | undefined, fn: () => Promise<Sample>): Promise<boolean> {
  try {
    const sample = await fn();
    if (target) {
      target.samples.push(sample);
      log(
        `${target.id}: ${sample.ms.toFixed(0)} ms (${sample.cpuMs.toFixed(0)} ms CPU), ${sample.rssMB.toFixed(0)} MB RSS (peak ${sample.peakMB.toFixed(0)} MB)`,
      );
    }
    return true;
  } catch (error) {
    if (target) target.error = (error as Error).message.split('\n')[0];
    log(`${target?.id ?? '?'}: ${(error as Error).message}`);
    return false;
  }
}

/** node -e '' to exit, then the RSS of an idle node -e after the same wait as the servers. */
async function nodeBaseline(): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise(resolve => child.once('exit', resolve));
  const ms = performance.now() - started;
  const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 1e9)'], { stdio: 'ignore' });
  live.add(idle);
  try {
    await sleep(Math.max(idleMs, 500));
    return { ms, cpuMs: 0, ...(await memoryOf(idle.pid!)) };
  } finally {
    await stop(idle);
  }
}

/** `gatehouse serve` on a port picked beforehand: ms until /healthz answers 200, RSS once idle. */
async function serve(env: Record<string, string | undefined>): Promise<Sample> {
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: undefined,
    REDIS_URL: undefined,
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
  };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--json'], {
    cwd: ROOT,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  try {
    while (!(await healthy(port))) {
      if (exited) throw new Error(`serve exited before it was healthy:\n${output.trim()}`);
      if (performance.now() - started > START_TIMEOUT_MS) throw new Error(`not healthy within ${START_TIMEOUT_MS / 1000} s`);
      await sleep(POLL_MS);
    }
    const ms = performance.now() - started;
    const cpuMs = await cpuOf(child.pid!);
    await sleep(idleMs);
    if (exited) throw new Error(`serve exited while idle:\n${output.trim()}`);
    return { ms, cpuMs, ...(await memoryOf(child.pid!)) };
  } finally {
    await stop(child);
  }
}

function healthy(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 5_000 }, response => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

/** VmRSS and VmHWM of a process, in MB (bin/gatehouse.mjs re-executes in place: the pid stays). */
async function memoryOf(pid: number): Promise<{ rssMB: number; peakMB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
}

/** utime + stime of every thread of the process so far, in ms (/proc/<pid>/stat fields 14 and 15). */
async function cpuOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise(resolve => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(timer);
  }
  live.delete(child);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function summary(r: Row) {
  if (!r.samples.length) return undefined;
  return {
    ms: median(r.samples.map(s => s.ms)),
    cpuMs: median(r.samples.map(s => s.cpuMs)),
    rssMB: median(r.samples.map(s => s.rssMB)),
    peakMB: median(r.samples.map(s => s.peakMB)),
  };
}

function formatReport(): string {
  const base = summary(row('node')!);
  const header = ['', 'ms to healthy', 'x node', 'goal ms', 'cpu ms', 'idle RSS MB', 'x node', 'goal MB', 'peak MB'];
  const lines = rows.map(r => {
    const s = summary(r);
    if (!s) return [r.label, `error: ${r.error ?? 'no samples'}`, '', '', '', '', '', '', ''];
    return [
      r.label,
      s.ms.toFixed(0),
      base && r.id !== 'node' ? (s.ms / base.ms).toFixed(1) : '',
      r.target?.ms ? `< ${r.target.ms}` : '',
      r.id === 'node' ? '' : s.cpuMs.toFixed(0),
      s.rssMB.toFixed(0),
      base && r.id !== 'node' ? (s.rssMB / base.rssMB).toFixed(1) : '',
      r.target?.rssMB ? `< ${r.target.rssMB}` : '',
      s.peakMB.toFixed(0),
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map(l => l[i].length)));
  const cpus = os.cpus();
  return `${[
    'Start-up and memory of `gatehouse serve`',
    `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; ${ROOT}; median of ${runs} run(s); RSS after ${idleMs / 1000} s idle; load average ${os.loadavg()[0].toFixed(1)}.`,
    ...[header, ...lines].map(l => `  ${l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd()),
  ].join('\n')}\n`;
}

function jsonReport() {
  const base = summary(row('node')!);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    bench: 'startup',
    at: new Date().toISOString(),
    loadavg: os.loadavg().map(round),
    settings: { runs, idleSeconds: idleMs / 1000, root: ROOT },
    rows: rows.map(r => {
      const s = summary(r);
      return {
        id: r.id,
        label: r.label,
        ms: s ? Math.round(s.ms) : undefined,
        cpuMs: s && r.id !== 'node' ? Math.round(s.cpuMs) : undefined,
        rssMB: s ? round(s.rssMB) : undefined,
        peakMB: s ? round(s.peakMB) : undefined,
        msVsNode: s && base && r.id !== 'node' ? round(s.ms / base.ms) : undefined,
        rssVsNode: s && base && r.id !== 'node' ? round(s.rssMB / base.rssMB) : undefined,
        target: r.target,
        samples: r.samples.map(x => ({ ms: Math.round(x.ms), cpuMs: Math.round(x.cpuMs), rssMB: round(x.rssMB), peakMB: round(x.peakMB) })),
        error: r.samples.length ? undefined : r.error,
      };
    }),
  };
}

function sleep(ms: number) {
  return new Promise(resolve => setTimeout(resolve, ms));
}

function log(message: string) {
  process.stderr.write(`[bench startup] ${message}\n`);
}
