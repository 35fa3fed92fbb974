/**
 * A write whose answer was lost: the connection failed after its statement (or its transaction's
 * COMMIT) was handed to the socket and before PostgreSQL answered. It may have committed or not,
 * so it must be neither retried nor taken for nothing written: a retry could apply it twice.
 * Answered as 503 `outcome_unknown` (src/http/error-responses.ts); the caller reads before writing again.
 */
export class OutcomeUnknownError extends Error {
  constructor(readonly lost: Error) {
    super(`The database connection was lost before the statement was answered (${lost.message}).`);
    this.name = 'OutcomeUnknownError';
  }
}

export const isOutcomeUnknown = (error: unknown): error is OutcomeUnknownError => error instanceof OutcomeUnknownError;

/**
 * True when PostgreSQL itself refused the statement with an ERROR: its transaction rolled back and
 * the connection lives on. Told by its SQLSTATE, since the severity's text is localized: a socket's
 * failure has none, and the errors that end a session (class 08, a connection exception; 57P, an
 * operator or a shutdown ending it) may follow the commit.
 */
export function refusedByServer(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(?:08|57P)/.test(code) && severity !== 'FATAL' && severity !== 'PANIC';
}
