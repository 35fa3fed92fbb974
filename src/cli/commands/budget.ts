/**
 * Billing from the command line (docs/api.md §14): `gatehouse budget` shows the developer's wallet
 * and each app's test-environment budgets and spend; `gatehouse budget set` sets one;
 * `gatehouse wallet credit` is the operator's top-up of a developer's wallet.
 */
import { type Command, requireString } from '../command.js';
import { configFrom } from '../config.js';
import { API_ENV_HELP, createApiClient } from '../http.js';
import { usageError } from '../output.js';
import { databaseTargetOf, postBootstrap, withServices } from './dev-token.js';
import { noteDatabaseTarget } from '../target.js';

interface Budgets {
  period: string;
  walletUsd: string;
  apps: {
    appId: string;
    name: string;
    envs: { env: string; limitUsd: string; spentUsd: string }[];
    users: { clientId: string | null; spentUsd: string }[];
  }[];
}

export const budget: Command = {
  name: 'budget',
  summary: "Show your wallet and each app's test budgets and spend this month.",
  help: `Options:
  --app <id>   Only this app.

Per app: each test environment's monthly budget (limit, spent this month) and what signed-in users
spent in it by OAuth client. With --json: the GET /dev/budgets answer.
${API_ENV_HELP}`,
  options: { app: { type: 'string' } },
  async run({ values, env, out }) {
    const app = typeof values.app === 'string' ? `?appId=${encodeURIComponent(values.app)}` : '';
    const view = await createApiClient(env, out).request<Budgets>('GET', `/dev/budgets${app}`);
    const lines = [`Wallet: $${view.walletUsd} (month ${view.period})`];
    for (const a of view.apps) {
      lines.push(`${a.name} (${a.appId})`);
      if (!a.envs.length) lines.push('  no test environments deployed');
      for (const e of a.envs) lines.push(`  env ${e.env}: $${e.spentUsd} of $${e.limitUsd}`);
      for (const u of a.users) lines.push(`  users via ${u.clientId ?? 'an unknown client'}: $${u.spentUsd}`);
    }
    out.result(view, lines);
  },
};

export const budgetSet: Command = {
  name: 'budget set',
  summary: "Set a test environment's monthly budget.",
  help: `Options:
  --app <id>       The app (required; you must own it).
  --env <name>     The environment (default: dev; never prod).
  --usd <amount>   The monthly limit in dollars, e.g. 10 or 2.50 (required).
${API_ENV_HELP}`,
  options: { app: { type: 'string' }, env: { type: 'string', default: 'dev' }, usd: { type: 'string' } },
  async run({ values, env, out }) {
    const appId = requireString(values, 'app');
    const envName = requireString(values, 'env');
    const set = await createApiClient(env, out).request<{ appId: string; env: string; limitUsd: string }>(
      'PUT',
      `/dev/apps/${encodeURIComponent(appId)}/budgets/${encodeURIComponent(envName)}`,
      { usd: requireString(values, 'usd') },
    );
    out.result(set, `Budget of ${set.env} in ${set.appId}: $${set.limitUsd} a month.`);
  },
};

export const walletCredit: Command = {
  name: 'wallet credit',
  summary: "Add money to a developer's wallet (operator).",
  help: `Options:
  --developer <email>   The developer (required).
  --usd <amount>        Dollars to add, e.g. 10 or 2.50 (required).

Uses the database configured as for 'serve' (DATABASE_URL, else DATA_DIR), through the running
server on the same DATA_DIR when there is one (over loopback, with its bootstrap secret), and
refuses a GATEHOUSE_URL that names another server, as 'dev-token create' does. With --json:
{ developerId, balanceUsd }.`,
  options: { developer: { type: 'string' }, usd: { type: 'string' } },
  async run({ values, env, out }) {
    const developer = requireString(values, 'developer');
    const usd = requireString(values, 'usd');
    if (!/^\d{1,6}(\.\d{1,6})?$/.test(usd)) throw usageError('--usd must be an amount in dollars such as 10 or 2.50.');
    const config = configFrom(env);
    const target = await databaseTargetOf(config, env);
    let credited: { developerId: string; balanceUsd: string };
    if (target.kind === 'server') {
      const { WALLET_CREDIT_PATH } = await import('../../apps/dev-bootstrap.routes.js');
      credited = await postBootstrap(target, WALLET_CREDIT_PATH, { developer, usd });
    } else credited = await withServices(config, services => services.metering.creditDeveloper(developer.toLowerCase(), usd));
    noteDatabaseTarget(out, target, env, `wallet of ${developer} credited`);
    out.result(credited, `Wallet of ${developer}: $${credited.balanceUsd}.`);
  },
};
