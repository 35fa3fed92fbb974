/**
 * The dashboard surfaces (docs/api.md §4.2): only the signed-in user's own dashboard session
 * cookie reaches them (`ctx.dashboardUser()`), never a bearer token of any kind.
 */
import { fail } from '../errors.js';
import type { CrossAppInvitation } from './membership.service.js';
import { LIST_PAGE } from '../core/pages.js';
import { STATEMENT_ENTRIES } from '../billing/wallet.service.js';
import { builder, type Context } from '../graphql/builder.js';
import { OkRef, RoleEnum, ids, validate } from '../graphql/common.js';
import { wholeListRows } from '../graphql/row-budget.js';
import { MyAppDailySpendRef, spendDaysArg } from '../billing/billing.graphql.js';
import { type DashboardAccount, type OwnedResource, OWNED_RESOURCES_MAX } from './dashboard.service.js';
import { MembershipResultRef } from './members.graphql.js';

/** The signed-in dashboard user's id; any other credential (a bearer token, an app's cookie, a socket) is refused. */
export const dashboardUser = (ctx: Context) => {
  if (!ctx.dashboardUser) throw fail('dashboard_session_required', 'This platform route needs your dashboard session cookie.');
  return ctx.dashboardUser();
};

const CrossAppInvitationRef = builder.objectRef<CrossAppInvitation>('CrossAppInvitation').implement({
  description: 'A pending invitation of the dashboard user, in any app.',
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    type: t.exposeString('type'),
    name: t.exposeString('name'),
    role: t.field({ type: RoleEnum, resolve: e => e.role }),
    invitedBy: t.exposeString('invitedBy', { nullable: true }),
    expiresAt: t.field({ type: 'DateTime', resolve: e => e.expiresAt }),
    appId: t.exposeID('appId'),
    appName: t.exposeString('appName'),
    env: t.exposeString('env'),
  }),
});

interface WalletStatement {
  balanceUsd: string;
  entries: {
    id: string;
    kind: string;
    amountUsd: string;
    appId: string | null;
    env: string | null;
    clientId: string | null;
    actorId: string | null;
    quantity: number | null;
    calls: number | null;
    createdAt: string;
  }[];
}

const WalletEntryRef = builder.objectRef<WalletStatement['entries'][number]>('WalletEntry').implement({
  fields: t => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    amountUsd: t.exposeString('amountUsd', { description: 'Exact decimal string, negative for charges.' }),
    appId: t.exposeString('appId', { nullable: true, description: 'Charges: the app the operation ran in.' }),
    env: t.exposeString('env', { nullable: true, description: 'Charges: the environment (test sessions).' }),
    clientId: t.exposeString('clientId', { nullable: true, description: 'Charges: the OAuth client whose budget it counted against.' }),
    actorId: t.exposeString('actorId', { nullable: true, description: 'Charges: who acted (a test user, an agent).' }),
    quantity: t.exposeFloat('quantity', { nullable: true, description: 'Charges: operations in its calls; storage: bytes held that day.' }),
    calls: t.exposeInt('calls', {
      nullable: true,
      description:
        "Charges: the metered calls it sums (a wallet lease's calls of one kind, app, environment, client, actor and day; site transfer: the responses sent).",
    }),
    createdAt: t.exposeString('createdAt'),
  }),
});

const WalletStatementRef = builder.objectRef<WalletStatement>('WalletStatement').implement({
  fields: t => ({
    balanceUsd: t.exposeString('balanceUsd', { description: 'Exact decimal string.' }),
    entries: t.field({ type: [WalletEntryRef], resolve: s => s.entries }),
  }),
});

