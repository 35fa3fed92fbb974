/**
 * The REST shims: each row maps a documented path (docs/api.md §2.1) to a stored GraphQL
 * operation, how path, query and body become variables, and how the result becomes the documented
 * response body. Adding a route is adding a row. Every operation selects its root field as `result`.
 *
 * Operations are `graphql()` documents from the generated client (codegen.ts): `npm run codegen`
 * checks each one against schema/schema.graphql and types its variables and result, so `variables`
 * and `respond` below are checked against the operation they serve. docs/api.md §2 lists the routes.
 */
import { z } from 'zod';
import { ROLES } from '../core/roles.rules.js';
import { VISIBILITY_NAMES } from '../membership/visibility.rules.js';
import { graphql } from '../graphql-client/generated/index.js';
import type { DbResultFieldsFragment, ResourceFieldsFragment } from '../graphql-client/generated/graphql.js';
import { type StoredOperationEndpoint, storedOperation } from './stored-operations.js';
import { fail } from '../errors.js';
import { LIST_PAGE } from '../core/pages.js';
import { BROWSE_PAGE } from '../membership/resources.service.js';
import { DB_OPS, DB_SCOPE_KINDS } from '../rows/rows-input.service.js';

const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });
const id = z.string({ message: 'must be a string' }).min(1, 'must not be empty');
const optionalUser = z.strictObject({ userId: id.optional() });
/** Length and characters are the room service's (docs/api.md §10.2); here only the type. */
const roomBody = z.strictObject({ name: z.string({ message: 'is required and must be a string' }) });
const ok = () => ({ ok: true });
/** `limit` (1 to `max`) and `cursor` (a previous page's nextCursor) of a paged list. */
const pageQuery = (max: number) => ({
  limit: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .optional(),
  cursor: z.string().optional(),
});
/** docs/api.md §11.1: the service checks which fields each op takes and what they hold; here only their JSON types. */
const dbOperation = z.strictObject({
  scope: z.strictObject({
    kind: z.enum(DB_SCOPE_KINDS, { message: `must be one of ${DB_SCOPE_KINDS.join(', ')}` }),
    resourceId: id.optional(),
    roomId: id.optional(),
    type: id.optional(),
  }),
  table: z.string({ message: 'is required and must be a string' }),
  op: z.enum(DB_OPS, { message: `must be one of ${DB_OPS.join(', ')}` }),
  values: z.unknown().optional(),
  where: z.unknown().optional(),
  orderBy: z.strictObject({ column: z.string({ message: 'must be a string' }), direction: z.enum(['asc', 'desc']).optional() }).optional(),
  limit: z.number({ message: 'must be a number' }).int('must be an integer').optional(),
  cursor: z.string({ message: 'must be a string' }).optional(),
  ids: z.array(id).optional(),
  destination: id.optional(),
  onConflict: z
    .union([z.string(), z.array(z.string())], { message: 'must be a column name or a list of them' })
    .transform(value => (typeof value === 'string' ? [value] : value))
    .optional(),
});
/** select: the page; insert, update, delete, upsert: the rows as written; link, unlink, moveRoom: ok. */
const dbAnswer = (r: DbResultFieldsFragment) =>
  r.op === 'select' ? { rows: r.rows ?? [], nextCursor: r.nextCursor ?? null } : r.rows ? { rows: r.rows } : { ok: true };
const okState = (r: { state?: string | null }) => ({ ok: true, state: r.state });

/** Every row-store route can answer these (docs/api.md §11, §8.2). */
const DB_ERRORS = [
  'invalid_cursor',
  'too_many_rows',
  'payment_required',
  'unknown_type',
  'unknown_table',
  'table_not_in_scope',
  'invalid_operation',
  'unknown_column',
  'invalid_value',
  'missing_value',
  'column_not_writable',
  'virtual_room_id',
  'row_too_large',
  'invalid_filter',
  'invalid_order',
  'resource_not_found',
  'not_resource_member',
  'access_denied',
  'room_forbidden',
  'invalid_room',
  'room_not_found',
  'row_not_found',
  'unique_violation',
  'account_deleted',
] as const;

