/**
 * The REST shims: each row maps a spec path to a stored GraphQL operation, how path, query and
 * body become variables, and how the result becomes the spec's response body. Adding a route is
 * adding a row. Every operation selects its root field as `result`.
 */
import { z } from 'zod';
import { ROLES } from '../domain/roles.js';
import { VISIBILITY_NAMES } from '../domain/visibility.js';

export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  operation: string;
  /** Validates the JSON body; routes without one accept only an empty body. */
  body?: z.ZodType<Record<string, unknown>>;
  query?: z.ZodType<Record<string, unknown>>;
  variables: (input: RouteInput) => Record<string, unknown>;
  respond: (result: any) => unknown;
}

const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });
const id = z.string({ message: 'must be a string' }).min(1, 'must not be empty');
const optionalUser = z.strictObject({ userId: id.optional() });
const ok = () => ({ ok: true });
const okState = (r: { state: string }) => ({ ok: true, state: r.state });

const RESOURCE = 'id type name visibility discoverable memberCount currentMember { role state }';
/** Spec 2.2: the view has no createdAt; currentMember only where the service set one. */
const resourceView = (r: any) => {
  const { createdAt: _createdAt, currentMember, ...rest } = r;
  return currentMember ? { ...rest, currentMember } : rest;
};
const browseRow = (r: any) => ({ id: r.id, type: r.type, name: r.name, memberCount: r.memberCount, createdAt: r.createdAt });

const transition = (field: string, args: string, decl: string) =>
  `mutation(${decl}) { result: ${field}(${args}) { ok resourceId state role } }`;

