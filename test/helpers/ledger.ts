/**
 * The ledger as a test reads it: `wallet_entries`, and the charges of open wallet leases still in
 * `wallet_charges` (they fold into the ledger, one entry per kind, app, environment, client, actor
 * and day, when their lease closes).
 */
import type { PrismaClient } from '../../src/generated/prisma/client.js';

/** The filters both tables take. */
export interface ChargeFilter {
  developerId?: string;
  principalId?: string;
  actorId?: string;
  kind?: string;
}

/** How many metered calls were charged: the calls the ledger's entries sum, and open leases' charges. */
export async function chargeCount(prisma: PrismaClient, where: ChargeFilter): Promise<number> {
  const [folded, pending] = await Promise.all([prisma.walletEntry.aggregate({ where, _sum: { calls: true } }), prisma.walletCharge.count({ where })]);
  return (folded._sum.calls ?? 0) + pending;
}

/** The ledger's sum with open leases' charges (micro-dollars, signed). */
export async function ledgerSum(prisma: PrismaClient, where: ChargeFilter): Promise<bigint> {
  const [entries, pending] = await Promise.all([
    prisma.walletEntry.aggregate({ where, _sum: { amountMicros: true } }),
    prisma.walletCharge.aggregate({ where, _sum: { amountMicros: true } }),
  ]);
  return (entries._sum.amountMicros ?? 0n) + (pending._sum.amountMicros ?? 0n);
}
