/**
 * Billing for developers (docs/api.md §14): their wallet, each test environment's budget and
 * spend, and what signed-in users spent in their apps; setting an environment's budget.
 */
import { requireDeveloper } from '../core/caller.rules.js';
import type { MeteringService } from './metering.service.js';
import { LIST_PAGE } from '../core/pages.js';
import { builder } from '../graphql/builder.js';
import { wholeListRows } from '../graphql/row-budget.js';

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

builder.queryFields(t => ({
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
