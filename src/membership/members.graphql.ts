/** Membership: roster, invitations and one mutation per transition of docs/api.md §5.2. */
import { requirePrincipal } from '../core/caller.rules.js';
import type { InvitationEntry, InvitationPage, MemberPage, RosterEntry, TransitionResult } from './membership.service.js';
import { LIST_PAGE, wholeList } from '../core/pages.js';
import { builder } from '../graphql/builder.js';
import { pageRows, wholeListRows } from '../graphql/row-budget.js';
import { MembershipStateEnum, PrincipalKindEnum, RoleEnum, ids, validate } from '../graphql/common.js';

const RosterEntryRef = builder.objectRef<RosterEntry>('RosterEntry').implement({
  description: 'A member, active or pending. For an agent, the person who acts through it is disclosed.',
  fields: t => ({
    userId: t.exposeID('userId'),
    role: t.field({ type: RoleEnum, resolve: e => e.role }),
    state: t.field({ type: MembershipStateEnum, resolve: e => e.state }),
    kind: t.field({ type: PrincipalKindEnum, resolve: e => e.kind }),
    ownerId: t.exposeString('ownerId', { nullable: true }),
    ownerHandle: t.exposeString('ownerHandle', { nullable: true }),
    ownerDisplayName: t.exposeString('ownerDisplayName', { nullable: true }),
  }),
});

const InvitationRef = builder.objectRef<InvitationEntry>('Invitation').implement({
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    type: t.exposeString('type'),
    name: t.exposeString('name'),
    role: t.field({ type: RoleEnum, resolve: e => e.role }),
    invitedBy: t.exposeString('invitedBy', { nullable: true }),
    expiresAt: t.field({ type: 'DateTime', resolve: e => e.expiresAt }),
  }),
});

const InvitationPageRef = builder.objectRef<InvitationPage>('InvitationPage').implement({
  description: 'One page of your invitations; nextCursor is null on the last page.',
  fields: t => ({
    invitations: t.field({ type: [InvitationRef], resolve: p => p.invitations }),
    nextCursor: t.string({ nullable: true, resolve: p => p.nextCursor }),
  }),
});

export const MembershipResultRef = builder.objectRef<TransitionResult>('MembershipResult').implement({
  description: 'The outcome of a membership transition; state and role are null when the row is gone.',
  fields: t => ({
    ok: t.boolean({ resolve: () => true }),
    resourceId: t.exposeID('resourceId'),
    state: t.field({ type: MembershipStateEnum, nullable: true, resolve: r => r.state }),
    role: t.field({ type: RoleEnum, nullable: true, resolve: r => r.role }),
  }),
});

const MemberPageRef = builder.objectRef<MemberPage>('MemberPage').implement({
  description: 'One page of a members list; nextCursor is null on the last page.',
  fields: t => ({
    members: t.field({ type: [RosterEntryRef], resolve: p => p.members }),
    nextCursor: t.string({ nullable: true, resolve: p => p.nextCursor }),
  }),
});

