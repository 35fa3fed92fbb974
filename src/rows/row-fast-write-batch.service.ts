/**
 * The one-statement updates, deletes and upserts (row-fast-write.sql.ts) of one event-loop turn,
 * sent as one statement by shape (row-fast-write-batch.sql.ts), as row-turn-batch.service.ts sends a
 * turn's writes.
 */
import type { Sql } from '../db/sql.js';
import { type FastWrittenRow, type WriteBatchShape, fastWriteBatch, writeBatchCalls, writeShapeKey } from './row-fast-write-batch.sql.js';
import { AFTER_BATCH, type BatchCounts, type BatchKind, inTurn } from './row-turn-batch.service.js';

/** The write batches this process sent (/metrics). */
export const writeBatches: BatchCounts = { statements: 0, calls: 0, refused: 0 };

/** A write as a call of a batch: its shape and its arguments (writeBatchCalls' columns). */
export interface WriteBatchCall {
  shape: WriteBatchShape;
  args: readonly unknown[];
}

const batchKind = (shape: WriteBatchShape, key: string): BatchKind<WriteBatchCall, FastWrittenRow[]> => ({
  counts: writeBatches,
  async together(db, calls) {
    const rows = await fastWriteBatch(db, shape, key, writeBatchCalls(calls.map(call => call.args)));
    const answers: (FastWrittenRow[] | typeof AFTER_BATCH)[] = calls.map(() => []);
    for (const row of rows) {
      const answer = answers[row.n];
      if (row.overlaps) answers[row.n] = AFTER_BATCH;
      else if (answer !== AFTER_BATCH) answer?.push(row);
    }
    return answers;
  },
});

/**
 * The rows the single statement `alone` would answer, from that statement or from the turn's
 * batch of the call's shape; `batchCall` (null: it cannot be one) is worked out only when the turn
 * has other calls.
 */
export function writeInTurn(
  db: Sql,
  batchCall: () => WriteBatchCall | null,
  alone: (db: Sql) => Promise<FastWrittenRow[]>,
): Promise<FastWrittenRow[]> {
  return inTurn(
    db,
    () => {
      const call = batchCall();
      if (!call) return null;
      const key = writeShapeKey(call.shape);
      return { key, kind: batchKind(call.shape, key), item: call };
    },
    alone,
  );
}
