/**
 * A realistic workload (issue 27 item 4): an app of the product's kind, the notes app of
 * examples/notes-app (its schema, deployed as is), used by `--users` people across `--resources`
 * shared notebooks. Every user holds a live query of its notebook's notes (`rowsLive` over
 * graphql-ws, one socket each) and, at a fixed rate each, pulls a page of notes, pushes an edit of
 * one note by filter (`update ... where { key }`), and upserts its presence row. Arrivals are
 * scheduled in advance (open loop): a request is sent at its time whether or not earlier ones have
 * answered, and its latency runs from that scheduled time, so a slow server shows as latency
 * instead of as fewer requests (no coordinated omission).
 *
 *   npx tsx bench/workload.ts [--stores pglite,postgres] [--duration 60] [--users 200] [--resources 50]
 *                             [--pull-every 10] [--push-every 5] [--presence-every 5] [--json]
 *
 * The server is `gatehouse serve` itself (bin/gatehouse.mjs, as users start it), seeded through the
 * public surface only: `gatehouse dev-token create`, then the developer routes, the REST API and
 * `POST /v1/db/query`, so the bench does not depend on the server's internals. Reported per store:
 * sustained operations per second, p50/p99 per operation, the delivery latency of live updates
 * (an edit's scheduled time to its arrival at each member's live query, the pusher's own included),
 * and the server's CPU per operation (/proc, utime + stime of the server process over the window).
 * `--json` ends the output with one line `{ bench: 'workload', rows: [{ store, opsPerSecond, pullP50, ..., detail }] }`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { type BackendName, DEFAULT_POSTGRES_URL, prepareBackend } from './backends.js';
import { freePort } from './servers/lifecycle.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '60' },
    users: { type: 'string', default: '200' },
    resources: { type: 'string', default: '50' },
    'notes-per-resource': { type: 'string', default: '20' },
    'pull-every': { type: 'string', default: '10' },
    'push-every': { type: 'string', default: '5' },
    'presence-every': { type: 'string', default: '5' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
    json: { type: 'boolean', default: false },
  },
});
const num = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`bad --${name} ${values[name]}`);
  return n;
};
const settings = {
  duration: num('duration'),
  users: num('users'),
  resources: num('resources'),
  notesPerResource: num('notes-per-resource'),
  pullEvery: num('pull-every'),
  pushEvery: num('push-every'),
  presenceEvery: num('presence-every'),
};
const stores = values.stores!.split(',').map(s => s.trim()) as BackendName[];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'gatehouse.mjs');
const TICKS_PER_SECOND = 100;
const LIVE_QUERY = 'subscription($input: DbSelectInput!) { rowsLive(input: $input) { op snapshot row } }';

type Op = 'pull' | 'push' | 'presence';
const OPS: Op[] = ['pull', 'push', 'presence'];

interface User {
  id: string;
  token: string;
  device: string;
  notebook: Notebook;
}
interface Notebook {
  id: string;
  keys: string[];
}

function log(message: string) {
  process.stderr.write(`[workload] ${message}\n`);
}

/** `gatehouse serve` on a free port with the store's settings; resolves once /healthz answers. */
async function startServer(env: Record<string, string | undefined>) {
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    REDIS_URL: undefined,
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    // Every user pushes and upserts all run long: measure the writes, not per-person quotas.
    MAX_RESOURCES_PER_PERSON: '100000',
  };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: childEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', chunk => (output = (output + chunk).slice(-4_000)));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; ; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`gatehouse serve exited:\n${output}`);
    if (Date.now() > deadline) throw new Error('gatehouse serve: not healthy within 180 s');
    if (
      await fetch(`${url}/healthz`).then(
        r => r.ok,
        () => false,
      )
    )
      break;
  }
  return { child, url, env: childEnv };
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise(resolve => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  });
}

/** `gatehouse dev-token create` against the running server's store (through the server for an embedded one). */
function devToken(env: Record<string, string | undefined>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'dev-token', 'create', '--developer', `workload-${Date.now()}@example.test`, '--json'], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', chunk => (out += chunk));
    child.stderr!.on('data', chunk => (err += chunk));
    child.once('exit', code => {
      try {
        if (code !== 0) throw new Error(`dev-token create exited ${code}: ${err}`);
        resolve(JSON.parse(out.trim().split('\n').at(-1)!).token);
      } catch (error) {
        reject(error);
      }
    });
  });
}

