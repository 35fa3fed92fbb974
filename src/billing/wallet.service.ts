/**
 * Wallets: an append-only ledger per holder (a person, a developer or a resource) in integer
 * micro-dollars ($1 = 1_000_000), and the holder's balance in `wallets`, kept in step in the same
 * transaction as every entry. One-time entries carry a `onceKey`, whose unique index makes them
 * race-safe: concurrent attempts insert one row between them.
 */
import { Prisma } from '../generated/prisma/client.js';
import { newId } from '../lib/secrets.js';
import type { ServiceDeps, Tx } from '../core/deps.js';

export const WELCOME_CREDIT_KIND = 'welcome_credit';
export const DEVELOPER_CREDIT_KIND = 'developer_credit';

export type HolderKind = 'principal' | 'developer' | 'resource';
export interface Holder {
  kind: HolderKind;
  id: string;
}

/** The entry's metadata beyond holder and amount (charges). */
export interface EntryFacts {
  kind: string;
  onceKey?: string | null;
  appId?: string | null;
  env?: string | null;
  clientId?: string | null;
  actorId?: string | null;
  quantity?: bigint | null;
}

/** 5_250_000n -> "5.25", -1n -> "-0.000001": exact, at least two decimals. */
/** Entries a wallet statement lists (the newest). */
export const STATEMENT_ENTRIES = 50;

export function microsToUsd(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const fraction = (abs % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}${abs / 1_000_000n}.${fraction}`;
}

const holderColumn = { principal: 'principal_id', developer: 'developer_id', resource: 'resource_id' } as const;

/**
 * Appends one entry and moves the holder's balance by its amount, in `tx`. With a `onceKey` that
 * already exists nothing happens and it answers false.
 */
export async function appendEntry(tx: Tx, holder: Holder, amountMicros: bigint, facts: EntryFacts, now: Date): Promise<boolean> {
  const column = Prisma.raw(holderColumn[holder.kind]);
  const inserted = await tx.$executeRaw`
    INSERT INTO wallet_entries (id, ${column}, amount_micros, kind, once_key, app_id, env, client_id, actor_id, quantity, created_at)
    VALUES (${newId('wal')}, ${holder.id}, ${amountMicros}, ${facts.kind}, ${facts.onceKey ?? null}, ${facts.appId ?? null}, ${facts.env ?? null},
            ${facts.clientId ?? null}, ${facts.actorId ?? null}, ${facts.quantity ?? null}, ${now})
    ON CONFLICT (once_key) DO NOTHING`;
  if (inserted !== 1) return false;
  await tx.$executeRaw`
    INSERT INTO wallets (holder_id, balance_micros, updated_at) VALUES (${holder.id}, ${amountMicros}, ${now})
    ON CONFLICT (holder_id) DO UPDATE SET balance_micros = wallets.balance_micros + EXCLUDED.balance_micros, updated_at = EXCLUDED.updated_at`;
  return true;
}

export function createWalletService(deps: ServiceDeps) {
  const inTx = <T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>) => (tx ? fn(tx) : deps.transaction(fn));

  return {
    /** docs/api.md §4.7, consent rule 3: the welcome credit, at most once per user ever. */
    grantWelcomeCredit(principalId: string, tx?: Tx): Promise<boolean> {
      return inTx(tx, t =>
        appendEntry(
          t,
          { kind: 'principal', id: principalId },
          deps.config.auth.welcomeCreditMicros,
          { kind: WELCOME_CREDIT_KIND, onceKey: `${WELCOME_CREDIT_KIND}:${principalId}` },
          deps.now(),
        ),
      );
    },

    /** A developer's starting credit (DEVELOPER_CREDIT_USD), once, on their first metered use. */
    grantDeveloperCredit(developerId: string, tx?: Tx): Promise<boolean> {
      return inTx(tx, t =>
        appendEntry(
          t,
          { kind: 'developer', id: developerId },
          deps.config.metering.developerCreditMicros,
          { kind: DEVELOPER_CREDIT_KIND, onceKey: `${DEVELOPER_CREDIT_KIND}:${developerId}` },
          deps.now(),
        ),
      );
    },

    /** An operator's top-up (`gatehouse wallet credit`). */
    credit(holder: Holder, amountMicros: bigint, tx?: Tx): Promise<boolean> {
      return inTx(tx, t => appendEntry(t, holder, amountMicros, { kind: 'credit' }, deps.now()));
    },

    async balanceMicros(holderId: string): Promise<bigint> {
      const wallet = await deps.prisma.wallet.findUnique({ where: { holderId } });
      return wallet?.balanceMicros ?? 0n;
    },

    /** The holder's view: balance and the newest entries, amounts as exact decimal strings. */
    async statement(holder: Holder, limit = STATEMENT_ENTRIES) {
      const where =
        holder.kind === 'principal'
          ? { principalId: holder.id }
          : holder.kind === 'developer'
            ? { developerId: holder.id }
            : { resourceId: holder.id };
      const [balance, entries] = await Promise.all([
        this.balanceMicros(holder.id),
        deps.prisma.walletEntry.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit }),
      ]);
      return {
        balanceUsd: microsToUsd(balance),
        entries: entries.map(e => ({
          id: e.id,
          kind: e.kind,
          amountUsd: microsToUsd(e.amountMicros),
          appId: e.appId,
          env: e.env,
          clientId: e.clientId,
          actorId: e.actorId,
          quantity: e.quantity === null ? null : Number(e.quantity),
          createdAt: e.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
