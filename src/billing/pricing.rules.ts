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
  return wholeMicros(usage.reduce((sum, u) => sum + numerator(prices, u), 0n));
}

/** An exact cost (a numerator over DENOMINATOR) in whole micro-dollars, rounded up. */
const wholeMicros = (exact: bigint): bigint => (exact + DENOMINATOR - 1n) / DENOMINATOR;

export type CostByClass = Record<UsageClass, bigint>;

const CLASSES: readonly UsageClass[] = ['reads', 'writes', 'transfer', 'storage'];

/**
 * `costMicros` split by class, so a call that costs a write and bytes moved shows both: each
 * class's exact cost rounded down, then the micro-dollars the total's rounding up adds go to the
 * classes with the largest remainders. The parts sum to `costMicros` exactly.
 */
export function costByClass(prices: Prices, usage: readonly Usage[]): CostByClass {
  const exact: CostByClass = { reads: 0n, writes: 0n, transfer: 0n, storage: 0n };
  for (const u of usage) exact[u.class] += numerator(prices, u);
  const parts: CostByClass = {
    reads: exact.reads / DENOMINATOR,
    writes: exact.writes / DENOMINATOR,
    transfer: exact.transfer / DENOMINATOR,
    storage: exact.storage / DENOMINATOR,
  };
  const total = wholeMicros(exact.reads + exact.writes + exact.transfer + exact.storage);
  let left = total - (parts.reads + parts.writes + parts.transfer + parts.storage);
  // Nothing is left when every class costs whole micro-dollars.
  if (left === 0n) return parts;
  const byRemainder = CLASSES.filter(c => exact[c] % DENOMINATOR !== 0n).sort((a, b) => Number((exact[b] % DENOMINATOR) - (exact[a] % DENOMINATOR)));
  for (const c of byRemainder) {
    if (left === 0n) break;
    parts[c] += 1n;
    left -= 1n;
  }
  return parts;
}
