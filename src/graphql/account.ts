/** The caller's own account: deleting it (docs/api.md §12). */
import { requirePrincipal } from '../domain/caller.js';
import type { AccountDeletionResult } from '../services/account-deletion.js';
import { builder } from './builder.js';

const TransferredResourceRef = builder.objectRef<AccountDeletionResult['transferred'][number]>('TransferredResource').implement({
  description: 'A resource the deleted account owned, now owned by its longest-standing admin.',
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    ownerId: t.exposeID('ownerId'),
  }),
});

const AccountDeletionRef = builder.objectRef<AccountDeletionResult>('AccountDeletion').implement({
  description: 'What deleting an account did to the resources it owned.',
  fields: t => ({
    ok: t.boolean({ resolve: () => true }),
    transferred: t.field({ type: [TransferredResourceRef], resolve: r => r.transferred }),
    deleted: t.idList({ description: 'Owned resources no admin could inherit, deleted with everything in them.', resolve: r => r.deleted }),
  }),
});

builder.mutationField('deleteMyAccount', t =>
  t.field({
    type: AccountDeletionRef,
    description:
      'Deletes your account in every app: applies each table\'s onOwnerDelete to your rows, leaves every resource (an owned one passes to its longest-standing admin, else it is deleted) and ends your tokens and sessions. `confirm` must be "delete my account".',
    args: { confirm: t.arg.string({ required: true }) },
    // The user's own bearer token, or their dashboard session cookie (ctx.dashboardUser, docs/api.md §4.2).
    resolve: async (_, { confirm }, ctx) => {
      const userId = !ctx.caller && ctx.dashboardUser ? await ctx.dashboardUser() : requirePrincipal(ctx.caller).principal.id;
      return ctx.services.accountDeletion.deleteAccount(userId, confirm);
    },
  }),
);
