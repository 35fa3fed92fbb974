/**
 * The rows one call (a query or a whole batch) may insert, update or delete
 * (ROWS_MAX_WRITES_PER_CALL): on the embedded database a call's transaction holds the one
 * connection everyone shares, so one bulk call must not hold it for long. Spent as the call's
 * operations are prepared, before their writes; over it, nothing changes (the transaction rolls back).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type AppError, fail } from '../errors.js';
import type { DbOperation } from './rows-input.service.js';

interface WriteBudget {
  limit: number;
  spent: number;
}

const writeBudgets = new AsyncLocalStorage<WriteBudget>();

/** Counts `rows` against the running call's budget; outside a call (a lone read) nothing is counted. */
export function spendWrites(rows: number): void {
  const budget = writeBudgets.getStore();
  if (!budget) return;
  budget.spent += rows;
  if (budget.spent > budget.limit) throw tooManyWrites(budget);
}

/** The rows the running call may still write (Infinity outside a call). */
export function writesLeft(): number {
  const budget = writeBudgets.getStore();
  return budget ? budget.limit - budget.spent : Number.POSITIVE_INFINITY;
}

function tooManyWrites({ limit, spent }: WriteBudget): AppError {
  return fail(
    'too_many_rows',
    `This call writes at least ${spent} rows; one call may write at most ${limit} (ROWS_MAX_WRITES_PER_CALL: ` +
      'every write waits for the one before it on this database). Nothing was changed: send the rows in smaller calls.',
  );
}

const insertCount = (values: unknown) => (Array.isArray(values) ? values.length : 1);

/**
 * Runs `fn` with a budget of `limit` written rows for `ops`. Refused before anything runs when
 * their inserts alone are too many; the rest is counted as it is matched (spendWrites).
 */
export function withWriteBudget<T>(limit: number, ops: readonly DbOperation[], fn: () => Promise<T>): Promise<T> {
  const inserts = ops.reduce((sum, op) => sum + (op.op === 'insert' ? insertCount(op.values) : 0), 0);
  if (inserts > limit) throw tooManyWrites({ limit, spent: inserts });
  return writeBudgets.run({ limit, spent: 0 }, fn);
}
