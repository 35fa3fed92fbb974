import { describe, expect, it } from 'vitest';
import { costByClass, costMicros, type Prices, type Usage } from './pricing.rules.js';

/** The defaults: $1 per million reads, $2 per million writes, $0.09 per GB moved, $0.02 per GB-month stored. */
const PRICES: Prices = { readsPerMillion: 1_000_000n, writesPerMillion: 2_000_000n, transferPerGb: 90_000n, storagePerGbMonth: 20_000n };

describe('costMicros: the exact sum, rounded up once to a micro-dollar', () => {
  it.each<[string, Usage[], bigint]>([
    ['nothing', [], 0n],
    ['one read', [{ class: 'reads', quantity: 1 }], 1n],
    ['one write', [{ class: 'writes', quantity: 1 }], 2n],
    [
      'a batch of 3 writes and a read',
      [
        { class: 'writes', quantity: 3 },
        { class: 'reads', quantity: 1 },
      ],
      7n,
    ],
    ['a million reads', [{ class: 'reads', quantity: 1_000_000 }], 1_000_000n],
    ['1 GB moved', [{ class: 'transfer', quantity: 1_000_000_000 }], 90_000n],
    ['1 KB moved rounds up', [{ class: 'transfer', quantity: 1000 }], 1n],
    [
      'an upload: a write and 1 MB',
      [
        { class: 'writes', quantity: 1 },
        { class: 'transfer', quantity: 1_000_000 },
      ],
      92n,
    ],
    ['1 GB stored for a day: $0.02 / 30', [{ class: 'storage', quantity: 1_000_000_000 }], 667n],
    [
      'zero of everything',
      [
        { class: 'reads', quantity: 0 },
        { class: 'transfer', quantity: 0 },
      ],
      0n,
    ],
  ])('%s', (_what, usage, micros) => {
    expect(costMicros(PRICES, usage)).toBe(micros);
  });

  it('refuses a negative quantity', () => {
    expect(() => costMicros(PRICES, [{ class: 'reads', quantity: -1 }])).toThrow(RangeError);
  });

  it('free prices cost nothing', () => {
    const free: Prices = { readsPerMillion: 0n, writesPerMillion: 0n, transferPerGb: 0n, storagePerGbMonth: 0n };
    expect(costMicros(free, [{ class: 'writes', quantity: 10 }])).toBe(0n);
  });
});

describe('costByClass: the cost split by class, summing to costMicros', () => {
  it.each<[string, Usage[], Partial<Record<string, bigint>>]>([
    [
      'an upload: a write and 1 MB',
      [
        { class: 'writes', quantity: 1 },
        { class: 'transfer', quantity: 1_000_000 },
      ],
      { writes: 2n, transfer: 90n },
    ],
    // 1 KB moved is $0.00000009: the rounding up goes to the class with the larger remainder.
    [
      'a download: a read and 1 KB',
      [
        { class: 'reads', quantity: 1 },
        { class: 'transfer', quantity: 1000 },
      ],
      { reads: 1n, transfer: 1n },
    ],
    [
      'a batch of 3 writes and a read',
      [
        { class: 'writes', quantity: 3 },
        { class: 'reads', quantity: 1 },
      ],
      { writes: 6n, reads: 1n },
    ],
    // 0.54 and 6.67 micro-dollars: 8 in all, the larger remainder first.
    [
      'two fractions',
      [
        { class: 'transfer', quantity: 6000 },
        { class: 'storage', quantity: 10_000_000 },
      ],
      { transfer: 1n, storage: 7n },
    ],
    ['nothing', [], {}],
  ])('%s', (_, usage, expected) => {
    const parts = costByClass(PRICES, usage);
    expect(parts).toEqual({ reads: 0n, writes: 0n, transfer: 0n, storage: 0n, ...expected });
    expect(parts.reads + parts.writes + parts.transfer + parts.storage).toBe(costMicros(PRICES, usage));
  });
});
