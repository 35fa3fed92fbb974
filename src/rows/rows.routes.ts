/**
 * The row store (docs/api.md §11): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import { graphql } from '../graphql-client/generated/index.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import { DB_ERRORS, dbAnswer, dbAnswerOut, dbOperation } from '../http/rest-shapes.js';

export const rowsEndpoints: StoredOperationEndpoint[] = [
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
];
