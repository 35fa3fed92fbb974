/**
 * The price table (docs/api.md §14, README "Billing"): what one call's usage costs, in whole
 * micro-dollars rounded up. Prices are per million operations, per GB (10^9 bytes) transferred and
 * per GB-month stored. Pure and exact: bigint arithmetic over one common denominator.
 */
export type UsageClass = 'reads' | 'writes' | 'transfer' | 'storage';

export interface Usage {
  class: UsageClass;
  /** reads/writes: operations; transfer: bytes; storage: byte-days. */
  quantity: number | bigint;
}

export interface Prices {
  readsPerMillion: bigint;
  writesPerMillion: bigint;
  transferPerGb: bigint;
  storagePerGbMonth: bigint;
}

const MILLION = 1_000_000n;
const GB = 1_000_000_000n;
const MONTH_DAYS = 30n;
/** A denominator every price divides into: per-million operations and per GB-day of storage. */
const DENOMINATOR = MILLION * GB * MONTH_DAYS;

function numerator(prices: Prices, usage: Usage): bigint {
  const q = BigInt(usage.quantity);
  if (q < 0n) throw new RangeError('usage quantity must not be negative');
  switch (usage.class) {
    case 'reads':
      return q * prices.readsPerMillion * GB * MONTH_DAYS;
    case 'writes':
      return q * prices.writesPerMillion * GB * MONTH_DAYS;
    case 'transfer':
      return q * prices.transferPerGb * MILLION * MONTH_DAYS;
    case 'storage':
      return q * prices.storagePerGbMonth * MILLION;
  }
}

/** The cost of one call's usage in micro-dollars: the exact sum, rounded up once. */
export function costMicros(prices: Prices, usage: readonly Usage[]): bigint {
  const total = usage.reduce((sum, u) => sum + numerator(prices, u), 0n);
  return (total + DENOMINATOR - 1n) / DENOMINATOR;
}