function caller(url: string) {
  return async function call<T = any>(token: string, method: string, route: string, body?: unknown): Promise<T> {
    const res = await fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${route} -> ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

async function mapLimit<T>(count: number, limit: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

/** The notes app deployed, its users, their notebooks (each user in one, `users / resources` members each) and notes. */
async function seed(url: string, developerToken: string): Promise<User[]> {
  const call = caller(url);
  const { default: schema } = await import(pathToFileURL(path.join(ROOT, 'examples', 'notes-app', 'schema.ts')).href);
  const app = await call(developerToken, 'POST', '/dev/apps', { name: 'Notes workload', origins: ['https://notes.example.test'] });
  await call(developerToken, 'PUT', `/dev/apps/${app.id}/deployments/dev`, { schema });
  const people = await mapLimit(settings.users, 8, async i => {
    const minted = await call(developerToken, 'POST', `/dev/apps/${app.id}/test-users`, { name: `user-${i}`, env: 'dev' });
    return { id: minted.user_id as string, token: minted.token as string };
  });
  const perNotebook = Math.ceil(settings.users / settings.resources);
  const notebooks = await mapLimit(settings.resources, 4, async n => {
    const members = people.slice(n * perNotebook, (n + 1) * perNotebook);
    const [owner, ...others] = members;
    const notebook = await call(owner.token, 'POST', '/v1/resources', { type: 'notebook', name: `Notebook ${n}` });
    for (const member of others) {
      await call(owner.token, 'POST', `/v1/resources/${notebook.id}/invite`, { userId: member.id });
      await call(member.token, 'POST', `/v1/resources/${notebook.id}/accept`, {});
    }
    const keys = Array.from({ length: settings.notesPerResource }, () => randomUUID());
    await call(owner.token, 'POST', '/v1/db/query', {
      scope: { kind: 'resource', resourceId: notebook.id },
      table: 'notes',
      op: 'insert',
      values: keys.map((key, i) => ({ key, title: `Note ${i}`, body: 'Seeded.', stamp: `seed-${i}` })),
    });
    return { notebook: { id: notebook.id as string, keys }, members };
  });
  return notebooks.flatMap(({ notebook, members }) => members.map((m, i) => ({ ...m, device: `device-${i}`, notebook })));
}

/**
 * Each user's live query of its notebook's notes; `onChange` gets every change's row (not the
 * snapshot), `liveEnded` counts those that end (an error or the server completing them) by reason.
 */
async function holdLiveQueries(
  url: string,
  users: User[],
  onChange: (row: { stamp?: string }) => void,
  liveEnded: Record<string, number>,
): Promise<Client[]> {
  const wsUrl = `${url.replace(/^http/, 'ws')}/graphql`;
  return mapLimit(users.length, 20, async i => {
    const user = users[i];
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${user.token}` },
      retryAttempts: 0,
    });
    let ready = false;
    const ended = (reason: string) => {
      if (ready) liveEnded[reason] = (liveEnded[reason] ?? 0) + 1;
    };
    await new Promise<void>((resolve, reject) =>
      client.subscribe<{ rowsLive: { op: string; snapshot: boolean; row: { stamp?: string } } }>(
        { query: LIVE_QUERY, variables: { input: { scope: { kind: 'resource', resourceId: user.notebook.id }, table: 'notes' } } },
        {
          next: ({ data, errors }) => {
            if (errors) return reject(new Error(JSON.stringify(errors)));
            if (data!.rowsLive.op === 'ready') {
              ready = true;
              resolve();
            } else if (!data!.rowsLive.snapshot) onChange(data!.rowsLive.row);
          },
          error: error => {
            ended(`error: ${error instanceof Error ? error.message : ((error as { reason?: string }).reason ?? JSON.stringify(error))}`);
            reject(error);
          },
          complete: () => ended('completed by the server'),
        },
      ),
    );
    return client;
  });
}

/** Every operation's scheduled time (ms from the start): each user every `period` s per op, at a random phase. */
function schedule(users: User[]): { at: number; op: Op; user: User }[] {
  const periods: Record<Op, number> = { pull: settings.pullEvery, push: settings.pushEvery, presence: settings.presenceEvery };
  const out: { at: number; op: Op; user: User }[] = [];
  for (const user of users)
    for (const op of OPS) {
      const period = periods[op] * 1000;
      for (let at = Math.random() * period; at < settings.duration * 1000; at += period) out.push({ at, op, user });
    }
  return out.sort((a, b) => a.at - b.at);
}

function requestFor(op: Op, user: User, stamp: string) {
  const scope = { kind: 'resource', resourceId: user.notebook.id };
  switch (op) {
    case 'pull':
      return { scope, table: 'notes', op: 'select', orderBy: { column: 'updatedAt', direction: 'desc' }, limit: 50 };
    case 'push': {
      const key = user.notebook.keys[Math.floor(Math.random() * user.notebook.keys.length)];
      return { scope, table: 'notes', op: 'update', where: { key }, values: { title: `Edited ${stamp}`, stamp } };
    }
    case 'presence':
      return {
        scope,
        table: 'presence',
        op: 'upsert',
        values: { memberId: user.id, device: user.device, state: 'online', seenAt: new Date().toISOString() },
        onConflict: 'memberId,device',
      };
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10 : Number.NaN;

function ticksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]);
}

function postgresTicks(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += ticksOf(Number(pid));
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

async function runStore(name: BackendName) {
  const backend = await prepareBackend(name, values['postgres-url']);
  if ('skipped' in backend) return { store: name, skipped: backend.skipped };
  const started = await startServer(backend.env);
  const clients: Client[] = [];
  try {
    log(`${name}: gatehouse serve at ${started.url}; seeding ${settings.users} users in ${settings.resources} notebooks`);
    const t0 = Date.now();
    const users = await seed(started.url, await devToken(started.env));
    log(`${name}: seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s; opening ${users.length} live queries`);
    const sentAt = new Map<string, number>();
    const deliveries: number[] = [];
    let unmatched = 0;
    // This store's run only: its live queries end when its server stops, after the figures are taken.
    const liveEnded: Record<string, number> = {};
    clients.push(
      ...(await holdLiveQueries(
        started.url,
        users,
        row => {
          const at = row.stamp ? sentAt.get(row.stamp) : undefined;
          if (at === undefined) unmatched++;
          else deliveries.push(performance.now() - at);
        },
        liveEnded,
      )),
    );
    const plan = schedule(users);
    log(`${name}: ${plan.length} operations over ${settings.duration} s (open loop), every user holding a live query`);
    const results: Record<Op, { latencies: number[]; failed: number; statuses: Record<string, number> }> = {
      pull: { latencies: [], failed: 0, statuses: {} },
      push: { latencies: [], failed: 0, statuses: {} },
      presence: { latencies: [], failed: 0, statuses: {} },
    };
    const serverPid = started.child.pid!;
    const cpuBefore = { server: ticksOf(serverPid), db: name === 'postgres' ? postgresTicks() : 0, at: performance.now() };
    const start = performance.now();
    const inFlight = new Set<Promise<void>>();
    let next = 0;
    let maxLag = 0;
    while (next < plan.length) {
      const now = performance.now() - start;
      while (next < plan.length && plan[next].at <= now) {
        const { at, op, user } = plan[next++];
        maxLag = Math.max(maxLag, now - at);
        const scheduled = start + at;
        const stamp = `${op}-${next}`;
        if (op === 'push') sentAt.set(stamp, scheduled);
        const request = fetch(`${started.url}/v1/db/query`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(requestFor(op, user, stamp)),
        })
          .then(async res => {
            await res.arrayBuffer();
            const result = results[op];
            result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
            if (res.status === 200) result.latencies.push(performance.now() - scheduled);
            else result.failed++;
          })
          .catch((error: Error & { cause?: { code?: string } }) => {
            const result = results[op];
            const kind = `error ${error.cause?.code ?? error.message}`;
            result.statuses[kind] = (result.statuses[kind] ?? 0) + 1;
            result.failed++;
          });
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
      }
      await sleep(Math.max(0, Math.min(5, (plan[next]?.at ?? 0) - (performance.now() - start))));
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - start) / 1000;
    // Let the last edits reach their live queries.
    await sleep(2_000);
    const cpuSeconds = (ticksOf(serverPid) - cpuBefore.server) / TICKS_PER_SECOND;
    const dbSeconds = name === 'postgres' ? (postgresTicks() - cpuBefore.db) / TICKS_PER_SECOND : 0;
    const windowSeconds = (performance.now() - cpuBefore.at) / 1000;
    const ok = OPS.reduce((sum, op) => sum + results[op].latencies.length, 0);
    const members = Math.ceil(settings.users / settings.resources);
    deliveries.sort((a, b) => a - b);
    return {
      store: name,
      label: backend.label,
      opsPerSecond: ok / elapsed,
      scheduledPerSecond: plan.length / settings.duration,
      elapsed,
      ops: Object.fromEntries(
        OPS.map(op => {
          const sorted = results[op].latencies.sort((a, b) => a - b);
          return [
            op,
            {
              ok: sorted.length,
              failed: results[op].failed,
              statuses: results[op].statuses,
              p50: percentile(sorted, 50),
              p99: percentile(sorted, 99),
            },
          ];
        }),
      ),
      delivery: {
        count: deliveries.length,
        expected: results.push.latencies.length * members,
        unmatched,
        liveQueriesEnded: { ...liveEnded },
        p50: percentile(deliveries, 50),
        p99: percentile(deliveries, 99),
        max: percentile(deliveries, 100),
      },
      serverCores: cpuSeconds / windowSeconds,
      serverMsPerOp: (cpuSeconds * 1000) / ok,
      postgresCores: name === 'postgres' ? dbSeconds / windowSeconds : undefined,
      postgresMsPerOp: name === 'postgres' ? (dbSeconds * 1000) / ok : undefined,
      maxSchedulerLagMs: Math.round(maxLag),
    };
  } finally {
    for (const client of clients) await client.dispose();
    await stopServer(started.child);
    await backend.drop().catch(error => log(`${name}: could not remove the scratch database: ${error.message}`));
  }
}

const rows = [];
const loadAtStart = os.loadavg()[0];
for (const store of stores) rows.push(await runStore(store));
const out = [
  '',
  `Notes workload: ${settings.users} users in ${settings.resources} notebooks, each holding a live query; per user a page pull every ${settings.pullEvery} s, an edit by filter every ${settings.pushEvery} s, a presence upsert every ${settings.presenceEvery} s; ${settings.duration} s open loop.`,
  `${os.cpus().length} x ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end. Latency from each operation's scheduled time, ms.`,
];
for (const row of rows) {
  if ('skipped' in row) {
    out.push('', `${row.store}: skipped: ${row.skipped}`);
    continue;
  }
  out.push('', `${row.store}: ${row.label}`);
  out.push(
    `  sustained ${row.opsPerSecond.toFixed(1)} ops/s of ${row.scheduledPerSecond.toFixed(1)} scheduled (the last answer ${row.elapsed.toFixed(1)} s after the start); server ${row.serverCores.toFixed(2)} cores, ${row.serverMsPerOp.toFixed(2)} ms CPU per op` +
      (row.postgresCores !== undefined
        ? `; PostgreSQL (all its processes) ${row.postgresCores.toFixed(2)} cores, ${row.postgresMsPerOp!.toFixed(2)} ms per op`
        : ''),
  );
  for (const op of OPS) {
    const o = row.ops[op];
    out.push(
      `  ${op.padEnd(9)} ok ${String(o.ok).padStart(6)}  failed ${String(o.failed).padStart(5)}  p50 ${String(o.p50).padStart(7)}  p99 ${String(o.p99).padStart(7)}`,
    );
  }
  const d = row.delivery;
  out.push(`  live update delivery: ${d.count} of ${d.expected} expected, p50 ${d.p50}, p99 ${d.p99}, max ${d.max} ms (${d.unmatched} unmatched)`);
  const ended = Object.entries(d.liveQueriesEnded);
  if (ended.length) out.push(`  live queries ended during the run: ${ended.map(([why, n]) => `${n} x ${why}`).join(', ')}`);
  for (const op of OPS) {
    const failures = Object.entries(row.ops[op].statuses).filter(([status]) => status !== '200');
    if (failures.length) out.push(`  ${op} failures: ${failures.map(([status, n]) => `${n} x ${status}`).join(', ')}`);
  }
  if (row.maxSchedulerLagMs > 50)
    out.push(`  note: the load generator sent up to ${row.maxSchedulerLagMs} ms late (its own CPU); latency still counts from the schedule`);
}
process.stdout.write(`${out.join('\n')}\n`);
// Flat rows for `npm run bench`'s extras table (it shows a row's non-object values).
const flat = rows.map(row =>
  'skipped' in row
    ? row
    : {
        store: row.store,
        opsPerSecond: row.opsPerSecond,
        scheduledPerSecond: row.scheduledPerSecond,
        ...Object.fromEntries(
          OPS.flatMap(op => [
            [`${op}P50`, row.ops[op].p50],
            [`${op}P99`, row.ops[op].p99],
            [`${op}Failed`, row.ops[op].failed],
          ]),
        ),
        deliveryP50: row.delivery.p50,
        deliveryP99: row.delivery.p99,
        deliveries: row.delivery.count,
        expectedDeliveries: row.delivery.expected,
        serverMsPerOp: row.serverMsPerOp,
        postgresMsPerOp: row.postgresMsPerOp,
        detail: row,
      },
);
if (values.json) process.stdout.write(`${JSON.stringify({ bench: 'workload', rows: flat })}\n`);
process.exit(0);
