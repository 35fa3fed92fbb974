/**
 * Metering (docs/api.md §14, spec 5.4): a test session's operations charge the minting developer
 * in the same transaction as the write, within the environment's budget (created lazily at $2);
 * a refused operation charges nothing; a short wallet or budget is 402 `payment_required` and
 * changes nothing; concurrent charges never overdraw. Runs on both stores.
 */
import { describe, expect, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { type Seed, type TestContext, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTest, appTestOn } from '../helpers/fixtures.js';
import { blobKeys, fileRequest, filesSeed } from './files.fixture.js';
import { ROWS_SCHEMA } from './rows.fixture.js';

/** filesSeed with the row tables beside the buckets, and alice's project to write in. */
async function meteredSeed(ctx: TestContext, users: string[]) {
  const s = await filesSeed(ctx, users);
  // Tables and buckets in one schema.
  const { buckets } = (await import('./files.fixture.js')).FILES_SCHEMA;
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: { ...ROWS_SCHEMA, buckets } });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  return { ...s, project: await createResource(s.users.alice, 'project', 'Metered') };
}

/** One batch call: two inserts and a select. */
const twoWritesAndARead = (who: Seed['users'][string], resourceId: string) => {
  const scope = { kind: 'resource', resourceId };
  return who.post('/v1/db/batch', {
    operations: [
      { scope, table: 'tasks', op: 'insert', values: { title: 'a' } },
      { scope, table: 'tasks', op: 'insert', values: { title: 'b' } },
      { scope, table: 'tasks', op: 'select' },
    ],
  });
};

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice', 'bob'], seed: meteredSeed });

