/**
 * Per-app budgets (spec 5.2, docs/api.md §14): a signed-in person's metered operations in an app are
 * paid from their wallet (the welcome credit) within that app's monthly budget, keyed on the OAuth
 * client the gateway learned by introspecting the token (the embedded provider is introspected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROWS_SCHEMA } from '../api/rows.fixture.js';
import { Browser } from './browser.js';
import { type AuthRig, CSRF, type RigApp, signInWithCookies, startAuthRig, uniqueEmail } from './harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
  const deployed = await rig.developer.request('PUT', `/dev/apps/${app.appId}/deployments/prod`, { schema: ROWS_SCHEMA });
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
});
afterAll(() => rig?.close());

describe('app budgets for signed-in users', () => {
  it("charge the person's wallet under the app's budget (by client id); a spent budget answers 402 app_budget", async () => {
    const browser = new Browser(rig.url);
    const { userId } = await signInWithCookies(browser, rig, app, { email: uniqueEmail(), password: 'correct horse battery', displayName: 'Payer' });
    const insert = (title: string) =>
      browser.post(`${rig.url}/v1/db/query`, { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { title } }, CSRF);
    const first = await insert('paid by me');
    expect(first.status, first.text).toBe(200);

    const prisma = rig.app.services.deps.prisma;
    // Charges reach `wallets` and `budget_spends` when their wallet lease closes: close them before reading the tables.
    await rig.app.services.metering.closeWalletLeases();
    const [charge] = await prisma.walletEntry.findMany({ where: { principalId: userId, kind: 'charge:rows.insert' } });
    expect(charge).toMatchObject({ amountMicros: -2n, appId: app.appId, env: 'prod', clientId: app.clientId, actorId: userId });
    expect((await prisma.wallet.findUnique({ where: { holderId: userId } }))?.balanceMicros).toBe(5_000_000n - 2n);
    // The developer sees it as the app's signed-in users' spend today, a write; not as the environment's own.
    const users = await rig.developer.request('GET', `/dev/apps/${app.appId}/users/spend?days=1`);
    expect(users.status, JSON.stringify(users.body)).toBe(200);
    expect(users.body).toMatchObject({ appId: app.appId, env: null, days: [{ writesUsd: '0.000002', readsUsd: '0.00' }] });
    expect((await rig.developer.request('GET', `/dev/apps/${app.appId}/environments/prod/spend?days=1`)).body.total.totalUsd).toBe('0.00');
    const budget = await prisma.budget.findFirst({ where: { kind: 'app', payerId: userId } });
    expect(budget).toMatchObject({ appId: app.appId, key: app.clientId, limitMicros: 5_000_000n });

    await prisma.budget.update({ where: { id: budget!.id }, data: { limitMicros: 2n } });
    const refused = await insert('over the app budget');
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ error: 'payment_required', reason: 'app_budget', clientId: app.clientId });
    expect(await prisma.row.count({ where: { creatorId: userId } })).toBe(1);
  });

  it('an agent the session creates spends within the same app budget: past it, the agent is refused too', async () => {
    const browser = new Browser(rig.url);
    const { userId } = await signInWithCookies(browser, rig, app, {
      email: uniqueEmail(),
      password: 'correct horse battery',
      displayName: 'Delegator',
    });
    const agent = await browser.post(`${rig.url}/v1/agents`, { name: 'worker' }, CSRF);
    expect(agent.status, agent.text).toBe(200);
    const asAgent = (title: string) =>
      new Browser(rig.url).post(
        `${rig.url}/v1/db/query`,
        { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { title } },
        { authorization: `Bearer ${agent.json.token}` },
      );
    const first = await asAgent('by the agent');
    expect(first.status, first.text).toBe(200);
    const prisma = rig.app.services.deps.prisma;
    // Charges reach `wallets` and `budget_spends` when their wallet lease closes: close them before reading the tables.
    await rig.app.services.metering.closeWalletLeases();
    const [charge] = await prisma.walletEntry.findMany({ where: { principalId: userId, actorId: agent.json.id } });
    expect(charge).toMatchObject({ kind: 'charge:rows.insert', amountMicros: -2n, appId: app.appId, clientId: app.clientId });
    const budget = await prisma.budget.findFirstOrThrow({ where: { kind: 'app', payerId: userId, key: app.clientId } });
    expect((await prisma.budgetSpend.findFirstOrThrow({ where: { budgetId: budget.id } })).spentMicros).toBe(2n);

    // The session spends the rest of the budget; the agent cannot spend past it.
    await prisma.budget.update({ where: { id: budget.id }, data: { limitMicros: 4n } });
    const own = await browser.post(
      `${rig.url}/v1/db/query`,
      { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { title: 'mine' } },
      CSRF,
    );
    expect(own.status, own.text).toBe(200);
    const refused = await asAgent('over the app budget');
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ error: 'payment_required', reason: 'app_budget', clientId: app.clientId });
    expect(await prisma.row.count({ where: { creatorId: agent.json.id } })).toBe(1);
  });
});
