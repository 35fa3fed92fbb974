/**
 * The SDK's HTTP core: one fetch wrapper for the gateway's REST routes and GraphQL. Cookie mode
 * sends `credentials: 'include'` and `X-Service-Csrf: 1` on every state change (docs/api.md §4.5);
 * bearer mode sends `Authorization`. On a 401 it refreshes once and retries; concurrent 401s share
 * one refresh (one in-flight promise), and a request sent before a refresh that already finished
 * just retries with the new credential.
 */
import { errorFrom, GatehouseError } from './errors.js';
import type { TypedDocumentString } from './generated/graphql.js';

export type TokenSource = string | (() => string | Promise<string>);

export interface TransportOptions {
  /** Gateway base URL without a trailing slash: `https://gw.example`, or `<origin>/_osg` on a hosted origin. */
  baseUrl: string;
  clientId?: string;
  /** Without a clientId, ask `<baseUrl>/config.json` (a hosted origin's) for it when sign-in needs it. */
  hostedConfig?: boolean;
  /** Bearer mode when set; cookie mode otherwise. */
  accessToken?: TokenSource;
  fetch?: typeof fetch;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Transport {
  readonly baseUrl: string;
  clientId: string | undefined;
  private readonly hostedConfig: boolean;
  readonly mode: 'cookie' | 'bearer';
  private readonly token: TokenSource | undefined;
  private readonly fetchImpl: typeof fetch;
  private refreshing: Promise<boolean> | null = null;
  /** Bumped by every successful refresh: a 401 to a request sent before it only needs a retry. */
  private generation = 0;
  /** Number of refreshes started (tests and diagnostics). */
  refreshCount = 0;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.clientId = options.clientId;
    this.hostedConfig = options.hostedConfig === true;
    this.token = options.accessToken;
    this.mode = options.accessToken === undefined ? 'cookie' : 'bearer';
    // Bound so a browser's window.fetch is not called with another `this`.
    const impl = options.fetch ?? globalThis.fetch;
    this.fetchImpl = (input, init) => impl(input, init);
  }

  /** The client id: the given one, else (on a hosted origin) the one its `/_osg/config.json` names. */
  async resolveClientId(): Promise<string | undefined> {
    if (this.clientId || !this.hostedConfig || this.mode !== 'cookie') return this.clientId;
    try {
      const res = await this.fetchImpl(`${this.baseUrl}/config.json`, { credentials: 'include' });
      const config = res.ok ? ((await res.json()) as { clientId?: unknown }) : null;
      if (typeof config?.clientId === 'string') this.clientId = config.clientId;
    } catch {
      // Not a hosted origin: the caller reports the missing client id.
    }
    return this.clientId;
  }

  /** A fixed bearer token cannot be refreshed: its 401 is final. */
  get canRefresh(): boolean {
    return this.mode === 'cookie' || typeof this.token === 'function';
  }

  /** The bearer token now (bearer mode), or null (cookie mode). */
  async bearer(): Promise<string | null> {
    if (this.token === undefined) return null;
    return typeof this.token === 'function' ? await this.token() : this.token;
  }

