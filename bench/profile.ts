/**
 * `npx tsx bench/profile.ts [--scenario rest-get|rest-list|graphql-get|membership] [--backend postgres|pglite]
 *   [--duration 10] [--warmup 2] [--connections 50] [--top 25] [--out file.cpuprofile]`
 *
 * Runs one Gatehouse scenario like `npm run bench` does and CPU-profiles the server child during
 * the measured run only (not start-up or seeding); prints self time by area and by function. The
 * .cpuprofile is kept for Chrome DevTools or speedscope.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type BackendName, DEFAULT_POSTGRES_URL, prepareBackend } from './backends.js';
import { type CpuProfile, formatProfileSummary, summarizeProfile } from './cpu-profile.js';
import { measure } from './load.js';
import { GATEHOUSE_SCENARIOS, type GatehouseScenario, gatehouseWorkload } from './scenarios.js';
import type { Seed } from './servers/gatehouse-seed.js';
import { spawnServer, stopAllServers } from './spawn-server.js';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'rest-get' },
    backend: { type: 'string', default: 'postgres' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    top: { type: 'string', default: '25' },
    out: { type: 'string' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
  },
});
const scenario = values.scenario as GatehouseScenario;
if (!GATEHOUSE_SCENARIOS.includes(scenario)) fail(`--scenario must be one of ${GATEHOUSE_SCENARIOS.join(', ')}`);
if (values.backend !== 'postgres' && values.backend !== 'pglite') fail('--backend must be postgres or pglite');
const connections = Number(values.connections);
const out = path.resolve(values.out ?? path.join(os.tmpdir(), `gh-bench-${scenario}-${values.backend}-${Date.now()}.cpuprofile`));

const backend = await prepareBackend(values.backend as BackendName, values['postgres-url']);
if ('skipped' in backend) fail(backend.skipped);
process.on('SIGINT', () => {
  void stopAllServers()
    .then(() => backend.drop())
    .finally(() => process.exit(130));
});

try {
  const server = await spawnServer<{ seed: Seed }>('gatehouse', { env: backend.env, args: ['--pairs', String(connections * 2)] });
  try {
    const result = await measure({
      url: server.info.url,
      connections,
      duration: Number(values.duration),
      warmup: Number(values.warmup),
      serverPid: server.pid,
      beforeMeasuring: () => server.startProfile(),
      ...gatehouseWorkload(scenario, server.info.seed),
    });
    await server.stopProfile(out);
    console.log(
      `${scenario} on ${backend.name}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms` +
        `${result.failed ? `, ${result.failed} failed` : ''}${result.cpu ? `, server CPU ${result.cpu.server.toFixed(2)} cores` : ''} (profiling slows the server)`,
    );
  } finally {
    await server.stop();
  }
  const profile = JSON.parse(await readFile(out, 'utf8')) as CpuProfile;
  console.log(`${formatProfileSummary(summarizeProfile(profile), Number(values.top))}\n\nprofile: ${out}`);
} finally {
  await backend.drop();
}

function fail(message: string): never {
  console.error(`profile: ${message}`);
  process.exit(2);
}
