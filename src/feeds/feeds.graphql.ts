/** Live feeds (docs/api.md §6) as GraphQL subscriptions, served over graphql-ws and SSE. */
import { requirePrincipal } from '../core/caller.rules.js';
import type { FeedChange } from './snapshot-feed.service.js';
import type { MemberRowChange } from './feeds.service.js';
import { builder } from '../graphql/builder.js';
import { MembershipStateEnum, RoleEnum, ids, validate } from '../graphql/common.js';

export const FeedOpEnum = builder.enumType('FeedOp', {
  description: 'insert, update, delete: a row; ready: the snapshot is complete, every later event is a change (row null).',
  values: ['insert', 'update', 'delete', 'ready'] as const,
});

/** The `snapshot` argument every feed takes (docs/api.md §6). */
export const SNAPSHOT_ARG = {
  required: false,
  defaultValue: true,
  description: 'Start with the current rows as insert events marked snapshot, then ready (default true); false: changes from now on.',
} as const;

export const SNAPSHOT_FIELD = { description: "True on the snapshot's inserts and on its closing ready." } as const;

/** The synthetic id plus the four data columns; a delete carries only its identity (id, resourceId, userId). */
const MemberRowRef = builder.objectRef<MemberRowChange>('MemberRow').implement({
  fields: t => ({
    id: t.exposeID('id', { description: '`<resourceId>:<userId>`' }),
    resourceId: t.exposeID('resourceId'),
    userId: t.exposeID('userId'),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Null in a delete.', resolve: r => r.role ?? null }),
    state: t.field({ type: MembershipStateEnum, nullable: true, description: 'Null in a delete.', resolve: r => r.state ?? null }),
  }),
});

const MemberChangeRef = builder.objectRef<FeedChange<MemberRowChange>>('MemberChange').implement({
  fields: t => ({
    op: t.field({ type: FeedOpEnum, resolve: e => e.op }),
    snapshot: t.exposeBoolean('snapshot', SNAPSHOT_FIELD),
    row: t.field({ type: MemberRowRef, nullable: true, description: 'Null on ready.', resolve: e => e.row }),
  }),
});

builder.subscriptionFields(t => {
  const ownRows = t.field({
    type: MemberChangeRef,
    description: 'Your own membership rows across every resource of this app environment: a snapshot, then every change.',
    args: { snapshot: t.arg.boolean(SNAPSHOT_ARG) },
    subscribe: (_, args, ctx) => ctx.services.feeds.resources(requirePrincipal(ctx.caller), { snapshot: args.snapshot !== false }),
    resolve: event => event,
  });
  return {
    membersLive: t.field({
      type: MemberChangeRef,
      description: "One resource's roster (active members only): a snapshot, then every change. Ends after your own removal.",
      args: { resourceId: t.arg.id({ required: true }), snapshot: t.arg.boolean(SNAPSHOT_ARG) },
      subscribe: (_, args, ctx) =>
        ctx.services.feeds.members(requirePrincipal(ctx.caller), validate(ids.resourceId, String(args.resourceId), 'resourceId'), {
          snapshot: args.snapshot !== false,
        }),
      resolve: event => event,
    }),
    resourcesLive: ownRows,
    membershipLive: ownRows,
  };
});
