/**
 * One event-loop turn's one-statement writes of one shape, sent as one statement: inserts
 * (row-fast-insert-batch.service.ts), and updates, deletes and upserts (row-fast-write-batch.service.ts).
 * On a busy server most writes share their turn with others, and PostgreSQL's cost of each is
 * mostly its own plan and commit; together they pay those once (bench/README.md).
 *
 * A call waits for the end of its turn (setImmediate, when the write lane sends the turn's
 * statements anyway), then goes with the turn's others of its shape, at most MAX_BATCH to a
 * statement. Alone, it is its single statement as before. A batch the database refuses changes
 * nothing (one statement): each of its calls then runs alone and meets its own cause, so one
 * call's failure never becomes another's. A batch whose answer is lost leaves all of its calls'
 * outcomes unknown (src/db/outcome.ts). A call the batch answers AFTER_BATCH (it names a row an
 * earlier call of the batch wrote) runs alone once the batch is answered: the order is then the
 * batch's, then its own, which is one a client could have seen.
 */
import { isOutcomeUnknown } from '../db/outcome.js';
import type { Sql } from '../db/sql.js';

/** The most calls in one statement: a batch holds its locks until its last call is written. */
export const MAX_BATCH = 32;

/**
 * Whether a call alone in its turn goes as a batch of one instead of its single statement: for
 * tests, so that every suite of the single statements can hold the batch statements to the same
 * answers (test/api/rows-fast-batched.test.ts).
 */
export const turnBatching = { loneAsBatch: false };

/** A batch's answer for a call that must run alone after it. */
export const AFTER_BATCH = Symbol('after batch');

/** What this process sent together since it started (/metrics): batch statements, the calls they carried, and those refused (their calls then sent alone). */
export interface BatchCounts {
  statements: number;
  calls: number;
  refused: number;
}

/** A shape's two statements: its calls together (an answer per call, in their order), and one alone. */
export interface BatchKind<Item, Answer> {
  together(db: Sql, items: readonly Item[]): Promise<readonly (Answer | typeof AFTER_BATCH)[]>;
  alone(db: Sql, item: Item): Promise<Answer>;
  counts: BatchCounts;
}

interface Queued<Item, Answer> {
  item: Item;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

interface Shape {
  kind: BatchKind<unknown, unknown>;
  queued: Queued<unknown, unknown>[];
}

/** The turn's calls not yet sent, by database and shape. */
const pending = new Map<Sql, Map<string, Shape>>();

/** The answer `kind`'s single statement would give `item`, from that statement or from the turn's batch of shape `key`. */
export function inTurn<Item, Answer>(db: Sql, key: string, kind: BatchKind<Item, Answer>, item: Item): Promise<Answer> {
  let turn = pending.get(db);
  if (!turn) {
    turn = new Map();
    pending.set(db, turn);
    setImmediate(() => sendTurn(db));
  }
  let shape = turn.get(key);
  if (!shape) turn.set(key, (shape = { kind: kind as BatchKind<unknown, unknown>, queued: [] }));
  const { queued } = shape;
  return new Promise<Answer>((resolve, reject) => queued.push({ item, resolve: resolve as (answer: unknown) => void, reject }));
}

function sendTurn(db: Sql): void {
  const turn = pending.get(db);
  pending.delete(db);
  if (!turn) return;
  for (const { kind, queued } of turn.values()) {
    for (let start = 0; start < queued.length; start += MAX_BATCH) {
      const batch = queued.slice(start, start + MAX_BATCH);
      if (batch.length === 1 && !turnBatching.loneAsBatch) runAlone(db, kind, batch[0]);
      else void runTogether(db, kind, batch);
    }
  }
}

function runAlone(db: Sql, kind: BatchKind<unknown, unknown>, call: Queued<unknown, unknown>): void {
  kind.alone(db, call.item).then(call.resolve, call.reject);
}

async function runTogether(db: Sql, kind: BatchKind<unknown, unknown>, batch: Queued<unknown, unknown>[]): Promise<void> {
  let answers: readonly unknown[];
  try {
    kind.counts.statements++;
    kind.counts.calls += batch.length;
    answers = await kind.together(
      db,
      batch.map(call => call.item),
    );
  } catch (error) {
    if (isOutcomeUnknown(error)) for (const call of batch) call.reject(error);
    else {
      kind.counts.refused++;
      for (const call of batch) runAlone(db, kind, call);
    }
    return;
  }
  batch.forEach((call, n) => {
    const answer = answers[n];
    if (answer === AFTER_BATCH) runAlone(db, kind, call);
    else call.resolve(answer);
  });
}