  /**
   * Refresh once: cookie mode calls `POST /auth/refresh`; bearer mode with a token function asks it
   * again; a fixed token cannot be refreshed. Callers at the same time share one attempt.
   */
  refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshCount++;
      this.refreshing = this.doRefresh()
        .then(ok => {
          if (ok) this.generation++;
          return ok;
        })
        .finally(() => {
          this.refreshing = null;
        });
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    if (this.mode === 'bearer') return this.canRefresh;
    try {
      const res = await this.raw('POST', '/auth/refresh', this.clientId ? { client_id: this.clientId } : {});
      return res.ok;
    } catch {
      return false;
    }
  }

  /** One request, no refresh: the credential, the CSRF header and the JSON body. */
  raw(method: string, path: string, body?: unknown): Promise<Response> {
    const json = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    return this.rawBytes(method, path, { accept: 'application/json', ...json });
  }

  /** One request with any body and headers (files), no refresh. (Bodies are `RequestInit['body']`: Node's types have no `BodyInit`.) */
  async rawBytes(
    method: string,
    path: string,
    init: { body?: RequestInit['body']; headers?: Record<string, string>; accept?: string },
  ): Promise<Response> {
    const headers: Record<string, string> = { ...(init.accept ? { accept: init.accept } : {}), ...init.headers };
    if (STATE_CHANGING.has(method)) headers['x-service-csrf'] = '1';
    const token = await this.bearer();
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      return await this.fetchImpl(this.baseUrl + path, {
        method,
        headers,
        body: init.body,
        credentials: this.mode === 'cookie' ? 'include' : 'omit',
        // A stream body (an upload from a ReadableStream) must be sent half-duplex.
        ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error) {
      throw new GatehouseError({
        status: 0,
        code: 'network_error',
        message: `Could not reach the gateway at ${this.baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  /**
   * A file route (src/sdk/files.ts) with the refresh-once rule: a 2xx/304 Response as it is (the
   * body unread), else a GatehouseError. A stream body cannot be sent twice, so its 401 is final.
   */
  async bytes(method: string, path: string, init: { body?: RequestInit['body']; headers?: Record<string, string> } = {}): Promise<Response> {
    const generation = this.generation;
    let res = await this.rawBytes(method, path, init);
    const replayable = !(init.body instanceof ReadableStream);
    if (res.status === 401 && replayable && this.canRefresh) {
      const fresh = this.generation !== generation || (await this.refresh());
      if (fresh) res = await this.rawBytes(method, path, init);
    }
    if (!res.ok && res.status !== 304) throw errorFrom(res.status, await readJson(res), res.headers.get('x-request-id'));
    return res;
  }

  /**
   * A request with the refresh-once rule. Answers the parsed JSON body and the response; a non-2xx
   * answer (or a GraphQL error list) is checked by the caller.
   */
  async send(method: string, path: string, body?: unknown): Promise<{ res: Response; json: Json }> {
    const generation = this.generation;
    let res = await this.raw(method, path, body);
    let json = await readJson(res);
    // The sign-in routes' own 401s (a refused code, a spent refresh token) are answers, not lapsed sessions.
    if (isUnauthenticated(res, json) && this.canRefresh && !path.startsWith('/auth/')) {
      // A refresh finished while this request was in flight: its credential is already new.
      const fresh = this.generation !== generation || (await this.refresh());
      if (fresh) {
        res = await this.raw(method, path, body);
        json = await readJson(res);
      }
    }
    return { res, json };
  }

  /** A REST or gateway call: the JSON body of a 2xx, else a GatehouseError. */
  async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const { res, json } = await this.send(method, path, body);
    if (!res.ok) throw errorFrom(res.status, json, res.headers.get('x-request-id'));
    return json as T;
  }

  /** A typed GraphQL operation; answers its `result` field. */
  async graphql<R extends { result: unknown }, V>(document: TypedDocumentString<R, V>, variables?: V): Promise<R['result']> {
    const { res, json } = await this.send('POST', '/graphql', { query: document.toString(), variables: variables ?? {} });
    const requestId = res.headers.get('x-request-id');
    if (!res.ok || json?.errors?.length || !json?.data) throw errorFrom(res.status, json, requestId);
    return (json.data as unknown as R).result;
  }
}

/** A parsed answer: a REST body, or GraphQL's `{ data, errors }`. */
type Json = { data?: Record<string, unknown>; errors?: { extensions?: { status?: unknown } }[]; [field: string]: unknown } | null;

async function readJson(res: Response): Promise<Json> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: `http_${res.status}`, message: text.slice(0, 200) };
  }
}

/** A 401, as an HTTP status or as the GraphQL error's status (docs/api.md §8.1). */
function isUnauthenticated(res: Response, json: Json): boolean {
  if (res.status === 401) return true;
  return Array.isArray(json?.errors) && json.errors.some(e => e?.extensions?.status === 401);
}
