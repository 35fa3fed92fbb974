/**
 * `npx tsx bench/graphql-limits.ts [--backend pglite|postgres] [--requests 20]`
 *
 * How fast Gatehouse refuses the abusive documents of issue #8 (src/graphql/limits.ts), next to a
 * trivial `{ __typename }` measured in the same run, and whether `/healthz` keeps answering
 * meanwhile. Gatehouse runs in a child (bench/servers/gatehouse.ts, NODE_ENV=production) so this
 * process never shares its event loop. Each row sends its document `--requests` times in sequence,
 * without a token and each time with a different trailing comment (no cache helps), while a poller asks `/healthz` every 10 ms; the row reports the status and code
 * the server answered, latency p50/max of the document, the slowest `/healthz` answer and the
 * server's event-loop delay. A measurement, not a test: exits 0 whatever the figures.
 */
import { parseArgs } from 'node:util';
import { type Backend, DEFAULT_POSTGRES_URL, prepareBackend } from './backends.js';
import { busyElsewhere } from './cpu-usage.js';
import { spawnServer, stopAllServers } from './spawn-server.js';
import { aliasFlood, fragmentBomb, ownerChain } from '../test/helpers/graphql-documents.js';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'pglite' },
    requests: { type: 'string', default: '20' },
    'postgres-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL || DEFAULT_POSTGRES_URL },
  },
});
const requests = Number(values.requests);
if (!Number.isInteger(requests) || requests < 1) throw new Error(`--requests must be a positive integer (got ${values.requests})`);
if (values.backend !== 'pglite' && values.backend !== 'postgres') throw new Error(`--backend must be pglite or postgres (got ${values.backend})`);

const ROWS: { label: string; query: string }[] = [
  { label: 'baseline: { __typename }', query: '{ __typename }' },
  { label: '#8.1 fragment bomb F0..F16 (< 1 KB)', query: fragmentBomb(16) },
  { label: '#8.1 fragment bomb F0..F20', query: fragmentBomb(20) },
  { label: '#8.2 20,000 aliases of me { id }', query: aliasFlood(20_000) },
  { label: '#8.3 me { owner { ... } } 120 deep', query: ownerChain(120) },
];

const busy = await busyElsewhere();
if (busy !== undefined && busy > 0.2) log(`warning: ${busy.toFixed(2)} cores busy with other processes before the run; latencies will be high`);

const prepared = await prepareBackend(values.backend, values['postgres-url']);
if ('skipped' in prepared) {
  log(`skipped: ${prepared.skipped}`);
  process.exit(0);
}
const backend: Backend = prepared;
process.on(
  'SIGINT',
  () =>
    void stopAllServers()
      .then(() => backend.drop())
      .finally(() => process.exit(130)),
);

try {
  const server = await spawnServer<{ url: string }>('gatehouse', { args: ['--rooms', '1', '--teams', '0', '--pairs', '1'], env: backend.env });
  const { url } = server.info;
  log(`Gatehouse on ${backend.label}, ${requests} requests per row`);
  const lines = ['| Row | answer | bytes | p50 ms | max ms | /healthz max ms | loop delay max ms |', '|---|---|---|---|---|---|---|'];
  for (const row of ROWS) {
    for (let i = 0; i < 3; i++) await post(url, row.query); // warm (and the parse cache sees the text)
    await server.startLoopMonitor();
    const health = pollHealth(url);
    const times: number[] = [];
    let answer = '';
    for (let i = 0; i < requests; i++) {
      // A comment makes every text new, so Yoga's parse/validation caches never help (as an attacker would).
      const result = await post(url, `${row.query}\n# ${i}`);
      times.push(result.ms);
      answer = `${result.status} ${result.code}`;
    }
    const healthMax = await health.stop();
    const loop = await server.stopLoopMonitor();
    times.sort((a, b) => a - b);
    lines.push(
      `| ${row.label} | ${answer} | ${row.query.length} | ${fmt(times[Math.floor(times.length / 2)])} | ${fmt(times.at(-1)!)} | ${fmt(healthMax)} | ${fmt(loop.max)} |`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await server.stop();
} finally {
  await stopAllServers();
  await backend.drop();
}

async function post(url: string, query: string) {
  const started = performance.now();
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const body = (await res.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  return { status: res.status, code: body.errors?.[0]?.extensions?.code ?? 'data', ms: performance.now() - started };
}

/** GET /healthz every 10 ms until stopped; resolves to the slowest answer (a refused health check counts as Infinity). */
function pollHealth(url: string) {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${url}/healthz`).then(
        r => r.ok,
        () => false,
      );
      slowest = Math.max(slowest, ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      await new Promise(resolve => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return slowest;
    },
  };
}

function fmt(ms: number) {
  return Number.isFinite(ms) ? ms.toFixed(1) : 'failed';
}

function log(message: string) {
  process.stderr.write(`[bench:graphql-limits] ${message}\n`);
}
