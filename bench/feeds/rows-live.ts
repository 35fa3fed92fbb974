/**
 * Live rows fan-out (issue 24 item 7): N `rowsLive` subscribers on one resource, one insert at a
 * time, and what the rest of the server feels meanwhile: `/healthz` latency while the change is
 * being judged and delivered, against the same run's idle `/healthz` (the baseline), plus how long
 * delivery to every subscriber took and what the fan-out did (judgements, batched role lookups,
 * turns given back to the event loop). A second baseline is the same inserts before anyone
 * subscribed: what the write alone costs `/healthz`. Not a test: it prints and exits 0.
 *
 *   npx tsx bench/feeds/rows-live.ts [--subscribers 2000] [--principals 1,100] [--rounds 5] [--stores pglite,postgres] [--json]
 *   ROWS_LIVE_PROF=/tmp/prof npx tsx bench/feeds/rows-live.ts --principals 100 --stores pglite   # + the server's CPU profile
 *
 * `--principals 1` is the case: one person's 2,000 subscriptions (20 sockets x 100, the
 * per-principal caps); 100 spreads them over 100 members (20 each), so 100 distinct subscribers
 * are judged per change. The server is a forked child (rows-live-server.ts) on its own core; four
 * probe loops here send `GET /healthz` back to back the whole time. `--json` ends the output with
 * one line `{"rows":[{store, principals, subscribers, idle: {p50, p99, max, n}, writeAlone: {…}, delivery: {…}, deliverMs: [...], cpuPerChangeMs, stats}]}`.
 */
import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { serverEnv, serverNodeFlags } from '../../bin/server-flags.mjs';
import { type BackendName, prepareBackend } from '../backends.js';
import { childScript } from '../spawn-server.js';
import { childIpc } from './child-ipc.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '2000' },
    principals: { type: 'string', default: '1,100' },
    rounds: { type: 'string', default: '5' },
    stores: { type: 'string', default: 'pglite,postgres' },
    json: { type: 'boolean', default: false },
  },
});
const subscribers = Number(values.subscribers);
const rounds = Number(values.rounds);
const log = values.json ? (..._: unknown[]) => {} : console.log;
const PER_SOCKET = 100;
const PROBES = 4;
const QUERY = 'subscription($input: DbSelectInput!) { rowsLive(input: $input) { op snapshot row } }';

interface Ready {
  url: string;
  resourceId: string;
  tokens: string[];
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : Number.NaN);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { n: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? Number.NaN) };
}

