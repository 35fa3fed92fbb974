/**
 * How errors leave the server: every thrown value is classified once (`describeError`) and written
 * by one function per transport: `restError` (REST, gateway and refusals before routing) and
 * `maskError` (GraphQL `extensions`, Yoga's hook; `graphqlErrorResponse` for a GraphQL request
 * refused before Yoga saw it). AppErrors keep their code and status; anything unexpected is
 * logged with its stack and masked, with the request id the client can quote.
 */
import { GraphQLError, type GraphQLErrorOptions } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ZodError } from 'zod';
import { BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from '../db/busy.js';
import { isOutcomeUnknown } from '../db/outcome.js';
import { sqlStateOf } from '../db/sql-tx.js';
import { AppError, type ErrorCode, fail, shown, zodToAppError } from '../errors.js';
import { statusOf } from '../core/error-catalog.js';
import { Prisma } from '../generated/prisma/client.js';
import { type HeaderValues, json } from './responses.js';
import { currentRequestId, logger } from '../lib/logger.js';

export interface ErrorShape {
  code: string;
  status: number;
  message: string;
  details?: Record<string, unknown>;
  /** HTTP headers a REST answer carries (`retry-after` on 503 busy). */
  headers?: Record<string, string>;
}

/** A catalog code at its status, for a failure classified here rather than thrown as an AppError. */
const coded = (code: ErrorCode, message: string): ErrorShape => ({ code, status: statusOf(code), message });

/** An unexpected failure: logged with its stack and the request id, which the client gets too. */
function internal(error: unknown): ErrorShape {
  logger.error({ err: error }, 'unexpected error');
  const requestId = currentRequestId();
  return {
    ...coded('internal', `Unexpected error. It has been logged${requestId ? ` under request id ${requestId}` : ''}.`),
    ...(requestId ? { details: { requestId } } : {}),
  };
}

function isClientAbort(error: unknown): boolean {
  return error instanceof Error && error.message === 'aborted' && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
}

/** Classifies any thrown value (an original error or a GraphQLError around one). */
export function describeError(error: unknown): ErrorShape {
  const original = error instanceof GraphQLError ? (error.originalError ?? null) : error;
  // A variable its type refuses: graphql-js (the subscription path) wraps the scalar's or input
  // type's own GraphQLError in one naming the variable; graphql-jit (queries) does not wrap. The
  // request's fault either way, answered as a query answers it.
  if (error instanceof GraphQLError && original instanceof GraphQLError && !original.originalError) {
    return coded('invalid_argument', error.message);
  }
  if (original instanceof AppError) {
    const { code, status, message, details } = original;
    const retryAfter = details?.retryAfter;
    return { code, status, message, details, ...(typeof retryAfter === 'number' ? { headers: { 'retry-after': String(retryAfter) } } : {}) };
  }
  // The database had no capacity within its waits (src/db/busy.ts): overload, not a bug.
  if (isDatabaseBusy(original)) {
    return describeError(
      fail('busy', 'The service is busy (its database is saturated): the request did not complete. Retry after a moment.', {
        retryAfter: BUSY_RETRY_AFTER_SECONDS,
      }),
    );
  }
  // A write's answer lost with its connection (src/db/outcome.ts): it may have committed, so the caller must not take it for undone.
  if (isOutcomeUnknown(original)) {
    logger.warn({ err: original.lost.message }, 'a write was sent and its database connection lost before the answer');
    return describeError(
      fail(
        'outcome_unknown',
        'The database connection was lost before the write was answered: it may or may not have been applied. Read before retrying it.',
      ),
    );
  }
  if (original instanceof ZodError) return describeError(zodToAppError(original));
  // The client closed the connection while its body was read (node's IncomingMessage 'aborted'):
  // its going away, not a server fault, and nobody reads the answer.
  if (isClientAbort(original)) return coded('request_aborted', 'The client closed the connection before its body arrived.');
  // A unique key taken by a concurrent commit: Prisma's own P2002, or 23505 from a raw statement.
  if ((original instanceof Prisma.PrismaClientKnownRequestError && original.code === 'P2002') || sqlStateOf(original) === '23505') {
    return coded('conflict', 'A concurrent request changed the same record; retry.');
  }
  // SQLSTATE class 22, data exception: the database refused a value the request carried. A NUL
  // (22021) is refused at the edge (src/http/body.ts) and services validate what they store, so
  // this is the net under them: a value that slipped past is still bad input, not a server fault.
  const sqlState = sqlStateOf(original);
  if (sqlState?.startsWith('22')) {
    if (sqlState === '22021') return describeError(fail('invalid_argument', 'Text must not contain NUL bytes.'));
    const said = databaseMessageOf(original);
    return describeError(fail('invalid_argument', `The database refused a value of this request${said ? ` (${shown(said, 200)})` : ''}.`));
  }
  // Already classified (maskError's output, read back by the REST shim): keep it, details and all.
  if (error instanceof GraphQLError && typeof error.extensions?.code === 'string' && typeof error.extensions.status === 'number') {
    const details = error.extensions.details as Record<string, unknown> | undefined;
    const retryAfter = details?.retryAfter;
    return {
      code: error.extensions.code,
      status: error.extensions.status,
      message: error.message,
      ...(details ? { details } : {}),
      ...(typeof retryAfter === 'number' ? { headers: { 'retry-after': String(retryAfter) } } : {}),
    };
  }
  // graphql-js' own refusal, caused by the request: a parse, validation or variable-coercion error.
  // Coercion nests the scalar's GraphQLError as the cause (subscriptions get it so), never one of ours.
  if (error instanceof GraphQLError && isGraphqlRefusal(error)) {
    return coded('invalid_argument', error.message);
  }
  return internal(original ?? error);
}

/** The database's own words for a refused value (PostgreSQL's message, through either driver). */
function databaseMessageOf(error: unknown): string | null {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalMessage?: unknown } } } })?.meta?.driverAdapterError?.cause;
  if (typeof cause?.originalMessage === 'string') return cause.originalMessage;
  return error instanceof Error && 'severity' in error ? error.message : null;
}