/** Response shapes (docs/api.md §2.2): what `respond` returns, for the OpenAPI document; test/api/openapi.test.ts checks real answers against them. */
const roleOut = z.enum(ROLES);
const stateOut = z.enum(['active', 'invited', 'requested']);
const timestamp = z.string().describe('ISO-8601, UTC');
/** A principal's public profile (docs/api.md §5.6). */
const profileOut = z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() });
/** The caller (GraphQL `me`): `email` only for yourself, when known. */
const meOut = z.object({
  id: z.string(),
  kind: z.enum(['user', 'agent']),
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  profile: z.object({ handle: z.string().nullable(), displayName: z.string().nullable() }),
});

graphql(`
  fragment MeFields on Principal {
    id
    kind
    handle
    displayName
    email
    profile { handle displayName }
  }
`);
const resourceOut = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  visibility: z.enum(['members', 'public']),
  discoverable: z.boolean(),
  memberCount: z.number().int(),
  currentMember: z.object({ role: roleOut, state: stateOut }).optional().describe('Your own row: always on list rows, on fetch only when active'),
});
const roomOut = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  currentGrant: z.object({ role: roleOut }).nullable().describe('Your own grant (spec 2.7); in the default room your resource role'),
  effectiveRole: roleOut.nullable(),
});
const invitationOut = z.object({
  resourceId: z.string(),
  type: z.string(),
  name: z.string(),
  role: roleOut,
  invitedBy: z.string().nullable(),
  expiresAt: timestamp,
});
const okOut = z.object({ ok: z.literal(true) });

const okStateOut = z.object({ ok: z.literal(true), state: stateOut.nullable() });
const dbRow = z.record(z.string(), z.unknown()).describe("A row: the deployed table's columns (docs/api.md §11.3)");
const dbAnswerOut = z.union([
  z.object({ rows: z.array(dbRow), nextCursor: z.string().nullable() }).describe('select: one page'),
  z.object({ rows: z.array(dbRow) }).describe('insert, update, delete, upsert: the rows as written'),
  okOut.describe('link, unlink, moveRoom'),
]);
const appOut = z.object({
  id: z.string(),
  name: z.string(),
  origins: z.array(z.string()),
  clientIds: z.array(z.string()),
  environments: z.array(z.string()),
  createdAt: timestamp,
});

graphql(`
  fragment ResourceFields on Resource {
    id
    type
    name
    visibility
    discoverable
    memberCount
    currentMember { role state }
  }
`);
graphql(`
  fragment RoomFields on Room {
    id
    name
    isDefault
    currentGrant { role }
    effectiveRole
  }
`);
graphql(`
  fragment DbResultFields on DbResult {
    op
    rows
    nextCursor
  }
`);
graphql(`
  fragment TransitionFields on MembershipResult {
    ok
    resourceId
    state
    role
  }
`);

/** docs/api.md §2.2: the view has no createdAt; currentMember only where the service set one. */
const resourceView = (r: ResourceFieldsFragment & { createdAt?: unknown }) => {
  const { createdAt: _createdAt, currentMember, ...rest } = r;
  return currentMember ? { ...rest, currentMember } : rest;
};

