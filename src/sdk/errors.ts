/** The one error every SDK call rejects with: the server's code and status, and its request id. */
export class GatehouseError extends Error {
  override readonly name = 'GatehouseError';
  /** HTTP status (0 when the request never got an answer: network failure). */
  readonly status: number;
  /** Stable machine code (docs/api.md §8.2), e.g. `resource_not_found`, `session_expired`. */
  readonly code: string;
  /** The `x-request-id` of the answer: quote it in a support report. */
  readonly requestId: string | null;
  /** Extra fields some refusals carry (e.g. `issues` of `invalid_schema`). */
  readonly details: Record<string, unknown>;

  constructor(init: { status: number; code: string; message: string; requestId?: string | null; details?: Record<string, unknown> }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? {};
  }
}

/** A REST/gateway error body `{ error, message, ... }` or a GraphQL error list, as a GatehouseError. */
export function errorFrom(status: number, body: unknown, requestId: string | null): GatehouseError {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors = Array.isArray(record.errors) ? (record.errors as Record<string, unknown>[]) : null;
  if (errors?.length) {
    const first = errors[0];
    const extensions = (first.extensions ?? {}) as Record<string, unknown>;
    return new GatehouseError({
      status: typeof extensions.status === 'number' ? extensions.status : status >= 400 ? status : 500,
      code: typeof extensions.code === 'string' ? extensions.code : 'graphql_error',
      message: typeof first.message === 'string' ? first.message : 'The GraphQL operation failed.',
      requestId,
    });
  }
  const { error, message, ...details } = record;
  return new GatehouseError({
    status,
    code: typeof error === 'string' ? error : `http_${status}`,
    message: typeof message === 'string' ? message : `The gateway answered ${status}.`,
    requestId,
    details,
  });
}
