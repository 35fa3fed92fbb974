/**
 * Wallet leases (docs/api.md §14.1, src/billing/wallet-leases.service.ts): charges paid from
 * reservations stay exact. Concurrent writes of one payer near zero never overdraw and are refused
 * exactly when unaffordable; a process that stops with leases open leaves a ledger that recovery
 * brings back to the balance; a lease closing while a write charges it loses nothing. Both stores.
 */
import { describe, expect, vi } from 'vitest';
import { type TestContext, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { ROWS_SCHEMA } from './rows.fixture.js';
import { filesSeed } from './files.fixture.js';
import { usdToMicros } from '../../src/config.js';
import { microsToUsd } from '../../src/billing/wallet.service.js';
import {
  type ChargeEntry,
  type LeaseDeps,
  closeLeaseIn,
  closeLeases,
  payFromLease,
  stopSweeping,
  walletLeases,
} from '../../src/billing/wallet-leases.service.js';
import { chargeCount, ledgerSum } from '../helpers/ledger.js';

async function seed(ctx: TestContext, users: string[]) {
  const s = await filesSeed(ctx, users);
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: ROWS_SCHEMA });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  return { ...s, project: await createResource(s.users.alice, 'project', 'Leased') };
}

// Seeding and racing dozens of writes on one PGlite connection, on a machine other suites share.
vi.setConfig({ testTimeout: 120_000 });

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice'], seed });

