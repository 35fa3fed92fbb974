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
import { ROLES } from '../domain/roles.js';
import { VISIBILITY_NAMES } from '../domain/visibility.js';
import { graphql } from '../graphql-client/generated/index.js';
import type { DbResultFieldsFragment, ResourceFieldsFragment, TypedDocumentString } from '../graphql-client/generated/graphql.js';
import { DB_OPS, DB_SCOPE_KINDS } from '../services/rows-input.js';

export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The GraphQL operation text (with its fragments), compiled once at start. */
  operation: string;
  /** Validates the JSON body; routes without one accept only an empty body. */
  body?: z.ZodType<Record<string, unknown>>;
  query?: z.ZodType<Record<string, unknown>>;
  variables: (input: RouteInput) => Record<string, unknown>;
  respond: (result: any) => unknown;
  /**
   * `dashboard`: a dashboard surface (docs/api.md §4.2). Only the dashboard session cookie counts
   * (the resolvers call ctx.dashboardUser()); no app credential is resolved, and state changes
   * always need the CSRF header.
   */
  credential?: 'dashboard';
}

/**
 * One typed row: `body`/`query` schemas type the input `variables` receives (the shim validates
 * with these same schemas first), the operation types what `variables` must return and what
 * `respond` is given.
 */
function route<
  R extends { result: unknown },
  V,
  B extends Record<string, unknown> = Record<string, never>,
  Q extends Record<string, unknown> = Record<string, never>,
>(row: {
  method: Route['method'];
  path: string;
  operation: TypedDocumentString<R, V>;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  variables: (input: { params: Record<string, string>; query: Q; body: B }) => V;
  respond: (result: R['result']) => unknown;
  credential?: Route['credential'];
}): Route {
  const operation = row.operation.toString();
  // graphql() answers {} for a text codegen has not seen: fail at load, not on the first request.
  if (typeof operation !== 'string' || !operation.includes('result:')) {
    throw new Error(`REST route ${row.method} ${row.path}: its operation is not in the generated documents; run \`npm run codegen\`.`);
  }
  return { ...row, operation } as Route;
}

const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });
const id = z.string({ message: 'must be a string' }).min(1, 'must not be empty');
const optionalUser = z.strictObject({ userId: id.optional() });
/** Length and characters are the room service's (docs/api.md §10.2); here only the type. */
const roomBody = z.strictObject({ name: z.string({ message: 'is required and must be a string' }) });
const ok = () => ({ ok: true });
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
});
/** select: the page; insert, update, delete: the rows as written; link, unlink, moveRoom: ok. */
const dbAnswer = (r: DbResultFieldsFragment) =>
  r.op === 'select' ? { rows: r.rows ?? [], nextCursor: r.nextCursor ?? null } : r.rows ? { rows: r.rows } : { ok: true };
const okState = (r: { state?: string | null }) => ({ ok: true, state: r.state });

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
    currentGrant
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

