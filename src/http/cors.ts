/**
 * CORS for browser apps served from their own registered origin (not a hosted /_osg origin) that
 * call the gateway's own host with `credentials: 'include'`.
 *
 * Policy, on the host of PUBLIC_URL only, for /auth/*, /v1/* and /graphql:
 * - `Origin` exactly equal to a registered AppOrigin: `Access-Control-Allow-Origin: <origin>`,
 *   `Access-Control-Allow-Credentials: true` on every response (errors and 404s too); a preflight
 *   (OPTIONS + Access-Control-Request-Method) is answered 204 with the allowed methods, headers and
 *   a 600 s max-age.
 * - Any other Origin (unregistered, `null`, the gateway's own): no CORS headers; a preflight is
 *   still answered 204, without them, so the browser refuses the real request.
 * - `Vary: Origin` on every response of these paths. Never `*`.
 * - Audience: a cookie-authenticated request from a registered origin acts only for that origin's
 *   app (its `audienceAppId`, as on a hosted origin). Another app's session is refused with 403
 *   `audience_mismatch`, the hosted origins' check (AuthService.callerForToken with `hostAppId`);
 *   with userinfo only, the app is the one of the gh_client cookie. POST /auth/token and
 *   /auth/logout are exempt: they replace or end the browser's one session. Bearer requests are
 *   unaffected.
 */
import type { Config } from '../config.js';
import { type AppError, fail, isAppError } from '../errors.js';
import { type HeaderReader, empty, parseCookies } from './responses.js';
import type { Services } from '../services.js';
import { CLIENT_COOKIE, type RequestContext, SESSION_COOKIE } from './request-context.js';
import { bearerOf } from '../gateway-auth/resolve-caller.http.js';

export const CORS_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
export const CORS_ALLOW_HEADERS = 'content-type, authorization, x-service-csrf, x-client-id, range, if-match, if-none-match';
/** What an app's page may read of an answer beyond the CORS-safelisted headers: file downloads' validators and ranges. */
export const CORS_EXPOSE_HEADERS = 'etag, content-range, accept-ranges, content-length, x-request-id';
export const CORS_MAX_AGE_S = 600;
/** Signing in replaces the browser's one gateway session and signing out ends it, whichever app asks (logout always answers { ok: true }). */
const SESSION_REPLACING = new Set(['/auth/token', '/auth/logout']);

/**
 * The CORS decision for one request: the headers every response to it carries, and either a
 * finished answer (a preflight: `preflight`; a refused cookie call: `refusal`) or the app a cookie
 * call from a registered Origin acts for.
 */
export interface CorsDecision {
  headers: Record<string, string>;
  preflight?: Response;
  refusal?: AppError;
  audienceAppId: string | null;
}
/** What the decision reads of a request. */
type IncomingFront = Pick<RequestContext, 'method' | 'headers'>;
const PASS: CorsDecision = { headers: {}, audienceAppId: null };

const isCorsPath = (path: string) => path.startsWith('/auth/') || path.startsWith('/v1/') || path === '/graphql';

export function createCors({ services, config }: { services: Services; config: Config }) {
  const gateway = new URL(config.publicUrl);

  /**
   * Throws 403 audience_mismatch when the session cookie belongs to another app than `appId`; other
   * failures (no or expired session, app not deployed) are left to the route.
   */
  async function assertSessionAudience(headers: HeaderReader, appId: string): Promise<void> {
    const cookies = parseCookies(headers.get('cookie'));
    const session = cookies.get(SESSION_COOKIE);
    if (!session) return;
    if (services.auth.validator.mode === 'userinfo') {
      // Userinfo does not name the token's client; the gh_client cookie set beside it does.
      const clientId = cookies.get(CLIENT_COOKIE);
      if (!clientId || (await services.auth.appOfClient(clientId)) !== appId) {
        throw fail('audience_mismatch', 'This session was opened for another app than the one this origin belongs to.');
      }
      return;
    }
    try {
      await services.auth.callerForToken(session, { credential: 'session', hostAppId: appId });
    } catch (error) {
      if (isAppError(error) && error.code === 'audience_mismatch') throw error;
    }
  }

  /** An Origin that may be a registered app origin (the gateway's own and `null` never are). */
  const foreign = (origin: string | null): origin is string =>
    typeof origin === 'string' && origin !== gateway.origin && /^https?:\/\/[^/]{1,253}$/.test(origin);

  /**
   * Decides at once for the common request (no foreign Origin, no preflight), else after looking
   * the Origin up: its headers, a preflight's answer or a refusal, and the audience.
   */
  function decide(request: IncomingFront, host: string, path: string): CorsDecision | Promise<CorsDecision> {
    if (host !== gateway.host || !isCorsPath(path)) return PASS;
    const preflight = request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
    if (!preflight && !foreign(request.headers.get('origin'))) return VARY;
    return crossOrigin(request, path, preflight);
  }

  async function crossOrigin(request: IncomingFront, path: string, preflight: boolean): Promise<CorsDecision> {
    const origin = request.headers.get('origin');
    const appId = foreign(origin) ? ((await services.apps.appOfOrigin(origin))?.appId ?? null) : null;
    const headers: Record<string, string> = { vary: 'Origin' };
    if (appId) {
      headers['access-control-allow-origin'] = origin!;
      headers['access-control-allow-credentials'] = 'true';
      if (!preflight) headers['access-control-expose-headers'] = CORS_EXPOSE_HEADERS;
    }
    if (preflight) {
      const allowed: Record<string, string> = appId
        ? {
            'access-control-allow-methods': CORS_ALLOW_METHODS,
            'access-control-allow-headers': CORS_ALLOW_HEADERS,
            'access-control-max-age': String(CORS_MAX_AGE_S),
          }
        : {};
      return { headers, audienceAppId: null, preflight: empty(204, { ...headers, ...allowed }) };
    }
    if (!appId || bearerOf(request.headers.get('authorization'))) return { headers, audienceAppId: null };
    // Cookie credentials act for the Origin's app, as on a hosted origin.
    const decision = { headers, audienceAppId: appId };
    if (request.method === 'POST' && SESSION_REPLACING.has(path)) return decision;
    try {
      await assertSessionAudience(request.headers, appId);
    } catch (error) {
      return { ...decision, refusal: error as AppError };
    }
    return decision;
  }

  return { decide };
}

const VARY: CorsDecision = { headers: { vary: 'Origin' }, audienceAppId: null };
