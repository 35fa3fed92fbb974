/**
 * How errors leave the GraphQL layer. AppErrors (and argument validation failures) keep their
 * code and status in `extensions`; anything unexpected is logged and masked.
 */
import { GraphQLError } from 'graphql';
import { ZodError } from 'zod';
import { AppError, zodToAppError } from '../errors.js';
import { Prisma } from '../generated/prisma/client.js';

export interface ErrorShape {
  code: string;
  status: number;
  message: string;
  details?: Record<string, unknown>;
}

const INTERNAL: ErrorShape = { code: 'internal', status: 500, message: 'Unexpected error. It has been logged.' };

/** Classifies any thrown value (an original error or a GraphQLError around one). */
export function describeError(error: unknown): ErrorShape {
  const original = error instanceof GraphQLError ? (error.originalError ?? null) : error;
  if (original instanceof AppError) return { code: original.code, status: original.status, message: original.message, details: original.details };
  if (original instanceof ZodError) return describeError(zodToAppError(original));
  if (original instanceof Prisma.PrismaClientKnownRequestError && original.code === 'P2002') {
    return { code: 'conflict', status: 409, message: 'A concurrent request changed the same record; retry.' };
  }
  // No original error: a GraphQL parse, validation or variable-coercion error, caused by the request.
  if (error instanceof GraphQLError && !error.originalError) {
    return { code: 'invalid_argument', status: 400, message: error.message };
  }
  if (error instanceof GraphQLError && error.extensions?.code && typeof error.extensions.code === 'string') {
    return { code: error.extensions.code, status: Number(error.extensions.status ?? 400), message: error.message };
  }
  console.error('[gatehouse] unexpected error', original ?? error);
  return INTERNAL;
}

/** Yoga's maskError hook: same classification, carried in extensions. */
export function maskError(error: unknown): Error {
  const shape = describeError(error);
  const graphqlError = error instanceof GraphQLError ? error : null;
  return new GraphQLError(shape.message, {
    nodes: graphqlError?.nodes,
    path: graphqlError?.path,
    extensions: { code: shape.code, status: shape.status, ...(shape.details ? { details: shape.details } : {}) },
  });
}
