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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { AppError, isAppError } from '../errors.js';
import { sendGraphqlError, sendRestError } from '../error-responses.js';
import { parseCookies } from '../lib/http.js';
import type { Services } from '../services/index.js';
import { CLIENT_COOKIE, SESSION_COOKIE } from './request-scope.js';
import { bearerOf } from './resolve-caller.js';

export const CORS_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
export const CORS_ALLOW_HEADERS = 'content-type, authorization, x-service-csrf, x-client-id';
export const CORS_MAX_AGE_S = 600;
/** Signing in replaces the browser's one gateway session and signing out ends it, whichever app asks (logout always answers { ok: true }). */
const SESSION_REPLACING = new Set(['/auth/token', '/auth/logout']);

/** Whether CORS answered the request itself, and the app a cookie call from a registered Origin acts for. */
export interface CorsOutcome {
  answered: boolean;
  audienceAppId: string | null;
}
const PASS: CorsOutcome = { answered: false, audienceAppId: null };
const ANSWERED: CorsOutcome = { answered: true, audienceAppId: null };

const isCorsPath = (path: string) => path.startsWith('/auth/') || path.startsWith('/v1/') || path === '/graphql';

export function createCors({ services, config }: { services: Services; config: Config }) {
  const gateway = new URL(config.publicUrl);

  /**
   * Throws 403 audience_mismatch when the session cookie belongs to another app than `appId`; other
   * failures (no or expired session, app not deployed) are left to the route.
   */
  async function assertSessionAudience(req: IncomingMessage, appId: string): Promise<void> {
    const cookies = parseCookies(req.headers.cookie);
    const session = cookies.get(SESSION_COOKIE);
    if (!session) return;
    if (services.auth.validator.mode === 'userinfo') {
      // Userinfo does not name the token's client; the gh_client cookie set beside it does.
      const clientId = cookies.get(CLIENT_COOKIE);
      if (!clientId || (await services.auth.appOfClient(clientId)) !== appId) {
        throw new AppError('audience_mismatch', 403, 'This session was opened for another app than the one this origin belongs to.');
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
  const foreign = (origin: string | undefined): origin is string =>
    typeof origin === 'string' && origin !== gateway.origin && /^https?:\/\/[^/]{1,253}$/.test(origin);

  /**
   * Sets the CORS headers (res.setHeader, so every later writeHead keeps them) and enforces the
   * audience. Answers at once for the common request (no foreign Origin, no preflight), else a
   * promise: whether the response was sent here (a preflight, or a refusal), and the app a
   * cookie call from a registered Origin acts for.
   */
  function handle(req: IncomingMessage, res: ServerResponse, path: string): CorsOutcome | Promise<CorsOutcome> {
    if ((req.headers.host ?? '').toLowerCase() !== gateway.host || !isCorsPath(path)) return PASS;
    res.setHeader('vary', 'Origin');
    const preflight = req.method === 'OPTIONS' && !!req.headers['access-control-request-method'];
    if (!preflight && !foreign(req.headers.origin)) return PASS;
    return crossOrigin(req, res, path, preflight);
  }

  async function crossOrigin(req: IncomingMessage, res: ServerResponse, path: string, preflight: boolean): Promise<CorsOutcome> {
    const origin = req.headers.origin;
    const appId = foreign(origin) ? ((await services.apps.appOfOrigin(origin))?.appId ?? null) : null;
    if (appId) {
      res.setHeader('access-control-allow-origin', origin!);
      res.setHeader('access-control-allow-credentials', 'true');
    }
    if (preflight) {
      if (appId) {
        res.setHeader('access-control-allow-methods', CORS_ALLOW_METHODS);
        res.setHeader('access-control-allow-headers', CORS_ALLOW_HEADERS);
        res.setHeader('access-control-max-age', String(CORS_MAX_AGE_S));
      }
      res.writeHead(204, { 'content-length': 0 });
      res.end();
      return ANSWERED;
    }
    if (!appId || bearerOf(req.headers.authorization)) return PASS;
    // Cookie credentials act for the Origin's app, as on a hosted origin.
    const outcome = { answered: false, audienceAppId: appId };
    if (req.method === 'POST' && SESSION_REPLACING.has(path)) return outcome;
    try {
      await assertSessionAudience(req, appId);
    } catch (error) {
      const e = error as AppError;
      if (path !== '/graphql') sendRestError(res, e);
      else sendGraphqlError(res, e);
      return ANSWERED;
    }
    return outcome;
  }

  return { handle };
}
