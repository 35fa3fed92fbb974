/**
 * The suites of the one-statement writes (every parity case of the single statements against the
 * transaction path, their races and their charges) again, with each call alone in its turn sent
 * as a batch of one (turnBatching.everyCall): the batch statements
 * (src/rows/row-fast-insert-batch.sql.ts, row-fast-write-batch.sql.ts) answer as the single ones.
 */
import { afterAll, expect } from 'vitest';
import { turnBatching } from '../../src/rows/row-turn-batch.service.js';
import { insertBatches } from '../../src/rows/row-fast-insert-batch.service.js';
import { writeBatches } from '../../src/rows/row-fast-write-batch.service.js';

// A process of its own (the isolated project, vitest.config.ts): the setting and the suites' modules are this file's alone.
turnBatching.everyCall = true;
await import('../api/rows-fast-update.test.js');
await import('../api/rows-fast-insert.test.js');
await import('../api/rows-upsert-statement.test.js');

// Every suite above went through the batch statements.
afterAll(() => {
  expect(insertBatches.calls).toBeGreaterThan(0);
  expect(writeBatches.calls).toBeGreaterThan(0);
});
