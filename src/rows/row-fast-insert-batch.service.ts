/**
 * The one-statement inserts of one event-loop turn, sent as one statement (row-fast-insert-batch.sql.ts)
 * by kind (unmetered, or metered with the same storage check), as row-turn-batch.service.ts sends a
 * turn's writes. An insert of more than a few rows always goes alone.
 */
import type { Sql } from '../db/sql.js';
import { type InsertBatchKind, fastInsertBatch, insertBatchItems } from './row-fast-insert-batch.sql.js';
import { type FastInsertRow, fastInsert, fastInsertCharged, fastInsertPaidBy } from './row-fast-insert.sql.js';
import { type BatchCounts, type BatchKind, inTurn } from './row-turn-batch.service.js';

/**
 * An insert of more rows goes alone: its statement's fixed cost is shared among its own rows
 * already, and in a batch the other callers' inserts would wait for all of them.
 */
export const MAX_BATCHED_ROWS = 4;

/** The insert batches this process sent (/metrics). */
export const insertBatches: BatchCounts = { statements: 0, calls: 0, refused: 0 };

type Single = (db: Sql, ...args: readonly unknown[]) => Promise<FastInsertRow[]>;

/** Each kind's single statement, taking the same arguments as one item of its batch. */
const ALONE = { unmetered: fastInsert, charged: fastInsertCharged, ...fastInsertPaidBy } as unknown as Record<InsertBatchKind, Single>;

const alone = (db: Sql, kind: InsertBatchKind, args: readonly unknown[]): Promise<FastInsertRow | undefined> =>
  ALONE[kind](db, ...args).then(([row]) => row);

const batchKind = (kind: InsertBatchKind): BatchKind<readonly unknown[], FastInsertRow | undefined> => ({
  counts: insertBatches,
  async together(db, items) {
    const rows = await fastInsertBatch[kind](db, insertBatchItems(items));
    const answers: (FastInsertRow | undefined)[] = items.map(() => undefined);
    for (const { n, ...found } of rows) answers[n] = found;
    return answers;
  },
});

const KINDS = Object.fromEntries(Object.keys(ALONE).map(kind => [kind, batchKind(kind as InsertBatchKind)])) as Record<
  InsertBatchKind,
  ReturnType<typeof batchKind>
>;

/**
 * The row the single statement of `kind` would answer for `args` (row-fast-insert.sql.ts), from
 * that statement or from the turn's batch of its kind. `rows`: how many rows it inserts.
 */
export function insertInTurn(db: Sql, kind: InsertBatchKind, args: readonly unknown[], rows: number): Promise<FastInsertRow | undefined> {
  const single = (on: Sql) => alone(on, kind, args);
  if (rows > MAX_BATCHED_ROWS) return single(db);
  return inTurn(db, () => ({ key: `insert:${kind}`, kind: KINDS[kind], item: args }), single);
}