describe.each(available)('metering on $name', backend => {
  const it = onBackend(backend)
    .extend('project', async ({ s }) => s.project)
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    // Charges reach `wallets` when their wallet lease closes: close this server's before reading the table.
    .extend(
      'closeLeases',
      async ({ ctx }) =>
        () =>
          ctx.app.services.metering.closeWalletLeases(),
    )
    .extend('balance', async ({ s, prisma, closeLeases }) => {
      return async () => {
        await closeLeases();
        return (await prisma.wallet.findUnique({ where: { holderId: s.developerId } }))?.balanceMicros ?? 0n;
      };
    })
    // The ledger's entries, once this server's leases closed (a lease's charges fold into it then).
    .extend('charges', async ({ s, prisma, closeLeases }) => {
      return async (kind?: string) => {
        await closeLeases();
        return prisma.walletEntry.findMany({ where: { developerId: s.developerId, ...(kind ? { kind } : {}) }, orderBy: { createdAt: 'asc' } });
      };
    })
    .extend('insert', async ({ s, project }) => {
      return (title: string, who = s.users.alice) =>
        who.post('/v1/db/query', { scope: { kind: 'resource', resourceId: project }, table: 'tasks', op: 'insert', values: { title } });
    })
    .extend('taskCount', async ({ prisma, project }) => {
      return () => prisma.row.count({ where: { resourceId: project, tableName: 'tasks' } });
    });

  it("a test session's write charges the minting developer, who starts with the developer credit", async ({
    s,
    prisma,
    balance,
    charges,
    insert,
  }) => {
    expect((await insert('first')).status).toBe(200);
    const credit = await charges('developer_credit');
    expect(credit).toHaveLength(1);
    expect(credit[0].amountMicros).toBe(5_000_000n);
    const [charge] = await charges('charge:rows.insert');
    expect(charge).toMatchObject({ amountMicros: -2n, appId: s.appId, env: 'dev', actorId: s.users.alice.id, quantity: 1n });
    // The balance is the ledger's sum.
    const entries = await prisma.walletEntry.aggregate({ where: { developerId: s.developerId }, _sum: { amountMicros: true } });
    expect(await balance()).toBe(entries._sum.amountMicros);
  });

  it('reads charge once answered; a refused or invalid operation charges nothing', async ({ s, project, balance, insert }) => {
    const before = await balance();
    expect(
      (await s.users.alice.post('/v1/db/query', { scope: { kind: 'resource', resourceId: project }, table: 'tasks', op: 'select' })).status,
    ).toBe(200);
    expect(await balance()).toBe(before - 1n);
    const outsider = await insert('nope', s.users.bob);
    expect(outsider.status).toBe(404);
    const invalid = await s.users.alice.post('/v1/db/query', {
      scope: { kind: 'resource', resourceId: project },
      table: 'tasks',
      op: 'insert',
      values: {},
    });
    expect(invalid.status).toBe(400);
    expect(await balance()).toBe(before - 1n);
  });

  it("a test user's agent pays as the test user does: through the developer, within the environment budget", async ({
    ctx,
    s,
    project,
    prisma,
    balance,
    insert,
  }) => {
    const agent = await s.users.alice.post('/v1/agents', { name: 'worker' });
    expect((await s.users.alice.post(`/v1/resources/${project}/invite`, { userId: agent.body.id, role: 'writer' })).status).toBe(200);
    const before = await balance();
    const res = await insert('by the agent', ctx.client(agent.body.token) as typeof s.users.alice);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await balance()).toBe(before - 2n);
    const [charge] = await prisma.walletEntry.findMany({ where: { developerId: s.developerId, actorId: agent.body.id } });
    expect(charge).toMatchObject({ kind: 'charge:rows.insert', amountMicros: -2n, appId: s.appId, env: 'dev', clientId: null });
    // It counts in the environment's budget: spent, the agent is refused as its owner would be.
    const { spentUsd } = (await s.developer.get('/dev/budgets')).body.apps[0].envs[0];
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: spentUsd })).status).toBe(200);
    const refused = await insert('over budget', ctx.client(agent.body.token) as typeof s.users.alice);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: 'payment_required', reason: 'env_budget' });
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: '2' })).status).toBe(200);
    // Its own files are held at rest for the developer too (settled in the at-rest test below).
    const upload = await fileRequest(ctx, { token: agent.body.token }, 'PUT', '/v1/files/me/docs/agent.txt', {
      body: 'held by an agent',
      headers: { 'content-type': 'text/plain' },
    });
    expect(upload.status).toBe(201);
  });

  it('a batch is one charge for its operations', async ({ s, project, charges }) => {
    const before = (await charges()).length;
    expect((await twoWritesAndARead(s.users.alice, project)).status).toBe(200);
    const added = (await charges()).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ kind: 'charge:rows.batch', quantity: 3n, amountMicros: -5n });
  });

  it("a lease's charges fold into one ledger entry per kind, app, environment, client, actor and day; every view reads the same before and after", async ({
    ctx,
    s,
    prisma,
    closeLeases,
    insert,
  }) => {
    const holder = { kind: 'developer', id: s.developerId } as const;
    const statement = () => ctx.app.services.wallet.statement(holder);
    const views = async () => ({
      spend: (await s.developer.get(`/dev/apps/${s.appId}/environments/dev/spend?days=2`)).body,
      budgets: (await s.developer.get('/dev/budgets')).body,
      balanceUsd: (await statement()).balanceUsd,
    });
    // The starting credit first, so what follows is the inserts' charges alone.
    expect((await insert('zero')).status).toBe(200);
    await closeLeases();
    const listed = new Set((await statement()).entries.map(e => e.id));
    // The lease the inserts open stays open until closeLeases, however long a loaded machine
    // stalls between them: its sweep's interval (which closes a lease idle for a moment) is held.
    ctx.app.services.metering.stopLeaseSweep();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let open: Awaited<ReturnType<typeof views>>;
    let pending: { id: string }[];
    try {
      for (const title of ['one', 'two', 'three']) expect((await insert(title)).status).toBe(200);
      // Open: each charge listed on its own.
      pending = (await statement()).entries.filter(e => !listed.has(e.id) && e.kind.startsWith('charge:'));
      expect(pending).toHaveLength(3);
      for (const charge of pending) expect(charge).toMatchObject({ kind: 'charge:rows.insert', amountUsd: '-0.000002', quantity: 1, calls: 1 });
      expect(await prisma.walletCharge.count({ where: { developerId: s.developerId } })).toBe(3);
      open = await views();
      await closeLeases();
    } finally {
      vi.useRealTimers();
      // The held interval is gone: the next lease opened starts a real sweep.
      ctx.app.services.metering.stopLeaseSweep();
    }
    const folded = (await statement()).entries.filter(e => !listed.has(e.id) && e.kind.startsWith('charge:'));
    expect(folded).toEqual([
      expect.objectContaining({
        kind: 'charge:rows.insert',
        amountUsd: '-0.000006',
        quantity: 3,
        calls: 3,
        appId: s.appId,
        env: 'dev',
        actorId: s.users.alice.id,
      }),
    ]);
    expect(pending.map(e => e.id)).toContain(folded[0].id);
    expect(await prisma.walletCharge.count({ where: { developerId: s.developerId } })).toBe(0);
    expect(await views()).toEqual(open);
  });

  it("an entry that takes a wallet below its leases' reservations closes them: its holder's next write that adds bytes is refused", async ({
    ctx,
    s,
    prisma,
    insert,
    taskCount,
  }) => {
    // Warm: the developer pays for the writes and for the resource's bytes, and holds an open lease.
    for (const title of ['one', 'two']) expect((await insert(title)).status).toBe(200);
    expect(await prisma.walletLease.count({ where: { holderId: s.developerId, closedAt: null } })).toBeGreaterThan(0);
    // A debit outside leases (it stands in for the at-rest settlement) leaves the wallet a micro-dollar short.
    const holder = { kind: 'developer', id: s.developerId } as const;
    const debt = (await ctx.app.services.wallet.balanceMicros(s.developerId)) + 1n;
    await ctx.app.services.wallet.credit(holder, -debt);
    expect(await prisma.walletLease.count({ where: { holderId: s.developerId, closedAt: null } })).toBe(0);
    const tasks = await taskCount();
    const refused = await insert('three');
    expect(refused.status).toBe(402);
    expect(await taskCount()).toBe(tasks);
    expect(await ctx.app.services.wallet.balanceMicros(s.developerId)).toBe(-1n);
    await ctx.app.services.wallet.credit(holder, debt);
  });

  it('the env budget exists lazily at $2 and a short one answers 402 env_budget with nothing written', async ({
    ctx,
    s,
    prisma,
    balance,
    insert,
    taskCount,
  }) => {
    const budgets = await s.developer.get('/dev/budgets');
    expect(budgets.status).toBe(200);
    expect(budgets.body.apps[0].envs).toEqual([{ env: 'dev', limitUsd: '2.00', spentUsd: expect.stringMatching(/^0\.0000\d+$/) }]);
    expect(await prisma.budget.count({ where: { payerId: s.developerId } })).toBe(1);

    const spent = budgets.body.apps[0].envs[0].spentUsd;
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: spent })).body).toEqual({
      appId: s.appId,
      env: 'dev',
      limitUsd: spent,
    });
    const tasks = await taskCount();
    const before = await balance();
    const refused = await insert('over budget');
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: 'payment_required', reason: 'env_budget', env: 'dev' });
    expect(refused.body.message).toContain('gatehouse budget set');
    expect(await taskCount()).toBe(tasks);
    expect(await balance()).toBe(before);

    // An upload refused for money streams nothing into the blob store.
    const blobs = await blobKeys(ctx);
    const upload = await fileRequest(ctx, s.users.alice, 'PUT', '/v1/files/me/docs/x.txt', { body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(upload.status).toBe(402);
    expect(await blobKeys(ctx)).toEqual(blobs);

    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: '2' })).status).toBe(200);
    expect((await insert('within budget again')).status).toBe(200);
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/prod`, { usd: '2' })).body.error).toBe('prod_not_allowed');
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: '-1' })).status).toBe(400);
    // An env name is a deployment's: a 3,000-character one is refused, not stored.
    const long = await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/${'e'.repeat(3000)}`, { usd: '2' });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'invalid_argument', message: expect.stringMatching(/^env: /) });
  });

  it('a short developer wallet answers 402 wallet; concurrent writes never overdraw it', async ({ s, prisma, balance, insert, closeLeases }) => {
    await closeLeases();
    await prisma.wallet.update({ where: { holderId: s.developerId }, data: { balanceMicros: 20n } });
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => insert(`race ${i}`)));
    const statuses = results.map(r => r.status).sort();
    expect(statuses.filter(st => st === 200)).toHaveLength(10);
    expect(statuses.filter(st => st === 402)).toHaveLength(5);
    expect(results.find(r => r.status === 402)?.body.reason).toBe('wallet');
    expect(await balance()).toBe(0n);
  });

  it("a fresh developer's first concurrent metered calls are never refused while the starting credit is due", async ({ ctx, prisma }) => {
    // Uploads check affordability before streaming; lists charge in a transaction of their own.
    // Each round is a new developer whose wallet row the first committed charge creates.
    for (let round = 0; round < 3; round++) {
      const fresh = await filesSeed(ctx, ['racer']);
      const who = fresh.users.racer;
      const calls = Array.from({ length: 16 }, (_, i) =>
        i % 2
          ? fileRequest(ctx, who, 'PUT', `/v1/files/me/docs/race-${i}.txt`, { body: `file ${i}`, headers: { 'content-type': 'text/plain' } })
          : fileRequest(ctx, who, 'GET', '/v1/files/me/docs'),
      );
      const answers = await Promise.all(calls.map(async call => (await call).status));
      expect(
        answers.filter(status => status === 402),
        `round ${round}: ${answers}`,
      ).toEqual([]);
      await ctx.app.services.metering.closeWalletLeases();
      const entries = await prisma.walletEntry.aggregate({ where: { developerId: fresh.developerId }, _sum: { amountMicros: true } });
      expect((await prisma.wallet.findUnique({ where: { holderId: fresh.developerId } }))?.balanceMicros).toBe(entries._sum.amountMicros);
    }
  });

  it("at rest: a day settles once per payer; a resource's bytes are its owner's to pay (a test user's: the developer)", async ({
    ctx,
    s,
    prisma,
    closeLeases,
  }) => {
    await closeLeases();
    await prisma.wallet.update({ where: { holderId: s.developerId }, data: { balanceMicros: 1_000_000n } });
    const day = new Date('2030-01-15T12:00:00Z');
    const first = await ctx.app.services.metering.settleStorage(day);
    expect(first.holders).toBeGreaterThan(0);
    // alice, a test user, owns the project: the developer who minted her pays for its rows at rest.
    const entries = await prisma.walletEntry.findMany({ where: { developerId: s.developerId, kind: 'storage' } });
    expect(entries).toEqual([expect.objectContaining({ appId: s.appId, env: 'dev', amountMicros: expect.any(BigInt) })]);
    expect(entries[0].amountMicros).toBeLessThan(0n);
    expect(entries[0].quantity).toBeGreaterThan(0n);
    // No resource holds a wallet nothing funds.
    expect(await prisma.walletEntry.count({ where: { resourceId: { not: null } } })).toBe(0);
    expect((await ctx.app.services.metering.settleStorage(day)).holders).toBe(0);
    // The test user's agent's own file is in the developer's entry too: no test user or agent pays.
    expect(await prisma.walletEntry.count({ where: { principalId: s.users.alice.id, kind: 'storage' } })).toBe(0);
    expect(entries[0].quantity).toBeGreaterThan(BigInt('held by an agent'.length));
    expect(await prisma.walletEntry.count({ where: { developerId: s.developerId, kind: 'storage' } })).toBe(1);
  });

  it('spend per day by class: a charge records each class it costs; open leases count at once', async ({ ctx, s, project }) => {
    const spend = async () => {
      const res = await s.developer.get(`/dev/apps/${s.appId}/environments/dev/spend?days=2`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const micros = (usd: string) => BigInt(Math.round(Number(usd) * 1e6));
    const before = await spend();
    // A batch of two writes and a read (4 + 1), an upload of 1 KB (a write, 2, and 0.09 moved: 3 in all).
    expect((await twoWritesAndARead(s.users.alice, project)).status).toBe(200);
    const upload = await fileRequest(ctx, s.users.alice, 'PUT', '/v1/files/me/docs/kb.txt', {
      body: 'k'.repeat(1000),
      headers: { 'content-type': 'text/plain' },
    });
    expect(upload.status).toBe(201);
    // Read before the leases close: their entries are the ledger already.
    const after = await spend();
    expect(after).toMatchObject({ appId: s.appId, env: 'dev', since: before.since, until: before.until });
    expect(after.days.map((d: { day: string }) => d.day)).toEqual([before.since, before.until]);
    const delta = (key: string) => micros(after.total[key]) - micros(before.total[key]);
    expect({ reads: delta('readsUsd'), writes: delta('writesUsd'), transfer: delta('transferUsd'), total: delta('totalUsd') }).toEqual({
      reads: 1n,
      writes: 6n,
      transfer: 1n,
      total: 8n,
    });
    // GraphQL answers the same; another developer's app is not found; the window is bounded.
    const gql = await s.developer.gql('query($a: ID!) { envSpendByDay(appId: $a, env: "dev", days: 2) { total { totalUsd } } }', { a: s.appId });
    expect(gql.data.envSpendByDay.total.totalUsd).toBe(after.total.totalUsd);
    const stranger = await filesSeed(ctx, ['someone']);
    expect((await stranger.developer.get(`/dev/apps/${s.appId}/environments/dev/spend`)).body.error).toBe('app_not_found');
    expect((await s.developer.get(`/dev/apps/${s.appId}/environments/dev/spend?days=93`)).status).toBe(400);
  });

  it("spend per day groups the ledger by UTC day: an app's signed-in users, and a person's own per app", async ({ ctx, s, prisma }) => {
    const { spend } = ctx.app.services;
    const now = ctx.app.services.deps.now();
    const daysAgo = (n: number, hour: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - n, hour));
    // bob stands in for a signed-in person paying from their own wallet.
    const payer = s.users.bob.id;
    const entry = (createdAt: Date, byClass: { reads?: bigint; writes?: bigint; transfer?: bigint; storage?: bigint }, appId = s.appId) => ({
      id: `wal_spend_${createdAt.getTime()}_${Object.keys(byClass).join('')}_${appId}`,
      principalId: payer,
      amountMicros: -Object.values(byClass).reduce((a, b) => a + b, 0n),
      kind: byClass.storage ? 'storage' : 'charge:test',
      appId,
      env: 'prod',
      readsMicros: byClass.reads === undefined ? null : -byClass.reads,
      writesMicros: byClass.writes === undefined ? null : -byClass.writes,
      transferMicros: byClass.transfer === undefined ? null : -byClass.transfer,
      storageMicros: byClass.storage === undefined ? null : -byClass.storage,
      createdAt,
    });
    await prisma.walletEntry.createMany({
      data: [
        entry(daysAgo(2, 0), { reads: 1n, transfer: 90n }),
        entry(daysAgo(2, 23), { writes: 4n, reads: 1n }),
        entry(daysAgo(0, 1), { storage: 7n }),
        // Outside the window, and another app: not counted.
        entry(daysAgo(3, 23), { writes: 100n }),
        entry(daysAgo(0, 2), { writes: 50n }, 'app_elsewhere'),
      ],
    });
    const users = await spend.usersSpendByDay(s.developerId, s.appId, null, 3);
    expect(users.days.map(d => [d.day, d.readsUsd, d.writesUsd, d.transferUsd, d.storageUsd, d.totalUsd])).toEqual([
      [daysAgo(2, 0).toISOString().slice(0, 10), '0.000002', '0.000004', '0.00009', '0.00', '0.000096'],
      [daysAgo(1, 0).toISOString().slice(0, 10), '0.00', '0.00', '0.00', '0.00', '0.00'],
      [daysAgo(0, 0).toISOString().slice(0, 10), '0.00', '0.00', '0.00', '0.000007', '0.000007'],
    ]);
    expect(users.total.totalUsd).toBe('0.000103');
    expect((await spend.usersSpendByDay(s.developerId, s.appId, 'dev', 3)).total.totalUsd).toBe('0.00');
    // The developer's own environment spend is apart from the users'.
    expect((await spend.envSpendByDay(s.developerId, s.appId, 'prod', 3)).total.totalUsd).toBe('0.00');
    const mine = await spend.mySpendByDay(payer, 3);
    expect(mine.map(a => [a.appId, a.appName, a.total.totalUsd])).toEqual([
      ['app_elsewhere', null, '0.00005'],
      [s.appId, expect.any(String), '0.000103'],
    ]);
  });

  it("an open lease's charges count in every view at once, and go with their payer's account", async ({ ctx, s, prisma }) => {
    const { spend, wallet, accountDeletion } = ctx.app.services;
    const now = ctx.app.services.deps.now();
    // alice stands in for a signed-in person whose lease holds a charge not folded into the ledger yet.
    const payer = s.users.alice.id;
    const micros = (usd: string) => BigInt(Math.round(Number(usd) * 1e6));
    const views = async () => ({
      users: micros((await spend.usersSpendByDay(s.developerId, s.appId, null, 1)).total.writesUsd),
      mine: (await spend.mySpendByDay(payer, 1)).map(a => [a.appId, micros(a.total.totalUsd)]),
      budgets: micros(
        (await s.developer.get('/dev/budgets')).body.apps[0].users.find((u: { clientId: null }) => u.clientId === null)?.spentUsd ?? '0',
      ),
    });
    const before = await views();
    await prisma.walletLease.create({
      data: { id: 'wl_open', holderId: payer, principalId: payer, reservedMicros: 10n, openedBy: 'test', openedAt: now },
    });
    await prisma.walletCharge.create({
      data: {
        leaseId: 'wl_open',
        id: 'wal_open',
        principalId: payer,
        amountMicros: -3n,
        kind: 'charge:test',
        appId: s.appId,
        env: 'prod',
        writesMicros: -3n,
        quantity: 1n,
        createdAt: now,
      },
    });
    expect(await views()).toEqual({ users: before.users + 3n, mine: [...before.mine, [s.appId, 3n]], budgets: before.budgets + 3n });
    const statement = await wallet.statement({ kind: 'principal', id: payer });
    expect(statement.entries).toEqual([expect.objectContaining({ id: 'wal_open', kind: 'charge:test', amountUsd: '-0.000003', calls: 1 })]);
    expect(statement.balanceUsd).toBe('-0.000003');
    await accountDeletion.deleteAccount(payer, 'delete my account');
    expect(await prisma.walletCharge.count({ where: { principalId: payer } })).toBe(0);
  });
});

