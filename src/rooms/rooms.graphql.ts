/** Rooms and grants (docs/api.md §10): room records, their ACLs, the grants you hold and the rooms feed. */
import { requirePrincipal } from '../core/caller.rules.js';
import type { Role } from '../core/roles.rules.js';
import type { FeedChange } from '../feeds/snapshot-feed.service.js';
import type { GrantRowChange } from '../feeds/feeds.service.js';
import { LIST_PAGE } from '../core/pages.js';
import { type GrantResult, type HeldRoom, MAX_ROOMS_PER_RESOURCE, type RoomEntry, type RoomGrantEntry } from './rooms.service.js';
import { builder } from '../graphql/builder.js';
import { OkRef, RoleEnum, ids, validate } from '../graphql/common.js';
import { FeedOpEnum, SNAPSHOT_ARG, SNAPSHOT_FIELD } from '../feeds/feeds.graphql.js';
import { wholeListRows } from '../graphql/row-budget.js';

const GrantRef = builder.objectRef<{ role: Role }>('Grant').implement({
  description: 'A grant (spec 2.7): a role for one principal in one room.',
  fields: t => ({
    role: t.field({ type: RoleEnum, resolve: g => g.role }),
  }),
});

const RoomRef = builder.objectRef<RoomEntry>('Room').implement({
  description: 'A room of a resource. The default room is the resource itself: its id is the resource id and isDefault is true.',
  fields: t => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    isDefault: t.exposeBoolean('isDefault'),
    currentGrant: t.field({
      type: GrantRef,
      nullable: true,
      description: 'Your own grant in the room, { role } (in the default room: your resource role); null when you hold none.',
      resolve: r => r.currentGrant,
    }),
    effectiveRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: 'min(your resource role, currentGrant): the role access rules see in this room.',
      resolve: r => r.effectiveRole,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: r => r.createdAt }),
  }),
});

const RoomGrantRef = builder.objectRef<RoomGrantEntry>('RoomGrant').implement({
  description: 'One entry of a room ACL: a principal (the :principal of the grant routes) and their grant.',
  fields: t => ({
    principalId: t.exposeID('principalId'),
    role: t.field({ type: RoleEnum, resolve: g => g.role }),
  }),
});

/** The snapshot row of GET /v1/resources/grants and the row of the rooms feed: exactly these three columns. */
const RoomGrantRowRef = builder.objectRef<HeldRoom>('RoomGrantRow').implement({
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    roomId: t.exposeID('roomId'),
    role: t.field({ type: RoleEnum, description: 'The grant; the effective role is min(resource role, grant).', resolve: r => r.role }),
  }),
});

const RoomGrantResultRef = builder.objectRef<GrantResult>('RoomGrantResult').implement({
  description: 'The outcome of a grant change; role is null once the grant is gone.',
  fields: t => ({
    ok: t.boolean({ resolve: () => true }),
    resourceId: t.exposeID('resourceId'),
    roomId: t.exposeID('roomId'),
    principalId: t.exposeID('principalId'),
    role: t.field({ type: RoleEnum, nullable: true, resolve: r => r.role }),
  }),
});

/** A rooms-feed row: a grant; a delete carries only its identity (resourceId, roomId). */
const RoomGrantChangeRowRef = builder.objectRef<GrantRowChange>('RoomGrantChangeRow').implement({
  fields: t => ({
    resourceId: t.exposeID('resourceId'),
    roomId: t.exposeID('roomId'),
    role: t.field({
      type: RoleEnum,
      nullable: true,
      description: 'The grant (the effective role is min(resource role, grant)); null in a delete.',
      resolve: r => r.role ?? null,
    }),
  }),
});

const RoomChangeRef = builder.objectRef<FeedChange<GrantRowChange>>('RoomChange').implement({
  fields: t => ({
    op: t.field({ type: FeedOpEnum, resolve: e => e.op }),
    snapshot: t.exposeBoolean('snapshot', SNAPSHOT_FIELD),
    row: t.field({ type: RoomGrantChangeRowRef, nullable: true, description: 'Null on ready.', resolve: e => e.row }),
  }),
});

const resourceId = (value: string | number) => validate(ids.resourceId, String(value), 'resourceId');
const roomId = (value: string | number) => validate(ids.resourceId, String(value), 'roomId');
const userId = (value: string | number) => validate(ids.principalId, String(value), 'userId');