builder.queryFields(t => ({
  myInvitationsAcrossApps: t.field({
    type: [CrossAppInvitationRef],
    description: "The dashboard user's pending invitations across every app (dashboard session only).",
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: async (_root, _args, ctx) => ctx.services.membership.invitationsAcrossApps(await dashboardUser(ctx)),
  }),
  myWallet: t.field({
    type: WalletStatementRef,
    description: "The dashboard user's wallet: balance and newest entries (dashboard session only).",
    extensions: wholeListRows(STATEMENT_ENTRIES),
    resolve: async (_root, _args, ctx) => ctx.services.wallet.statement({ kind: 'principal', id: await dashboardUser(ctx) }),
  }),
  mySpendByDay: t.field({
    type: [MyAppDailySpendRef],
    description: 'What each app spent of your wallet per UTC day, by class: the apps with spend in the window (dashboard session only).',
    args: { days: t.arg.int(spendDaysArg) },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: async (_root, args, ctx) => ctx.services.spend.mySpendByDay(await dashboardUser(ctx), args.days),
  }),
}));

builder.mutationFields(t => ({
  deleteResourceAsOwner: t.field({
    type: OkRef,
    description: 'Deletes a resource and everything in it (owner only, dashboard session only; docs/api.md §5.2).',
    args: { appId: t.arg.id({ required: true }), resourceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) =>
      ctx.services.resourceDeletion.deleteAsOwner(
        await dashboardUser(ctx),
        validate(ids.resourceId, String(args.appId), 'appId'),
        validate(ids.resourceId, String(args.resourceId), 'resourceId'),
      ),
  }),
}));

const DashboardAccountRef = builder.objectRef<DashboardAccount>('DashboardAccount').implement({
  description: 'The signed-in dashboard user (the same person in every app).',
  fields: t => ({
    id: t.exposeID('id'),
    displayName: t.exposeString('displayName', { nullable: true }),
    handle: t.exposeString('handle', { nullable: true }),
    email: t.exposeString('email', { nullable: true, description: "The embedded provider's sign-in email; null with an external provider." }),
    createdAt: t.field({ type: 'DateTime', resolve: a => a.createdAt }),
  }),
});

const OwnedResourceRef = builder.objectRef<OwnedResource>('OwnedResource').implement({
  description: 'A resource the dashboard user owns, in any app (reserved `_` resources are not listed).',
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    type: t.exposeString('type'),
    name: t.exposeString('name'),
    memberCount: t.exposeInt('memberCount'),
    appId: t.exposeID('appId'),
    appName: t.exposeString('appName'),
    env: t.exposeString('env'),
    createdAt: t.field({ type: 'DateTime', resolve: r => r.createdAt }),
  }),
});

builder.queryFields(t => ({
  myDashboardAccount: t.field({
    type: DashboardAccountRef,
    description: "The dashboard user's account: id, display name, handle (dashboard session only).",
    resolve: async (_root, _args, ctx) => ctx.services.dashboard.account(await dashboardUser(ctx)),
  }),
  myOwnedResources: t.field({
    type: [OwnedResourceRef],
    description: `The resources the dashboard user owns in every app, newest first, at most ${OWNED_RESOURCES_MAX} (dashboard session only).`,
    extensions: wholeListRows(OWNED_RESOURCES_MAX),
    resolve: async (_root, _args, ctx) => ctx.services.dashboard.ownedResources(await dashboardUser(ctx)),
  }),
}));

builder.mutationFields(t => ({
  answerInvitationAcrossApps: t.field({
    type: MembershipResultRef,
    description:
      "Accepts or declines one of the dashboard user's pending invitations, in whatever app it is (dashboard session only): the same transition as that app's `accept` and `reject`.",
    args: { resourceId: t.arg.id({ required: true }), accept: t.arg.boolean({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const resourceId = validate(ids.resourceId, String(args.resourceId), 'resourceId');
      const caller = await ctx.services.dashboard.callerInResourceEnv(await dashboardUser(ctx), resourceId);
      return args.accept ? ctx.services.membership.accept(caller, resourceId) : ctx.services.membership.reject(caller, resourceId);
    },
  }),
}));
