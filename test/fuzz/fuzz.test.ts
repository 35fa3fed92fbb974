/**
 * Issue #24's proof, at CI size: requests generated from /openapi.json and GraphQL documents
 * generated from the schema, hostile values included (test/fuzz/run-fuzz.ts says what is judged),
 * against a fresh seeded server. No answer is a 5xx, every 4xx has a JSON body with a code, and
 * every (route, status, code) observed is in that route's OpenAPI error list (docs/api.md §8.2 for
 * /graphql): a code a route starts to answer without the document saying so fails here.
 *
 * A fixed seed, so a run is repeatable: FUZZ_SEED and FUZZ_REQUESTS change it. The full size
 * (10,000 requests, a new seed each run) is `npm run fuzz`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Finding, type FuzzReport, runFuzz, summarize } from './run-fuzz.js';
import { type FuzzTarget, startFuzzTarget } from './target.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? 24);

/**
 * Findings of issue #24 items that other engineers fix in parallel, named here so that this test
 * guards everything else meanwhile. An entry must still be found at the default seed: once its fix
 * lands, this test fails until the entry is deleted (the list is meant to end empty).
 */
const AWAITED: { item: string; matches: (finding: Finding) => boolean }[] = [];
const atDefaultSize = !process.env.FUZZ_SEED && !process.env.FUZZ_REQUESTS;

describe(`the fuzz (${REQUESTS} requests, seed ${SEED})`, () => {
  let target: FuzzTarget;
  let report: FuzzReport;

  beforeAll(async () => {
    target = await startFuzzTarget();
    report = await runFuzz(target, { requests: REQUESTS, seed: SEED, concurrency: 2 });
  }, 300_000);
  afterAll(() => target?.close());

  it('sends them all, of every kind of answer', () => {
    expect(report.sent).toBeGreaterThanOrEqual(REQUESTS * 0.95);
    for (const status of [200, 400, 401, 403, 404]) expect(report.byStatus[status], `some ${status}`).toBeGreaterThan(0);
  });

  it('finds no 5xx, no 4xx without a code and no code its route does not document', () => {
    const unexpected = report.findings.filter(f => !AWAITED.some(a => a.matches(f)));
    expect(unexpected, summarize({ ...report, findings: unexpected })).toEqual([]);
  });

  it.runIf(atDefaultSize)('still finds what it awaits from other items (delete an entry once its fix lands)', () => {
    const stale = AWAITED.filter(a => !report.findings.some(a.matches)).map(a => a.item);
    expect(stale, 'fixed: delete these entries of AWAITED').toEqual([]);
  });
});
