/**
 * Wallets: an append-only ledger per principal in integer micro-dollars ($1 = 1_000_000). Rows
 * are only ever inserted; the balance is their sum. One-time credits carry a `onceKey`, whose
 * unique index makes them race-safe: concurrent attempts insert one row between them.
 */
import { newId } from '../lib/secrets.js';
import type { ServiceDeps, Tx } from './deps.js';

export const WELCOME_CREDIT_KIND = 'welcome_credit';

/** 5_250_000n -> "5.25", -1n -> "-0.000001": exact, at least two decimals. */
export function microsToUsd(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const fraction = (abs % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}${abs / 1_000_000n}.${fraction}`;
}

export function createWalletService(deps: ServiceDeps) {
  return {
    /** Inserts the entry unless one with `onceKey` exists; true when this call inserted it. */
    async creditOnce(input: { principalId: string; amountMicros: bigint; kind: string; onceKey: string }, tx: Tx = deps.prisma): Promise<boolean> {
      const { count } = await tx.walletEntry.createMany({
        data: [
          {
            id: newId('wal'),
            principalId: input.principalId,
            amountMicros: input.amountMicros,
            kind: input.kind,
            onceKey: input.onceKey,
            createdAt: deps.now(),
          },
        ],
        skipDuplicates: true,
      });
      return count === 1;
    },

    /** docs/api.md §4.7, consent rule 3: the welcome credit, at most once per user ever. */
    grantWelcomeCredit(principalId: string, tx?: Tx): Promise<boolean> {
      return this.creditOnce(
        {
          principalId,
          amountMicros: deps.config.auth.welcomeCreditMicros,
          kind: WELCOME_CREDIT_KIND,
          onceKey: `${WELCOME_CREDIT_KIND}:${principalId}`,
        },
        tx,
      );
    },

    async balanceMicros(principalId: string): Promise<bigint> {
      const sum = await deps.prisma.walletEntry.aggregate({ where: { principalId }, _sum: { amountMicros: true } });
      return sum._sum.amountMicros ?? 0n;
    },

    /** The owner's view: balance and the newest entries, amounts as exact decimal strings. */
    async statement(principalId: string, limit = 50) {
      const [balance, entries] = await Promise.all([
        this.balanceMicros(principalId),
        deps.prisma.walletEntry.findMany({ where: { principalId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit }),
      ]);
      return {
        balanceUsd: microsToUsd(balance),
        entries: entries.map(e => ({ id: e.id, kind: e.kind, amountUsd: microsToUsd(e.amountMicros), createdAt: e.createdAt.toISOString() })),
      };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