export const routes: Route[] = [
  route({
    method: 'POST',
    path: '/v1/resources',
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
  route({
    method: 'GET',
    path: '/v1/resources',
    operation: graphql(`
      query Resources($type: String) {
        result: resources(type: $type) { ...ResourceFields }
      }
    `),
    query: z.object({ type: z.string().optional() }),
    variables: ({ query }) => query,
    respond: rows => ({ resources: rows.map(resourceView) }),
  }),
  route({
    method: 'GET',
    path: '/v1/resources/browse',
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
      limit: z.coerce
        .number({ message: 'must be a number' })
        .int('must be an integer')
        .min(1, 'must be at least 1')
        .max(100, 'must be at most 100')
        .optional(),
      cursor: z.string().optional(),
    }),
    variables: ({ query }) => query,
    respond: page => ({
      resources: page.resources.map(r => ({ id: r.id, type: r.type, name: r.name, memberCount: r.memberCount, createdAt: r.createdAt })),
      nextCursor: page.nextCursor,
    }),
  }),
  route({
    method: 'GET',
    path: '/v1/resources/static',
    operation: graphql(`
      query StaticResource($type: String!, $slug: String!) {
        result: staticResource(type: $type, slug: $slug) { ...ResourceFields }
      }
    `),
    query: z.object({ type: z.string({ message: 'is required' }).min(1), slug: z.string({ message: 'is required' }).min(1) }),
    variables: ({ query }) => query,
    respond: resourceView,
  }),
  route({
    method: 'GET',
    path: '/v1/resources/invitations',
    operation: graphql(`
      query Invitations($type: String) {
        result: invitations(type: $type) { resourceId type name role invitedBy expiresAt }
      }
    `),
    query: z.object({ type: z.string().optional() }),
    variables: ({ query }) => query,
    respond: rows => ({ invitations: rows }),
  }),
  route({
    method: 'GET',
    path: '/v1/resources/grants',
    operation: graphql(`
      query MyRoomGrants {
        result: myRoomGrants { resourceId roomId role }
      }
    `),
    variables: () => ({}),
    respond: grants => ({ grants }),
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/rooms',
    operation: graphql(`
      mutation CreateRoom($id: ID!, $name: String!) {
        result: createRoom(resourceId: $id, name: $name) { ...RoomFields }
      }
    `),
    body: roomBody,
    variables: ({ params, body }) => ({ id: params.id, name: body.name }),
    respond: room => room,
  }),
  route({
    method: 'GET',
    path: '/v1/resources/:id/rooms',
    operation: graphql(`
      query Rooms($id: ID!) {
        result: rooms(resourceId: $id) { ...RoomFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: rooms => ({ rooms }),
  }),
  route({
    method: 'GET',
    path: '/v1/resources/:id/rooms/:roomId',
    operation: graphql(`
      query Room($id: ID!, $roomId: ID!) {
        result: room(resourceId: $id, roomId: $roomId) { ...RoomFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: room => room,
  }),
  route({
    method: 'PATCH',
    path: '/v1/resources/:id/rooms/:roomId',
    operation: graphql(`
      mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {
        result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...RoomFields }
      }
    `),
    body: roomBody,
    variables: ({ params, body }) => ({ id: params.id, roomId: params.roomId, name: body.name }),
    respond: room => room,
  }),
  route({
    method: 'DELETE',
    path: '/v1/resources/:id/rooms/:roomId',
    operation: graphql(`
      mutation DeleteRoom($id: ID!, $roomId: ID!) {
        result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: ok,
  }),
  route({
    method: 'GET',
    path: '/v1/resources/:id/rooms/:roomId/grants',
    operation: graphql(`
      query RoomGrants($id: ID!, $roomId: ID!) {
        result: roomGrants(resourceId: $id, roomId: $roomId) { userId role }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: grants => ({ grants }),
  }),
  route({
    method: 'PUT',
    path: '/v1/resources/:id/rooms/:roomId/grants/:principal',
    operation: graphql(`
      mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {
        result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId userId role }
      }
    `),
    body: z.strictObject({ role }),
    variables: ({ params, body }) => ({ id: params.id, roomId: params.roomId, userId: params.principal, role: body.role }),
    respond: r => r,
  }),
  route({
    method: 'DELETE',
    path: '/v1/resources/:id/rooms/:roomId/grants/:principal',
    operation: graphql(`
      mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {
        result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId, userId: params.principal }),
    respond: ok,
  }),
  route({
    method: 'GET',
    path: '/v1/resources/:id',
    operation: graphql(`
      query Resource($id: ID!) {
        result: resource(id: $id) { ...ResourceFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: resourceView,
  }),
  route({
    method: 'GET',
    path: '/v1/resources/:id/members',
    operation: graphql(`
      query Members($id: ID!) {
        result: members(resourceId: $id) { userId role state kind ownerId ownerHandle ownerDisplayName }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: rows => ({ members: rows }),
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/invite',
    operation: graphql(`
      mutation Invite($id: ID!, $userId: ID!, $role: Role) {
        result: invite(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ userId: id, role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/invite-link',
    operation: graphql(`
      mutation CreateInviteLink($id: ID!, $role: Role) {
        result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }
      }
    `),
    body: z.strictObject({ role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: link => link,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/request',
    operation: graphql(`
      mutation RequestAccess($id: ID!, $role: Role) {
        result: requestAccess(resourceId: $id, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/accept',
    operation: graphql(`
      mutation Accept($id: ID!, $userId: ID) {
        result: accept(resourceId: $id, userId: $userId) { ...TransitionFields }
      }
    `),
    body: optionalUser,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/reject',
    operation: graphql(`
      mutation Reject($id: ID!, $userId: ID) {
        result: reject(resourceId: $id, userId: $userId) { ...TransitionFields }
      }
    `),
    body: optionalUser,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: ok,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/join',
    operation: graphql(`
      mutation Join($id: ID!) {
        result: join(resourceId: $id) { ...TransitionFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: okState,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/leave',
    operation: graphql(`
      mutation Leave($id: ID!) {
        result: leave(resourceId: $id) { ...TransitionFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: ok,
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/setRole',
    operation: graphql(`
      mutation SetRole($id: ID!, $userId: ID!, $role: Role!) {
        result: setRole(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ userId: id, role }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: r => ({ ok: true, role: r.role }),
  }),
  route({
    method: 'POST',
    path: '/v1/resources/:id/remove',
    operation: graphql(`
      mutation RemoveMember($id: ID!, $userId: ID!) {
        result: removeMember(resourceId: $id, userId: $userId) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ userId: id }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: ok,
  }),
  route({
    method: 'POST',
    path: '/v1/invite-links/claim',
    operation: graphql(`
      mutation ClaimInviteLink($code: String!) {
        result: claimInviteLink(code: $code) { ok resourceId state role }
      }
    `),
    body: z.strictObject({ code: z.string({ message: 'is required and must be a string' }).min(1, 'must not be empty') }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
  route({
    method: 'POST',
    path: '/v1/agents',
    operation: graphql(`
      mutation CreateAgent($name: String!) {
        result: createAgent(name: $name) { id name ownerId token }
      }
    `),
    body: z.strictObject({ name: z.string({ message: 'is required and must be a string' }) }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
  route({
    method: 'POST',
    path: '/v1/blocks',
    operation: graphql(`
      mutation BlockUser($userId: ID!) {
        result: blockUser(userId: $userId) { ok userId }
      }
    `),
    body: z.strictObject({ userId: id }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
  route({
    method: 'DELETE',
    path: '/v1/blocks/:userId',
    operation: graphql(`
      mutation UnblockUser($userId: ID!) {
        result: unblockUser(userId: $userId) { ok userId }
      }
    `),
    variables: ({ params }) => ({ userId: params.userId }),
    respond: r => r,
  }),
  // Dashboard routes (docs/api.md §4.2): the dashboard session cookie only (ctx.dashboardUser).
  route({
    method: 'GET',
    path: '/v1/me/invitations',
    credential: 'dashboard',
    operation: graphql(`
      query MyInvitationsAcrossApps {
        result: myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }
      }
    `),
    variables: () => ({}),
    respond: invitations => ({ invitations }),
  }),
  route({
    method: 'GET',
    path: '/v1/me/wallet',
    credential: 'dashboard',
    operation: graphql(`
      query MyWallet {
        result: myWallet { balanceUsd entries { id kind amountUsd createdAt } }
      }
    `),
    variables: () => ({}),
    respond: r => r,
  }),
  route({
    method: 'DELETE',
    path: '/v1/dashboard/apps/:appId/resources/:resourceId',
    credential: 'dashboard',
    operation: graphql(`
      mutation DeleteResourceAsOwner($appId: ID!, $resourceId: ID!) {
        result: deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }
      }
    `),
    variables: ({ params }) => ({ appId: params.appId, resourceId: params.resourceId }),
    respond: ok,
  }),
  route({
    method: 'DELETE',
    path: '/v1/me',
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
  route({
    method: 'POST',
    path: '/v1/db/query',
    operation: graphql(`
      mutation DbQuery($input: DbOperationInput!) {
        result: dbQuery(input: $input) { ...DbResultFields }
      }
    `),
    body: dbOperation,
    variables: ({ body }) => ({ input: body }),
    respond: dbAnswer,
  }),
  route({
    method: 'POST',
    path: '/v1/db/batch',
    operation: graphql(`
      mutation DbBatch($operations: [DbOperationInput!]!) {
        result: dbBatch(operations: $operations) { ...DbResultFields }
      }
    `),
    body: z.strictObject({ operations: z.array(dbOperation, { message: 'is required: a list of operations' }) }),
    variables: ({ body }) => body,
    respond: results => ({ results: results.map(dbAnswer) }),
  }),
  route({
    method: 'GET',
    path: '/dev/apps',
    operation: graphql(`
      query Apps {
        result: apps { id name origins clientIds environments createdAt }
      }
    `),
    variables: () => ({}),
    respond: apps => ({ apps }),
  }),
  route({
    method: 'POST',
    path: '/dev/apps',
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
  route({
    method: 'PUT',
    path: '/dev/apps/:appId/deployments/:env',
    operation: graphql(`
      mutation Deploy($appId: ID!, $env: String!, $schema: JSON!) {
        result: deploy(appId: $appId, env: $env, schema: $schema) { deploymentId appId env version resourceTypes tables }
      }
    `),
    body: z.strictObject({ schema: z.record(z.string(), z.unknown(), { message: 'is required: the app schema IR object' }) }),
    variables: ({ params, body }) => ({ appId: params.appId, env: params.env, schema: body.schema }),
    respond: d => d,
  }),
  route({
    method: 'POST',
    path: '/dev/apps/:appId/test-users',
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