builder.queryFields(t => ({
  members: t.field({
    type: [RosterEntryRef],
    description: `Active and pending members, owner first; visible to active members. More than ${LIST_PAGE.max} is an error (too_many_results): page with memberPage.`,
    args: { resourceId: t.arg.id({ required: true }) },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: async (_, args, ctx) => {
      const page = await ctx.services.membership.members(
        requirePrincipal(ctx.caller),
        validate(ids.resourceId, String(args.resourceId), 'resourceId'),
      );
      return wholeList(page, page.members, 'memberPage');
    },
  }),
  memberPage: t.field({
    type: MemberPageRef,
    description: `Active and pending members, owner first, a page at a time (limit default and max ${LIST_PAGE.max}); visible to active members.`,
    args: { resourceId: t.arg.id({ required: true }), limit: t.arg.int(), cursor: t.arg.string() },
    extensions: pageRows(LIST_PAGE),
    resolve: (_, { resourceId, ...page }, ctx) =>
      ctx.services.membership.members(requirePrincipal(ctx.caller), validate(ids.resourceId, String(resourceId), 'resourceId'), page),
  }),
  invitations: t.field({
    type: [InvitationRef],
    description: `Your own unexpired invites in this app environment, newest first. More than ${LIST_PAGE.max} is an error (too_many_results): page with invitationPage.`,
    args: { type: t.arg.string() },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: async (_, { type }, ctx) => {
      const page = await ctx.services.membership.invitations(requirePrincipal(ctx.caller), type);
      return wholeList(page, page.invitations, 'invitationPage');
    },
  }),
  invitationPage: t.field({
    type: InvitationPageRef,
    description: `Your own unexpired invites in this app environment, newest first, a page at a time (limit default and max ${LIST_PAGE.max}).`,
    args: { type: t.arg.string(), limit: t.arg.int(), cursor: t.arg.string() },
    extensions: pageRows(LIST_PAGE),
    resolve: (_, { type, ...page }, ctx) => ctx.services.membership.invitations(requirePrincipal(ctx.caller), type, page),
  }),
}));

builder.mutationFields(t => {
  const resourceId = (value: string | number) => validate(ids.resourceId, String(value), 'resourceId');
  const userId = (value: string | number | null | undefined) => (value == null ? undefined : validate(ids.principalId, String(value), 'userId'));
  const target = { resourceId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) };
  const optionalTarget = { resourceId: t.arg.id({ required: true }), userId: t.arg.id() };
  const withRole = { resourceId: t.arg.id({ required: true }), role: t.arg({ type: RoleEnum }) };

  return {
    invite: t.field({
      type: MembershipResultRef,
      description: 'Admin+. Invites a person (state invited) or adds your own agent (state active).',
      args: { ...target, role: t.arg({ type: RoleEnum }) },
      resolve: (_, a, ctx) =>
        ctx.services.membership.invite(requirePrincipal(ctx.caller), resourceId(a.resourceId), userId(a.userId)!, a.role ?? undefined),
    }),
    requestAccess: t.field({
      type: MembershipResultRef,
      args: withRole,
      resolve: (_, a, ctx) => ctx.services.membership.request(requirePrincipal(ctx.caller), resourceId(a.resourceId), a.role ?? undefined),
    }),
    accept: t.field({
      type: MembershipResultRef,
      description: "Accept your invite (no userId), your agent's invite, or (admin+) a request.",
      args: optionalTarget,
      resolve: (_, a, ctx) => ctx.services.membership.accept(requirePrincipal(ctx.caller), resourceId(a.resourceId), userId(a.userId)),
    }),
    reject: t.field({
      type: MembershipResultRef,
      args: optionalTarget,
      resolve: (_, a, ctx) => ctx.services.membership.reject(requirePrincipal(ctx.caller), resourceId(a.resourceId), userId(a.userId)),
    }),
    join: t.field({
      type: MembershipResultRef,
      description: 'Self-join a public resource at its default role. Idempotent.',
      args: { resourceId: t.arg.id({ required: true }) },
      resolve: (_, a, ctx) => ctx.services.membership.join(requirePrincipal(ctx.caller), resourceId(a.resourceId)),
    }),
    leave: t.field({
      type: MembershipResultRef,
      args: { resourceId: t.arg.id({ required: true }) },
      resolve: (_, a, ctx) => ctx.services.membership.leave(requirePrincipal(ctx.caller), resourceId(a.resourceId)),
    }),
    setRole: t.field({
      type: MembershipResultRef,
      args: { ...target, role: t.arg({ type: RoleEnum, required: true }) },
      resolve: (_, a, ctx) => ctx.services.membership.setRole(requirePrincipal(ctx.caller), resourceId(a.resourceId), userId(a.userId)!, a.role),
    }),
    removeMember: t.field({
      type: MembershipResultRef,
      args: target,
      resolve: (_, a, ctx) => ctx.services.membership.remove(requirePrincipal(ctx.caller), resourceId(a.resourceId), userId(a.userId)!),
    }),
  };
});
