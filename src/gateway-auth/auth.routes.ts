/**
 * The sign-in routes (docs/api.md §4.1): `/auth/*` on the gateway's own host, `/_osg/auth/*` on a
 * hosted app origin, declared with their documentation (the OpenAPI document's). Protocol glue:
 * parse, call the gateway-auth service, answer; tokens go only into httpOnly cookies
 * (session-cookies.http.ts). The handlers keep per-process state (the provider client, the cookie
 * settings), so `createAuthHandlers` builds them once and the declarations reach them through the
 * runtime.
 */
import { z } from 'zod';
import type { Config } from '../config.js';
import { type ErrorCode, fail, isAppError, parseInput } from '../errors.js';
import { parseJsonObject } from '../http/body.js';
import { json, mediaType, parseCookies, redirect } from '../http/responses.js';
import { logger } from '../lib/logger.js';
import type { Services } from '../services.js';
import { consentPage } from './consent.pages.js';
import { CSRF_HEADER, hasCsrfHeader } from '../http/csrf.js';
import { CLIENT_COOKIE, HOSTED_PREFIX, type Mount, REFRESH_COOKIE, SESSION_COOKIE } from '../http/request-context.js';
import { type Endpoint, type EndpointCall, type JsonSchema, defineEndpoint } from '../http/endpoint.js';
import { acceptInput } from './consent.service.js';
import { createSessionCookies } from './session-cookies.http.js';

type AuthHandler = (call: EndpointCall) => Promise<Response>;

/** The body of POST /auth/token (also its OpenAPI request schema). */
export const tokenBody = z.strictObject({
  code: z.string({ message: 'is required' }).min(1).max(2048),
  code_verifier: z.string({ message: 'is required' }).min(43, 'must be 43-128 characters').max(128, 'must be 43-128 characters'),
  redirect_uri: z.string({ message: 'is required' }).url('must be an absolute URL'),
  client_id: z.string({ message: 'is required' }).min(1).max(200),
});
/** The body of POST /auth/refresh and /auth/logout. */
export const clientBody = z.strictObject({ client_id: z.string().min(1).max(200).optional() });