describe.each(available)('wallet leases on $name', backend => {
  const it = onBackend(backend)
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    .extend('insert', async ({ s }) => {
      return (title: string) =>
        s.users.alice.post('/v1/db/query', { scope: { kind: 'resource', resourceId: s.project }, table: 'tasks', op: 'insert', values: { title } });
    })
    /** Closes this server's leases, then sets the developer's balance (the table holds every charge then). */
    .extend('setBalance', async ({ ctx, s, prisma }) => {
      return async (micros: bigint) => {
        await ctx.app.services.metering.closeWalletLeases();
        await prisma.wallet.upsert({
          where: { holderId: s.developerId },
          create: { holderId: s.developerId, balanceMicros: micros },
          update: { balanceMicros: micros },
        });
      };
    })
    /**
     * The balance column and the ledger's sum, once this server's leases closed. Before closing
     * them, the wallet's total of open reservations is checked against its open leases (one
     * statement, so one snapshot: a lease opens or closes with the total in one transaction).
     */
    .extend('books', async ({ ctx, s, prisma }) => {
      return async () => {
        const [reserved] = await prisma.$queryRaw<{ total: bigint; open: bigint }[]>`
          SELECT w.reserved_micros AS total,
            (SELECT COALESCE(SUM(l.reserved_micros), 0)::bigint FROM wallet_leases l WHERE l.holder_id = w.holder_id AND l.closed_at IS NULL) AS open
          FROM wallets w WHERE w.holder_id = ${s.developerId}`;
        expect(reserved.total).toBe(reserved.open);
        await ctx.app.services.metering.closeWalletLeases();
        const balance = (await prisma.wallet.findUniqueOrThrow({ where: { holderId: s.developerId } })).balanceMicros;
        const ledger =
          (await prisma.walletEntry.aggregate({ where: { developerId: s.developerId }, _sum: { amountMicros: true } }))._sum.amountMicros ?? 0n;
        return { balance, ledger };
      };
    });

  it('concurrent writes near zero: exactly the affordable ones pass, the rest are 402 wallet, nothing overdraws', async ({
    prisma,
    s,
    insert,
    setBalance,
    books,
  }) => {
    await setBalance(5_000_000n);
    for (const [balance, writes] of [
      [21n, 20],
      [7n, 12],
      [2n, 6],
    ] as const) {
      // Warm leases first: they are closed by setBalance, so the race starts from reservations this process held.
      expect((await insert('warm')).status).toBe(200);
      await setBalance(balance);
      const before = await chargeCount(prisma, { developerId: s.developerId });
      const ledgerBefore = (await books()).ledger;
      const results = await Promise.all(Array.from({ length: writes }, (_, i) => insert(`race ${i}`)));
      const paid = results.filter(r => r.status === 200).length;
      const affordable = Number(balance / 2n);
      expect(paid, results.map(r => r.status).join()).toBe(Math.min(affordable, writes));
      expect(results.filter(r => r.status !== 200).every(r => r.status === 402 && r.body.reason === 'wallet')).toBe(true);
      const after = await books();
      expect(after.balance).toBe(balance - 2n * BigInt(paid));
      // The ledger moved by exactly what the balance did (setBalance moved the balance alone).
      expect(after.ledger).toBe(ledgerBefore - 2n * BigInt(paid));
      expect(await chargeCount(prisma, { developerId: s.developerId })).toBe(before + paid);
      // Refused: and still refused on the next try, with no lease holding the last micro-dollars.
      if (after.balance < 2n) expect((await insert('one more')).status).toBe(402);
      await setBalance(5_000_000n);
    }
  });

  it('the budget refuses exactly too, and its spend is right while leases are open', async ({ ctx, s, insert, setBalance, books }) => {
    await setBalance(5_000_000n);
    expect((await insert('warm')).status).toBe(200);
    const spentUsd = async () => (await ctx.app.services.metering.budgets(s.developerId, s.appId)).apps[0].envs.find(e => e.env === 'dev')!.spentUsd;
    const spent = usdToMicros(await spentUsd());
    // Room for 11 more writes, and a micro-dollar.
    const room = 11;
    const limit = microsToUsd(spent + 2n * BigInt(room) + 1n);
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: limit })).status).toBe(200);
    const ledgerBefore = (await books()).ledger;
    const results = await Promise.all(Array.from({ length: room + 5 }, (_, i) => insert(`budget ${i}`)));
    expect(results.filter(r => r.status === 200)).toHaveLength(room);
    expect(results.filter(r => r.status === 402).every(r => r.body.reason === 'env_budget')).toBe(true);
    // Read with the leases still open: the view adds their charges.
    expect(await spentUsd()).toBe(microsToUsd(spent + 2n * BigInt(room)));
    expect((await insert('over')).status).toBe(402);
    expect((await books()).ledger).toBe(ledgerBefore - 2n * BigInt(room));
    expect(await spentUsd()).toBe(microsToUsd(spent + 2n * BigInt(room)));
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: '2' })).status).toBe(200);
  });

  /** The lease service with a fresh in-memory state: another process, or this one after a restart. */
  const processOf = (ctx: TestContext): LeaseDeps => {
    const { deps } = ctx.app.services;
    return { sqlTransaction: deps.sqlTransaction, now: deps.now, walletLeases: walletLeases() };
  };
  const entryOf = (s: { developerId: string; appId: string }, i: number, now: Date): ChargeEntry => ({
    principal_id: null,
    developer_id: s.developerId,
    amount_micros: -2n,
    kind: 'charge:test',
    app_id: s.appId,
    env: 'dev',
    client_id: null,
    actor_id: s.developerId,
    quantity: BigInt(i),
    created_at: now,
  });

  it('a process that stops with leases open: recovery brings the balance to the ledger, every acknowledged charge in it', async ({
    ctx,
    s,
    prisma,
    books,
    setBalance,
  }) => {
    await setBalance(5_000_000n);
    // setBalance moved the balance without an entry: the books differ by this much from here on.
    const start = await books();
    const offset = start.balance - start.ledger;
    const crashed = processOf(ctx);
    const payer = { holder: { kind: 'developer' as const, id: s.developerId }, budget: null };
    // A process whose sweep never runs (it is stopped after every charge), then dies: its memory is gone.
    for (let i = 0; i < 40; i++) {
      expect(await crashed.sqlTransaction(tx => payFromLease(crashed, tx, { payer, cost: 2n, entry: entryOf(s, i, crashed.now()) }))).toBeNull();
      stopSweeping(crashed);
    }
    const open = await prisma.walletLease.findMany({ where: { holderId: s.developerId, closedAt: null } });
    expect(open.length).toBeGreaterThan(0);
    const { balanceMicros: balance, reservedMicros } = await prisma.wallet.findUniqueOrThrow({ where: { holderId: s.developerId } });
    // The wallet row holds what the open leases reserve (the storage check reads it).
    expect(reservedMicros).toBe(open.reduce((sum, lease) => sum + lease.reservedMicros, 0n));
    const ledger = await ledgerSum(prisma, { developerId: s.developerId });
    // Every acknowledged charge is in the ledger; the balance has not moved yet.
    expect(ledger).toBe(start.ledger - 80n);
    expect(balance).toBe(start.balance);
    // Startup of the next process.
    expect(await closeLeases(processOf(ctx), { everyProcess: true })).toBe(open.length);
    expect((await prisma.wallet.findUniqueOrThrow({ where: { holderId: s.developerId } })).reservedMicros).toBe(0n);
    expect(await chargeCount(prisma, { developerId: s.developerId, kind: 'charge:test' })).toBe(40);
    const after = await books();
    expect(after.balance).toBe(start.balance - 80n);
    expect(after.balance - after.ledger).toBe(offset);
  });

  it.runIf(backend.name === 'postgres')(
    'a lease closing while a write charges it loses nothing, whichever locks first',
    async ({ ctx, s, prisma, books, setBalance }) => {
      await setBalance(5_000_000n);
      const ledgerBefore = (await books()).ledger;
      const writer = processOf(ctx);
      const payer = { holder: { kind: 'developer' as const, id: s.developerId }, budget: null };
      const { deps } = ctx.app.services;
      // A lease, granted and committed.
      await writer.sqlTransaction(tx => payFromLease(writer, tx, { payer, cost: 2n, entry: entryOf(s, 0, deps.now()) }));
      stopSweeping(writer);
      const [lease] = await prisma.walletLease.findMany({ where: { holderId: s.developerId, closedAt: null } });

      // 1. The write charges first and is still open: the close waits for it and counts its entry.
      let release!: () => void;
      const held = new Promise<void>(resolve => {
        release = resolve;
      });
      let charged!: () => void;
      const inserted = new Promise<void>(resolve => {
        charged = resolve;
      });
      const write = writer.sqlTransaction(async tx => {
        expect(await payFromLease(writer, tx, { payer, cost: 2n, entry: entryOf(s, 1, deps.now()) })).toBeNull();
        charged();
        await held;
      });
      await inserted;
      let closedAt = 0;
      const close = deps
        .sqlTransaction(tx => closeLeaseIn(tx, lease.id, deps.now()))
        .then(result => {
          closedAt = Date.now();
          return result;
        });
      await new Promise(resolve => setTimeout(resolve, 150));
      expect(closedAt).toBe(0);
      release();
      await write;
      expect(await close).toBe('closed');
      expect((await prisma.walletLease.findUniqueOrThrow({ where: { id: lease.id } })).usedMicros).toBe(4n);

      // 2. The close locks first: the write finds the lease closed and pays from a new one.
      const [second] = await Promise.all([
        writer.sqlTransaction(tx => payFromLease(writer, tx, { payer, cost: 2n, entry: entryOf(s, 2, deps.now()) })),
      ]);
      expect(second).toBeNull();
      const [next] = await prisma.walletLease.findMany({ where: { holderId: s.developerId, closedAt: null } });
      let unlock!: () => void;
      const locked = new Promise<void>(resolve => {
        unlock = resolve;
      });
      let closing!: () => void;
      const closerHolds = new Promise<void>(resolve => {
        closing = resolve;
      });
      const closer = deps.sqlTransaction(async tx => {
        const result = await closeLeaseIn(tx, next.id, deps.now());
        closing();
        await locked;
        return result;
      });
      await closerHolds;
      const late = writer.sqlTransaction(tx => payFromLease(writer, tx, { payer, cost: 2n, entry: entryOf(s, 3, deps.now()) }));
      await new Promise(resolve => setTimeout(resolve, 150));
      unlock();
      expect(await closer).toBe('closed');
      expect(await late).toBeNull();
      const entry = await prisma.walletCharge.findFirstOrThrow({ where: { developerId: s.developerId, kind: 'charge:test', quantity: 3n } });
      expect(entry.leaseId).not.toBe(next.id);
      expect((await prisma.walletLease.findUniqueOrThrow({ where: { id: next.id } })).usedMicros).toBe(2n);
      await closeLeases(writer);
      const after = await books();
      expect(after.balance).toBe(5_000_000n - 8n);
      expect(after.ledger).toBe(ledgerBefore! - 8n);
    },
  );
});
