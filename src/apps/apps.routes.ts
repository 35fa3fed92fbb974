/**
 * Developers' apps, deployments and test users (docs/api.md §3): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import type { ErrorCode } from '../core/error-catalog.js';
import { graphql } from '../graphql-client/generated/index.js';
import type { ResetEnvironmentMutationVariables, TypedDocumentString } from '../graphql-client/generated/graphql.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import { appOut, timestamp } from '../http/rest-shapes.js';

/** What a deletion or reset removed (docs/api.md §3.2). */
const removalOut = z.object({
  appId: z.string(),
  environments: z.array(z.string()),
  rows: z.number().int(),
  files: z.number().int(),
  resources: z.number().int(),
  testUsers: z.number().int(),
});

/** `?confirm=prod`: the extra, explicit word a removal touching prod needs. */
const confirmQuery = z.strictObject({ confirm: z.string().optional() });

/** A removal (docs/api.md §3.2): a developer's, `?confirm=prod` when it touches prod, answering what went. */
function removalRoute<R extends { result: z.infer<typeof removalOut> }, V>(route: {
  method: 'DELETE' | 'POST';
  path: string;
  operation: TypedDocumentString<R, V>;
  errors: readonly ErrorCode[];
  variables: (params: Record<string, string>, confirm: string | undefined) => V;
}) {
  return storedOperation({
    ...route,
    credential: 'developer',
    response: removalOut,
    query: confirmQuery,
    variables: ({ params, query }) => route.variables(params, query.confirm),
    respond: (removed): z.infer<typeof removalOut> => removed,
  });
}

/** An environment's deletion or reset: the same variables (its app, its name, the confirmation) and refusals. */
const environmentRemoval = <R extends { result: z.infer<typeof removalOut> }>(
  method: 'DELETE' | 'POST',
  path: string,
  operation: TypedDocumentString<R, ResetEnvironmentMutationVariables>,
) =>
  removalRoute({
    method,
    path,
    operation,
    errors: ['app_not_found', 'env_not_found', 'prod_confirmation_required'],
    variables: (params, confirm) => ({ appId: params.appId, env: params.env, confirm }),
  });

export const appsEndpoints: StoredOperationEndpoint[] = [
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
  storedOperation({
    method: 'GET',
    path: '/dev/apps/:appId/test-users',
    credential: 'developer',
    response: z.object({
      testUsers: z.array(z.object({ userId: z.string(), name: z.string(), createdAt: timestamp, hasLiveTokens: z.boolean() })),
    }),
    errors: ['app_not_found', 'env_not_found', 'invalid_argument'],
    operation: graphql(`
      query TestUsers($appId: ID!, $env: String!) {
        result: testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }
      }
    `),
    query: z.object({ env: z.string({ message: 'is required (for example "dev")' }).min(1) }),
    variables: ({ params, query }) => ({ appId: params.appId, env: query.env }),
    respond: testUsers => ({ testUsers }),
  }),
  storedOperation({
    method: 'DELETE',
    path: '/dev/apps/:appId/origins',
    credential: 'developer',
    response: appOut,
    errors: ['app_not_found', 'invalid_argument'],
    operation: graphql(`
      mutation RemoveAppOrigin($appId: ID!, $origin: String!) {
        result: removeAppOrigin(appId: $appId, origin: $origin) { id name origins clientIds environments createdAt }
      }
    `),
    query: z.object({ origin: z.string({ message: 'is required: scheme://host[:port]' }).min(1) }),
    variables: ({ params, query }) => ({ appId: params.appId, origin: query.origin }),
    respond: app => app,
  }),
  storedOperation({
    method: 'GET',
    path: '/dev/me',
    credential: 'developer',
    response: z.object({ developerId: z.string(), email: z.string() }),
    errors: [],
    operation: graphql(`
      query Developer {
        result: developer { developerId email }
      }
    `),
    variables: () => ({}),
    respond: d => d,
  }),
  storedOperation({
    method: 'GET',
    path: '/dev/apps/:appId/deployments/:env',
    credential: 'developer',
    response: z.object({ appId: z.string(), env: z.string(), version: z.number().int(), schema: z.record(z.string(), z.unknown()) }),
    errors: ['app_not_found', 'env_not_found'],
    operation: graphql(`
      query DeployedSchema($appId: ID!, $env: String!) {
        result: deployedSchema(appId: $appId, env: $env) { appId env version schema }
      }
    `),
    variables: ({ params }) => ({ appId: params.appId, env: params.env }),
    respond: d => ({ ...d, schema: d.schema as Record<string, unknown> }),
  }),
  removalRoute({
    method: 'DELETE',
    path: '/dev/apps/:appId',
    errors: ['app_not_found', 'prod_confirmation_required'],
    operation: graphql(`
      mutation DeleteApp($appId: ID!, $confirm: String) {
        result: deleteApp(appId: $appId, confirm: $confirm) { appId environments rows files resources testUsers }
      }
    `),
    variables: (params, confirm) => ({ appId: params.appId, confirm }),
  }),
  environmentRemoval(
    'DELETE',
    '/dev/apps/:appId/environments/:env',
    graphql(
      `mutation DeleteEnvironment($appId: ID!, $env: String!, $confirm: String) { result: deleteEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }`,
    ),
  ),
  environmentRemoval(
    'POST',
    '/dev/apps/:appId/environments/:env/reset',
    graphql(
      `mutation ResetEnvironment($appId: ID!, $env: String!, $confirm: String) { result: resetEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }`,
    ),
  ),
];
