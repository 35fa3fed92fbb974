import { type CodeWithStatus, type ErrorCode, type StatusOf, statusOf } from './core/error-catalog.js';

export type { CodeWithStatus, ErrorCode, StatusOf } from './core/error-catalog.js';

/**
 * The one error model. Every expected failure is an AppError with a stable `code` from the catalog
 * (src/core/error-catalog.ts, listed in docs/api.md §8.2) and that code's one HTTP status, which the
 * REST shims answer with. GraphQL carries both in `extensions`; anything that is not an AppError is
 * masked and logged. Throw one by name: `throw fail('room_forbidden', 'You hold no grant in this room.')`.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly status: StatusOf<C>,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The error `code` names, at the catalog's status for it. */
export function fail<C extends ErrorCode>(code: C, message: string, details?: Record<string, unknown>): AppError<C> {
  return new AppError(code, statusOf(code), message, details);
}

/** The default message of `unauthenticated`. */
export const AUTHENTICATION_REQUIRED = 'Authentication required: send a bearer token or session cookie.';

// Two helpers predate the catalog and stay while route files still call them; each takes only codes
// the catalog gives its status, so it cannot give a code a second one. New code calls `fail`.
export const badRequest = (code: CodeWithStatus<400>, message: string, details?: Record<string, unknown>) => fail(code, message, details);
export const notFound = (code: CodeWithStatus<404>, message: string) => fail(code, message);

/** A value the caller sent, as a message repeats it: cut past `max` characters (a 3,000-character id is not echoed whole). */
export const shown = (value: string, max = 100) => (value.length > max ? `${value.slice(0, max)}…` : value);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The one way input is parsed: the value `schema` accepts, or a 400 `invalid_argument` naming the
 * field (`where`, e.g. `body` or `input.name`). Services call it too, so they throw AppErrors only.
 */
export function parseInput<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: ZodIssues } },
  value: unknown,
  where?: string,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw zodToAppError(parsed.error, where);
  return parsed.data;
}

type ZodIssues = { issues: { path: PropertyKey[]; message: string }[] };

/** A failed zod parse as a 400 that names the offending field (`input.name: must not be empty`). */
export function zodToAppError(error: { issues: { path: PropertyKey[]; message: string }[] }, field?: string): AppError {
  const problems = error.issues.map(issue => {
    const path = [field, ...issue.path.map(String)].filter(Boolean).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return fail('invalid_argument', problems.join('; '));
}
