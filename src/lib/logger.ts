/**
 * The one structured logger (pino) for the server, the embedded provider and the CLI's server
 * commands. `LOG_LEVEL` sets its level once at start (`setLogLevel`). Every line written while a
 * request is handled carries that request's id (`reqId`), the same id the client sees in the
 * `x-request-id` header and in a 5xx body, so a support report leads straight to the stack.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino from 'pino';

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** Where log lines go: stdout, or a test's capture (`captureLogs`). */
let target: { write(line: string): unknown } = process.stdout;

const REDACTED = '[redacted]';

/** Query parameters that carry a secret: invite and authorization codes, challenges, tokens, PKCE verifiers, OAuth state. */
const SECRET_PARAMS = [
  'code',
  'code_verifier',
  'challenge',
  'consent_challenge',
  'login_challenge',
  'logout_challenge',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'password',
];

/** JSON keys whose value is a secret wherever they appear in a line (`code` is not one: errors carry theirs). */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'secret',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'code_verifier',
  'codeVerifier',
  'client_secret',
  'clientSecret',
  'challenge',
  'consent_challenge',
];

/**
 * Secrets as they appear in a serialized log line, each with its replacement: path segments that
 * are secrets (an invite code; a provider interaction id, which is the consent challenge, also in the
 * authorization resume path), secret
 * query parameters, Gatehouse tokens and invite codes by their prefix, JWTs, bearer credentials,
 * URL passwords, and secret-named JSON keys.
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/(\/_invite\/|\/interaction\/|\/oauth2\/auth\/)[^/?#\s"\\]+/g, `$1${REDACTED}`],
  [new RegExp(`([?&;](?:${SECRET_PARAMS.join('|')})=)[^&#\\s"\\\\]*`, 'gi'), `$1${REDACTED}`],
  [/\b(gst|gha|ghd|inv)_[A-Za-z0-9_-]{16,}/g, `$1_${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [/\b(Bearer|Basic)\s+[^\s"\\]+/gi, `$1 ${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@"]*:)[^@\s/"]+@/gi, `$1${REDACTED}@`],
  [new RegExp(`("(?:${SECRET_KEYS.join('|')})":)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
];

/**
 * A log line (or any text bound for one) with every secret replaced by `[redacted]`. Every line
 * the logger writes passes through it, at every level: no invite code, token, challenge or
 * authorization code reaches a log, whoever wrote the line (docs/api.md §1.1).
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export const logger = pino(
  {
    level: process.env.LOG_LEVEL && /^(silent|error|warn|info|debug)$/.test(process.env.LOG_LEVEL) ? process.env.LOG_LEVEL : 'info',
    base: undefined,
    mixin: () => {
      const scope = requestScope.getStore();
      return scope ? { reqId: scope.requestId } : {};
    },
  },
  { write: (line: string) => target.write(redactSecrets(line)) },
);

/** Tests: collects the parsed log lines written until `stop()` restores stdout. */
export function captureLogs(): { lines: Record<string, any>[]; stop(): void } {
  const lines: Record<string, any>[] = [];
  target = { write: (line: string) => lines.push(JSON.parse(line)) };
  return { lines, stop: () => void (target = process.stdout) };
}

export function setLogLevel(level: LogLevel) {
  logger.level = level;
}

/** A client-supplied id is kept when it is short and plain (a proxy's trace id); otherwise a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{8,64}$/.test(header) ? header : randomUUID();
}

/** Runs `fn` with `requestId` attached to every log line it writes (across awaits). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestScope.run({ requestId }, fn);
}

export const currentRequestId = (): string | null => requestScope.getStore()?.requestId ?? null;

/**
 * Yoga's logger, routed to pino. Yoga logs every error it masks at `error`; ours are classified
 * and, when unexpected, already logged with their stack by the error formatter, so Yoga's copy
 * goes to `debug` without a stack (a 401 or a syntax error is not an operator's problem).
 */
export const yogaLogger = {
  debug: (...args: unknown[]) => logger.debug(describeArgs(args)),
  info: (...args: unknown[]) => logger.info(describeArgs(args)),
  warn: (...args: unknown[]) => logger.warn(describeArgs(args)),
  error: (...args: unknown[]) => logger.debug(describeArgs(args)),
};

function describeArgs(args: unknown[]): string {
  return args.map(a => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
}
