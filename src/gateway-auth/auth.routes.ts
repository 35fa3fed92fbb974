/**
 * The sign-in routes (docs/api.md §4.1): `/auth/*` on the gateway's own host, `/_osg/auth/*` on a
 * hosted app origin. Protocol glue: parse, call the gateway-auth service, answer; tokens go only
 * into httpOnly cookies (session-cookies.http.ts).
 */
import { z } from 'zod';
import type { Config } from '../config.js';
import { AppError, isAppError, parseInput } from '../errors.js';
import { parseJsonObject } from '../http/body.js';
import { json, mediaType, parseCookies, redirect } from '../http/responses.js';
import { logger } from '../lib/logger.js';
import type { Services } from '../services.js';
import { consentPage } from './consent.pages.js';
import { CSRF_HEADER, csrfRequired, hasCsrfHeader } from '../http/csrf.js';
import { CLIENT_COOKIE, type Mount, REFRESH_COOKIE, type RequestContext, SESSION_COOKIE } from '../http/request-context.js';
import { createSessionCookies } from './session-cookies.http.js';

export type AuthHandler = (context: RequestContext, mount: Mount) => Promise<Response>;

/** The body of POST /auth/token (also its OpenAPI request schema: auth.openapi.ts). */
export const tokenBody = z.strictObject({
  code: z.string({ message: 'is required' }).min(1).max(2048),
  code_verifier: z.string({ message: 'is required' }).min(43, 'must be 43-128 characters').max(128, 'must be 43-128 characters'),
  redirect_uri: z.string({ message: 'is required' }).url('must be an absolute URL'),
  client_id: z.string({ message: 'is required' }).min(1).max(200),
});
/** The body of POST /auth/refresh and /auth/logout (also their OpenAPI request schema). */
export const clientBody = z.strictObject({ client_id: z.string().min(1).max(200).optional() });

export interface AuthRouteDeps {
  services: Services;
  config: Config;
  /** GET /auth/callback: the invite sign-in's return (invite.pages.ts). */
  callback: AuthHandler;
}

