/**
 * A tiny client for the server's developer API: the server from GATEHOUSE_URL (else gatehouse.json's
 * "gateway", else the default), the developer token from GATEHOUSE_DEV_TOKEN, else the login
 * `gatehouse login` stored for that server (credentials.ts).
 */
import { credentialsPath, storedLogin } from './credentials.js';
import { CliError, EXIT_USAGE, type Output } from './output.js';
import { DEFAULT_URL, type ServerUrl, describeServer, serverUrlOf } from './target.js';

/** The help line of every command that talks to the server. */
export const API_ENV_HELP = `Environment: GATEHOUSE_URL (default: gatehouse.json's "gateway", else ${DEFAULT_URL}),
GATEHOUSE_DEV_TOKEN (default: the token 'gatehouse login' stored for that server).
Says on stderr which server it used (not with --json).`;

export interface ApiClient {
  /** The server it talks to. */
  server: ServerUrl;
  /** Where its token came from. */
  tokenSource: TokenSource;
  request<T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** A raw body (a file's bytes), the answer read as JSON like `request`'s. */
  upload<T = any>(method: 'PUT', path: string, bytes: Uint8Array, contentType?: string): Promise<T>;
  /** The server's URL, without a trailing slash. */
  readonly url: string;
}

export type TokenSource = { kind: 'env' } | { kind: 'login'; file: string; email: string; developerId: string };

/** The developer token for `server` and where it came from, or null when there is none. */
export function developerToken(env: NodeJS.ProcessEnv, server: ServerUrl): { token: string; source: TokenSource } | null {
  const fromEnv = env.GATEHOUSE_DEV_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: { kind: 'env' } };
  const login = storedLogin(env, server.url);
  if (!login) return null;
  return { token: login.token, source: { kind: 'login', file: credentialsPath(env) ?? '', email: login.email, developerId: login.developerId } };
}

/** Codes with which a server refuses the developer token itself (not the request). */
const TOKEN_REFUSED = new Set(['invalid_token', 'token_expired', 'wrong_credential', 'unauthenticated']);

/**
 * A client of the server GATEHOUSE_URL (or the project's gateway) names; `out` hears which one,
 * once, before the first request.
 */
export function createApiClient(env: NodeJS.ProcessEnv, out: Pick<Output, 'note'>, options: { gateway?: string | null } = {}): ApiClient {
  const server = serverUrlOf(env, options.gateway);
  const found = developerToken(env, server);
  if (!found) {
    throw new CliError(
      'missing_dev_token',
      `GATEHOUSE_DEV_TOKEN is not set and you are not logged in to ${server.url}. Run \`gatehouse login --developer <email>\` (or create a token with \`gatehouse dev-token create --developer <email>\` and export it as GATEHOUSE_DEV_TOKEN).`,
      EXIT_USAGE,
    );
  }
  const { token, source } = found;
  const base = server.url;
  let noted = false;

  async function send(method: string, path: string, headers: Record<string, string>, body: BodyInit | undefined) {
    if (!noted) out.note(`gatehouse: server ${describeServer(server)}`);
    noted = true;
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...headers }, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        'unreachable',
        `cannot reach the Gatehouse server at ${base} (${cause?.code ?? cause?.message ?? String(error)}). Is it running? Set GATEHOUSE_URL if it is elsewhere.`,
      );
    }
    const text = await response.text();
    let payload: any;
    try {
      payload = text ? JSON.parse(text) : {};
    } catch {
      throw new CliError('bad_response', `${method} ${path}: the server at ${base} answered ${response.status} with a body that is not JSON.`);
    }
    if (!response.ok) {
      const { error, message, ...details } = payload ?? {};
      const code = typeof error === 'string' ? error : `http_${response.status}`;
      let said = typeof message === 'string' ? message : `${method} ${path} failed with status ${response.status}.`;
      // The token is refused by this server: the way out is a token made where this server reads it.
      if (response.status === 401 || TOKEN_REFUSED.has(code)) {
        const which = source.kind === 'env' ? 'GATEHOUSE_DEV_TOKEN' : `the login stored in ${source.file}`;
        said += ` (${which}, refused by the server at ${base}: create one for it with GATEHOUSE_URL=${base} gatehouse dev-token create --developer <email>, run with that server's DATABASE_URL or DATA_DIR, or log in again with gatehouse login.)`;
      }
      throw new CliError(code, said, undefined, Object.keys(details).length ? details : undefined);
    }
    return payload as any;
  }

  return {
    server,
    tokenSource: source,
    url: base,
    request: (method, path, body) =>
      send(method, path, body === undefined ? {} : { 'content-type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body)),
    upload: (method, path, bytes, contentType = 'application/octet-stream') => send(method, path, { 'content-type': contentType }, bytes as BodyInit),
  };
}
