/**
 * Resources, membership and invite links (docs/api.md §2, §5), and the dashboard's own membership routes (§4.2): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import type { ErrorCode } from '../core/error-catalog.js';
import type { TypedDocumentString } from '../graphql-client/generated/graphql.js';
import { graphql } from '../graphql-client/generated/index.js';
import { LIST_PAGE } from '../core/pages.js';
import { BROWSE_PAGE } from './resources.service.js';
import { VISIBILITY_NAMES } from './visibility.rules.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import {
  id,
  invitationOut,
  ok,
  okOut,
  okState,
  okStateOut,
  optionalUser,
  pageQuery,
  resourceOut,
  resourceView,
  role,
  roleOut,
  stateOut,
  timestamp,
} from '../http/rest-shapes.js';

/**
 * A membership transition (docs/api.md §5): `POST /v1/resources/:id/<verb>`, its operation taking
 * the resource's id as `$id` and the body's fields beside it.
 */
function resourceAction<R extends { result: unknown }, B extends Record<string, unknown> = Record<string, never>, O = unknown>(
  action: string,
  row: {
    operation: TypedDocumentString<R, { id: string } & B>;
    body?: z.ZodType<B>;
    respond: (result: R['result']) => O;
    response: z.ZodType<NoInfer<O>>;
    errors: readonly ErrorCode[];
  },
): StoredOperationEndpoint {
  return storedOperation({
    method: 'POST',
    path: `/v1/resources/:id/${action}`,
    variables: ({ params, body }) => ({ id: params.id, ...body }),
    ...row,
  });
}

export const membershipEndpoints: StoredOperationEndpoint[] = [
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
  resourceAction('invite', {
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
    respond: okState,
  }),
  resourceAction('invite-link', {
    response: z.object({ url: z.string(), role: roleOut, expiresAt: timestamp }),
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'grant_ceiling', 'invite_link_limit'],
    operation: graphql(`
      mutation CreateInviteLink($id: ID!, $role: Role) {
        result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }
      }
    `),
    body: z.strictObject({ role: role.optional() }),
    respond: link => link,
  }),
  resourceAction('request', {
    response: okStateOut,
    errors: ['resource_not_found', 'reserved_type', 'grant_ceiling', 'already_member', 'already_invited', 'pending_request', 'blocked', 'conflict'],
    operation: graphql(`
      mutation RequestAccess($id: ID!, $role: Role) {
        result: requestAccess(resourceId: $id, role: $role) { ...TransitionFields }
      }
    `),
    body: z.strictObject({ role: role.optional() }),
    respond: okState,
  }),
  resourceAction('accept', {
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
    respond: okState,
  }),
  resourceAction('reject', {
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
    respond: ok,
  }),
  resourceAction('join', {
    response: okStateOut,
    errors: ['resource_not_found', 'members_only', 'already_member', 'already_invited', 'pending_request', 'blocked', 'conflict'],
    operation: graphql(`
      mutation Join($id: ID!) {
        result: join(resourceId: $id) { ...TransitionFields }
      }
    `),
    respond: okState,
  }),
  resourceAction('leave', {
    response: okOut,
    errors: ['resource_not_found', 'owner_cannot_leave', 'not_member', 'conflict'],
    operation: graphql(`
      mutation Leave($id: ID!) {
        result: leave(resourceId: $id) { ...TransitionFields }
      }
    `),
    respond: ok,
  }),
  resourceAction('setRole', {
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
    respond: r => ({ ok: true, role: r.role }),
  }),
  resourceAction('remove', {
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
];