async function startServer(principals: number, env: Record<string, string | undefined>) {
  const { script, nodeArgs } = await childScript('feeds/rows-live-server');
  const childEnv = { ...process.env, ...env };
  const child = fork(script, [String(principals)], {
    // ROWS_LIVE_PROF=<dir>: a CPU profile of the server child (its whole life) into that directory.
    execArgv: [
      ...serverNodeFlags([], {}),
      ...nodeArgs,
      ...(process.env.ROWS_LIVE_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.ROWS_LIVE_PROF}`] : []),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...childEnv, ...serverEnv(childEnv) },
  });
  const { ready, ask, stop } = childIpc<Ready>(child, 'rows-live server');
  return { ready: await ready, ask, stop };
}

/**
 * Opens the subscriptions (sockets of up to 100 per principal) a socket at a time, each socket's
 * at once, and resolves once every snapshot is in. (All 2,000 at once would be 2,000 snapshot
 * transactions at once: on PostgreSQL past the pool's wait, answered `busy`.)
 */
async function subscribeAll(server: Ready, onChange: () => void): Promise<Client[]> {
  const wsUrl = `${server.url.replace(/^http/, 'ws')}/graphql`;
  const perPrincipal = Math.ceil(subscribers / server.tokens.length);
  const clients: Client[] = [];
  const ready: Promise<void>[] = [];
  let left = subscribers;
  for (const token of server.tokens) {
    for (let mine = Math.min(perPrincipal, left); mine > 0; mine -= PER_SOCKET) {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
      clients.push(client);
      await Promise.all(ready);
      for (let i = 0; i < Math.min(PER_SOCKET, mine); i++) {
        left--;
        ready.push(
          new Promise((resolve, reject) =>
            client.subscribe<{ rowsLive: { op: string; snapshot: boolean } }>(
              { query: QUERY, variables: { input: { scope: { kind: 'resource', resourceId: server.resourceId }, table: 'tasks' } } },
              {
                next: ({ data, errors }) => {
                  if (errors) return reject(new Error(JSON.stringify(errors)));
                  if (data!.rowsLive.op === 'ready') resolve();
                  else if (!data!.rowsLive.snapshot) onChange();
                },
                error: reject,
                complete: () => {},
              },
            ),
          ),
        );
      }
    }
  }
  await Promise.all(ready);
  return clients;
}

/** `PROBES` loops of back-to-back GET /healthz until `stop`; each sample is when it was sent and how long it took. */
function probe(url: string) {
  const samples: { at: number; ms: number }[] = [];
  let running = true;
  const loops = Array.from({ length: PROBES }, async () => {
    while (running) {
      const at = performance.timeOrigin + performance.now();
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      samples.push({ at, ms: performance.timeOrigin + performance.now() - at });
    }
  });
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function run(store: BackendName, principals: number) {
  const backend = await prepareBackend(store);
  if (!('env' in backend)) {
    log(`${store}: skipped (${backend.skipped})`);
    return null;
  }
  const server = await startServer(principals, backend.env);
  try {
    // The same inserts with nobody subscribed: what the write alone costs /healthz (the second baseline).
    const alone = probe(server.ready.url);
    const aloneWindows: [number, number][] = [];
    for (let round = 0; round < rounds; round++) {
      const asked = performance.timeOrigin + performance.now();
      await server.ask('insert');
      aloneWindows.push([asked, performance.timeOrigin + performance.now()]);
      await sleep(300);
    }
    await alone.stop();
    const writeAlone = percentiles(alone.samples.filter(s => aloneWindows.some(([from, to]) => s.at + s.ms >= from && s.at <= to)).map(s => s.ms));

    let delivered = 0;
    let wake: (() => void) | null = null;
    const clients = await subscribeAll(server.ready, () => {
      delivered++;
      wake?.();
    });
    // One change first, unmeasured: the first delivery compiles what later ones reuse.
    const warm = delivered + subscribers;
    await server.ask('insert');
    while (delivered < warm) await new Promise<void>(resolve => (wake = resolve));
    const before = (await server.ask('stats')).stats;
    const probes = probe(server.ready.url);
    const idleFrom = performance.timeOrigin + performance.now();
    await sleep(1000);
    const idleTo = performance.timeOrigin + performance.now();
    const windows: [number, number][] = [];
    const deliverMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const target = delivered + subscribers;
      const asked = performance.timeOrigin + performance.now();
      const { sentAt } = await server.ask('insert');
      while (delivered < target) await new Promise<void>(resolve => (wake = resolve));
      const done = performance.timeOrigin + performance.now();
      windows.push([Math.min(asked, sentAt), done]);
      deliverMs.push(Math.round(done - sentAt));
      await sleep(300);
    }
    await probes.stop();
    const after = (await server.ask('stats')).stats;
    // The server's CPU per change (the insert and its delivery to every subscriber), from rounds
    // without the probes: CPU time, which the machine's other load inflates less than latency.
    const cpu = async () => (await server.ask('cpu')).cpuMs as number;
    const cpuBefore = await cpu();
    for (let round = 0; round < rounds; round++) {
      const target = delivered + subscribers;
      await server.ask('insert');
      while (delivered < target) await new Promise<void>(resolve => (wake = resolve));
    }
    const cpuPerChangeMs = Math.round(((await cpu()) - cpuBefore) / rounds);
    for (const client of clients) await client.dispose();
    const idle = percentiles(probes.samples.filter(s => s.at >= idleFrom && s.at < idleTo).map(s => s.ms));
    const during = percentiles(probes.samples.filter(s => windows.some(([from, to]) => s.at + s.ms >= from && s.at <= to)).map(s => s.ms));
    const stats = Object.fromEntries(
      Object.keys(after).map(key => [key, key === 'longestTurnMs' ? Math.round(after[key] * 10) / 10 : after[key] - before[key]]),
    );
    return { store, principals, subscribers, idle, writeAlone, delivery: during, deliverMs, cpuPerChangeMs, stats };
  } finally {
    await server.stop();
    await backend.drop();
  }
}

const rows = [];
for (const store of values.stores!.split(',') as BackendName[]) {
  for (const principals of values.principals!.split(',').map(Number)) {
    const row = await run(store, principals);
    if (!row) continue;
    rows.push(row);
    log(
      `${store.padEnd(8)} ${String(subscribers).padStart(5)} subscribers / ${String(principals).padStart(3)} principals | ` +
        `/healthz idle p50 ${row.idle.p50} p99 ${row.idle.p99} ms (n=${row.idle.n}) | insert, nobody subscribed p50 ${row.writeAlone.p50} p99 ${row.writeAlone.p99} (n=${row.writeAlone.n}) | during delivery p50 ${row.delivery.p50} p99 ${row.delivery.p99} max ${row.delivery.max} ms (n=${row.delivery.n}) | ` +
        `delivered to all in ${row.deliverMs.join(', ')} ms | per change: server CPU ${row.cpuPerChangeMs} ms, ${row.stats.judgements / rounds} judgements, ${row.stats.roleLookups / rounds} role lookups, ${row.stats.yields / rounds} yields; longest fan-out turn ${row.stats.longestTurnMs} ms`,
    );
  }
}
if (values.json) console.log(JSON.stringify({ rows }));
process.exit(0);