builder.queryFields(t => ({
  rooms: t.field({
    type: [RoomRef],
    description: 'The default room, then the rooms you hold; admins and the owner also see rooms they hold nothing in.',
    args: { resourceId: t.arg.id({ required: true }) },
    // The default room and at most MAX_ROOMS_PER_RESOURCE others.
    extensions: wholeListRows(MAX_ROOMS_PER_RESOURCE + 1),
    resolve: (_, a, ctx) => ctx.services.rooms.list(requirePrincipal(ctx.caller), resourceId(a.resourceId)),
  }),
  room: t.field({
    type: RoomRef,
    description: 'One room; room_not_found when you hold no grant in it and are not an admin.',
    args: { resourceId: t.arg.id({ required: true }), roomId: t.arg.id({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.rooms.get(requirePrincipal(ctx.caller), resourceId(a.resourceId), roomId(a.roomId)),
  }),
  roomGrants: t.field({
    type: [RoomGrantRef],
    description: "A room's ACL (admin+). For the default room: the active members' resource roles.",
    args: { resourceId: t.arg.id({ required: true }), roomId: t.arg.id({ required: true }) },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, a, ctx) => ctx.services.rooms.grants(requirePrincipal(ctx.caller), resourceId(a.resourceId), roomId(a.roomId)),
  }),
  myRoomGrants: t.field({
    type: [RoomGrantRowRef],
    description: 'Every room you hold a grant in, across this app environment: the snapshot of roomsLive.',
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, __, ctx) => ctx.services.rooms.held(requirePrincipal(ctx.caller)),
  }),
}));

builder.mutationFields(t => {
  const inRoom = { resourceId: t.arg.id({ required: true }), roomId: t.arg.id({ required: true }) };
  return {
    createRoom: t.field({
      type: RoomRef,
      description: 'Admin+. Nobody holds a grant in a new room yet.',
      args: { resourceId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
      resolve: (_, a, ctx) => ctx.services.rooms.create(requirePrincipal(ctx.caller), resourceId(a.resourceId), a.name),
    }),
    renameRoom: t.field({
      type: RoomRef,
      description: 'Admin+. Not the default room.',
      args: { ...inRoom, name: t.arg.string({ required: true }) },
      resolve: (_, a, ctx) => ctx.services.rooms.rename(requirePrincipal(ctx.caller), resourceId(a.resourceId), roomId(a.roomId), a.name),
    }),
    deleteRoom: t.field({
      type: OkRef,
      description: 'Admin+. room_not_empty while rows remain. Not the default room.',
      args: inRoom,
      resolve: (_, a, ctx) => ctx.services.rooms.remove(requirePrincipal(ctx.caller), resourceId(a.resourceId), roomId(a.roomId)),
    }),
    setRoomGrant: t.field({
      type: RoomGrantResultRef,
      description: 'Admin+. Idempotent upsert of a grant for an active member, within your ceiling and your own role in the room.',
      args: { ...inRoom, userId: t.arg.id({ required: true }), role: t.arg({ type: RoleEnum, required: true }) },
      resolve: (_, a, ctx) =>
        ctx.services.rooms.setGrant(requirePrincipal(ctx.caller), resourceId(a.resourceId), roomId(a.roomId), userId(a.userId), a.role),
    }),
    removeRoomGrant: t.field({
      type: RoomGrantResultRef,
      description: 'Removes a grant: your own (leaving the room), or (admin+) a member below you. Idempotent.',
      args: { ...inRoom, userId: t.arg.id({ required: true }) },
      resolve: (_, a, ctx) =>
        ctx.services.rooms.removeGrant(requirePrincipal(ctx.caller), resourceId(a.resourceId), roomId(a.roomId), userId(a.userId)),
    }),
  };
});

builder.subscriptionFields(t => ({
  roomsLive: t.field({
    type: RoomChangeRef,
    description: 'Your own room grants across every resource of this app environment: a snapshot (that of myRoomGrants), then every change.',
    args: { snapshot: t.arg.boolean(SNAPSHOT_ARG) },
    subscribe: (_, args, ctx) => ctx.services.feeds.rooms(requirePrincipal(ctx.caller), { snapshot: args.snapshot !== false }),
    resolve: event => event,
  }),
}));