export function createAuthHandlers({ services, config }: { services: Services; config: Config }) {
  const { auth } = services;
  const provider = auth.provider;
  const publicOrigin = new URL(config.publicUrl).origin;
  const { sessionCookies, clearedCookies } = createSessionCookies(config.auth.cookieSecure);

  const authorize: AuthHandler = async ({ context }) => redirect(await provider.authorizationUrl(context.url.search));

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
    throw fail(
      'csrf_required',
      `POST /auth/token must send the header ${CSRF_HEADER}: 1, or come from an origin registered for the app of this client_id.`,
    );
  }

  const token: AuthHandler = async ({ context }) => {
    const { headers } = context.request;
    const { mount } = context;
    if (mediaType(headers.get('content-type')) !== 'application/json') {
      await context.body().catch(() => undefined);
      throw fail('unsupported_media_type', 'POST /auth/token takes a JSON body: send Content-Type: application/json.');
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

  // The pipeline has checked the CSRF header and the body (clientBody).
  const refresh: AuthHandler = async ({ context, body }) => {
    const { headers } = context.request;
    const { mount } = context;
    const cookies = parseCookies(headers.get('cookie'));
    const refreshToken = cookies.get(REFRESH_COOKIE);
    const clientId = (body as z.infer<typeof clientBody>).client_id ?? cookies.get(CLIENT_COOKIE);
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

  const logout: AuthHandler = async ({ context }) => {
    const { headers } = context.request;
    const { mount } = context;
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

  const session: AuthHandler = async ({ context }) => {
    const { mount } = context;
    const accessToken = parseCookies(context.request.headers.get('cookie')).get(SESSION_COOKIE);
    const info = accessToken ? await auth.validator.validate(accessToken) : null;
    let authenticated = !!info;
    if (info && mount.host && info.clientId) authenticated = (await auth.appOfClient(info.clientId)) === mount.host.appId;
    return json(200, authenticated ? { authenticated: true, user_id: info!.sub } : { authenticated: false });
  };

  const consentRequest: AuthHandler = async ({ context }) => json(200, await auth.consentRequest(context.url.searchParams.get('challenge') ?? ''));

  // State changes on the user's provider session: the pipeline checked the CSRF header (docs/api.md §4.5).
  const acceptConsent: AuthHandler = async ({ context }) => json(200, await auth.acceptConsent(parseJsonObject(await context.body())));

  const rejectConsent: AuthHandler = async ({ context }) => json(200, await auth.rejectConsent(parseJsonObject(await context.body())));

  const identityFlow: AuthHandler = async ({ context }) => {
    const type = context.url.searchParams.get('type');
    const id = context.url.searchParams.get('id') ?? '';
    if (type !== 'login' && type !== 'registration') throw fail('invalid_argument', 'query.type: must be login or registration.');
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw fail('invalid_argument', 'query.id: must be a flow id.');
    const upstream = await provider.identityFlow(type, id);
    if (upstream.status === 404) throw fail('flow_not_found', 'No such flow, or it expired.');
    if (upstream.status !== 200) throw fail('provider_error', 'The identity provider could not return the flow.');
    return json(200, upstream.body);
  };

  return { authorize, token, refresh, logout, session, consentRequest, acceptConsent, rejectConsent, identityFlow };
}

export type AuthHandlers = ReturnType<typeof createAuthHandlers>;

/** A cookie session sent with a registered app `Origin` on `/auth/*` must be that app's (CORS, docs/api.md §4.5). */
const CORS_AUDIENCE: ErrorCode = 'audience_mismatch';
/** The consent admin API's answers (gateway-auth/provider-client.service.ts), for the consent routes. */
const CONSENT_ERRORS: ErrorCode[] = [
  // The provider refused the challenge as malformed (Hydra and oidc-provider alike: its OAuth code, kept).
  'invalid_request',
  'consent_request_not_found',
  'consent_request_handled',
  'provider_admin_refused',
  'provider_unavailable',
  'provider_error',
  'consent_unavailable',
];

const SESSION_SET_COOKIE = `The session, as HttpOnly cookies only (the tokens are never in a body): \`${SESSION_COOKIE}\` (access token) and \`${CLIENT_COOKIE}\` (client id) on Path=/, \`${REFRESH_COOKIE}\` on Path=/auth (${HOSTED_PREFIX}/auth on a hosted origin); SameSite=Lax, Secure unless COOKIE_SECURE=0, 14 days (docs/api.md §4.5)`;
const CSRF_RULE = `Needs the header \`${CSRF_HEADER}: 1\` (403 csrf_required otherwise): a cross-site page cannot send it without a CORS preflight (docs/api.md §4.5).`;
const CLEARED_SET_COOKIE = `\`${SESSION_COOKIE}\`, \`${CLIENT_COOKIE}\` and \`${REFRESH_COOKIE}\` cleared (Max-Age=0)`;

const sessionAnswer: JsonSchema = {
  type: 'object',
  required: ['authenticated', 'expires_in'],
  properties: {
    authenticated: { const: true },
    expires_in: { type: 'integer', description: "Seconds until the access token expires (refresh then, or on a 401's `session_expired`)" },
  },
  additionalProperties: false,
};
const redirectTo: JsonSchema = { type: 'string', format: 'uri', description: 'Where to send the browser next (the provider continues the sign-in)' };

/** The /auth routes: one entry per method and path (the hosted `/_osg` variants are `hosted`). */
export const authEndpoints: Endpoint[] = [
  defineEndpoint({
    method: 'GET',
    path: '/auth/authorize',
    hosted: 'prefixed',
    credential: 'none',
    responses: {
      302: { description: "To the provider's authorization endpoint with the query", headers: { Location: "The provider's authorization URL" } },
    },
    errors: ['issuer_not_configured', 'provider_unavailable', CORS_AUDIENCE],
    docs: {
      operationId: 'authAuthorize',
      summary: 'Start sign-in: redirect to the identity provider',
      description:
        "Step 1 of the sign-in (docs/api.md §4.6). The query is forwarded unchanged to the provider's authorization endpoint, which checks it (a registered redirect URI, matched exactly; PKCE S256 required).",
      tag: 'auth',
      security: [],
      parameters: [
        { name: 'client_id', in: 'query', required: true, description: "The app's OAuth client id", schema: { type: 'string' } },
        {
          name: 'redirect_uri',
          in: 'query',
          required: true,
          description: 'A redirect URI registered for the app',
          schema: { type: 'string', format: 'uri' },
        },
        { name: 'response_type', in: 'query', required: true, description: 'Authorization code flow', schema: { type: 'string', enum: ['code'] } },
        { name: 'scope', in: 'query', required: false, description: 'e.g. `openid profile`', schema: { type: 'string' } },
        {
          name: 'state',
          in: 'query',
          required: false,
          description: 'Echoed back to the redirect URI; the app checks it',
          schema: { type: 'string' },
        },
        { name: 'code_challenge', in: 'query', required: true, description: 'PKCE: base64url(SHA-256(code_verifier))', schema: { type: 'string' } },
        { name: 'code_challenge_method', in: 'query', required: true, description: 'PKCE method', schema: { type: 'string', enum: ['S256'] } },
      ],
    },
    handle: call => call.runtime.authHandlers.authorize(call),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/auth/token',
    hosted: 'prefixed',
    credential: 'none',
    body: tokenBody,
    bodyReading: 'handler',
    responses: { 200: { description: 'Signed in', json: sessionAnswer, headers: { 'Set-Cookie': SESSION_SET_COOKIE } } },
    errors: [
      'invalid_json',
      'unsupported_media_type',
      'csrf_required',
      'invalid_grant',
      'invalid_request',
      'provider_unavailable',
      'provider_error',
      'issuer_not_configured',
      'busy',
    ],
    docs: {
      operationId: 'authToken',
      summary: 'Finish sign-in: exchange the code for a cookie session',
      description: `Step 4 (docs/api.md §4.6): the gateway exchanges the code with the provider and sets the session cookies. Takes a JSON body only (415 unsupported_media_type otherwise). Against login CSRF it needs the header \`${CSRF_HEADER}: 1\`, or an \`Origin\` that is the gateway's own, the hosted origin it is called on, or one registered by the app that owns \`client_id\` (403 csrf_required otherwise). The provider's refusals keep its OAuth code (\`invalid_grant\`, \`invalid_request\`, …) at its 4xx status.`,
      tag: 'auth',
      security: [{ csrfHeader: [] }, {}],
      bodyRequired: true,
    },
    handle: call => call.runtime.authHandlers.token(call),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/auth/refresh',
    hosted: 'prefixed',
    credential: 'none',
    csrf: 'header',
    body: clientBody,
    bodyReading: 'json',
    responses: {
      200: { description: 'Renewed', json: sessionAnswer, headers: { 'Set-Cookie': SESSION_SET_COOKIE } },
      401: { description: 'No usable refresh token: sign in again', headers: { 'Set-Cookie': CLEARED_SET_COOKIE } },
    },
    errors: ['invalid_refresh_token', 'provider_unavailable', 'provider_error', 'issuer_not_configured', CORS_AUDIENCE],
    docs: {
      operationId: 'authRefresh',
      summary: 'Renew the session with the refresh cookie',
      description: `Exchanges the \`${REFRESH_COOKIE}\` cookie at the provider and sets new session cookies. The client id is the body's, else the \`${CLIENT_COOKIE}\` cookie's. Without a usable refresh token: 401 invalid_refresh_token, and the cookies are cleared. ${CSRF_RULE}`,
      tag: 'auth',
      security: [{ refreshCookie: [], csrfHeader: [] }],
      bodyRequired: false,
    },
    handle: call => call.runtime.authHandlers.refresh(call),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/auth/logout',
    hosted: 'prefixed',
    credential: 'none',
    csrf: 'header',
    body: clientBody,
    bodyReading: 'handler',
    responses: {
      200: {
        description: 'Signed out',
        json: { type: 'object', required: ['ok'], properties: { ok: { const: true } }, additionalProperties: false },
        headers: { 'Set-Cookie': CLEARED_SET_COOKIE },
      },
    },
    errors: ['csrf_required'],
    docs: {
      operationId: 'authLogout',
      summary: 'Sign out',
      description: `Clears the session cookies and revokes the refresh and access tokens at the provider (best effort). Always \`{ ok: true }\` once the CSRF header is there: a bad body counts as no \`client_id\`. ${CSRF_RULE}`,
      tag: 'auth',
      security: [{ csrfHeader: [] }],
      bodyRequired: false,
    },
    handle: call => call.runtime.authHandlers.logout(call),
  }),
  defineEndpoint({
    method: 'GET',
    path: '/auth/session',
    hosted: 'prefixed',
    credential: 'none',
    responses: {
      200: {
        description: 'The session',
        json: {
          oneOf: [
            {
              type: 'object',
              required: ['authenticated', 'user_id'],
              properties: { authenticated: { const: true }, user_id: { type: 'string' } },
              additionalProperties: false,
            },
            { type: 'object', required: ['authenticated'], properties: { authenticated: { const: false } }, additionalProperties: false },
          ],
        },
      },
    },
    errors: ['provider_unavailable', 'introspection_unavailable', 'issuer_not_configured', CORS_AUDIENCE],
    docs: {
      operationId: 'authSession',
      summary: "Whether the browser's session cookie is signed in",
      description: `Never a 401: without a valid \`${SESSION_COOKIE}\` (or, on a hosted origin, with another app's) the answer is \`{ authenticated: false }\`.`,
      tag: 'auth',
      security: [{ sessionCookie: [] }, {}],
    },
    handle: call => call.runtime.authHandlers.session(call),
  }),
  defineEndpoint({
    method: 'GET',
    path: '/auth/consent-request',
    hosted: 'prefixed',
    credential: 'none',
    responses: {
      200: {
        description: 'The request to show, or the redirect of a consent accepted at once',
        json: {
          oneOf: [
            {
              type: 'object',
              required: ['challenge', 'skip', 'subject', 'client_id', 'client_name', 'requested_scope', 'is_new_user', 'display_name'],
              properties: {
                challenge: { type: 'string' },
                skip: { const: false },
                subject: { type: 'string' },
                client_id: { type: ['string', 'null'] },
                client_name: { type: ['string', 'null'] },
                requested_scope: { type: 'array', items: { type: 'string' } },
                is_new_user: { type: 'boolean' },
                display_name: { type: ['string', 'null'] },
              },
              additionalProperties: false,
            },
            {
              type: 'object',
              required: ['skip', 'redirect_to', 'welcomed'],
              properties: { skip: { const: true }, redirect_to: redirectTo, welcomed: { type: 'boolean' } },
              additionalProperties: false,
            },
          ],
        },
      },
    },
    errors: [...CONSENT_ERRORS, 'consent_request_invalid', 'subject_reserved', 'busy', CORS_AUDIENCE],
    docs: {
      operationId: 'authConsentRequest',
      summary: "The provider's consent request, for the consent page",
      description: 'A remembered consent is accepted at once (`skip: true`, with the rules of docs/api.md §4.7); otherwise the page asks the user.',
      tag: 'auth',
      security: [],
      parameters: [
        {
          name: 'challenge',
          in: 'query',
          required: true,
          description: "The provider's consent challenge",
          schema: { type: 'string', minLength: 1, maxLength: 128 },
        },
      ],
    },
    handle: call => call.runtime.authHandlers.consentRequest(call),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/auth/consent/accept',
    hosted: 'prefixed',
    credential: 'none',
    csrf: 'header',
    body: acceptInput,
    bodyReading: 'handler',
    responses: {
      200: {
        description: 'Accepted: send the browser to `redirect_to`',
        json: {
          type: 'object',
          required: ['redirect_to', 'welcomed'],
          properties: { redirect_to: redirectTo, welcomed: { type: 'boolean', description: 'This call granted the welcome credit' } },
          additionalProperties: false,
        },
      },
    },
    errors: ['invalid_json', ...CONSENT_ERRORS, 'consent_request_invalid', 'subject_reserved', 'busy', CORS_AUDIENCE],
    docs: {
      operationId: 'authConsentAccept',
      summary: 'Accept the consent request',
      description: `Onboards the verified subject (profile, handle, welcome credit once), joins it to the app (best effort) and accepts at the provider (docs/api.md §4.7). The subject comes from the provider, never from the body. ${CSRF_RULE}`,
      tag: 'auth',
      security: [{ csrfHeader: [] }],
      bodyRequired: true,
    },
    handle: call => call.runtime.authHandlers.acceptConsent(call),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/auth/consent/reject',
    hosted: 'prefixed',
    credential: 'none',
    csrf: 'header',
    body: {
      type: 'object',
      required: ['challenge'],
      properties: { challenge: { type: 'string', minLength: 1, maxLength: 128 } },
      additionalProperties: false,
    },
    bodyReading: 'handler',
    responses: {
      200: {
        description: 'Rejected: send the browser to `redirect_to`',
        json: { type: 'object', required: ['redirect_to'], properties: { redirect_to: redirectTo }, additionalProperties: false },
      },
    },
    errors: ['invalid_json', ...CONSENT_ERRORS, CORS_AUDIENCE],
    docs: {
      operationId: 'authConsentReject',
      summary: 'Reject the consent request',
      description: `The provider then sends the browser back to the app with \`error=access_denied\`. ${CSRF_RULE}`,
      tag: 'auth',
      security: [{ csrfHeader: [] }],
      // The service parses this inline (gateway-auth/consent.service.ts rejectConsent).
      bodyRequired: true,
    },
    handle: call => call.runtime.authHandlers.rejectConsent(call),
  }),
  defineEndpoint({
    method: 'GET',
    path: '/auth/identity/flow',
    hosted: 'prefixed',
    credential: 'none',
    responses: { 200: { description: "The identity service's flow object", json: { type: 'object' } } },
    errors: ['flow_not_found', 'provider_error', 'provider_unavailable', 'identity_flows_unavailable', CORS_AUDIENCE],
    docs: {
      operationId: 'authIdentityFlow',
      summary: "An external provider's self-service flow, proxied",
      description:
        'For sign-in pages of a Kratos-style identity service (`OIDC_IDENTITY_URL`); the flow object is passed through as the service returns it.',
      tag: 'auth',
      security: [],
      parameters: [
        { name: 'type', in: 'query', required: true, description: 'The flow kind', schema: { type: 'string', enum: ['login', 'registration'] } },
        { name: 'id', in: 'query', required: true, description: 'The flow id', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
      ],
    },
    handle: call => call.runtime.authHandlers.identityFlow(call),
  }),
  defineEndpoint({
    method: 'GET',
    path: '/auth/consent',
    hosted: 'prefixed',
    credential: 'none',
    responses: { 200: { description: 'The consent page', html: true } },
    errors: [CORS_AUDIENCE],
    docs: {
      operationId: 'authConsentPage',
      summary: 'The consent page',
      description:
        "Where the provider sends the browser to consent (Hydra's consent URL): an HTML page that calls `GET /auth/consent-request` and then `POST /auth/consent/accept` or `reject`.",
      tag: 'auth',
      security: [],
      parameters: [
        { name: 'consent_challenge', in: 'query', required: true, description: "The provider's consent challenge", schema: { type: 'string' } },
      ],
    },
    handle: async ({ context }) => consentPage(context.url),
  }),
  defineEndpoint({
    method: 'GET',
    path: '/auth/callback',
    hosted: 'prefixed',
    credential: 'none',
    responses: {
      303: {
        description: 'Signed in: back to `/_invite/{code}` for the confirmation',
        headers: { Location: '`{origin}/_invite/{code}`', 'Set-Cookie': `${SESSION_SET_COOKIE}; \`gh_pending\` cleared` },
      },
      400: { description: 'A page: the sign-in expired or began in another browser, was cancelled, or its state does not match', html: true },
    },
    errors: ['invalid_grant', 'invalid_request', 'provider_unavailable', 'provider_error', 'issuer_not_configured', CORS_AUDIENCE],
    docs: {
      operationId: 'authCallback',
      summary: "Back from an invite's sign-in",
      description:
        "The redirect URI of the gateway's own sign-in for `/_invite/{code}` (its PKCE verifier and state wait in the `gh_pending` cookie): exchanges the code, sets the session cookies and sends the browser back to the invite page. Served at `/auth/callback` on the gateway's host (apps without an origin) and `/_osg/auth/callback` on a hosted origin.",
      tag: 'auth',
      security: [],
      parameters: [
        { name: 'code', in: 'query', required: false, description: 'The authorization code', schema: { type: 'string' } },
        { name: 'state', in: 'query', required: false, description: 'Must equal the pending sign-in state', schema: { type: 'string' } },
        {
          name: 'error',
          in: 'query',
          required: false,
          description: 'Set by the provider when the sign-in was cancelled',
          schema: { type: 'string' },
        },
        {
          name: 'gh_pending',
          in: 'cookie',
          required: true,
          description: 'The sign-in in flight (set by GET /_invite/{code}, on this path, 10 minutes)',
          schema: { type: 'string' },
        },
      ],
    },
    handle: ({ context, runtime }) => runtime.invitePages.callback(context, context.mount),
  }),
];
