/**
 * `npx tsx bench/embedded-durability.ts [--seconds 5] [--runs 3] [--json]`
 *
 * What durability costs the embedded database (issue #24, item 12): the write rate of a file-backed
 * PGlite data directory with fsync off (PGlite's own start parameters, as Gatehouse ran before)
 * and with fsync on (`openPGlite`, as Gatehouse runs now: every commit flushes its WAL), measured
 * in the same run, alternating off/on `--runs` times on fresh data directories (median shown).
 * Rows: one-row INSERTs committed one by one (commits/s); transactions of 100 one-row INSERTs
 * (rows/s: one flush per transaction); and Gatehouse's `POST /v1/resources` in-process with 10
 * callers at once (creates/s: a transaction, a charge and the auth lookups per request). A
 * measurement, not a test: exits 0 whatever the figures. With --json one JSON line ends stdout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';
import { embeddedDatabase } from '../src/db/embedded.js';
import { PGLITE_SHARED_BUFFERS, openPGlite } from '../src/db/pglite.js';
import { buildApp } from '../src/server.js';
import { TEST_SCHEMA } from '../test/helpers/app.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, runs: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } },
});
const SECONDS = Number(values.seconds);
const RUNS = Number(values.runs);
const log = (line: string) => process.stderr.write(`${line}\n`);

type Mode = 'fsync off' | 'fsync on';
const root = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-durability-'));
let dirs = 0;

/** A fresh, migrated data directory (a copy of the machine's template), then opened in `mode`. */
async function freshPGlite(mode: Mode): Promise<{ pglite: PGlite; dataDir: string }> {
  const dataDir = path.join(root, `data-${++dirs}`);
  // Gatehouse's own open: the template copy and the migrations.
  await (await openDatabase({ dataDir })).close();
  if (mode === 'fsync on') return { pglite: await openPGlite({ dataDir }), dataDir };
  const pglite = await PGlite.create({ dataDir, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] });
  return { pglite, dataDir };
}

/** How many times `step` completes in SECONDS, per second. */
async function rate(step: () => Promise<number>): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  let done = 0;
  while (performance.now() < deadline) done += await step();
  return done / ((performance.now() - started) / 1000);
}

async function commitsPerSecond(mode: Mode): Promise<number> {
  const { pglite } = await freshPGlite(mode);
  try {
    await pglite.exec('CREATE TABLE bench (id serial PRIMARY KEY, payload text)');
    const payload = 'x'.repeat(200);
    return await rate(async () => {
      await pglite.query('INSERT INTO bench (payload) VALUES ($1)', [payload]);
      return 1;
    });
  } finally {
    await pglite.close();
  }
}

async function rowsPerSecondIn100RowTransactions(mode: Mode): Promise<number> {
  const { pglite } = await freshPGlite(mode);
  try {
    await pglite.exec('CREATE TABLE bench (id serial PRIMARY KEY, payload text)');
    const payload = 'x'.repeat(200);
    return await rate(async () => {
      await pglite.transaction(async tx => {
        for (let i = 0; i < 100; i++) await tx.query('INSERT INTO bench (payload) VALUES ($1)', [payload]);
      });
      return 100;
    });
  } finally {
    await pglite.close();
  }
}

async function restCreatesPerSecond(mode: Mode): Promise<number> {
  const { pglite, dataDir } = await freshPGlite(mode);
  const database: Database = embeddedDatabase(pglite, dataDir);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error', PORT: '0', DATA_DIR: dataDir, PUBLIC_URL: 'https://gatehouse.test' });
  const app = await buildApp({ config, database });
  try {
    const call = async (token: string, method: string, route: string, body?: unknown) => {
      const response = await app.fetch(
        new Request(`https://gatehouse.test${route}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const developer = await app.services.principals.createDeveloperToken(`bench-${dirs}@example.test`);
    const created = await call(developer.token, 'POST', '/dev/apps', { name: 'Bench', origins: [`https://bench-${dirs}.example.test`] });
    await call(developer.token, 'PUT', `/dev/apps/${created.id}/deployments/dev`, { schema: TEST_SCHEMA });
    const callers = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) => (await call(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name: `u${i}`, env: 'dev' })).token as string,
      ),
    );
    let n = 0;
    return await rate(async () => {
      await Promise.all(callers.map(token => call(token, 'POST', '/v1/resources', { type: 'team', name: `t${n++}` })));
      return callers.length;
    });
  } finally {
    await app.stop();
    await database.close();
  }
}

const rows = [
  { id: 'commit', label: 'one-row INSERT, committed alone (commits/s)', measure: commitsPerSecond },
  { id: 'tx-100', label: '100 one-row INSERTs per transaction (rows/s)', measure: rowsPerSecondIn100RowTransactions },
  { id: 'rest-create', label: 'POST /v1/resources in-process, 10 callers (creates/s)', measure: restCreatesPerSecond },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results: { id: string; label: string; off: number; on: number; ratio: number; offRuns: number[]; onRuns: number[] }[] = [];
try {
  for (const row of rows) {
    const runs: Record<Mode, number[]> = { 'fsync off': [], 'fsync on': [] };
    for (let run = 0; run < RUNS; run++) {
      for (const mode of ['fsync off', 'fsync on'] as const) {
        const figure = await row.measure(mode);
        runs[mode].push(figure);
        log(`${row.id} ${mode} run ${run + 1}: ${figure.toFixed(0)}`);
      }
    }
    const off = median(runs['fsync off']);
    const on = median(runs['fsync on']);
    results.push({ id: row.id, label: row.label, off, on, ratio: on / off, offRuns: runs['fsync off'], onRuns: runs['fsync on'] });
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

console.log('| Row | fsync off (before) | fsync on (now) | on / off |');
console.log('| --- | --- | --- | --- |');
for (const r of results) console.log(`| ${r.label} | ${r.off.toFixed(0)} | ${r.on.toFixed(0)} | ${r.ratio.toFixed(2)} |`);
if (values.json) console.log(JSON.stringify({ bench: 'embedded-durability', seconds: SECONDS, runs: RUNS, rows: results }));
