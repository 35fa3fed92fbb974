/**
 * Server CPU per request, in process (no sockets, no load generator): what each layer of the read
 * path costs, and the row store's writes, measured as this process's CPU time (process.cpuUsage)
 * over a fixed number of requests, so a busy machine inflates it far less than it does req/s.
 * On PostgreSQL each row also reads PostgreSQL's CPU per request (every `postgres` process's).
 * `METERING=0` in the environment measures the writes without metering (its share of a write);
 * `FAST_PATH=0` sends every /graphql request through Yoga's chain (the fast path's gain).
 *
 *   npx tsx bench/inproc-cost.ts [--backend postgres|pglite] [--requests 5000] [--concurrency 8]
 *   ONLY='row ' METERING=0 npx tsx bench/inproc-cost.ts --requests 2000
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/server.js';
import { prepareBackend } from './backends.js';
import { postgresMsSince, postgresTicks } from './cpu-usage.js';
import { ME_QUERY, RESOURCE_QUERY } from './scenarios.js';
import { seedGatehouse } from './servers/gatehouse-seed.js';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'postgres' },
    requests: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '8' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const backend = await prepareBackend(values.backend as 'postgres' | 'pglite', values['postgres-url']!);
if ('skipped' in backend) throw new Error(backend.skipped);
const config = loadConfig({
  ...process.env,
  ...backend.env,
  DATA_DIR: backend.env.DATA_DIR ?? 'memory://',
  NODE_ENV: 'production',
  LOG_LEVEL: 'error',
  PORT: '0',
});
const app = await buildApp({ config, graphqlFastPath: process.env.FAST_PATH === '0' ? false : {} });
try {
  const { url } = await app.start();
  const seed = await seedGatehouse(url, app.services, { rooms: 10, teams: 3, pairs: 0 });
  const base = `http://127.0.0.1${new URL(url).port ? `:${new URL(url).port}` : ''}`;
  const headers = { authorization: `Bearer ${seed.reader.token}`, host: new URL(config.publicUrl).host };
  const caller = (await app.services.tokens.check(seed.reader.token)).caller!;
  if (caller.type !== 'principal') throw new Error('reader is not a principal');
  const gqlBody = JSON.stringify({ query: RESOURCE_QUERY, variables: { id: seed.resourceId } });
  const graphqlRequest = (query: string) =>
    new Request(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

  const rowQuery = (operation: Record<string, unknown>) =>
    ok(
      app.fetch(
        new Request(`${base}/v1/db/query`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ scope: { kind: 'resource', resourceId: seed.resourceId }, table: 'notes', ...operation }),
        }),
      ),
    );
  // The row the update and upsert rows write (every request the same row: its lock queues them, CPU is what is measured).
  await rowQuery({ op: 'insert', values: { key: 'inproc-update', title: 'To edit' } });
  let keyed = 0;
  const rows: [string, () => Promise<unknown>][] = [
    ['service: resources.get (the one statement)', () => app.services.resources.get(caller, seed.resourceId)],
    ['REST GET /v1/resources/:id (app.fetch)', () => ok(app.fetch(new Request(`${base}/v1/resources/${seed.resourceId}`, { headers })))],
    [
      'GraphQL resource(id) (app.fetch)',
      () =>
        ok(app.fetch(new Request(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: gqlBody }))),
    ],
    ['REST GET /v1/resources?type=room (app.fetch, 10 rows)', () => ok(app.fetch(new Request(`${base}/v1/resources?type=room`, { headers })))],
    ['GraphQL { me { id } } (app.fetch)', () => ok(app.fetch(graphqlRequest(ME_QUERY)))],
    ['GraphQL { __typename } (app.fetch, bearer)', () => ok(app.fetch(graphqlRequest('{ __typename }')))],
    ['REST GET /healthz (app.fetch, no auth, no DB)', () => ok(app.fetch(new Request(`${base}/healthz`, { headers })))],
    ['row insert (POST /v1/db/query)', () => rowQuery({ op: 'insert', values: { title: 'Note', body: 'Text' } })],
    // A unique key's value makes it the transaction path's insert (its lock, its check).
    ['row insert setting a unique key', () => rowQuery({ op: 'insert', values: { key: `inproc-${keyed++}`, title: 'Keyed' } })],
    ['row update by filter (one row)', () => rowQuery({ op: 'update', where: { key: 'inproc-update' }, values: { title: 'Edited' } })],
    ['row upsert (one row, the update path)', () => rowQuery({ op: 'upsert', values: { key: 'inproc-upsert', title: 'Here' }, onConflict: 'key' })],
  ];
  const only = process.env.ONLY;
  // Statements sent to PostgreSQL per request (the pool's clients), to see a read's round trips.
  let statements = 0;
  const send = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    return (send as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof send;
  for (const [label, run] of rows.filter(([label]) => !only || label.includes(only))) {
    await measure(run, Math.min(1000, requests)); // warmup
    // The warmup's rows analyzed, as autovacuum would have them by a server's steady state: a
    // fresh table's planner sees one row per resource and may check a unique key without its index.
    await app.database.prisma.$executeRawUnsafe('ANALYZE');
    statements = 0;
    const database = postgresTicks();
    const { cpuUs, userUs, wallMs } = await measure(run, requests);
    // PostgreSQL's CPU: every postgres process's on this machine, so only as quiet as the machine.
    const perRequest =
      values.backend === 'postgres'
        ? `, ${(statements / requests).toFixed(2)} statements, ${((postgresMsSince(database) * 1000) / requests).toFixed(1)} us PostgreSQL CPU`
        : '';
    console.log(
      `${label.padEnd(48)} ${(cpuUs / requests).toFixed(1).padStart(7)} us CPU/request (${(userUs / requests).toFixed(1)} user)  (${Math.round((requests / wallMs) * 1000)} req/s wall${perRequest})`,
    );
  }
} finally {
  await app.stop();
  await backend.drop();
}

async function ok(response: Promise<Response>) {
  const res = await response;
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status} ${text}`);
}

async function measure(run: () => Promise<unknown>, count: number) {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await run();
    }),
  );
  const used = process.cpuUsage(cpu);
  // User time apart: on a loaded machine the system time of each statement's socket write swings most.
  return { cpuUs: used.user + used.system, userUs: used.user, wallMs: performance.now() - started };
}
