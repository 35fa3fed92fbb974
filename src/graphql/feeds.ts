/** Live feeds (docs/api.md §6) as GraphQL subscriptions, served over graphql-ws and SSE. */
import { requirePrincipal } from '../domain/caller.js';
import type { MemberRowEvent, MembershipEvent } from '../realtime/event-bus.js';
import { builder } from './builder.js';
import { MembershipStateEnum, RoleEnum, ids, validate } from './common.js';

export const FeedOpEnum = builder.enumType('FeedOp', { values: ['insert', 'update', 'delete'] as const });

/** Exactly the four data columns plus the synthetic id; clients re-fetch display data. */
const MemberRowRef = builder.objectRef<MemberRowEvent>('MemberRow').implement({
  fields: t => ({
    id: t.exposeID('id', { description: '`<resourceId>:<userId>`' }),
    resourceId: t.exposeID('resourceId'),
    userId: t.exposeID('userId'),
    role: t.field({ type: RoleEnum, resolve: r => r.role }),
    state: t.field({ type: MembershipStateEnum, resolve: r => r.state }),
  }),
});

const MemberChangeRef = builder.objectRef<MembershipEvent>('MemberChange').implement({
  fields: t => ({
    op: t.field({ type: FeedOpEnum, resolve: e => e.op }),
    row: t.field({ type: MemberRowRef, resolve: e => e.row }),
  }),
});

builder.subscriptionFields(t => {
  const ownRows = t.field({
    type: MemberChangeRef,
    description: 'Your own membership rows across every resource of this app environment.',
    subscribe: (_, __, ctx) => ctx.services.feeds.resources(requirePrincipal(ctx.caller)),
    resolve: event => event,
  });
  return {
    membersLive: t.field({
      type: MemberChangeRef,
      description: "One resource's roster (active members only). Ends after your own removal.",
      args: { resourceId: t.arg.id({ required: true }) },
      subscribe: (_, args, ctx) =>
        ctx.services.feeds.members(requirePrincipal(ctx.caller), validate(ids.resourceId, String(args.resourceId), 'resourceId')),
      resolve: event => event,
    }),
    resourcesLive: ownRows,
    membershipLive: ownRows,
  };
});
