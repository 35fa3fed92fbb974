/**
 * One event-loop turn's one-statement writes of one shape, sent as one statement: inserts
 * (row-fast-insert-batch.service.ts), and updates, deletes and upserts (row-fast-write-batch.service.ts).
 * On a busy server most writes share their turn with others, and PostgreSQL's cost of each is
 * mostly its own plan and commit; together they pay those once (bench/README.md).
 *
 * While statements sent before are still unanswered (under load), a call waits for the end of its
 * turn (setImmediate, when the write lane sends the turn's statements anyway), then goes with the
 * turn's others of its shape, at most MAX_BATCH to a statement; with none in flight, or alone in
 * its turn, it is its single statement as before, sent at once. A batch the database refuses changes
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
 * For tests: every call waits for its turn's end and goes in a batch, a batch of one too, so that
 * a test's calls sent together are batched together, and every suite of the single statements
 * can hold the batch statements to the same answers (test/db/rows-fast-batched.test.ts).
 */
export const turnBatching = { everyCall: false };

/** A batch's answer for a call that must run alone after it. */
export const AFTER_BATCH = Symbol('after batch');

/** What this process sent together since it started (/metrics): batch statements, the calls they carried, and those refused (their calls then sent alone). */
export interface BatchCounts {
  statements: number;
  calls: number;
  refused: number;
}

/** How a shape's calls go together: one statement for them all, answering each in their order. */
export interface BatchKind<Item, Answer> {
  together(db: Sql, items: readonly Item[]): Promise<readonly (Answer | typeof AFTER_BATCH)[]>;
  counts: BatchCounts;
}

/** A call as one of a batch: its shape's key and kind, and its item. */
export interface BatchCall<Item, Answer> {
  key: string;
  kind: BatchKind<Item, Answer>;
  item: Item;
}

interface Queued {
  /** The call as one of a batch, worked out only when its turn has others (null: it cannot be one). */
  batchable(): BatchCall<unknown, unknown> | null;
  alone(db: Sql): Promise<unknown>;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** The turn's calls not yet sent, by database (weakly: a closed database leaves nothing behind). */
const pending = new WeakMap<Sql, Queued[]>();

/** The statements sent and not yet answered, by database: while there are some, a call waits for its turn's end to go with the others. */
const busy = new WeakMap<Sql, number>();

function sent<T>(db: Sql, statement: () => Promise<T>): Promise<T> {
  busy.set(db, (busy.get(db) ?? 0) + 1);
  let running: Promise<T>;
  try {
    running = statement();
  } catch (error) {
    // Thrown before it was sent (building it): counted out as it was counted in.
    running = Promise.reject(error);
  }
  return running.finally(() => busy.set(db, busy.get(db)! - 1));
}

/**
 * The answer the call's single statement (`alone`) would give, from that statement or from the
 * turn's batch of its shape (`batchable`, asked only when the turn has other calls).
 */
export function inTurn<Item, Answer>(db: Sql, batchable: () => BatchCall<Item, Answer> | null, alone: (db: Sql) => Promise<Answer>): Promise<Answer> {
  let turn = pending.get(db);
  // Nothing in flight to share a statement with: sent now, without waiting for the turn's end.
  if (!turn && !busy.get(db) && !turnBatching.everyCall) return sent(db, () => alone(db));
  if (!turn) {
    turn = [];
    pending.set(db, turn);
    setImmediate(() => sendTurn(db));
  }
  const queued = turn;
  return new Promise<Answer>((resolve, reject) =>
    queued.push({ batchable: batchable as Queued['batchable'], alone, resolve: resolve as (answer: unknown) => void, reject }),
  );
}

function sendTurn(db: Sql): void {
  const turn = pending.get(db) ?? [];
  pending.delete(db);
  // Alone in its turn, a call is its single statement, and its shape is never worked out.
  if (turn.length === 1 && !turnBatching.everyCall) {
    runAlone(db, turn[0]);
    return;
  }
  const shapes = new Map<string, { kind: BatchKind<unknown, unknown>; calls: { queued: Queued; item: unknown }[] }>();
  for (const queued of turn) {
    const call = batchableOrNull(queued);
    if (!call) {
      runAlone(db, queued);
      continue;
    }
    let shape = shapes.get(call.key);
    if (!shape) shapes.set(call.key, (shape = { kind: call.kind, calls: [] }));
    shape.calls.push({ queued, item: call.item });
  }
  for (const { kind, calls } of shapes.values()) {
    for (let start = 0; start < calls.length; start += MAX_BATCH) {
      const batch = calls.slice(start, start + MAX_BATCH);
      if (batch.length === 1 && !turnBatching.everyCall) runAlone(db, batch[0].queued);
      else void runTogether(db, kind, batch);
    }
  }
}

/** The call as one of a batch; one whose shape cannot be worked out goes alone, where its own statement meets the cause. */
function batchableOrNull(queued: Queued): BatchCall<unknown, unknown> | null {
  try {
    return queued.batchable();
  } catch {
    return null;
  }
}

function runAlone(db: Sql, queued: Queued): void {
  sent(db, () => queued.alone(db)).then(queued.resolve, queued.reject);
}

async function runTogether(db: Sql, kind: BatchKind<unknown, unknown>, batch: { queued: Queued; item: unknown }[]): Promise<void> {
  let answers: readonly unknown[];
  try {
    kind.counts.statements++;
    kind.counts.calls += batch.length;
    answers = await sent(db, () =>
      kind.together(
        db,
        batch.map(call => call.item),
      ),
    );
  } catch (error) {
    if (isOutcomeUnknown(error)) for (const { queued } of batch) queued.reject(error);
    else {
      kind.counts.refused++;
      for (const { queued } of batch) runAlone(db, queued);
    }
    return;
  }
  batch.forEach(({ queued }, n) => {
    const answer = answers[n];
    if (answer === AFTER_BATCH) runAlone(db, queued);
    else queued.resolve(answer);
  });
}
