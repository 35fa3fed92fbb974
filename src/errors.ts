/**
 * The one error model. Every expected failure is an AppError with a stable `code` (listed in
 * docs/api.md §8.2) and the HTTP status the REST shims answer with. GraphQL carries both in
 * `extensions`; anything that is not an AppError is masked and logged.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) => new AppError(code, 400, message, details);
export const unauthorized = (message = 'Authentication required: send a bearer token or session cookie.') =>
  new AppError('unauthenticated', 401, message);
export const forbidden = (code: string, message: string) => new AppError(code, 403, message);
export const notFound = (code: string, message: string) => new AppError(code, 404, message);
/** A value the caller sent, as a message repeats it: cut past `max` characters (a 3,000-character id is not echoed whole). */
export const shown = (value: string, max = 100) => (value.length > max ? `${value.slice(0, max)}…` : value);
export const conflict = (code: string, message: string) => new AppError(code, 409, message);
/** Overloaded, nothing changed: retry after `retryAfter` seconds (REST sends it as `Retry-After`). */
export const serviceBusy = (message: string, retryAfter: number) => new AppError('busy', 503, message, { retryAfter });

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
  return badRequest('invalid_argument', problems.join('; '));
}
