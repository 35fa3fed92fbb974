/**
 * Spend per UTC day by price class (docs/api.md §14.4): the window a view covers, and the grouped
 * ledger sums laid out as one line per day (days without spend as zeros) with the window's totals.
 * Pure: the sums come from src/billing/daily-spend.service.ts.
 */
import { z } from 'zod';

/** Days a view covers unless asked otherwise, and at most. */
export const SPEND_DAYS = { default: 30, max: 92 } as const;

export const spendDaysSchema = z.number().int().min(1).max(SPEND_DAYS.max, `days must be at most ${SPEND_DAYS.max}`);

const DAY_MS = 86_400_000;

/** The last `days` UTC days up to and including `now`'s: [since, until) as instants, and their names. */
export function spendWindow(now: Date, days: number) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const until = new Date(today + DAY_MS);
  const names = Array.from({ length: days }, (_, i) => new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  return { since, until, names };
}

/** One day's sums as the ledger query answers them: positive micro-dollars spent. */
export interface DaySums {
  day: string;
  reads: bigint;
  writes: bigint;
  transfer: bigint;
  storage: bigint;
}

export interface SpendLine {
  readsUsd: string;
  writesUsd: string;
  transferUsd: string;
  storageUsd: string;
  totalUsd: string;
}

export interface DailySpend {
  /** The first and last day shown (YYYY-MM-DD, UTC). */
  since: string;
  until: string;
  days: (SpendLine & { day: string })[];
  total: SpendLine;
}

type Dollars = (micros: bigint) => string;

const lineOf = (s: Omit<DaySums, 'day'>, usd: Dollars): SpendLine => ({
  readsUsd: usd(s.reads),
  writesUsd: usd(s.writes),
  transferUsd: usd(s.transfer),
  storageUsd: usd(s.storage),
  totalUsd: usd(s.reads + s.writes + s.transfer + s.storage),
});

/** Every day of the window in order, zeros where the ledger had nothing, and the totals; `usd` writes the amounts. */
export function dailySpend(names: readonly string[], sums: readonly DaySums[], usd: Dollars): DailySpend {
  const byDay = new Map(sums.map(s => [s.day, s]));
  const total = { reads: 0n, writes: 0n, transfer: 0n, storage: 0n };
  const days = names.map(day => {
    const s = byDay.get(day) ?? { day, reads: 0n, writes: 0n, transfer: 0n, storage: 0n };
    total.reads += s.reads;
    total.writes += s.writes;
    total.transfer += s.transfer;
    total.storage += s.storage;
    return { day, ...lineOf(s, usd) };
  });
  return { since: names[0], until: names[names.length - 1], days, total: lineOf(total, usd) };
}
