/**
 * Budgets and the wallet (docs/api.md §3, §4.2, §14): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import { graphql } from '../graphql-client/generated/index.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import { timestamp } from '../http/rest-shapes.js';

export const billingEndpoints: StoredOperationEndpoint[] = [
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
];