/**
 * Issue 24 item 17: storage a resource holds is paid by its owner's wallet, and an upload into
 * the resource is refused (402 payment_required, reason storage) while that wallet cannot pay, as
 * any other shortfall is. The owner here is a person's agent, so the owner's wallet (the person's)
 * is not the uploader's (a test user's developer).
 */
const ownerPays = appTest({ users: ['alice'], seed: filesSeed });

describe("a resource's bytes at rest are its owner's to pay", () => {
  const it = ownerPays;

  it('settles to the owner, and refuses uploads into the resource while the owner cannot pay', async ({ ctx, s }) => {
    const { prisma } = ctx.database;
    const { services } = ctx.app;
    const { person, agent } = await personWithAgent(ctx, s);
    const resource = await createResource(agent, 'room', 'Owned by an agent');
    const { alice } = s.users;
    expect((await agent.post(`/v1/resources/${resource}/invite`, { userId: alice.id, role: 'writer' })).status).toBe(200);
    expect((await alice.post(`/v1/resources/${resource}/accept`)).status).toBe(200);
    const upload = (path: string) =>
      fileRequest(ctx, alice, 'PUT', `/v1/files/resources/${resource}/attachments/${path}`, {
        body: 'held bytes',
        headers: { 'content-type': 'text/plain' },
      });
    // Charges reach `wallets` when their wallet lease closes: close this server's before reading the table.
    const walletRow = async (holderId: string) => {
      await services.metering.closeWalletLeases();
      return prisma.wallet.findUniqueOrThrow({ where: { holderId } });
    };
    const personBalance = async () => (await walletRow(person)).balanceMicros;

    await services.wallet.credit({ kind: 'principal', id: person }, 1_000_000n);
    expect((await upload('a.txt')).status).toBe(201);
    await services.metering.settleStorage(new Date('2030-02-01T12:00:00Z'));
    const [entry] = await prisma.walletEntry.findMany({ where: { principalId: person, kind: 'storage' } });
    expect(entry).toMatchObject({ appId: s.appId, env: 'dev', quantity: 10n });
    expect(entry.amountMicros).toBeLessThan(0n);
    expect(await prisma.walletEntry.count({ where: { resourceId: resource } })).toBe(0);

    // At-rest charges take the owner's wallet below zero: the next upload into the resource is refused,
    // though alice's own payer could pay for it, and it leaves nothing behind.
    await services.metering.closeWalletLeases();
    await prisma.wallet.update({ where: { holderId: person }, data: { balanceMicros: 0n } });
    await services.metering.settleStorage(new Date('2030-02-02T12:00:00Z'));
    expect(await personBalance()).toBeLessThan(0n);
    const developerBalance = (await walletRow(s.developerId)).balanceMicros;
    const blobs = await blobKeys(ctx);
    const refused = await upload('b.txt');
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: 'payment_required', reason: 'storage', resourceId: resource });
    expect(await blobKeys(ctx)).toEqual(blobs);
    expect(await prisma.file.count({ where: { resourceId: resource } })).toBe(1);
    expect((await walletRow(s.developerId)).balanceMicros).toBe(developerBalance);
    // A body of unknown length is refused too, once its size is known, with nothing kept.
    const chunked = await fileRequest(ctx, alice, 'PUT', `/v1/files/resources/${resource}/attachments/c.txt`, {
      body: new Blob(['streamed']).stream(),
      headers: { 'content-type': 'text/plain' },
    });
    expect(chunked.status).toBe(402);
    expect(await blobKeys(ctx)).toEqual(blobs);

    // Her own files are hers to pay for, and reads go on.
    expect(
      (await fileRequest(ctx, alice, 'PUT', '/v1/files/me/docs/mine.txt', { body: 'x', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(201);
    expect((await fileRequest(ctx, alice, 'GET', `/v1/files/resources/${resource}/attachments/a.txt`)).status).toBe(200);

    // Once the owner pays, uploads go on.
    await services.wallet.credit({ kind: 'principal', id: person }, 1_000_000n);
    expect((await upload('b.txt')).status).toBe(201);
  });
});

const ownerPaysRows = appTest({
  users: ['alice'],
  seed: async (ctx, users) => {
    const s = await filesSeed(ctx, users);
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: ROWS_SCHEMA });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    return s;
  },
});

