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
    quantity: t.exposeFloat('quantity', { nullable: true, description: 'Charges: operations in the call; storage: bytes held that day.' }),
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
