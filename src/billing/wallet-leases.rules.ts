/**
 * The pure rules of wallet leases (src/billing/wallet-leases.service.ts): how much a new lease
 * reserves, when one is refused, how its size adapts, when it closes. Amounts in micro-dollars.
 */

/** A new lease reserves this many times the charge that asked for it, at first. */
export const LEASE_START_MULTIPLE = 16n;
/** ...and at most this many times, however fast its payer writes. */
export const LEASE_MAX_MULTIPLE = 4096n;
/** A lease closes this long after it opened (its reservation returns to the wallet)... */
export const LEASE_LIFETIME_MS = 1000;
/** ...or once no charge used it for this long. */
export const LEASE_IDLE_MS = 200;
/** A lease still open this long after it opened belongs to a process that stopped: any process closes it. */
export const LEASE_EXPIRY_MS = 30_000;

/** What a payer can reserve now: the wallet's, and the budget's when the payer has one. */
export interface Headroom {
  /** The wallet's balance less what open leases reserve from it. */
  wallet: bigint;
  /** The budget's limit less the month's spend and what open leases reserve from it; null: no budget. */
  budget: bigint | null;
}

export type LeaseDecision = { granted: bigint } | { refused: 'wallet' | 'budget' };

/**
 * The reservation a lease gets: what it wants, cut to the headroom; refused when the headroom
 * cannot pay `cost` itself. The budget is checked first, as a charge always did.
 */
export function leaseGrant(cost: bigint, wanted: bigint, headroom: Headroom): LeaseDecision {
  if (headroom.budget !== null && headroom.budget < cost) return { refused: 'budget' };
  if (headroom.wallet < cost) return { refused: 'wallet' };
  let granted = wanted > cost ? wanted : cost;
  if (granted > headroom.wallet) granted = headroom.wallet;
  if (headroom.budget !== null && granted > headroom.budget) granted = headroom.budget;
  return { granted };
}

/** What the previous lease of the same payer did, if there was one in this process. */
export interface PreviousLease {
  reserved: bigint;
  /** It ran out (could not pay a charge) before it was due to close. */
  exhausted: boolean;
  /** It reached its lifetime while still charged (closedInUse): its payer still writes at its pace. */
  inUse?: boolean;
}

/**
 * How much the next lease wants: it starts small, doubles while its payer keeps exhausting leases
 * within their lifetime, keeps its size when the previous one closed at its lifetime still in use
 * (so a steady payer does not start small again every lifetime), and is capped, so one process
 * does not hold all of a payer's money.
 */
export function nextLeaseSize(cost: bigint, previous: PreviousLease | null): bigint {
  const start = cost * LEASE_START_MULTIPLE;
  const cap = cost * LEASE_MAX_MULTIPLE;
  if (!previous?.exhausted && !previous?.inUse) return start;
  const wanted = previous.exhausted ? previous.reserved * 2n : previous.reserved;
  return wanted < start ? start : wanted > cap ? cap : wanted;
}

/** Whether a lease closing now was still being charged (used within LEASE_IDLE_MS, not exhausted). */
export const closedInUse = (lease: { lastUsedAt: number; exhausted: boolean }, now: number): boolean =>
  !lease.exhausted && now - lease.lastUsedAt < LEASE_IDLE_MS;

/** A lease in use gets its successor this long before its lifetime ends, so one is open when it closes... */
export const LEASE_RENEW_AHEAD_MS = 300;

/** ...and as soon as less than a quarter of its reservation is left (the successor then twice its size). */
export const runningLow = (lease: { allowance: bigint; reserved: bigint }): boolean => lease.allowance * 4n < lease.reserved;

/** Whether a lease still charged is near the end of its lifetime, so its successor is granted now. */
export const renewDue = (lease: { openedAt: number; lastUsedAt: number; exhausted: boolean }, now: number): boolean =>
  closedInUse(lease, now) && now - lease.openedAt >= LEASE_LIFETIME_MS - LEASE_RENEW_AHEAD_MS;

/** Whether this process closes its lease now (times in ms on a monotonic clock). */
export function leaseDue(lease: { openedAt: number; lastUsedAt: number; exhausted: boolean }, now: number): boolean {
  return lease.exhausted || now - lease.openedAt >= LEASE_LIFETIME_MS || now - lease.lastUsedAt >= LEASE_IDLE_MS;
}
