/** User profiles (docs/api.md §5.6): editing your own, looking others up by handle or ids. */
import { requirePrincipal } from '../core/caller.rules.js';
import { PROFILE_IDS_MAX, type PublicProfile } from './profiles.service.js';
import { builder } from '../graphql/builder.js';
import { ids, validate } from '../graphql/common.js';
import { rowsRead } from '../graphql/row-budget.js';

const UserProfileRef = builder.objectRef<PublicProfile>('UserProfile').implement({
  description: "A principal's public profile, as your app may show it.",
  fields: t => ({
    id: t.exposeID('id'),
    handle: t.exposeString('handle', { nullable: true }),
    displayName: t.exposeString('displayName', { nullable: true }),
  }),
});

const ProfileInput = builder.inputType('ProfileInput', {
  description: 'Fields to change: a value sets it, null clears it, a field left out stays as it is.',
  fields: t => ({
    displayName: t.string({ required: false }),
    handle: t.string({ required: false, description: '3-20 letters, digits or underscores, any case (stored lower-case).' }),
  }),
});

builder.queryFields(t => ({
  userByHandle: t.field({
    type: UserProfileRef,
    nullable: true,
    description:
      'The profile of the user with this handle (any case), or null: no such user, or one your app has not seen (a member of none of its resources). Rate-limited.',
    args: { handle: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.profiles.byHandle(requirePrincipal(ctx.caller), a.handle),
  }),
  userProfiles: t.field({
    type: [UserProfileRef],
    description: `The profiles of those of \`ids\` (at most ${PROFILE_IDS_MAX}) your app has seen, in the order asked; the others are left out. Rate-limited.`,
    args: { ids: t.arg.idList({ required: true }) },
    extensions: rowsRead(a => Math.min(Array.isArray(a.ids) ? a.ids.length : 0, PROFILE_IDS_MAX)),
    resolve: (_, a, ctx) =>
      ctx.services.profiles.profiles(
        requirePrincipal(ctx.caller),
        a.ids.map((id, i) => validate(ids.principalId, String(id), `ids.${i}`)),
      ),
  }),
}));

builder.mutationFields(t => ({
  updateMyProfile: t.prismaField({
    type: 'Principal',
    description: 'Edits your own profile, in every app (a taken handle is 409 handle_taken; a cleared handle is never issued again by the gateway).',
    args: { input: t.arg({ type: ProfileInput, required: true }) },
    resolve: async (query, _, a, ctx) => {
      const caller = requirePrincipal(ctx.caller);
      await ctx.services.profiles.update(caller, a.input);
      return ctx.services.deps.prisma.principal.findUniqueOrThrow({ ...query, where: { id: caller.principal.id } });
    },
  }),
}));
