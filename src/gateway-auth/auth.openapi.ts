/**
 * The gateway's own HTTP routes (docs/api.md §4) as the OpenAPI document describes them
 * (src/http/openapi.ts builds it): every `/auth/*` route of auth.routes.ts, `/_invite/{code}`
 * (invite.pages.ts), `/healthz` and `/openapi.json` (server.ts), and a pointer to the embedded
 * provider's OIDC discovery document instead of its every route. Kept beside the handlers it
 * describes: request bodies reuse the zod schemas they parse with; shapes built inline by a handler
 * are JSON Schema here. test/api/openapi.test.ts checks every entry of the auth route table is
 * listed and every code has its docs/api.md §8.2 status.
 */
import type { z } from 'zod';
import { acceptInput } from './consent.service.js';
import { clientBody, tokenBody } from './auth.routes.js';
import { CSRF_HEADER } from '../http/csrf.js';
import { CLIENT_COOKIE, HOSTED_PREFIX, REFRESH_COOKIE, SESSION_COOKIE } from '../http/request-context.js';

export type JsonSchema = Record<string, unknown>;
/** A zod schema where the code has one (converted by the document builder), else JSON Schema. */
export type Shape = z.ZodType | JsonSchema;

export interface GatewayResponse {
  description: string;
  /** A JSON body. */
  json?: Shape;
  /** An HTML page. */
  html?: true;
  /** Response headers, name -> what they carry. */
  headers?: Record<string, string>;
}

export interface GatewayParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/**
 * Where else a route is served, beside the gateway's own host (docs/api.md §4.3): `prefixed` under
 * `/_osg` on a hosted app origin (`/_osg/auth/*`, like `/_osg/v1/*`), `same-path` at the same path
 * there (`/_invite/{code}`, `/healthz`), `no` only on the gateway's host.
 */
export type HostedVariant = 'prefixed' | 'same-path' | 'no';

export interface GatewayRouteDoc {
  method: 'GET' | 'POST';
  /** The OpenAPI path template on the gateway's own host. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: 'auth' | 'invites' | 'service' | 'identity provider';
  hosted: HostedVariant;
  /** OpenAPI security requirements; `{}` is "no credential needed". */
  security: Record<string, string[]>[];
  parameters?: GatewayParameter[];
  body?: { mediaType: 'application/json' | 'application/x-www-form-urlencoded'; schema: Shape; required: boolean };
  /** Success, redirect and page answers, by status (errors with a code are `errors`). */
  responses: Record<number, GatewayResponse>;
  /** Codes answered as the §8.1 JSON error body, beyond commonGatewayErrors; statuses from docs/api.md §8.2. */
  errors: readonly string[];
  /** Codes whose refusal is an HTML page at the code's status (the invite pages), not a JSON body. */
  pageErrors?: readonly string[];
}

/** Codes every gateway route can answer: a NUL in the URL (400), oversized headers (431), the unexpected (500), an oversized body (POST). */
export function commonGatewayErrors(route: Pick<GatewayRouteDoc, 'method'>): string[] {
  const codes = ['invalid_argument', 'headers_too_large', 'internal'];
  return route.method === 'POST' ? [...codes, 'body_too_large'] : codes;
}

