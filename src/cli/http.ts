/** A tiny client for the server's developer API, configured from GATEHOUSE_URL and GATEHOUSE_DEV_TOKEN. */
import { CliError, EXIT_USAGE } from './output.js';

export const DEFAULT_URL = 'http://127.0.0.1:4000';

/** The help line of every command that talks to the server. */
export const API_ENV_HELP = `Environment: GATEHOUSE_URL (default ${DEFAULT_URL}), GATEHOUSE_DEV_TOKEN (required).`;

export interface ApiClient {
  request<T = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T>;
}

export function createApiClient(env: NodeJS.ProcessEnv): ApiClient {
  const token = env.GATEHOUSE_DEV_TOKEN?.trim();
  if (!token) {
    throw new CliError(
      'missing_dev_token',
      'GATEHOUSE_DEV_TOKEN is not set. Create a developer token with `gatehouse dev-token create --developer <email>` and export it.',
      EXIT_USAGE,
    );
  }
  const base = (env.GATEHOUSE_URL?.trim() || DEFAULT_URL).replace(/\/+$/, '');
  if (!URL.canParse(base)) throw new CliError('invalid_url', `GATEHOUSE_URL is not a URL: ${base}`, EXIT_USAGE);

  return {
    async request(method, path, body) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
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
        throw new CliError('bad_response', `${method} ${path}: the server answered ${response.status} with a body that is not JSON.`);
      }
      if (!response.ok) {
        const message = typeof payload?.message === 'string' ? payload.message : `${method} ${path} failed with status ${response.status}.`;
        throw new CliError(typeof payload?.error === 'string' ? payload.error : `http_${response.status}`, message);
      }
      return payload as any;
    },
  };
}
