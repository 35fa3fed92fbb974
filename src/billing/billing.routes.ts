/**
 * Budgets and the wallet (docs/api.md §3, §4.2, §14): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import { graphql } from '../graphql-client/generated/index.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import { timestamp } from '../http/rest-shapes.js';
import { SPEND_DAYS } from './daily-spend.rules.js';

const spendLine = { readsUsd: z.string(), writesUsd: z.string(), transferUsd: z.string(), storageUsd: z.string(), totalUsd: z.string() };
/** A spend-per-day answer (docs/api.md §14.4). */
const dailySpend = z.object({
  appId: z.string(),
  env: z.string().nullable(),
  since: z.string().describe('YYYY-MM-DD, UTC'),
  until: z.string().describe('YYYY-MM-DD, UTC: today'),
  days: z.array(z.object({ day: z.string(), ...spendLine })),
  total: z.object(spendLine),
});
const spendDays = z.coerce
  .number({ message: 'must be a number' })
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(SPEND_DAYS.max, `must be at most ${SPEND_DAYS.max}`)
  .optional();

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
          calls: z.number().nullable(),
          createdAt: timestamp,
        }),
      ),
    }),
    errors: [],
    credential: 'dashboard',
    operation: graphql(`
      query MyWallet {
        result: myWallet { balanceUsd entries { id kind amountUsd appId env clientId actorId quantity calls createdAt } }
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
  storedOperation({
    method: 'GET',
    path: '/dev/apps/:appId/environments/:env/spend',
    credential: 'developer',
    response: dailySpend,
    errors: ['app_not_found'],
    operation: graphql(`
      query EnvSpendByDay($appId: ID!, $env: String!, $days: Int) {
        result: envSpendByDay(appId: $appId, env: $env, days: $days) {
          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }
        }
      }
    `),
    query: z.strictObject({ days: spendDays }),
    variables: ({ params, query }) => ({ appId: params.appId, env: params.env, days: query.days }),
    respond: r => r,
  }),
  storedOperation({
    method: 'GET',
    path: '/dev/apps/:appId/users/spend',
    credential: 'developer',
    response: dailySpend,
    errors: ['app_not_found'],
    operation: graphql(`
      query UsersSpendByDay($appId: ID!, $env: String, $days: Int) {
        result: usersSpendByDay(appId: $appId, env: $env, days: $days) {
          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }
        }
      }
    `),
    query: z.strictObject({ env: z.string().optional(), days: spendDays }),
    variables: ({ params, query }) => ({ appId: params.appId, env: query.env, days: query.days }),
    respond: r => r,
  }),
];
