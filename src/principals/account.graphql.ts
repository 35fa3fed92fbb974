/** The caller's own account: deleting it (docs/api.md §12.2), a dashboard action (§4.2). */
import type { AccountDeletionResult } from './account-deletion.service.js';
import { builder } from '../graphql/builder.js';
import { dashboardUser } from '../membership/dashboard.graphql.js';

const TransferredResourceRef = builder.objectRef<AccountDeletionResult['transferred'][number]>('TransferredResource').implement({
  description: 'A resource the deleted account owned, now owned by its longest-standing admin.',
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    ownerId: t.exposeID('ownerId'),
  }),
});

export const AccountDeletionRef = builder.objectRef<AccountDeletionResult>('AccountDeletion').implement({
  description: 'What deleting an account (or an agent) did to the resources it owned.',
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
      'Deletes your account in every app: applies each table\'s onOwnerDelete to your rows, leaves every resource (an owned one passes to its longest-standing admin, else it is deleted) and ends your tokens and sessions. `confirm` must be "delete my account". Dashboard session only: no app credential (bearer token, app or hosted-origin cookie, test or agent token) reaches it.',
    args: { confirm: t.arg.string({ required: true }) },
    // An app acts for the user in that app only: deleting them everywhere is theirs to do, in the dashboard.
    resolve: async (_, { confirm }, ctx) => ctx.services.accountDeletion.deleteAccount(await dashboardUser(ctx), confirm),
  }),
);
