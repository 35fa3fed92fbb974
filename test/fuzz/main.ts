/**
 * `npm run fuzz [-- --requests N --seed S --concurrency C]`: the full-size fuzz (10,000 requests by
 * default) against a fresh seeded server; prints what it found, grouped, and exits 1 on any finding.
 * CI runs a small one in test/fuzz/fuzz.test.ts.
 */
import { parseArgs } from 'node:util';
import { runFuzz, summarize } from './run-fuzz.js';
import { startFuzzTarget } from './target.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string' }, concurrency: { type: 'string', default: '4' } },
});
const seed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const target = await startFuzzTarget();
try {
  const started = performance.now();
  const report = await runFuzz(target, { requests: Number(values.requests), seed, concurrency: Number(values.concurrency) });
  console.log(summarize(report));
  console.log(`seed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = report.findings.length ? 1 : 0;
} finally {
  await target.close();
}