export function createAuthRoutes({ services, config, callback }: AuthRouteDeps) {
  const { auth } = services;
  const provider = auth.provider;
  const publicOrigin = new URL(config.publicUrl).origin;
  const { sessionCookies, clearedCookies } = createSessionCookies(config.auth.cookieSecure);

  const authorize: AuthHandler = async context => redirect(await provider.authorizationUrl(context.url.search));

  /** The app that registered `origin` exactly (scheme://host[:port]). */
  const appOfOrigin = async (origin: string) => (await services.apps.appOfOrigin(origin))?.appId ?? null;

  /**
   * Login CSRF: a cross-site page must not sign the browser in to someone else's account. A JSON
   * body cannot be sent cross-site without a preflight, and neither can the CSRF header; an Origin
   * is accepted only when it is the gateway's own, this hosted origin, or an origin registered by
   * the app that owns `client_id`.
   */
  async function assertTokenRequestFromApp(headers: Headers, mount: Mount, clientId: string) {
    if (hasCsrfHeader(headers)) return;
    const origin = headers.get('origin');
    if (origin) {
      if (mount.host ? origin === mount.host.origin : origin === publicOrigin) return;
      const [ofOrigin, ofClient] = await Promise.all([appOfOrigin(origin), auth.appOfClient(clientId)]);
      if (ofOrigin && ofOrigin === ofClient) return;
    }
    throw new AppError(
      'csrf_required',
      403,
      `POST /auth/token must send the header ${CSRF_HEADER}: 1, or come from an origin registered for the app of this client_id.`,
    );
  }

  const token: AuthHandler = async (context, mount) => {
    const { headers } = context.request;
    if (mediaType(headers.get('content-type')) !== 'application/json') {
      await context.body().catch(() => undefined);
      throw new AppError('unsupported_media_type', 415, 'POST /auth/token takes a JSON body: send Content-Type: application/json.');
    }
    const body = parseInput(tokenBody, parseJsonObject(await context.body()), 'body');
    await assertTokenRequestFromApp(headers, mount, body.client_id);
    const tokens = await provider.exchangeCode({
      code: body.code,
      codeVerifier: body.code_verifier,
      redirectUri: body.redirect_uri,
      clientId: body.client_id,
    });
    return json(200, { authenticated: true, expires_in: tokens.expiresIn }, { 'set-cookie': sessionCookies(mount, tokens, body.client_id) });
  };

  const refresh: AuthHandler = async (context, mount) => {
    const { headers } = context.request;
    if (!hasCsrfHeader(headers)) throw csrfRequired();
    const body = parseInput(clientBody, parseJsonObject(await context.body()), 'body');
    const cookies = parseCookies(headers.get('cookie'));
    const refreshToken = cookies.get(REFRESH_COOKIE);
    const clientId = body.client_id ?? cookies.get(CLIENT_COOKIE);
    const refused = (message: string) => json(401, { error: 'invalid_refresh_token', message }, { 'set-cookie': clearedCookies(mount) });
    if (!refreshToken || !clientId) return refused('No refresh token: sign in again.');
    try {
      const tokens = await provider.refresh({ refreshToken, clientId });
      const previous = cookies.get(SESSION_COOKIE);
      if (previous) auth.validator.forget(previous);
      return json(200, { authenticated: true, expires_in: tokens.expiresIn }, { 'set-cookie': sessionCookies(mount, tokens, clientId) });
    } catch (error) {
      if (isAppError(error) && error.status < 500) return refused('The refresh token is invalid or expired: sign in again.');
      throw error;
    }
  };

  const logout: AuthHandler = async (context, mount) => {
    const { headers } = context.request;
    if (!hasCsrfHeader(headers)) throw csrfRequired();
    // Signing out never fails on its body: a bad one is no client_id.
    const body = clientBody.safeParse(
      await context
        .body()
        .then(parseJsonObject)
        .catch(() => ({})),
    );
    const cookies = parseCookies(headers.get('cookie'));
    const clientId = (body.success ? body.data.client_id : undefined) ?? cookies.get(CLIENT_COOKIE);
    const refreshToken = cookies.get(REFRESH_COOKIE);
    const accessToken = cookies.get(SESSION_COOKIE);
    if (accessToken) auth.validator.end(accessToken);
    if (clientId) {
      // Best effort: revoking the refresh token ends the grant's tokens at the provider too.
      const revocations = [
        refreshToken && provider.revoke({ token: refreshToken, clientId, hint: 'refresh_token' }),
        accessToken && provider.revoke({ token: accessToken, clientId, hint: 'access_token' }),
      ].filter(Boolean);
      const results = await Promise.allSettled(revocations);
      if (results.some(r => r.status === 'rejected')) logger.warn('logout: revocation at the provider failed (cookies cleared anyway)');
    }
    return json(200, { ok: true }, { 'set-cookie': clearedCookies(mount) });
  };

  const session: AuthHandler = async (context, mount) => {
    const accessToken = parseCookies(context.request.headers.get('cookie')).get(SESSION_COOKIE);
    const info = accessToken ? await auth.validator.validate(accessToken) : null;
    let authenticated = !!info;
    if (info && mount.host && info.clientId) authenticated = (await auth.appOfClient(info.clientId)) === mount.host.appId;
    return json(200, authenticated ? { authenticated: true, user_id: info!.sub } : { authenticated: false });
  };

  const consentRequest: AuthHandler = async context => json(200, await auth.consentRequest(context.url.searchParams.get('challenge') ?? ''));

  // State changes on the user's provider session: the CSRF header, like every other one (docs/api.md §4.5).
  const acceptConsent: AuthHandler = async context => {
    if (!hasCsrfHeader(context.request.headers)) throw csrfRequired();
    return json(200, await auth.acceptConsent(parseJsonObject(await context.body())));
  };

  const rejectConsent: AuthHandler = async context => {
    if (!hasCsrfHeader(context.request.headers)) throw csrfRequired();
    return json(200, await auth.rejectConsent(parseJsonObject(await context.body())));
  };

  const identityFlow: AuthHandler = async context => {
    const type = context.url.searchParams.get('type');
    const id = context.url.searchParams.get('id') ?? '';
    if (type !== 'login' && type !== 'registration') throw new AppError('invalid_argument', 400, 'query.type: must be login or registration.');
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new AppError('invalid_argument', 400, 'query.id: must be a flow id.');
    const upstream = await provider.identityFlow(type, id);
    if (upstream.status === 404) throw new AppError('flow_not_found', 404, 'No such flow, or it expired.');
    if (upstream.status !== 200) throw new AppError('provider_error', 502, 'The identity provider could not return the flow.');
    return json(200, upstream.body);
  };

  /** `METHOD /path` (below `<prefix>/auth`) -> handler. */
  const routes = new Map<string, AuthHandler>([
    ['GET /authorize', authorize],
    ['POST /token', token],
    ['POST /refresh', refresh],
    ['POST /logout', logout],
    ['GET /session', session],
    ['GET /consent-request', consentRequest],
    ['POST /consent/accept', acceptConsent],
    ['POST /consent/reject', rejectConsent],
    ['GET /identity/flow', identityFlow],
    ['GET /consent', async context => consentPage(context.url)],
    ['GET /callback', callback],
  ]);

  /** The answer of `route` (the path below `<prefix>/auth`), or null when no route matches. */
  async function handle(context: RequestContext, mount: Mount, route: string): Promise<Response | null> {
    const handler = routes.get(`${context.request.method} ${route}`);
    return handler ? handler(context, mount) : null;
  }

  return { handle };
}

export type AuthRoutes = ReturnType<typeof createAuthRoutes>;
