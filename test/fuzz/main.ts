/**
 * `npm run fuzz [-- --requests N --seed S --concurrency C --only I,J]`: the full-size fuzz (10,000
 * requests by default) against a fresh seeded server; prints what it found, grouped, each group
 * with the place of its first request in the seed's sequence, and exits 1 on any finding.
 * `--only` sends only those places of the sequence (a finding alone, or with the requests before
 * it). CI runs a small one in test/fuzz/fuzz.test.ts.
 */
import { parseArgs } from 'node:util';
import { runFuzz, summarize } from './run-fuzz.js';
import { startFuzzTarget } from './target.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    only: { type: 'string' },
  },
});
const seed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const target = await startFuzzTarget();
try {
  const started = performance.now();
  const only = values.only ? new Set(values.only.split(',').map(Number)) : null;
  const report = await runFuzz(target, {
    requests: Number(values.requests),
    seed,
    concurrency: Number(values.concurrency),
    ...(only ? { only: (index: number) => only.has(index) } : {}),
  });
  console.log(summarize(report));
  console.log(`seed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = report.findings.length ? 1 : 0;
} finally {
  await target.close();
}
