/**
 * Billing from the command line (docs/api.md §14): `gatehouse budget` shows the developer's wallet
 * and each app's test-environment budgets and spend; `gatehouse budget set` sets one;
 * `gatehouse wallet credit` is the operator's top-up of a developer's wallet.
 */
import { type Command, type CommandContext, requireString } from '../command.js';
import { appOf, envOf, loadProject } from '../project.js';
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

interface SpendLine {
  readsUsd: string;
  writesUsd: string;
  transferUsd: string;
  storageUsd: string;
  totalUsd: string;
}
interface DailySpend {
  appId: string;
  env: string | null;
  since: string;
  until: string;
  days: (SpendLine & { day: string })[];
  total: SpendLine;
}

const SPEND_COLUMNS = ['readsUsd', 'writesUsd', 'transferUsd', 'storageUsd', 'totalUsd'] as const;

/** A day × class table of dollars, right-aligned, with the totals last. */
export function spendTable(title: string, spend: DailySpend): string[] {
  const header = ['day', 'reads', 'writes', 'transfer', 'storage', 'total'];
  const rows = [...spend.days.map(d => [d.day, ...SPEND_COLUMNS.map(c => d[c])]), ['total', ...SPEND_COLUMNS.map(c => spend.total[c])]];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [`${title}, ${spend.since} to ${spend.until} (UTC days, dollars):`, line(header), ...rows.map(line)];
}

/** `budget --by-day`: an environment's spend per day by class, and the app's signed-in users'. */
async function spendByDay({ values, env, out, io }: CommandContext) {
  const project = loadProject(io.cwd);
  const appId = appOf(project, values);
  const envName = envOf(project, values);
  const days = typeof values.days === 'string' ? values.days : undefined;
  if (days !== undefined && !/^\d{1,3}$/.test(days)) throw usageError('--days must be a whole number of days, e.g. 7.');
  const query = days ? `?days=${days}` : '';
  const api = createApiClient(env, out, { gateway: project.gateway });
  const app = encodeURIComponent(appId);
  const [envSpend, users] = await Promise.all([
    api.request<DailySpend>('GET', `/dev/apps/${app}/environments/${encodeURIComponent(envName)}/spend${query}`),
    api.request<DailySpend>('GET', `/dev/apps/${app}/users/spend${query}`),
  ]);
  out.result({ env: envSpend, users }, [
    ...spendTable(`${envName} environment of ${appId} (your wallet)`, envSpend),
    '',
    ...spendTable(`Signed-in users of ${appId}, every environment (their wallets)`, users),
  ]);
}

export const budget: Command = {
  name: 'budget',
  summary: "Show your wallet and each app's test budgets and spend this month; --by-day: spend per day by class.",
  help: `Options:
  --app <id>     Only this app (with --by-day: the app, default "app" in gatehouse.json).
  --by-day       Spend per UTC day by class (reads, writes, transfer, storage) instead: the
                 environment's (what its test sessions and bytes at rest cost your wallet) and
                 the app's signed-in users' (what it spent of their wallets).
  --env <name>   With --by-day: the environment (default: "env" in gatehouse.json, else dev).
  --days <n>     With --by-day: how many days up to today (default 30, at most 92).

Per app: each test environment's monthly budget (limit, spent this month) and what signed-in users
spent in it by OAuth client. With --json: the GET /dev/budgets answer; with --by-day,
{ env, users }: the GET /dev/apps/:appId/environments/:env/spend and /dev/apps/:appId/users/spend answers.
${API_ENV_HELP}`,
  options: { app: { type: 'string' }, 'by-day': { type: 'boolean' }, env: { type: 'string' }, days: { type: 'string' } },
  async run(context) {
    const { values, env, out } = context;
    if (values['by-day'] === true) return spendByDay(context);
    if (values.env !== undefined || values.days !== undefined) throw usageError('--env and --days go with --by-day.');
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
