import { describe, expect, it } from 'vitest';
import { dailySpend, spendWindow } from './daily-spend.rules.js';

describe('spendWindow: the last N UTC days, today included', () => {
  it('starts at midnight UTC N-1 days back and ends after today', () => {
    const w = spendWindow(new Date('2026-03-02T23:59:00Z'), 3);
    expect(w.since.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(w.until.toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(w.names).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });
});

describe('dailySpend: one line per day, zeros where nothing was spent, and totals', () => {
  it('lays out the sums and adds them up by class', () => {
    const view = dailySpend(
      ['2026-03-01', '2026-03-02', '2026-03-03'],
      [
        { day: '2026-03-03', reads: 1n, writes: 4n, transfer: 90n, storage: 0n },
        { day: '2026-03-01', reads: 2n, writes: 0n, transfer: 0n, storage: 7n },
      ],
      micros => `${micros}µ`,
    );
    expect(view.since).toBe('2026-03-01');
    expect(view.until).toBe('2026-03-03');
    expect(view.days.map(d => [d.day, d.totalUsd])).toEqual([
      ['2026-03-01', '9µ'],
      ['2026-03-02', '0µ'],
      ['2026-03-03', '95µ'],
    ]);
    expect(view.days[2]).toMatchObject({ readsUsd: '1µ', writesUsd: '4µ', transferUsd: '90µ', storageUsd: '0µ' });
    expect(view.total).toEqual({ readsUsd: '3µ', writesUsd: '4µ', transferUsd: '90µ', storageUsd: '7µ', totalUsd: '104µ' });
  });
});
