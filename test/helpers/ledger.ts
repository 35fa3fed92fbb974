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

/**
 * How many metered calls were charged: the calls the ledger's entries sum, and open leases' charges.
 * Both tables are read in one snapshot: a lease closing between two reads would otherwise show its
 * charges in both tables or in neither.
 */
export async function chargeCount(prisma: PrismaClient, where: ChargeFilter): Promise<number> {
  const [folded, pending] = await prisma.$transaction(
    [prisma.walletEntry.aggregate({ where, _sum: { calls: true } }), prisma.walletCharge.count({ where })],
    { isolationLevel: 'RepeatableRead' },
  );
  return (folded._sum.calls ?? 0) + pending;
}

/** The ledger's sum with open leases' charges (micro-dollars, signed), in one snapshot as above. */
export async function ledgerSum(prisma: PrismaClient, where: ChargeFilter): Promise<bigint> {
  const [entries, pending] = await prisma.$transaction(
    [prisma.walletEntry.aggregate({ where, _sum: { amountMicros: true } }), prisma.walletCharge.aggregate({ where, _sum: { amountMicros: true } })],
    { isolationLevel: 'RepeatableRead' },
  );
  return (entries._sum.amountMicros ?? 0n) + (pending._sum.amountMicros ?? 0n);
}