export const restEndpoints: StoredOperationEndpoint[] = [
  storedOperation({
    method: 'POST',
    path: '/v1/resources',
    response: resourceOut,
    errors: ['unknown_type', 'reserved_type', 'visibility_not_allowed', 'too_many_resources'],
    operation: graphql(`
      mutation CreateResource($input: CreateResourceInput!) {
        result: createResource(input: $input) { ...ResourceFields }
      }
    `),
    body: z.strictObject({
      type: z.string({ message: 'is required and must be a string' }),
      name: z.string({ message: 'is required and must be a string' }),
      visibility: z.enum(VISIBILITY_NAMES, { message: `must be one of ${VISIBILITY_NAMES.join(', ')}` }).optional(),
    }),
    variables: ({ body }) => ({ input: body }),
    respond: resourceView,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources',
    response: z.object({ resources: z.array(resourceOut), nextCursor: z.string().nullable() }),
    errors: ['invalid_cursor'],
    operation: graphql(`
      query Resources($type: String, $limit: Int, $cursor: String) {
        result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {
          resources { ...ResourceFields }
          nextCursor
        }
      }
    `),
    query: z.object({ type: z.string().optional(), ...pageQuery(LIST_PAGE.max) }),
    variables: ({ query }) => query,
    respond: page => ({ resources: page.resources.map(resourceView), nextCursor: page.nextCursor }),
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/browse',
    response: z.object({
      resources: z.array(z.object({ id: z.string(), type: z.string(), name: z.string(), memberCount: z.number().int(), createdAt: timestamp })),
      nextCursor: z.string().nullable(),
    }),
    errors: ['invalid_cursor', 'unknown_type'],
    operation: graphql(`
      query BrowseResources($type: String, $query: String, $limit: Int, $cursor: String) {
        result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {
          resources { id type name memberCount createdAt }
          nextCursor
        }
      }
    `),
    query: z.object({
      type: z.string().optional(),
      query: z.string().max(200, 'must be at most 200 characters').optional(),
      ...pageQuery(BROWSE_PAGE.max),
    }),
    variables: ({ query }) => query,
    respond: page => ({
      resources: page.resources.map(r => ({ id: r.id, type: r.type, name: r.name, memberCount: r.memberCount, createdAt: r.createdAt })),
      nextCursor: page.nextCursor,
    }),
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/static',
    response: resourceOut.omit({ currentMember: true }),
    errors: ['unknown_type', 'static_not_found'],
    operation: graphql(`
      query StaticResource($type: String!, $slug: String!) {
        result: staticResource(type: $type, slug: $slug) { ...ResourceFields }
      }
    `),
    query: z.object({ type: z.string({ message: 'is required' }).min(1), slug: z.string({ message: 'is required' }).min(1) }),
    variables: ({ query }) => query,
    respond: resourceView,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/invitations',
    response: z.object({ invitations: z.array(invitationOut), nextCursor: z.string().nullable() }),
    errors: ['invalid_cursor'],
    operation: graphql(`
      query Invitations($type: String, $limit: Int, $cursor: String) {
        result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {
          invitations { resourceId type name role invitedBy expiresAt }
          nextCursor
        }
      }
    `),
    query: z.object({ type: z.string().optional(), ...pageQuery(LIST_PAGE.max) }),
    variables: ({ query }) => query,
    respond: page => page,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/grants',
    response: z.object({ grants: z.array(z.object({ resourceId: z.string(), roomId: z.string(), role: roleOut })) }),
    errors: [],
    operation: graphql(`
      query MyRoomGrants {
        result: myRoomGrants { resourceId roomId role }
      }
    `),
    variables: () => ({}),
    respond: grants => ({ grants }),
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/rooms',
    response: roomOut,
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'room_limit'],
    operation: graphql(`
      mutation CreateRoom($id: ID!, $name: String!) {
        result: createRoom(resourceId: $id, name: $name) { ...RoomFields }
      }
    `),
    body: roomBody,
    variables: ({ params, body }) => ({ id: params.id, name: body.name }),
    respond: room => room,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/rooms',
    response: z.object({ rooms: z.array(roomOut) }),
    errors: ['resource_not_found', 'not_resource_member'],
    operation: graphql(`
      query Rooms($id: ID!) {
        result: rooms(resourceId: $id) { ...RoomFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: rooms => ({ rooms }),
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/rooms/:roomId',
    response: roomOut,
    errors: ['resource_not_found', 'not_resource_member', 'invalid_room', 'room_not_found'],
    operation: graphql(`
      query Room($id: ID!, $roomId: ID!) {
        result: room(resourceId: $id, roomId: $roomId) { ...RoomFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: room => room,
  }),
  storedOperation({
    method: 'PATCH',
    path: '/v1/resources/:id/rooms/:roomId',
    response: roomOut,
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'invalid_room', 'room_not_found', 'default_room_immutable'],
    operation: graphql(`
      mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {
        result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...RoomFields }
      }
    `),
    body: roomBody,
    variables: ({ params, body }) => ({ id: params.id, roomId: params.roomId, name: body.name }),
    respond: room => room,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/resources/:id/rooms/:roomId',
    response: okOut,
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'invalid_room', 'room_not_found', 'default_room_immutable', 'room_not_empty'],
    operation: graphql(`
      mutation DeleteRoom($id: ID!, $roomId: ID!) {
        result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: ok,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/rooms/:roomId/grants',
    response: z.object({ grants: z.array(z.object({ principalId: z.string(), role: roleOut })) }),
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'invalid_room', 'room_not_found'],
    operation: graphql(`
      query RoomGrants($id: ID!, $roomId: ID!) {
        result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: grants => ({ grants }),
  }),
  storedOperation({
    method: 'PUT',
    path: '/v1/resources/:id/rooms/:roomId/grants/:principal',
    response: z.object({ ok: z.literal(true), resourceId: z.string(), roomId: z.string(), principalId: z.string(), role: roleOut.nullable() }),
    errors: [
      'resource_not_found',
      'not_admin',
      'outranked',
      'grant_ceiling',
      'invalid_room',
      'room_not_found',
      'default_room_immutable',
      'not_resource_member',
      'grantee_not_member',
    ],
    operation: graphql(`
      mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {
        result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }
      }
    `),
    body: z.strictObject({ role }),
    variables: ({ params, body }) => ({ id: params.id, roomId: params.roomId, userId: params.principal, role: body.role }),
    respond: r => r,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/resources/:id/rooms/:roomId/grants/:principal',
    response: okOut,
    errors: ['resource_not_found', 'not_admin', 'outranked', 'invalid_room', 'room_not_found', 'default_room_immutable', 'not_resource_member'],
    operation: graphql(`
      mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {
        result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId, userId: params.principal }),
    respond: ok,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id',
    response: resourceOut,
    errors: ['resource_not_found'],
    operation: graphql(`
      query Resource($id: ID!) {
        result: resource(id: $id) { ...ResourceFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: resourceView,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/members',
    response: z.object({
      members: z.array(
        z.object({
          userId: z.string(),
          role: roleOut,
          state: stateOut,
          kind: z.enum(['user', 'agent']),
          ownerId: z.string().nullable(),
          ownerHandle: z.string().nullable(),
          ownerDisplayName: z.string().nullable(),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
    errors: ['resource_not_found', 'not_resource_member', 'invalid_cursor'],
    operation: graphql(`
      query Members($id: ID!, $limit: Int, $cursor: String) {
        result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {
          members { userId role state kind ownerId ownerHandle ownerDisplayName }
          nextCursor
        }
      }
    `),
    query: z.object(pageQuery(LIST_PAGE.max)),
    variables: ({ params, query }) => ({ id: params.id, ...query }),
    respond: page => page,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/invite',
    response: okStateOut,
    errors: [
      'resource_not_found',
      'not_resource_member',
      'not_admin',
      'grant_ceiling',
      'blocked',
      'user_not_found',
      'already_member',
      'already_invited',
      'pending_request',
      'pending_limit',
      'conflict',
    ],
    operation: graphql(`
      mutation Invite($id: ID!, $userId: ID!, $role: Role) {
        result: invite(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ userId: id, role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/invite-link',
    response: z.object({ url: z.string(), role: roleOut, expiresAt: timestamp }),
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'grant_ceiling', 'invite_link_limit'],
    operation: graphql(`
      mutation CreateInviteLink($id: ID!, $role: Role) {
        result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }
      }
    `),
    body: z.strictObject({ role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: link => link,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/request',
    response: okStateOut,
    errors: ['resource_not_found', 'reserved_type', 'grant_ceiling', 'already_member', 'already_invited', 'pending_request', 'blocked', 'conflict'],
    operation: graphql(`
      mutation RequestAccess($id: ID!, $role: Role) {
        result: requestAccess(resourceId: $id, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/accept',
    response: okStateOut,
    errors: [
      'resource_not_found',
      'not_resource_member',
      'not_admin',
      'grant_ceiling',
      'agent_cannot_accept',
      'not_invitee',
      'no_pending_invite',
      'no_pending_membership',
      'user_not_found',
      'conflict',
    ],
    operation: graphql(`
      mutation Accept($id: ID!, $userId: ID) {
        result: accept(resourceId: $id, userId: $userId) { ...TransitionFields }
      }
    `),
    body: optionalUser,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/reject',
    response: okOut,
    errors: [
      'resource_not_found',
      'not_resource_member',
      'not_admin',
      'not_invitee',
      'no_pending_invite',
      'no_pending_membership',
      'user_not_found',
      'conflict',
    ],
    operation: graphql(`
      mutation Reject($id: ID!, $userId: ID) {
        result: reject(resourceId: $id, userId: $userId) { ...TransitionFields }
      }
    `),
    body: optionalUser,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: ok,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/join',
    response: okStateOut,
    errors: ['resource_not_found', 'members_only', 'already_member', 'already_invited', 'pending_request', 'blocked', 'conflict'],
    operation: graphql(`
      mutation Join($id: ID!) {
        result: join(resourceId: $id) { ...TransitionFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: okState,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/leave',
    response: okOut,
    errors: ['resource_not_found', 'owner_cannot_leave', 'not_member', 'conflict'],
    operation: graphql(`
      mutation Leave($id: ID!) {
        result: leave(resourceId: $id) { ...TransitionFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: ok,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/setRole',
    response: z.object({ ok: z.literal(true), role: roleOut.nullable() }),
    errors: [
      'resource_not_found',
      'not_resource_member',
      'not_admin',
      'outranked',
      'grant_ceiling',
      'not_member',
      'pending_request',
      'user_not_found',
      'conflict',
    ],
    operation: graphql(`
      mutation SetRole($id: ID!, $userId: ID!, $role: Role!) {
        result: setRole(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ userId: id, role }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: r => ({ ok: true, role: r.role }),
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/remove',
    response: okOut,
    errors: [
      'resource_not_found',
      'not_resource_member',
      'not_admin',
      'outranked',
      'use_leave',
      'not_member',
      'pending_request',
      'user_not_found',
      'conflict',
    ],
    operation: graphql(`
      mutation RemoveMember($id: ID!, $userId: ID!) {
        result: removeMember(resourceId: $id, userId: $userId) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ userId: id }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: ok,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/invite-links/claim',
    response: z.object({ ok: z.literal(true), resourceId: z.string(), state: stateOut, role: roleOut }),
    errors: ['invite_link_not_found', 'invite_link_used', 'invite_link_expired', 'invite_link_inactive', 'blocked', 'already_member', 'conflict'],
    operation: graphql(`
      mutation ClaimInviteLink($code: String!) {
        result: claimInviteLink(code: $code) { ok resourceId state role }
      }
    `),
    body: z.strictObject({ code: z.string({ message: 'is required and must be a string' }).min(1, 'must not be empty') }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/agents',
    response: z.object({ id: z.string(), name: z.string(), ownerId: z.string(), token: z.string().describe('Shown once') }),
    errors: ['agents_cannot_create_agents', 'too_many_agents'],
    operation: graphql(`
      mutation CreateAgent($name: String!) {
        result: createAgent(name: $name) { id name ownerId token }
      }
    `),
    body: z.strictObject({ name: z.string({ message: 'is required and must be a string' }) }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/agents',
    response: z.object({ agents: z.array(z.object({ id: z.string(), name: z.string(), createdAt: timestamp })) }),
    errors: [],
    operation: graphql(`
      query Agents {
        result: agents { id name createdAt }
      }
    `),
    variables: () => ({}),
    respond: agents => ({ agents }),
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/agents/:id',
    response: z.object({
      ok: z.literal(true),
      transferred: z.array(z.object({ resourceId: z.string(), ownerId: z.string() })),
      deleted: z.array(z.string()),
    }),
    errors: ['user_not_found'],
    operation: graphql(`
      mutation DeleteAgent($id: ID!) {
        result: deleteAgent(id: $id) { ok transferred { resourceId ownerId } deleted }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: r => r,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/users/me',
    response: meOut,
    errors: [],
    operation: graphql(`
      query Me {
        result: me { ...MeFields }
      }
    `),
    variables: () => ({}),
    respond: r => r,
  }),
  storedOperation({
    method: 'PATCH',
    path: '/v1/users/me',
    response: meOut,
    errors: ['handle_taken', 'agents_cannot_edit_profiles', 'account_deleted'],
    operation: graphql(`
      mutation UpdateMyProfile($input: ProfileInput!) {
        result: updateMyProfile(input: $input) { ...MeFields }
      }
    `),
    // Each field: a string sets it, null (or "") clears it, absent leaves it (the service checks the values).
    body: z.strictObject({
      displayName: z.string({ message: 'must be a string or null' }).nullable().optional(),
      handle: z.string({ message: 'must be a string or null' }).nullable().optional(),
    }),
    variables: ({ body }) => ({ input: body }),
    respond: r => r,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/users/by-handle/:handle',
    response: profileOut,
    errors: ['user_not_found', 'too_many_lookups'],
    operation: graphql(`
      query UserByHandle($handle: String!) {
        result: userByHandle(handle: $handle) { id handle displayName }
      }
    `),
    variables: ({ params }) => ({ handle: params.handle }),
    respond: profile => {
      // GraphQL answers null; REST, as for any id nobody in the app has: 404.
      if (!profile) throw fail('user_not_found', 'No user with this handle in this app.');
      return profile;
    },
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/users/profiles',
    response: z.object({ profiles: z.array(profileOut) }),
    errors: ['too_many_lookups'],
    operation: graphql(`
      query UserProfiles($ids: [ID!]!) {
        result: userProfiles(ids: $ids) { id handle displayName }
      }
    `),
    body: z.strictObject({ ids: z.array(id, { message: 'is required: a list of user ids' }) }),
    variables: ({ body }) => body,
    respond: profiles => ({ profiles }),
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/blocks',
    response: z.object({ ok: z.literal(true), userId: z.string() }),
    errors: ['agents_cannot_block', 'user_not_found'],
    operation: graphql(`
      mutation BlockUser($userId: ID!) {
        result: blockUser(userId: $userId) { ok userId }
      }
    `),
    body: z.strictObject({ userId: id }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/blocks/:userId',
    response: z.object({ ok: z.literal(true), userId: z.string() }),
    errors: ['agents_cannot_block'],
    operation: graphql(`
      mutation UnblockUser($userId: ID!) {
        result: unblockUser(userId: $userId) { ok userId }
      }
    `),
    variables: ({ params }) => ({ userId: params.userId }),
    respond: r => r,
  }),
  // Dashboard routes (docs/api.md §4.2): the dashboard session cookie only (ctx.dashboardUser).
  storedOperation({
    method: 'GET',
    path: '/v1/me/invitations',
    response: z.object({
      invitations: z.array(invitationOut.extend({ appId: z.string(), appName: z.string(), env: z.string() })),
    }),
    errors: [],
    credential: 'dashboard',
    operation: graphql(`
      query MyInvitationsAcrossApps {
        result: myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }
      }
    `),
    variables: () => ({}),
    respond: invitations => ({ invitations }),
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/me/wallet',
    response: z.object({
      balanceUsd: z.string().describe('Exact decimal string'),
      entries: z.array(
        z.object({
          id: z.string(),
          kind: z.string().describe('welcome_credit, developer_credit, credit, storage, or charge:<operation>'),
          amountUsd: z.string(),
          appId: z.string().nullable(),
          env: z.string().nullable(),
          clientId: z.string().nullable(),
          actorId: z.string().nullable(),
          quantity: z.number().nullable(),
          createdAt: timestamp,
        }),
      ),
    }),
    errors: [],
    credential: 'dashboard',
    operation: graphql(`
      query MyWallet {
        result: myWallet { balanceUsd entries { id kind amountUsd appId env clientId actorId quantity createdAt } }
      }
    `),
    variables: () => ({}),
    respond: r => r,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/dashboard/apps/:appId/resources/:resourceId',
    response: okOut,
    errors: ['owner_only', 'reserved_resource', 'resource_not_found'],
    credential: 'dashboard',
    operation: graphql(`
      mutation DeleteResourceAsOwner($appId: ID!, $resourceId: ID!) {
        result: deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }
      }
    `),
    variables: ({ params }) => ({ appId: params.appId, resourceId: params.resourceId }),
    respond: ok,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/me',
    response: z.object({
      ok: z.literal(true),
      transferred: z.array(z.object({ resourceId: z.string(), ownerId: z.string() })),
      deleted: z.array(z.string()),
    }),
    errors: ['confirmation_required', 'agents_cannot_delete_accounts', 'dashboard_session_required', 'conflict'],
    credential: 'dashboard',
    operation: graphql(`
      mutation DeleteMyAccount($confirm: String!) {
        result: deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }
      }
    `),
    // A missing or wrong phrase is the service's 400 confirmation_required, which says what to send.
    body: z.strictObject({ confirm: z.string({ message: 'must be the string "delete my account"' }).max(100).optional() }),
    variables: ({ body }) => ({ confirm: body.confirm ?? '' }),
    respond: r => r,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/db/query',
    response: dbAnswerOut,
    errors: DB_ERRORS,
    operation: graphql(`
      mutation DbQuery($input: DbOperationInput!) {
        result: dbQuery(input: $input) { ...DbResultFields }
      }
    `),
    body: dbOperation,
    variables: ({ body }) => ({ input: body }),
    respond: dbAnswer,
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/db/batch',
    response: z.object({ results: z.array(dbAnswerOut) }),
    errors: DB_ERRORS,
    operation: graphql(`
      mutation DbBatch($operations: [DbOperationInput!]!) {
        result: dbBatch(operations: $operations) { ...DbResultFields }
      }
    `),
    body: z.strictObject({ operations: z.array(dbOperation, { message: 'is required: a list of operations' }) }),
    variables: ({ body }) => body,
    respond: results => ({ results: results.map(dbAnswer) }),
  }),
  storedOperation({
    method: 'GET',
    path: '/dev/apps',
    credential: 'developer',
    response: z.object({ apps: z.array(appOut) }),
    errors: [],
    operation: graphql(`
      query Apps {
        result: apps { id name origins clientIds environments createdAt }
      }
    `),
    variables: () => ({}),
    respond: apps => ({ apps }),
  }),
  storedOperation({
    method: 'POST',
    path: '/dev/apps',
    credential: 'developer',
    response: appOut,
    errors: ['invalid_redirect_uri', 'origin_reserved', 'origin_taken'],
    operation: graphql(`
      mutation CreateApp($input: CreateAppInput!) {
        result: createApp(input: $input) { id name origins clientIds environments createdAt }
      }
    `),
    body: z.strictObject({
      name: z.string({ message: 'is required and must be a string' }),
      origins: z.array(z.string()).optional(),
      redirectUris: z.array(z.string()).optional(),
    }),
    variables: ({ body }) => ({ input: body }),
    respond: app => app,
  }),
  storedOperation({
    method: 'GET',
    path: '/dev/budgets',
    credential: 'developer',
    response: z.object({
      period: z.string().describe('YYYY-MM, UTC'),
      walletUsd: z.string(),
      apps: z.array(
        z.object({
          appId: z.string(),
          name: z.string(),
          envs: z.array(z.object({ env: z.string(), limitUsd: z.string(), spentUsd: z.string() })),
          users: z.array(z.object({ clientId: z.string().nullable(), spentUsd: z.string() })),
        }),
      ),
    }),
    errors: ['app_not_found'],
    operation: graphql(`
      query Budgets($appId: ID) {
        result: budgets(appId: $appId) { period walletUsd apps { appId name envs { env limitUsd spentUsd } users { clientId spentUsd } } }
      }
    `),
    query: z.strictObject({ appId: z.string().optional() }),
    variables: ({ query }) => ({ appId: query.appId }),
    respond: b => b,
  }),
  storedOperation({
    method: 'PUT',
    path: '/dev/apps/:appId/budgets/:env',
    credential: 'developer',
    response: z.object({ appId: z.string(), env: z.string(), limitUsd: z.string() }),
    errors: ['app_not_found', 'prod_not_allowed'],
    operation: graphql(`
      mutation SetEnvBudget($appId: ID!, $env: String!, $usd: String!) {
        result: setEnvBudget(appId: $appId, env: $env, usd: $usd) { appId env limitUsd }
      }
    `),
    body: z.strictObject({ usd: z.union([z.string(), z.number()]).transform(String) }),
    variables: ({ params, body }) => ({ appId: params.appId, env: params.env, usd: body.usd }),
    respond: b => b,
  }),
  storedOperation({
    method: 'PUT',
    path: '/dev/apps/:appId/deployments/:env',
    credential: 'developer',
    response: z.object({
      deploymentId: z.string(),
      appId: z.string(),
      env: z.string(),
      version: z.number().int(),
      resourceTypes: z.array(z.string()),
      tables: z.array(z.string()),
      buckets: z.array(z.string()),
    }),
    errors: ['app_not_found', 'invalid_schema', 'schema_drops_data'],
    operation: graphql(`
      mutation Deploy($appId: ID!, $env: String!, $schema: JSON!) {
        result: deploy(appId: $appId, env: $env, schema: $schema) { deploymentId appId env version resourceTypes tables buckets }
      }
    `),
    body: z.strictObject({ schema: z.record(z.string(), z.unknown(), { message: 'is required: the app schema IR object' }) }),
    variables: ({ params, body }) => ({ appId: params.appId, env: params.env, schema: body.schema }),
    respond: d => d,
  }),
  storedOperation({
    method: 'POST',
    path: '/dev/apps/:appId/test-users',
    credential: 'developer',
    response: z.object({ user_id: z.string(), token: z.string(), expires_at: timestamp, payer: z.string(), env: z.string() }),
    errors: ['app_not_found', 'env_not_deployed', 'prod_not_allowed'],
    operation: graphql(`
      mutation CreateTestUser($appId: ID!, $name: String!, $env: String!) {
        result: createTestUser(appId: $appId, name: $name, env: $env) { userId token expiresAt payer env }
      }
    `),
    body: z.strictObject({
      name: z.string({ message: 'is required and must be a string' }),
      env: z.string({ message: 'is required (for example "dev"); test users are pinned to one environment' }),
    }),
    variables: ({ params, body }) => ({ appId: params.appId, ...body }),
    respond: r => ({ user_id: r.userId, token: r.token, expires_at: r.expiresAt, payer: r.payer, env: r.env }),
  }),
];