export const routes: Route[] = [
  {
    method: 'POST',
    path: '/v1/resources',
    operation: `mutation($input: CreateResourceInput!) { result: createResource(input: $input) { ${RESOURCE} } }`,
    body: z.strictObject({
      type: z.string({ message: 'is required and must be a string' }),
      name: z.string({ message: 'is required and must be a string' }),
      visibility: z.enum(VISIBILITY_NAMES, { message: `must be one of ${VISIBILITY_NAMES.join(', ')}` }).optional(),
    }),
    variables: ({ body }) => ({ input: body }),
    respond: resourceView,
  },
  {
    method: 'GET',
    path: '/v1/resources',
    operation: `query($type: String) { result: resources(type: $type) { ${RESOURCE} } }`,
    query: z.object({ type: z.string().optional() }),
    variables: ({ query }) => query,
    respond: (rows: any[]) => ({ resources: rows.map(resourceView) }),
  },
  {
    method: 'GET',
    path: '/v1/resources/browse',
    operation: `query($type: String, $query: String, $limit: Int, $cursor: String) {
      result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) { resources { id type name memberCount createdAt } nextCursor } }`,
    query: z.object({
      type: z.string().optional(),
      query: z.string().max(200, 'must be at most 200 characters').optional(),
      limit: z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
      cursor: z.string().optional(),
    }),
    variables: ({ query }) => query,
    respond: (page: any) => ({ resources: page.resources.map(browseRow), nextCursor: page.nextCursor }),
  },
  {
    method: 'GET',
    path: '/v1/resources/static',
    operation: `query($type: String!, $slug: String!) { result: staticResource(type: $type, slug: $slug) { ${RESOURCE} } }`,
    query: z.object({ type: z.string({ message: 'is required' }).min(1), slug: z.string({ message: 'is required' }).min(1) }),
    variables: ({ query }) => query,
    respond: resourceView,
  },
  {
    method: 'GET',
    path: '/v1/resources/invitations',
    operation: `query($type: String) { result: invitations(type: $type) { resourceId type name role invitedBy expiresAt } }`,
    query: z.object({ type: z.string().optional() }),
    variables: ({ query }) => query,
    respond: (rows: unknown[]) => ({ invitations: rows }),
  },
  {
    method: 'GET',
    path: '/v1/resources/:id',
    operation: `query($id: ID!) { result: resource(id: $id) { ${RESOURCE} } }`,
    variables: ({ params }) => ({ id: params.id }),
    respond: resourceView,
  },
  {
    method: 'GET',
    path: '/v1/resources/:id/members',
    operation: `query($id: ID!) { result: members(resourceId: $id) { userId role state kind ownerId ownerHandle ownerDisplayName } }`,
    variables: ({ params }) => ({ id: params.id }),
    respond: (rows: unknown[]) => ({ members: rows }),
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/invite',
    operation: transition('invite', 'resourceId: $id, userId: $userId, role: $role', '$id: ID!, $userId: ID!, $role: Role'),
    body: z.strictObject({ userId: id, role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/invite-link',
    operation: `mutation($id: ID!, $role: Role) { result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt } }`,
    body: z.strictObject({ role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: (link: unknown) => link,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/request',
    operation: transition('requestAccess', 'resourceId: $id, role: $role', '$id: ID!, $role: Role'),
    body: z.strictObject({ role: role.optional() }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/accept',
    operation: transition('accept', 'resourceId: $id, userId: $userId', '$id: ID!, $userId: ID'),
    body: optionalUser,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: okState,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/reject',
    operation: transition('reject', 'resourceId: $id, userId: $userId', '$id: ID!, $userId: ID'),
    body: optionalUser,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: ok,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/join',
    operation: transition('join', 'resourceId: $id', '$id: ID!'),
    variables: ({ params }) => ({ id: params.id }),
    respond: okState,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/leave',
    operation: transition('leave', 'resourceId: $id', '$id: ID!'),
    variables: ({ params }) => ({ id: params.id }),
    respond: ok,
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/setRole',
    operation: transition('setRole', 'resourceId: $id, userId: $userId, role: $role', '$id: ID!, $userId: ID!, $role: Role!'),
    body: z.strictObject({ userId: id, role }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: (r: { role: string }) => ({ ok: true, role: r.role }),
  },
  {
    method: 'POST',
    path: '/v1/resources/:id/remove',
    operation: transition('removeMember', 'resourceId: $id, userId: $userId', '$id: ID!, $userId: ID!'),
    body: z.strictObject({ userId: id }),
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    respond: ok,
  },
  {
    method: 'POST',
    path: '/v1/invite-links/claim',
    operation: `mutation($code: String!) { result: claimInviteLink(code: $code) { ok resourceId state role } }`,
    body: z.strictObject({ code: z.string({ message: 'is required and must be a string' }).min(1, 'must not be empty') }),
    variables: ({ body }) => body,
    respond: (r: unknown) => r,
  },
  {
    method: 'POST',
    path: '/v1/agents',
    operation: `mutation($name: String!) { result: createAgent(name: $name) { id name ownerId token } }`,
    body: z.strictObject({ name: z.string({ message: 'is required and must be a string' }) }),
    variables: ({ body }) => body,
    respond: (r: unknown) => r,
  },
  {
    method: 'POST',
    path: '/v1/blocks',
    operation: `mutation($userId: ID!) { result: blockUser(userId: $userId) { ok userId } }`,
    body: z.strictObject({ userId: id }),
    variables: ({ body }) => body,
    respond: (r: unknown) => r,
  },
  {
    method: 'DELETE',
    path: '/v1/blocks/:userId',
    operation: `mutation($userId: ID!) { result: unblockUser(userId: $userId) { ok userId } }`,
    variables: ({ params }) => params,
    respond: (r: unknown) => r,
  },
  {
    method: 'GET',
    path: '/dev/apps',
    operation: `query { result: apps { id name origins clientIds environments createdAt } }`,
    variables: () => ({}),
    respond: (apps: unknown[]) => ({ apps }),
  },
  {
    method: 'POST',
    path: '/dev/apps',
    operation: `mutation($input: CreateAppInput!) { result: createApp(input: $input) { id name origins clientIds environments createdAt } }`,
    body: z.strictObject({
      name: z.string({ message: 'is required and must be a string' }),
      origins: z.array(z.string()).optional(),
      redirectUris: z.array(z.string()).optional(),
    }),
    variables: ({ body }) => ({ input: body }),
    respond: (app: unknown) => app,
  },
  {
    method: 'PUT',
    path: '/dev/apps/:appId/deployments/:env',
    operation: `mutation($appId: ID!, $env: String!, $schema: JSON!) {
      result: deploy(appId: $appId, env: $env, schema: $schema) { deploymentId appId env version resourceTypes tables } }`,
    body: z.strictObject({ schema: z.record(z.string(), z.unknown(), { message: 'is required: the app schema IR object' }) }),
    variables: ({ params, body }) => ({ ...params, schema: body.schema }),
    respond: (d: unknown) => d,
  },
  {
    method: 'POST',
    path: '/dev/apps/:appId/test-users',
    operation: `mutation($appId: ID!, $name: String!, $env: String!) {
      result: createTestUser(appId: $appId, name: $name, env: $env) { userId token expiresAt payer env } }`,
    body: z.strictObject({
      name: z.string({ message: 'is required and must be a string' }),
      env: z.string({ message: 'is required (for example "dev"); test users are pinned to one environment' }),
    }),
    variables: ({ params, body }) => ({ ...params, ...body }),
    respond: (r: any) => ({ user_id: r.userId, token: r.token, expires_at: r.expiresAt, payer: r.payer, env: r.env }),
  },
];