/** A GraphQLError raised by graphql-js itself: nothing but GraphQLErrors down its chain of causes. */
function isGraphqlRefusal(error: GraphQLError): boolean {
  let cause: unknown = error.originalError;
  while (cause instanceof GraphQLError) cause = cause.originalError;
  return cause === undefined || cause === null;
}

/** Yoga's maskError hook: same classification, carried in extensions. */
export function maskError(error: unknown): Error {
  const shape = describeError(error);
  const graphqlError = error instanceof GraphQLError ? error : null;
  return new GraphQLError(shape.message, {
    nodes: graphqlError?.nodes,
    path: graphqlError?.path,
    extensions: {
      code: shape.code,
      status: shape.status,
      ...(shape.details ? { details: shape.details } : {}),
      // An AppError raised before execution with an HTTP status (the GraphQL limits' refusal at parse
      // time) answers with that status; Yoga would otherwise answer a parse error 200 to application/json.
      ...(graphqlError?.originalError instanceof AppError && graphqlError.extensions?.http ? { http: { status: shape.status } } : {}),
    },
  });
}

/**
 * A GraphQL request refused before execution (limits, NUL bytes, socket caps): the error in GraphQL
 * shape, its AppError kept as `originalError` so `maskError` keeps the code, and the HTTP status
 * carried for Yoga (`spec: false`: also for `Accept: application/json`, not only graphql-response+json).
 */
export function graphqlRefusal(error: unknown, nodes?: GraphQLErrorOptions['nodes']): GraphQLError {
  const { code, status, message } = describeError(error);
  return new GraphQLError(message, {
    nodes,
    originalError: error instanceof Error ? error : undefined,
    extensions: { code, status, http: { status, spec: false } },
  });
}

/** The code of a document graphql-js' validation refuses (an unknown field, a variable of the wrong type): Yoga's, kept for GraphQL clients. */
export const VALIDATION_FAILED = 'GRAPHQL_VALIDATION_FAILED' satisfies ErrorCode;

/**
 * A Yoga plugin: a validation error carries `{ code, status }` like every other error (docs/api.md
 * §8.2). Validation errors are results, not thrown errors, so `maskError` never sees them; the
 * limits' refusals (src/graphql/limits.ts) arrive here already coded and keep their code.
 */
export const useCodedValidationErrors: Plugin = {
  onValidate:
    () =>
    ({ valid, result }) => {
      if (valid) return;
      for (const error of result) {
        const extensions = error.extensions as Record<string, unknown>;
        extensions.code ??= VALIDATION_FAILED;
        extensions.status ??= statusOf(VALIDATION_FAILED);
      }
    },
};

/** The GraphQL error body `{ errors: [...] }` for a request refused before Yoga saw it (guards, CORS). */
export function graphqlErrorResponse(error: unknown): Response {
  const { code, status, message, headers } = describeError(error);
  return json(status, { errors: [{ message, extensions: { code, status } }] }, headers);
}

/** The SQLSTATE behind a Prisma error raised through a driver adapter (PGlite or pg). */
/** The REST error body `{ error, message, ...details }` with the shape's headers (`retry-after`). */
export function restError(error: unknown, headers: HeaderValues = {}): Response {
  const shape = describeError(error);
  return json(shape.status, { error: shape.code, message: shape.message, ...(shape.details ?? {}) }, { ...shape.headers, ...headers });
}
