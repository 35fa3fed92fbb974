/**
 * `npx tsx bench/ab.ts --trees /path/a,/path/b [--rounds 9] [--duration 3] [--only rest-get,rest-list,graphql-get]`
 *
 * Two (or more) checkouts compared on a shared, busy machine: every tree's Gatehouse child is up at
 * once, each on its own scratch PostgreSQL database, and the rows are measured in short runs that
 * alternate between the trees (the order flips each round), so a change in the machine's load
 * falls on both. Each tree is built and seeded by its own bench modules. The figure is the server
 * child's CPU per 2xx response from /proc, user and user+system apart (a socket write's system time
 * swings most on a loaded machine). The first round only warms the processes. Prints medians and
 * minima over the other rounds, and each round's user figure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Backend, Prepared } from './backends.js';
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
const trees = values.trees.split(',').map(tree => path.resolve(tree));
const scenarios = values.only!.split(',') as GatehouseScenario[];
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);

interface Tree {
  root: string;
  backend: Backend;
  server: RunningServer<{ seed: Seed }>;
  measure: typeof Measure;
  workload: typeof Workload;
}

interface Sample {
  userMs: number;
  systemMs: number;
  rps: number;
}

/** The process's user and system CPU so far, in ms (/proc/<pid>/stat, 100 ticks a second). */
function cpuMs(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

const up: Tree[] = [];
const samples = new Map<string, Sample[]>();
try {
  for (const root of trees) {
    const backends = await import(path.join(root, 'bench/backends.ts'));
    const spawning = await import(path.join(root, 'bench/spawn-server.ts'));
    const prepared: Prepared = await backends.prepareBackend('postgres', values['postgres-url'] || backends.DEFAULT_POSTGRES_URL);
    if ('skipped' in prepared) throw new Error(`${root}: ${prepared.skipped}`);
    const server = await spawning.spawnServer('gatehouse', { env: prepared.env, args: ['--pairs', String(connections * 2)] });
    up.push({
      root,
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
        const result: Measurement = await tree.measure({ ...load, duration });
        const after = cpuMs(tree.server.pid);
        const answered = result.rps * duration;
        if (round === 0 || !answered) continue;
        const key = `${scenario} ${tree.root}`;
        samples.set(key, [
          ...(samples.get(key) ?? []),
          { userMs: (after.user - before.user) / answered, systemMs: (after.system - before.system) / answered, rps: result.rps },
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
console.log('ms of server CPU per 2xx response');
for (const scenario of scenarios) {
  for (const tree of up) {
    const list = samples.get(`${scenario} ${tree.root}`) ?? [];
    if (!list.length) continue;
    console.log(
      `${scenario.padEnd(12)} ${tree.root.padEnd(24)} user ${figure(list.map(s => s.userMs))} | user+sys ${figure(list.map(s => s.userMs + s.systemMs))}` +
        ` | req/s median ${Math.round(median(list.map(s => s.rps)))} | user by round ${list.map(s => s.userMs.toFixed(3)).join(' ')}`,
    );
  }
}
process.exit(0);
