import { describe, expect, it } from 'vitest';
import {
  type Headroom,
  type LeaseDecision,
  type PreviousLease,
  closedInUse,
  renewDue,
  runningLow,
  leaseDue,
  leaseGrant,
  nextLeaseSize,
} from './wallet-leases.rules.js';

describe('leaseGrant: what it wants, cut to the headroom; refused only when the charge itself cannot be paid', () => {
  it.each<[string, bigint, bigint, Headroom, LeaseDecision]>([
    ['plenty: all it wants', 2n, 32n, { wallet: 1_000n, budget: null }, { granted: 32n }],
    ['the wallet cuts it', 2n, 32n, { wallet: 10n, budget: null }, { granted: 10n }],
    ['the budget cuts it', 2n, 32n, { wallet: 1_000n, budget: 6n }, { granted: 6n }],
    ['exactly the cost', 2n, 32n, { wallet: 2n, budget: 2n }, { granted: 2n }],
    ['never below the cost it was asked for', 7n, 4n, { wallet: 100n, budget: null }, { granted: 7n }],
    ['a wallet short of the cost', 2n, 32n, { wallet: 1n, budget: 100n }, { refused: 'wallet' }],
    ['an empty wallet', 2n, 32n, { wallet: 0n, budget: null }, { refused: 'wallet' }],
    ['a wallet in debt', 2n, 32n, { wallet: -5n, budget: null }, { refused: 'wallet' }],
    ['a spent budget, checked first', 2n, 32n, { wallet: 0n, budget: 1n }, { refused: 'budget' }],
  ])('%s', (_name, cost, wanted, headroom, decision) => {
    expect(leaseGrant(cost, wanted, headroom)).toEqual(decision);
  });
});

describe('nextLeaseSize: starts at 16 charges, doubles while exhausted, keeps its size while in use, capped at 4096 charges', () => {
  it.each<[string, bigint, PreviousLease | null, bigint]>([
    ['first lease', 2n, null, 32n],
    ['the previous one lasted', 2n, { reserved: 512n, exhausted: false }, 32n],
    ['the previous one ran out', 2n, { reserved: 32n, exhausted: true }, 64n],
    ['a small previous lease still starts at 16', 2n, { reserved: 4n, exhausted: true }, 32n],
    ['capped', 2n, { reserved: 8000n, exhausted: true }, 8192n],
    ['the previous one closed at its lifetime still in use: its size again', 2n, { reserved: 512n, exhausted: false, inUse: true }, 512n],
    ['in use, but smaller than a start', 2n, { reserved: 4n, exhausted: false, inUse: true }, 32n],
  ])('%s', (_name, cost, previous, size) => {
    expect(nextLeaseSize(cost, previous)).toBe(size);
  });
});

describe('leaseDue: after its lifetime, when idle, or once exhausted', () => {
  it.each<[string, { openedAt: number; lastUsedAt: number; exhausted: boolean }, number, boolean]>([
    ['fresh and busy', { openedAt: 0, lastUsedAt: 100, exhausted: false }, 150, false],
    ['idle 200 ms', { openedAt: 0, lastUsedAt: 100, exhausted: false }, 300, true],
    ['busy but a second old', { openedAt: 0, lastUsedAt: 990, exhausted: false }, 1000, true],
    ['exhausted', { openedAt: 0, lastUsedAt: 10, exhausted: true }, 11, true],
  ])('%s', (_name, lease, now, due) => {
    expect(leaseDue(lease, now)).toBe(due);
  });
});

describe('closedInUse: a lease closing at its lifetime while its payer still charges it', () => {
  it.each<[string, { lastUsedAt: number; exhausted: boolean }, number, boolean]>([
    ['charged 10 ms ago', { lastUsedAt: 990, exhausted: false }, 1000, true],
    ['idle 200 ms', { lastUsedAt: 800, exhausted: false }, 1000, false],
    ['exhausted (its successor doubles instead)', { lastUsedAt: 990, exhausted: true }, 1000, false],
  ])('%s', (_name, lease, now, inUse) => {
    expect(closedInUse(lease, now)).toBe(inUse);
  });
});

describe('renewDue: a lease still charged gets its successor near the end of its lifetime', () => {
  it.each<[string, { openedAt: number; lastUsedAt: number; exhausted: boolean }, number, boolean]>([
    ['half its lifetime', { openedAt: 0, lastUsedAt: 490, exhausted: false }, 500, false],
    ['within the last 300 ms, charged', { openedAt: 0, lastUsedAt: 690, exhausted: false }, 700, true],
    ['within the last 300 ms, idle', { openedAt: 0, lastUsedAt: 400, exhausted: false }, 700, false],
    ['exhausted (it closes now; the next charge grants)', { openedAt: 0, lastUsedAt: 690, exhausted: true }, 700, false],
  ])('%s', (_name, lease, now, due) => {
    expect(renewDue(lease, now)).toBe(due);
  });
});

describe('runningLow: less than a quarter of the reservation left', () => {
  it.each<[string, bigint, bigint, boolean]>([
    ['untouched', 64n, 64n, false],
    ['a quarter left', 16n, 64n, false],
    ['less than a quarter', 15n, 64n, true],
    ['spent', 0n, 64n, true],
  ])('%s', (_name, allowance, reserved, low) => {
    expect(runningLow({ allowance, reserved })).toBe(low);
  });
});
