/**
 * Billing for developers (docs/api.md §14): their wallet, each test environment's budget and
 * spend, and what signed-in users spent in their apps; setting an environment's budget.
 */
import { requireDeveloper } from '../core/caller.rules.js';
import type { MeteringService } from './metering.service.js';
import { LIST_PAGE } from '../core/pages.js';
import { builder } from '../graphql/builder.js';
import { wholeListRows } from '../graphql/row-budget.js';
import type { DailySpend, SpendLine } from './daily-spend.rules.js';

type Budgets = Awaited<ReturnType<MeteringService['budgets']>>;
type AppBudgets = Budgets['apps'][number];

const EnvBudgetRef = builder.objectRef<AppBudgets['envs'][number]>('EnvBudget').implement({
  description: "A test environment's monthly budget and this month's spend (exact decimal dollars).",
  fields: t => ({ env: t.exposeString('env'), limitUsd: t.exposeString('limitUsd'), spentUsd: t.exposeString('spentUsd') }),
});

const ClientSpendRef = builder.objectRef<AppBudgets['users'][number]>('ClientSpend').implement({
  description: 'What signed-in users spent in the app this month through one OAuth client (null: a token whose client the gateway could not learn).',
  fields: t => ({ clientId: t.exposeString('clientId', { nullable: true }), spentUsd: t.exposeString('spentUsd') }),
});

const AppBudgetsRef = builder.objectRef<AppBudgets>('AppBudgets').implement({
  fields: t => ({
    appId: t.exposeID('appId'),
    name: t.exposeString('name'),
    envs: t.field({ type: [EnvBudgetRef], resolve: a => a.envs }),
    users: t.field({ type: [ClientSpendRef], resolve: a => a.users }),
  }),
});

const BudgetsRef = builder.objectRef<Budgets>('Budgets').implement({
  fields: t => ({
    period: t.exposeString('period', { description: 'The UTC month spends count in (YYYY-MM).' }),
    walletUsd: t.exposeString('walletUsd', { description: "Your developer wallet: what your apps' test sessions draw on." }),
    apps: t.field({ type: [AppBudgetsRef], resolve: b => b.apps }),
  }),
});

const EnvBudgetSetRef = builder.objectRef<{ appId: string; env: string; limitUsd: string }>('EnvBudgetSet').implement({
  fields: t => ({ appId: t.exposeID('appId'), env: t.exposeString('env'), limitUsd: t.exposeString('limitUsd') }),
});

const SpendLineRef = builder.objectRef<SpendLine>('SpendLine').implement({
  description: 'Spend by price class (exact decimal dollars) and its total.',
  fields: t => ({
    readsUsd: t.exposeString('readsUsd'),
    writesUsd: t.exposeString('writesUsd'),
    transferUsd: t.exposeString('transferUsd'),
    storageUsd: t.exposeString('storageUsd'),
    totalUsd: t.exposeString('totalUsd'),
  }),
});

const SpendDayRef = builder.objectRef<DailySpend['days'][number]>('SpendDay').implement({
  description: 'One UTC day of spend by price class (exact decimal dollars).',
  fields: t => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD, UTC.' }),
    readsUsd: t.exposeString('readsUsd'),
    writesUsd: t.exposeString('writesUsd'),
    transferUsd: t.exposeString('transferUsd'),
    storageUsd: t.exposeString('storageUsd'),
    totalUsd: t.exposeString('totalUsd'),
  }),
});

const DailySpendRef = builder.interfaceRef<DailySpend>('DailySpend').implement({
  description: 'Spend per UTC day by price class over a window of days up to today, with the totals.',
  fields: t => ({
    since: t.exposeString('since', { description: 'The first day shown (YYYY-MM-DD, UTC).' }),
    until: t.exposeString('until', { description: 'The last day shown: today (UTC).' }),
    days: t.field({
      type: [SpendDayRef],
      description: 'Every day of the window, oldest first; zeros where nothing was spent.',
      resolve: d => d.days,
    }),
    total: t.field({ type: SpendLineRef, resolve: d => d.total }),
  }),
});

type AppDailySpend = DailySpend & { appId: string; env: string | null };
const AppDailySpendRef = builder.objectRef<AppDailySpend>('AppDailySpend').implement({
  description: "An app's spend per UTC day by price class: an environment's (the developer's wallet) or its signed-in users' (their wallets).",
  interfaces: [DailySpendRef],
  fields: t => ({
    appId: t.exposeID('appId'),
    env: t.exposeString('env', { nullable: true, description: 'The environment, or null: every environment.' }),
  }),
});

export type MyAppDailySpend = DailySpend & { appId: string; appName: string | null };
export const MyAppDailySpendRef = builder.objectRef<MyAppDailySpend>('MyAppDailySpend').implement({
  description: 'What one app spent of your wallet per UTC day by price class.',
  interfaces: [DailySpendRef],
  fields: t => ({
    appId: t.exposeID('appId'),
    appName: t.exposeString('appName', { nullable: true, description: 'Null once the app is deleted.' }),
  }),
});

export const spendDaysArg = { description: 'How many UTC days up to today (default 30, at most 92).' };

builder.queryFields(t => ({
  envSpendByDay: t.field({
    type: AppDailySpendRef,
    description:
      "What an environment of your app spent of your wallet per UTC day, by class: its test sessions' calls, and the bytes at rest and site transfer you pay for there (developer token).",
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }), days: t.arg.int(spendDaysArg) },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, args, ctx) => ctx.services.spend.envSpendByDay(requireDeveloper(ctx.caller).developerId, String(args.appId), args.env, args.days),
  }),
  usersSpendByDay: t.field({
    type: AppDailySpendRef,
    description: "What your app spent of its signed-in users' own wallets per UTC day, by class, in one environment or all (developer token).",
    args: { appId: t.arg.id({ required: true }), env: t.arg.string(), days: t.arg.int(spendDaysArg) },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, args, ctx) => ctx.services.spend.usersSpendByDay(requireDeveloper(ctx.caller).developerId, String(args.appId), args.env, args.days),
  }),
  budgets: t.field({
    type: BudgetsRef,
    description: 'Your wallet, test-environment budgets and spend per app (developer token).',
    args: { appId: t.arg.id() },
    // Sums this month's spend per app and client: a scan counted as a whole list.
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, args, ctx) =>
      ctx.services.metering.budgets(requireDeveloper(ctx.caller).developerId, args.appId == null ? null : String(args.appId)),
  }),
}));

builder.mutationFields(t => ({
  setEnvBudget: t.field({
    type: EnvBudgetSetRef,
    description: "Sets a test environment's monthly budget in dollars (developer token).",
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }), usd: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.metering.setEnvBudget(requireDeveloper(ctx.caller).developerId, String(args.appId), args.env, args.usd),
  }),
}));
