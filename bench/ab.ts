/**
 * `npx tsx bench/ab.ts --trees /path/a,/path/b [--rounds 9] [--duration 3] [--only rest-get,rest-list,graphql-get]`
 *
 * A tree may carry environment for its Gatehouse child after a `#`: `--trees .,.#METERING=0`
 * compares one checkout with metering on and off (`#A=1&B=2` sets two). `#others=N` is not
 * environment: it adds N other app environments' row indexes to the tree's database, copies of
 * the bench deployment's own (`rows_x_`, `rows_u_`, as its schema made them), so the rows show
 * what a shared `rows` table's other tenants cost a write.
 *
 * Two (or more) checkouts compared on a shared, busy machine: every tree's Gatehouse child is up at
 * once, each on its own scratch PostgreSQL database, and the rows are measured in short runs that
 * alternate between the trees (the order flips each round), so a change in the machine's load
 * falls on both. Each tree is built and seeded by its own bench modules. The figure is the server
 * child's CPU per 2xx response from /proc, user and user+system apart (a socket write's system time
 * swings most on a loaded machine), and PostgreSQL's CPU per response (every `postgres` process:
 * the trees take turns, so what it spends during a tree's run is that tree's). The first round
 * only warms the processes. Prints medians and minima over the other rounds, and each round's
 * user figure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Backend, Prepared } from './backends.js';
import { postgresMsSince, postgresTicks } from './cpu-usage.js';
import type { Measurement, measure as Measure } from './load.js';
import type { GatehouseScenario, gatehouseWorkload as Workload } from './scenarios.js';
import type { Seed } from './servers/gatehouse-seed.js';
import type { RunningServer } from './spawn-server.js';

const { values } = parseArgs({
  options: {
    trees: { type: 'string' },
    rounds: { type: 'string', default: '9' },
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string', default: 'rest-get,rest-list,graphql-get' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL },
  },
});
if (!values.trees) {
  console.error('ab: --trees /path/a,/path/b is required');
  process.exit(2);
}
const trees = values.trees.split(',').map(spec => {
  const [root, env = ''] = spec.split('#');
  return { root: path.resolve(root), label: spec, env: Object.fromEntries(new URLSearchParams(env)) };
});
const scenarios = values.only!.split(',') as GatehouseScenario[];
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);

interface Tree {
  root: string;
  label: string;
  backend: Backend;
  server: RunningServer<{ seed: Seed }>;
  measure: typeof Measure;
  workload: typeof Workload;
}

interface Sample {
  userMs: number;
  systemMs: number;
  dbMs: number;
  rps: number;
}

/** The process's user and system CPU so far, in ms (/proc/<pid>/stat, 100 ticks a second). */
function cpuMs(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/**
 * Copies the bench deployment's row indexes for `count` other deployments (ids that own no rows):
 * what that many other app environments deployed with the same schema leave on `rows`.
 */
async function addOtherTenants(databaseUrl: string, count: number): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'rows' AND (indexname LIKE 'rows\\_x\\_%' OR indexname LIKE 'rows\\_u\\_%')`,
    );
    if (!rows.length) throw new Error('others: the bench deployment has no row indexes to copy');
    for (let i = 0; i < count; i++) {
      for (const [n, { indexdef }] of rows.entries()) {
        const copy = indexdef
          .replace(/^CREATE INDEX \S+ ON/, `CREATE INDEX rows_bench_other_${i}_${n} ON`)
          .replace(/deployment_id = '[^']+'/g, `deployment_id = 'dep_bench_other_${i}'`);
        await client.query(copy);
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * The delete row deletes each connection's own seeded notes, one a request: enough for every round
 * at up to this many deletes a second (past them a connection's requests answer 404, not counted).
 */
const DELETES_PER_SECOND_AT_MOST = 6_000;
const deleteRows = scenarios.includes('row-delete')
  ? ['--delete-rows', String(Math.ceil((rounds * (duration + 1) * DELETES_PER_SECOND_AT_MOST) / connections))]
  : [];

const up: Tree[] = [];
const samples = new Map<string, Sample[]>();
try {
  for (const {
    root,
    label,
    env: { others: othersGiven = '0', ...env },
  } of trees) {
    const others = Number(othersGiven);
    const backends = await import(path.join(root, 'bench/backends.ts'));
    const spawning = await import(path.join(root, 'bench/spawn-server.ts'));
    const prepared: Prepared = await backends.prepareBackend('postgres', values['postgres-url'] || backends.DEFAULT_POSTGRES_URL);
    if ('skipped' in prepared) throw new Error(`${root}: ${prepared.skipped}`);
    const server = await spawning.spawnServer('gatehouse', {
      env: { ...prepared.env, ...env },
      args: ['--pairs', String(connections * 2), ...deleteRows],
    });
    if (others) await addOtherTenants(prepared.env.DATABASE_URL!, others);
    up.push({
      root,
      label,
      backend: prepared,
      server,
      measure: (await import(path.join(root, 'bench/load.ts'))).measure,
      workload: (await import(path.join(root, 'bench/scenarios.ts'))).gatehouseWorkload,
    });
  }
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      for (const tree of round % 2 ? [...up].reverse() : up) {
        const load = { url: tree.server.info.url, connections, warmup: 0, ...tree.workload(scenario, tree.server.info.seed) };
        await tree.measure({ ...load, duration: 1 });
        const before = cpuMs(tree.server.pid);
        const dbBefore = postgresTicks();
        const result: Measurement = await tree.measure({ ...load, duration });
        const after = cpuMs(tree.server.pid);
        const dbMs = postgresMsSince(dbBefore);
        const answered = result.rps * duration;
        if (round === 0 || !answered) continue;
        const key = `${scenario} ${tree.label}`;
        samples.set(key, [
          ...(samples.get(key) ?? []),
          {
            userMs: (after.user - before.user) / answered,
            systemMs: (after.system - before.system) / answered,
            dbMs: dbMs / answered,
            rps: result.rps,
          },
        ]);
      }
    }
    console.error(`[ab] round ${round + 1} of ${rounds} done`);
  }
} finally {
  for (const tree of up) {
    await tree.server.stop();
    await tree.backend.drop();
  }
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const figure = (list: number[]) => `median ${median(list).toFixed(4)} min ${Math.min(...list).toFixed(4)}`;
console.log("ms of server CPU (and of PostgreSQL's) per 2xx response");
for (const scenario of scenarios) {
  for (const tree of up) {
    const list = samples.get(`${scenario} ${tree.label}`) ?? [];
    if (!list.length) continue;
    console.log(
      `${scenario.padEnd(12)} ${tree.label.padEnd(24)} user ${figure(list.map(s => s.userMs))} | user+sys ${figure(list.map(s => s.userMs + s.systemMs))}` +
        ` | postgres ${figure(list.map(s => s.dbMs))}` +
        ` | req/s median ${Math.round(median(list.map(s => s.rps)))} | user by round ${list.map(s => s.userMs.toFixed(3)).join(' ')}`,
    );
  }
}
process.exit(0);
