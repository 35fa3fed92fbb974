/** How the CLI reports: one JSON object with --json, plain text otherwise; errors carry an exit code. */

/** Exit codes: 1 the server or the work failed, 2 the command line or environment is wrong. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
    /** More of the server's answer (e.g. a deploy's `issues`), kept in the --json error object. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError('usage', message, EXIT_USAGE);

export interface Output {
  /** Prints `value` with --json, otherwise the text (a string or lines). */
  result(value: object, text: string | string[]): void;
  /** Progress or warnings for people; stderr, so stdout stays the result. */
  note(text: string): void;
}

/** Where output goes: the process's streams, or a test's buffers. */
export interface Streams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export function createOutput(json: boolean, streams: Streams = process): Output {
  return {
    result(value, text) {
      if (json) streams.stdout.write(`${JSON.stringify(value)}\n`);
      else streams.stdout.write(`${Array.isArray(text) ? text.join('\n') : text}\n`);
    },
    note(text) {
      if (!json) streams.stderr.write(`${text}\n`);
    },
  };
}

/** Reports a failure and returns the exit code. Unexpected errors show their stack on stderr for bug reports. */
export function reportError(error: unknown, json: boolean, streams: Streams = process): number {
  const known = error instanceof CliError;
  const message = error instanceof Error ? error.message : String(error);
  if (json) streams.stdout.write(`${JSON.stringify({ error: known ? error.code : 'internal', message, ...(known ? error.details : undefined) })}\n`);
  else streams.stderr.write(`error: ${!known && error instanceof Error && error.stack ? error.stack : message}\n`);
  return known ? error.exitCode : EXIT_FAILURE;
}
