/**
 * The one-statement inserts of one event-loop turn, sent as one statement (row-fast-insert-batch.sql.ts).
 * On a busy server most inserts share their turn with others, and PostgreSQL's cost of each is
 * mostly its own plan and commit; together they pay those once (bench/README.md).
 *
 * Each insert of a few rows waits for the end of its turn (setImmediate, when the write lane sends
 * the turn's statements anyway), then goes with the turn's others of the same kind (unmetered, or
 * metered with the same storage check). Alone, it is the single statement as before. A batch the database
 * refuses changes nothing (one statement): each of its inserts then runs alone and meets its own
 * cause, so one insert's failure never becomes another's. A batch whose answer is lost leaves all
 * of its inserts' outcomes unknown (src/db/outcome.ts).
 */
import { isOutcomeUnknown } from '../db/outcome.js';
import type { Sql } from '../db/sql.js';
import { type InsertBatchKind, fastInsertBatch, insertBatchItems } from './row-fast-insert-batch.sql.js';
import { type FastInsertRow, fastInsert, fastInsertCharged, fastInsertPaidBy } from './row-fast-insert.sql.js';

/** The most inserts in one statement: a batch holds its locks until its last item is written. */
export const MAX_INSERT_BATCH = 32;

/**
 * An insert of more rows goes alone: its statement's fixed cost is shared among its own rows
 * already, and in a batch the other callers' inserts would wait for all of them.
 */
export const MAX_BATCHED_ROWS = 4;

/** What this process sent together since it started (/metrics): batch statements, the inserts they carried, and those refused (their inserts then sent alone). */
export const insertBatches = { statements: 0, inserts: 0, refused: 0 };

interface Queued {
  args: readonly unknown[];
  resolve(row: FastInsertRow | undefined): void;
  reject(error: unknown): void;
}

type Single = (db: Sql, ...args: readonly unknown[]) => Promise<FastInsertRow[]>;

/** Each kind's single statement, taking the same arguments as one item of its batch. */
const ALONE = { unmetered: fastInsert, charged: fastInsertCharged, ...fastInsertPaidBy } as unknown as Record<InsertBatchKind, Single>;

/** The turn's inserts not yet sent, by database and kind. */
const pending = new Map<Sql, Map<InsertBatchKind, Queued[]>>();

/**
 * The row the single statement of `kind` would answer for `args` (row-fast-insert.sql.ts), from
 * that statement or from the turn's batch of its kind. `rows`: how many rows it inserts.
 */
export function insertInTurn(db: Sql, kind: InsertBatchKind, args: readonly unknown[], rows: number): Promise<FastInsertRow | undefined> {
  if (rows > MAX_BATCHED_ROWS) return alone(db, kind, args);
  let turn = pending.get(db);
  if (!turn) {
    turn = new Map();
    pending.set(db, turn);
    setImmediate(() => sendTurn(db));
  }
  let queued = turn.get(kind);
  if (!queued) turn.set(kind, (queued = []));
  const list = queued;
  return new Promise((resolve, reject) => list.push({ args, resolve, reject }));
}

function sendTurn(db: Sql): void {
  const turn = pending.get(db);
  pending.delete(db);
  if (!turn) return;
  for (const [kind, queued] of turn) {
    for (let start = 0; start < queued.length; start += MAX_INSERT_BATCH) {
      const batch = queued.slice(start, start + MAX_INSERT_BATCH);
      if (batch.length === 1) runAlone(db, kind, batch[0]);
      else void runTogether(db, kind, batch);
    }
  }
}

const alone = (db: Sql, kind: InsertBatchKind, args: readonly unknown[]): Promise<FastInsertRow | undefined> =>
  ALONE[kind](db, ...args).then(([row]) => row);

function runAlone(db: Sql, kind: InsertBatchKind, item: Queued): void {
  alone(db, kind, item.args).then(item.resolve, item.reject);
}

async function runTogether(db: Sql, kind: InsertBatchKind, batch: Queued[]): Promise<void> {
  let rows: (FastInsertRow & { n: number })[];
  try {
    insertBatches.statements++;
    insertBatches.inserts += batch.length;
    rows = await fastInsertBatch[kind](db, insertBatchItems(batch.map(item => item.args)));
  } catch (error) {
    if (isOutcomeUnknown(error)) for (const item of batch) item.reject(error);
    else {
      insertBatches.refused++;
      for (const item of batch) runAlone(db, kind, item);
    }
    return;
  }
  for (const row of rows) {
    const { n, ...found } = row;
    batch[n]?.resolve(found);
  }
  // The statement answers every item (it selects from them all); this only keeps a call from waiting forever if it did not.
  for (const item of batch) item.resolve(undefined);
}