/** A cookie session sent with a registered app `Origin` on `/auth/*` must be that app's (CORS, docs/api.md §4.5). */
const CORS_AUDIENCE = 'audience_mismatch';
/** The consent admin API's answers (gateway-auth/provider-client.service.ts), for the consent routes. */
const CONSENT_ERRORS = [
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

/** The table: one entry per method and path (the hosted `/_osg` variants are the `hosted` field). */
export const gatewayRouteDocs: readonly GatewayRouteDoc[] = [
  {
    method: 'GET',
    path: '/auth/authorize',
    operationId: 'authAuthorize',
    summary: 'Start sign-in: redirect to the identity provider',
    description:
      "Step 1 of the sign-in (docs/api.md §4.6). The query is forwarded unchanged to the provider's authorization endpoint, which checks it (a registered redirect URI, matched exactly; PKCE S256 required).",
    tag: 'auth',
    hosted: 'prefixed',
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
      { name: 'state', in: 'query', required: false, description: 'Echoed back to the redirect URI; the app checks it', schema: { type: 'string' } },
      { name: 'code_challenge', in: 'query', required: true, description: 'PKCE: base64url(SHA-256(code_verifier))', schema: { type: 'string' } },
      { name: 'code_challenge_method', in: 'query', required: true, description: 'PKCE method', schema: { type: 'string', enum: ['S256'] } },
    ],
    responses: {
      302: { description: "To the provider's authorization endpoint with the query", headers: { Location: "The provider's authorization URL" } },
    },
    errors: ['issuer_not_configured', 'provider_unavailable', CORS_AUDIENCE],
  },
  {
    method: 'POST',
    path: '/auth/token',
    operationId: 'authToken',
    summary: 'Finish sign-in: exchange the code for a cookie session',
    description: `Step 4 (docs/api.md §4.6): the gateway exchanges the code with the provider and sets the session cookies. Takes a JSON body only (415 unsupported_media_type otherwise). Against login CSRF it needs the header \`${CSRF_HEADER}: 1\`, or an \`Origin\` that is the gateway's own, the hosted origin it is called on, or one registered by the app that owns \`client_id\` (403 csrf_required otherwise). The provider's refusals keep its OAuth code (\`invalid_grant\`, \`invalid_request\`, …) at its 4xx status.`,
    tag: 'auth',
    hosted: 'prefixed',
    security: [{ csrfHeader: [] }, {}],
    body: { mediaType: 'application/json', schema: tokenBody, required: true },
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
  },
  {
    method: 'POST',
    path: '/auth/refresh',
    operationId: 'authRefresh',
    summary: 'Renew the session with the refresh cookie',
    description: `Exchanges the \`${REFRESH_COOKIE}\` cookie at the provider and sets new session cookies. The client id is the body's, else the \`${CLIENT_COOKIE}\` cookie's. Without a usable refresh token: 401 invalid_refresh_token, and the cookies are cleared. ${CSRF_RULE}`,
    tag: 'auth',
    hosted: 'prefixed',
    security: [{ refreshCookie: [], csrfHeader: [] }],
    body: { mediaType: 'application/json', schema: clientBody, required: false },
    responses: {
      200: { description: 'Renewed', json: sessionAnswer, headers: { 'Set-Cookie': SESSION_SET_COOKIE } },
      401: { description: 'No usable refresh token: sign in again', headers: { 'Set-Cookie': CLEARED_SET_COOKIE } },
    },
    errors: [
      'invalid_json',
      'csrf_required',
      'invalid_refresh_token',
      'provider_unavailable',
      'provider_error',
      'issuer_not_configured',
      CORS_AUDIENCE,
    ],
  },
  {
    method: 'POST',
    path: '/auth/logout',
    operationId: 'authLogout',
    summary: 'Sign out',
    description: `Clears the session cookies and revokes the refresh and access tokens at the provider (best effort). Always \`{ ok: true }\` once the CSRF header is there: a bad body counts as no \`client_id\`. ${CSRF_RULE}`,
    tag: 'auth',
    hosted: 'prefixed',
    security: [{ csrfHeader: [] }],
    body: { mediaType: 'application/json', schema: clientBody, required: false },
    responses: {
      200: {
        description: 'Signed out',
        json: { type: 'object', required: ['ok'], properties: { ok: { const: true } }, additionalProperties: false },
        headers: { 'Set-Cookie': CLEARED_SET_COOKIE },
      },
    },
    errors: ['csrf_required'],
  },
  {
    method: 'GET',
    path: '/auth/session',
    operationId: 'authSession',
    summary: "Whether the browser's session cookie is signed in",
    description: `Never a 401: without a valid \`${SESSION_COOKIE}\` (or, on a hosted origin, with another app's) the answer is \`{ authenticated: false }\`.`,
    tag: 'auth',
    hosted: 'prefixed',
    security: [{ sessionCookie: [] }, {}],
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
  },
  {
    method: 'GET',
    path: '/auth/consent-request',
    operationId: 'authConsentRequest',
    summary: "The provider's consent request, for the consent page",
    description: 'A remembered consent is accepted at once (`skip: true`, with the rules of docs/api.md §4.7); otherwise the page asks the user.',
    tag: 'auth',
    hosted: 'prefixed',
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
  },
  {
    method: 'POST',
    path: '/auth/consent/accept',
    operationId: 'authConsentAccept',
    summary: 'Accept the consent request',
    description: `Onboards the verified subject (profile, handle, welcome credit once), joins it to the app (best effort) and accepts at the provider (docs/api.md §4.7). The subject comes from the provider, never from the body. ${CSRF_RULE}`,
    tag: 'auth',
    hosted: 'prefixed',
    security: [{ csrfHeader: [] }],
    body: { mediaType: 'application/json', schema: acceptInput, required: true },
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
    errors: ['invalid_json', 'csrf_required', ...CONSENT_ERRORS, 'consent_request_invalid', 'subject_reserved', 'busy', CORS_AUDIENCE],
  },
  {
    method: 'POST',
    path: '/auth/consent/reject',
    operationId: 'authConsentReject',
    summary: 'Reject the consent request',
    description: `The provider then sends the browser back to the app with \`error=access_denied\`. ${CSRF_RULE}`,
    tag: 'auth',
    hosted: 'prefixed',
    security: [{ csrfHeader: [] }],
    // The service parses this inline (gateway-auth/consent.service.ts rejectConsent).
    body: {
      mediaType: 'application/json',
      schema: {
        type: 'object',
        required: ['challenge'],
        properties: { challenge: { type: 'string', minLength: 1, maxLength: 128 } },
        additionalProperties: false,
      },
      required: true,
    },
    responses: {
      200: {
        description: 'Rejected: send the browser to `redirect_to`',
        json: { type: 'object', required: ['redirect_to'], properties: { redirect_to: redirectTo }, additionalProperties: false },
      },
    },
    errors: ['invalid_json', 'csrf_required', ...CONSENT_ERRORS, CORS_AUDIENCE],
  },
  {
    method: 'GET',
    path: '/auth/identity/flow',
    operationId: 'authIdentityFlow',
    summary: "An external provider's self-service flow, proxied",
    description:
      'For sign-in pages of a Kratos-style identity service (`OIDC_IDENTITY_URL`); the flow object is passed through as the service returns it.',
    tag: 'auth',
    hosted: 'prefixed',
    security: [],
    parameters: [
      { name: 'type', in: 'query', required: true, description: 'The flow kind', schema: { type: 'string', enum: ['login', 'registration'] } },
      { name: 'id', in: 'query', required: true, description: 'The flow id', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
    ],
    responses: { 200: { description: "The identity service's flow object", json: { type: 'object' } } },
    errors: ['flow_not_found', 'provider_error', 'provider_unavailable', 'identity_flows_unavailable', CORS_AUDIENCE],
  },
  {
    method: 'GET',
    path: '/auth/consent',
    operationId: 'authConsentPage',
    summary: 'The consent page',
    description:
      "Where the provider sends the browser to consent (Hydra's consent URL): an HTML page that calls `GET /auth/consent-request` and then `POST /auth/consent/accept` or `reject`.",
    tag: 'auth',
    hosted: 'prefixed',
    security: [],
    parameters: [
      { name: 'consent_challenge', in: 'query', required: true, description: "The provider's consent challenge", schema: { type: 'string' } },
    ],
    responses: { 200: { description: 'The consent page', html: true } },
    errors: [CORS_AUDIENCE],
  },
  {
    method: 'GET',
    path: '/auth/callback',
    operationId: 'authCallback',
    summary: "Back from an invite's sign-in",
    description:
      "The redirect URI of the gateway's own sign-in for `/_invite/{code}` (its PKCE verifier and state wait in the `gh_pending` cookie): exchanges the code, sets the session cookies and sends the browser back to the invite page. Served at `/auth/callback` on the gateway's host (apps without an origin) and `/_osg/auth/callback` on a hosted origin.",
    tag: 'auth',
    hosted: 'prefixed',
    security: [],
    parameters: [
      { name: 'code', in: 'query', required: false, description: 'The authorization code', schema: { type: 'string' } },
      { name: 'state', in: 'query', required: false, description: 'Must equal the pending sign-in state', schema: { type: 'string' } },
      { name: 'error', in: 'query', required: false, description: 'Set by the provider when the sign-in was cancelled', schema: { type: 'string' } },
      {
        name: 'gh_pending',
        in: 'cookie',
        required: true,
        description: 'The sign-in in flight (set by GET /_invite/{code}, on this path, 10 minutes)',
        schema: { type: 'string' },
      },
    ],
    responses: {
      303: {
        description: 'Signed in: back to `/_invite/{code}` for the confirmation',
        headers: { Location: '`{origin}/_invite/{code}`', 'Set-Cookie': `${SESSION_SET_COOKIE}; \`gh_pending\` cleared` },
      },
      400: { description: 'A page: the sign-in expired or began in another browser, was cancelled, or its state does not match', html: true },
    },
    errors: ['invalid_grant', 'invalid_request', 'provider_unavailable', 'provider_error', 'issuer_not_configured', CORS_AUDIENCE],
  },
  {
    method: 'GET',
    path: '/_invite/{code}',
    operationId: 'invitePage',
    summary: 'The invite confirmation page',
    description:
      "Signed in to the link's app: a page naming the resource and role with a Join button (a same-origin form POST); it never joins by itself (docs/api.md §4.3). Not signed in: 302 to the provider's sign-in, back through `/auth/callback` to this page. A link that cannot be used is a page saying why, and is not used up. Served on a hosted app origin (that app's links) and on the gateway's host (apps without an origin).",
    tag: 'invites',
    hosted: 'same-path',
    security: [{ sessionCookie: [] }, {}],
    parameters: [
      {
        name: 'code',
        in: 'path',
        required: true,
        description: 'The invite code (`inv_…`)',
        schema: { type: 'string', pattern: '^inv_[A-Za-z0-9_-]{43}$' },
      },
    ],
    responses: {
      200: { description: 'The confirmation page: its form POSTs a per-session token to this URL', html: true },
      302: {
        description: "Not signed in: to the provider's authorization endpoint (the gateway's own PKCE and state)",
        headers: { Location: "The provider's authorization URL", 'Set-Cookie': '`gh_pending` (HttpOnly, on the callback path, 10 minutes)' },
      },
      404: { description: 'A page: no such link (incomplete code, another app, another environment)', html: true },
      503: { description: 'A page: the app has no OAuth client to sign in with', html: true },
    },
    errors: ['busy', 'provider_unavailable', 'issuer_not_configured', 'introspection_unavailable'],
    pageErrors: ['invite_link_not_found', 'invite_link_used', 'invite_link_expired', 'env_not_deployed'],
  },
  {
    method: 'POST',
    path: '/_invite/{code}',
    operationId: 'inviteJoin',
    summary: 'Join: the confirmation page’s form',
    description:
      "Claims the link for the signed-in user. Only the page's own same-origin form is accepted (its `Origin` and `Sec-Fetch-Site`, and a token bound to this session and link). On a hosted origin the answer is a 303 to the app; on the gateway's host a page saying so. Signed out since the page was shown: 303 back to the page.",
    tag: 'invites',
    hosted: 'same-path',
    security: [{ sessionCookie: [] }],
    parameters: [
      {
        name: 'code',
        in: 'path',
        required: true,
        description: 'The invite code (`inv_…`)',
        schema: { type: 'string', pattern: '^inv_[A-Za-z0-9_-]{43}$' },
      },
    ],
    body: {
      mediaType: 'application/x-www-form-urlencoded',
      schema: { type: 'object', required: ['csrf'], properties: { csrf: { type: 'string', description: "The page's form token" } } },
      required: true,
    },
    responses: {
      200: { description: "Joined (the gateway's host): a page saying so", html: true },
      303: {
        description: 'Joined on a hosted origin: to the app; or signed out: back to the page',
        headers: { Location: '`{origin}/?invite=accepted&resource={resourceId}`, or `{origin}/_invite/{code}`' },
      },
      403: { description: 'A page: the request did not come from the invite page, or its token expired', html: true },
      415: { description: 'A page: not a form POST', html: true },
    },
    errors: ['busy', 'provider_unavailable', 'issuer_not_configured', 'introspection_unavailable'],
    pageErrors: [
      'invite_link_not_found',
      'invite_link_used',
      'invite_link_expired',
      'invite_link_inactive',
      'blocked',
      'already_member',
      'conflict',
      'env_not_deployed',
    ],
  },
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Readiness',
    description: 'No credential. Also answered on hosted app origins.',
    tag: 'service',
    hosted: 'same-path',
    security: [],
    responses: {
      200: { description: 'Serving: status ok, or degraded (the live-feed bus cannot reach Redis) with its reason', json: healthSchema(true) },
      503: { description: 'Not started yet (or stopping)', json: healthSchema(false) },
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/',
    operationId: 'landingPage',
    summary: 'What this server offers',
    description:
      'No credential. A small HTML page linking GraphQL (GraphiQL outside production), this document and /healthz, with the next command (`gatehouse dev-token create`); with `Accept: application/json`, the same as JSON. On the gateway host only.',
    tag: 'service',
    hosted: 'no',
    security: [],
    responses: {
      200: {
        description: 'The page (text/html), or its links (application/json)',
        json: {
          type: 'object',
          required: ['name', 'version', 'rest', 'openapi', 'graphql', 'graphiql', 'healthz', 'next'],
          properties: {
            name: { const: 'gatehouse' },
            version: { type: 'string' },
            rest: { type: 'string' },
            openapi: { type: 'string' },
            graphql: { type: 'string' },
            graphiql: { type: 'boolean' },
            healthz: { type: 'string' },
            next: { type: 'string', description: 'The next command to run' },
          },
          additionalProperties: false,
        },
      },
    },
    errors: [],
  },
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    description: 'The REST routes (generated from the route table) and the gateway routes (src/gateway-auth/auth.openapi.ts). No credential.',
    tag: 'service',
    hosted: 'no',
    security: [],
    responses: { 200: { description: 'OpenAPI 3.1', json: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
    errors: [],
  },
  {
    method: 'GET',
    path: '/idp/.well-known/openid-configuration',
    operationId: 'idpDiscovery',
    summary: "The embedded identity provider's OIDC discovery document",
    description:
      'The embedded OpenID provider (run when `OIDC_ISSUER` is unset; issuer `<PUBLIC_URL>/idp`) is standard OpenID Connect: this document lists its endpoints (authorization, token, userinfo, revocation, introspection, JWKS) and they are not repeated here. With an external provider (`OIDC_ISSUER`) there is no `/idp` (404 not_found): read `<OIDC_ISSUER>/.well-known/openid-configuration`.',
    tag: 'identity provider',
    hosted: 'no',
    security: [],
    responses: {
      200: {
        description: 'OpenID Connect Discovery 1.0',
        json: {
          type: 'object',
          required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'],
          properties: {
            issuer: { type: 'string', format: 'uri' },
            authorization_endpoint: { type: 'string', format: 'uri' },
            token_endpoint: { type: 'string', format: 'uri' },
            jwks_uri: { type: 'string', format: 'uri' },
          },
        },
      },
    },
    errors: ['not_found'],
  },
];

function healthSchema(started: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['ok', 'status', 'database', 'bus'],
    properties: {
      ok: started ? { type: 'boolean', description: 'Everything is well (status ok)' } : { const: false },
      status: started ? { enum: ['ok', 'degraded'] } : { const: 'unavailable' },
      database: { type: 'string', enum: ['pglite', 'postgres'] },
      bus: {
        type: 'object',
        description: 'The live-feed event bus: in process (memory), or Redis; not ok while Redis is unreachable (feeds do not cross instances)',
        required: ['kind', 'ok'],
        properties: { kind: { enum: ['memory', 'redis'] }, ok: { type: 'boolean' }, reason: { type: 'string' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}