describe("a resource's rows at rest are its owner's to pay too", () => {
  const it = ownerPaysRows;

  it("refuses writes that add rows to the resource while its owner's wallet cannot cover them; reads go on", async ({ ctx, s }) => {
    const { prisma } = ctx.database;
    const { services } = ctx.app;
    const { person, agent } = await personWithAgent(ctx, s);
    const project = await createResource(agent, 'project', 'Owned by an agent');
    const { alice } = s.users;
    expect((await agent.post(`/v1/resources/${project}/invite`, { userId: alice.id, role: 'writer' })).status).toBe(200);
    expect((await alice.post(`/v1/resources/${project}/accept`)).status).toBe(200);
    const scope = { kind: 'resource', resourceId: project };
    const insert = (title: string) => alice.post('/v1/db/query', { scope, table: 'tasks', op: 'insert', values: { title } });

    await services.wallet.credit({ kind: 'principal', id: person }, 1_000_000n);
    const first = await insert('paid for');
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    // The owner's wallet goes below zero: alice's payer (the developer) could pay for the write, but
    // the bytes the project would hold are the owner's to pay.
    // Charges reach `wallets` when their wallet lease closes: close this server's before reading the table.
    const developerBalance = async () => {
      await services.metering.closeWalletLeases();
      return (await prisma.wallet.findUniqueOrThrow({ where: { holderId: s.developerId } })).balanceMicros;
    };
    await services.metering.closeWalletLeases();
    await prisma.wallet.update({ where: { holderId: person }, data: { balanceMicros: -1n } });
    const before = await developerBalance();
    const refused = await insert('unpaid');
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: 'payment_required', reason: 'storage', resourceId: project });
    expect(await prisma.row.count({ where: { resourceId: project } })).toBe(1);
    expect(await developerBalance()).toBe(before);

    // Reads add nothing at rest.
    expect((await alice.post('/v1/db/query', { scope, table: 'tasks', op: 'select' })).status).toBe(200);

    await services.wallet.credit({ kind: 'principal', id: person }, 1_000_000n);
    expect((await insert('paid again')).status).toBe(200);
  });
});

/**
 * A person (a real user, with a wallet of their own) in the seed's app, and an agent of theirs
 * acting as a client: a resource the agent creates is paid for by the person, not by the
 * seed's developer, who pays for the test users.
 */
async function personWithAgent(ctx: TestContext, s: Seed) {
  const { prisma } = ctx.database;
  const deployment = await prisma.deployment.findUniqueOrThrow({ where: { appId_env: { appId: s.appId, env: 'dev' } } });
  const person = `usr_${randomBytes(8).toString('hex')}`;
  await prisma.principal.create({ data: { id: person, kind: 'user', displayName: 'Owner' } });
  const caller = {
    type: 'principal' as const,
    principal: { id: person, kind: 'user' as const, ownerId: null },
    deployment: { id: deployment.id, appId: s.appId, env: 'dev' },
    credential: 'provider' as const,
    payer: null,
  };
  const agent = ctx.client((await ctx.app.services.principals.createAgent(caller, 'Owner bot')).token);
  return { person, agent };
}
