/**
 * Agents, users, profiles and blocks, and deleting your account (docs/api.md §2.1, §5.6, §12.2): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import { graphql } from '../graphql-client/generated/index.js';
import { fail } from '../errors.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import { id, meOut, profileOut, timestamp } from '../http/rest-shapes.js';

export const principalsEndpoints: StoredOperationEndpoint[] = [
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
    method: 'GET',
    path: '/v1/blocks',
    response: z.object({ blocks: z.array(z.object({ userId: z.string(), createdAt: timestamp })) }),
    errors: ['too_many_results'],
    operation: graphql(`
      query Blocks {
        result: blocks { userId createdAt }
      }
    `),
    variables: () => ({}),
    respond: blocks => ({ blocks }),
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
];
