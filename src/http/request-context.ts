/**
 * What the pipeline knows about a request before routing it. `server.ts` computes it once per
 * request, in pipeline order (guards -> mount -> CORS -> audience), and hands it to every handler
 * explicitly: no request-keyed module state, and the request's URL is never rewritten.
 */
import type { HeaderReader } from './responses.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';

/** Where the gateway is mounted on a hosted app origin (docs/api.md §4.3, §4.6). */
export const HOSTED_PREFIX = '/_osg';
/** The gateway's httpOnly cookies: the access token, the refresh token (path `<prefix>/auth`), the client id. */
export const SESSION_COOKIE = 'gh_session';
export const REFRESH_COOKIE = 'gh_refresh';
export const CLIENT_COOKIE = 'gh_client';

/** A registered app origin that serves the gateway under /_osg. */
export interface HostedApp {
  appId: string;
  origin: string;
}

/** Where a request arrived: the gateway's own host (`prefix: ''`) or a hosted app origin (`/_osg`). */
export interface Mount {
  prefix: '' | typeof HOSTED_PREFIX;
  /** The hosted app, on an app origin; null on the gateway's own host. */
  host: HostedApp | null;
}

export const GATEWAY_HOST: Mount = { prefix: '', host: null };
export const hostedMount = (host: HostedApp): Mount => ({ prefix: HOSTED_PREFIX, host });

export interface RequestContext {
  /**
   * The WHATWG request, for handlers that take one (Yoga, the gateway's routes, files). Requests
   * served on node's own objects (src/http/node-edge.ts) build it on first use; the route table and
   * the pipeline's front read `method`, `url` and `headers` instead.
   */
  readonly request: Request;
  method: string;
  headers: HeaderReader;
  url: URL;
  requestId: string;
  /** The peer's address: the socket's, or loopback for an in-process `App.fetch`. */
  remoteAddress: string;
  mount: Mount;
  /**
   * The app a session cookie or provider token must belong to: a hosted origin's app, or the app
   * of a registered Origin calling the gateway's host with cookies (CORS). null: any app.
   */
  audienceAppId: string | null;
  /** The body through the one limited reader (MAX_BODY_BYTES), read at most once. */
  body(): Promise<Uint8Array>;
  /**
   * The body as it arrives, unread and unlimited: only file uploads take it (src/files/files.routes.ts),
   * which count the bytes against their bucket's limit themselves. Use it or `body()`, not both.
   */
  bodyStream(): AsyncIterable<Uint8Array>;
  /** The matched endpoint's declared path (set by the route registry): the /metrics route label. */
  route?: string;
  /** The request's credential resolved to a caller (and the CSRF facts), at most once. */
  auth(): Promise<ResolvedAuth>;
}

/**
 * The path the API routes see: on a hosted origin `/_osg/v1/...` and `/_osg/graphql` are the
 * gateway's `/v1/...` and `/graphql`; anything else keeps its path.
 */
export function apiPathOf(context: Pick<RequestContext, 'url' | 'mount'>): string {
  const path = context.url.pathname;
  if (!context.mount.host) return path;
  return path.startsWith(`${HOSTED_PREFIX}/v1/`) || path === `${HOSTED_PREFIX}/graphql` ? path.slice(HOSTED_PREFIX.length) : path;
}
