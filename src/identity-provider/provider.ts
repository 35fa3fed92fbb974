/**
 * The embedded identity and consent provider (oidc-provider 9). It serves the OAuth 2.0 /
 * OpenID endpoints on Hydra's paths, a sign-in and sign-up page for the login prompt, and a
 * Hydra-compatible consent admin API over its interactions (the consent challenge is the
 * interaction id), plus self-service flow documents for the gateway's identity-flow proxy.
 * Mounted under the issuer's path (`/idp`) on the Gatehouse server, or on its own port.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type Configuration, type KoaContextWithOIDC, errors } from 'oidc-provider';
import { AppError } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { clientIp } from '../http/client-ip.js';
import { digestsEqual, sha256 } from '../lib/secrets.js';
import { parseForm, parseJsonObject, readNodeBody } from '../http/body.js';
import { escapeHtml, json, html, redirect, writeNodeResponse } from '../http/responses.js';
import { createAccountStore, type SignInThrottle } from './accounts.js';
import { ClientAdapter, GATEWAY_CALLBACK_PATH, type OidcClientCache, PrismaOidcAdapter } from './adapter.js';
import { createConsentAdmin } from './consent-admin.js';
import { loadIdpKeys } from './keys.js';
import { PAGE_HEADERS, PROVIDER_CSP, errorPage, layout, loginPage } from './pages.js';
import { IDP_ROUTES, issuerMount } from './routes.js';
import { OPAQUE_TOKEN_BITS } from './token-format.js';
import { logger } from '../lib/logger.js';

export interface IdentityProviderOptions {
  prisma: PrismaClient;
  /** Its OAuth clients' metadata, shared with the app operations that change it (an origin added). */
  clientCache?: OidcClientCache;
  /** e.g. https://gatehouse.example.com/idp; its path is where the provider is mounted. */
  issuer: string;
  /** Where the browser goes for consent, with `?consent_challenge=<interaction id>`. */
  consentUrl: string;
  /** The confidential client the gateway introspects and revokes with. */
  gatewayClient: { clientId: string; secret: string };
  /** Bearer token of the admin API (consent requests). */
  adminToken: string;
  /** Cookie key material; stored in the database when unset. */
  secret?: string;
  /** Log why token requests are refused (LOG_LEVEL=debug). */
  debug?: boolean;
  /** Lifetimes in seconds (tests shorten them). */
  ttl?: { accessToken?: number; refreshToken?: number };
  /** Sign-in and sign-up attempts per client address and in all (SIGNIN_MAX_PER_IP, SIGNIN_MAX_GLOBAL). */
  signInLimits?: SignInThrottle;
  /** Reverse proxies whose X-Forwarded-For names the client (TRUST_PROXY); 0 = the socket's peer. */
  trustProxy?: number;
  /**
   * The gateway's own invite callback (`${PUBLIC_URL}/auth/callback`), accepted as a redirect URI
   * of every app client; default: /auth/callback beside the consent URL (the gateway's page).
   */
  gatewayCallbackUrl?: string;
  /**
   * Issue access tokens as JWTs (RFC 9068, `typ: at+jwt`) for one resource server, the gateway
   * (`audience`, its PUBLIC_URL), so it verifies them against the JWKS without a round trip. They
   * live `ttlSeconds` and cannot be revoked before then; refresh tokens stay opaque and revocable.
   */
  jwtAccessTokens?: { audience: string; ttlSeconds: number } | null;
  /** The body limit of its forms and admin API (MAX_BODY_BYTES when mounted in the gateway). */
  maxBodyBytes?: number;
}

/** What a server needs to mount the provider (lazy.ts builds it on its first request). */
export interface IdentityProvider {
  issuer: string;
  mountPath: string;
  /** Whether a path is under the mount path (the provider's to serve). */
  owns(path: string): boolean;
  /** Serves the request when its path is under the mount path; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

/** The built provider, with oidc-provider's instance (for tools that mint tokens with it). */
export interface EmbeddedIdentityProvider extends IdentityProvider {
  provider: Provider;
}

export { IDP_ROUTES };

const DAY = 24 * 60 * 60;

/** The provider's own pages: never framed, a CSP without script (html()'s defaults may add more). */
const page = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
  writeNodeResponse(res, html(status, body, { ...PAGE_HEADERS, ...headers }));
const writeJson = (res: ServerResponse, status: number, body: unknown) => writeNodeResponse(res, json(status, body));
const UID = /^[A-Za-z0-9_-]{1,64}$/;

export async function createIdentityProvider(options: IdentityProviderOptions): Promise<EmbeddedIdentityProvider> {
  const { prisma, gatewayClient } = options;
  const { issuer, mountPath, owns } = issuerMount(options.issuer);
  const accounts = createAccountStore(prisma, options.signInLimits);
  const keys = await loadIdpKeys(prisma, options.secret);
  const clients = new ClientAdapter(
    prisma,
    [options.gatewayCallbackUrl ?? new URL(GATEWAY_CALLBACK_PATH, options.consentUrl).href],
    options.clientCache,
  );
  const accessTtl = options.ttl?.accessToken ?? 3600;
  const jwt = options.jwtAccessTokens ?? null;
  const refreshTtl = options.ttl?.refreshToken ?? 14 * DAY;

  const configuration: Configuration = {
    adapter: (name: string) => (name === 'Client' ? clients : new PrismaOidcAdapter(name, prisma)),
    clients: [
      {
        client_id: gatewayClient.clientId,
        client_secret: gatewayClient.secret,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    async findAccount(_ctx, sub) {
      const claims = await accounts.claims(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => claims };
    },
    interactions: { url: async (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    cookies: { keys: keys.cookieKeys, long: { httpOnly: true, sameSite: 'lax' }, short: { httpOnly: true, sameSite: 'lax' } },
    jwks: { keys: [keys.signing] },
    routes: IDP_ROUTES,
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
    responseTypes: ['code'],
    // PKCE for every authorization request; oidc-provider 9 only knows S256, so plain is refused.
    pkce: { required: () => true },
    clientBasedCORS: () => false,
    // Refresh tokens for every client allowed the grant, without offline_access/prompt=consent.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // The gateway refuses anything else without asking (token-format.ts).
    formats: { bitsOfOpaqueRandomness: OPAQUE_TOKEN_BITS },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      introspection: {
        enabled: true,
        // The gateway's client may introspect any token; an app client only its own.
        allowedPolicy: async (_ctx, client, token) => client.clientId === gatewayClient.clientId || token.clientId === client.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => client.clientId === gatewayClient.clientId || token.clientId === client.clientId,
      },
      ...(jwt
        ? {
            resourceIndicators: {
              enabled: true,
              // Apps do not send `resource`: every authorization is for the gateway.
              defaultResource: () => jwt.audience,
              // The code and refresh grants keep the granted resource even with the openid scope.
              useGrantedResource: () => true,
              getResourceServerInfo: (_ctx: unknown, indicator: string) => {
                if (indicator !== jwt.audience) throw new errors.InvalidTarget();
                return {
                  scope: 'openid offline_access profile email',
                  audience: jwt.audience,
                  accessTokenTTL: jwt.ttlSeconds,
                  accessTokenFormat: 'jwt' as const,
                  jwt: { sign: { alg: 'RS256' } },
                };
              },
            },
          }
        : {}),
      // The provider's own pages in the gateway's look, no third-party fonts, same headers as every page.
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = layout(
            'Sign out',
            `<h1>Sign out?</h1><p>Do you want to sign out of ${escapeHtml(ctx.host)}?</p>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>`,
          );
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = layout('Signed out', '<h1>Signed out</h1><p>You have been signed out.</p>');
        },
      },
    },
    ttl: {
      // A JWT for the gateway lives its resource server's (short) lifetime: it cannot be revoked.
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTtl,
      AuthorizationCode: () => 60,
      IdToken: () => 3600,
      Interaction: () => 3600,
      Session: () => 14 * DAY,
      Grant: () => 14 * DAY,
      RefreshToken: (ctx, _token, client) => {
        // A rotated refresh token of a public client keeps its predecessor's deadline.
        const rotated = (ctx as KoaContextWithOIDC | undefined)?.oidc?.entities.RotatedRefreshToken;
        if (rotated && client.clientAuthMethod === 'none') return rotated.remainingTTL;
        return refreshTtl;
      },
    },
    async renderError(ctx, out) {
      ctx.set(PAGE_HEADERS);
      ctx.type = 'html';
      ctx.body = errorPage('Sign-in failed', `${out.error}: ${out.error_description ?? 'The request could not be completed.'}`);
    },
  };

  const provider = new Provider(issuer, configuration);
  // Every HTML page the provider renders (errors, logout, form_post) refuses framing and carries a
  // CSP; set before rendering so oidc-provider adds the hash of any inline script it writes.
  provider.use(async (ctx, next) => {
    ctx.set('content-security-policy', PROVIDER_CSP);
    await next();
    if (ctx.response.is('html')) ctx.set('x-frame-options', 'DENY');
    else ctx.remove('content-security-policy');
  });
  provider.on('server_error', (_ctx, error) => logger.error({ err: error }, 'idp: server error'));
  // oidc-provider keeps the reason of an invalid_grant (e.g. a PKCE mismatch) out of the response.
  if (options.debug)
    provider.on('grant.error', (_ctx, error) =>
      logger.warn({ detail: (error as { error_detail?: string }).error_detail ?? error.message }, 'idp: grant refused'),
    );
  const callback = provider.callback();
  const admin = createConsentAdmin(provider, prisma);
  const adminTokenHash = sha256(options.adminToken);

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string) {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return page(res, 400, errorPage('Sign-in expired', 'This sign-in attempt is no longer valid. Go back to the app and sign in again.'));
    }
    if (details.uid !== uid) return page(res, 400, errorPage('Sign-in expired', 'This sign-in attempt does not belong to this browser.'));
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const base = `${mountPath}/interaction/${uid}`;

    if (req.method === 'GET' && action === '') {
      if (details.prompt.name === 'login') return page(res, 200, loginPage({ action: base, clientName }));
      if (details.prompt.name === 'consent') {
        const target = new URL(options.consentUrl);
        target.searchParams.set('consent_challenge', uid);
        return writeNodeResponse(res, redirect(target.href));
      }
      return page(res, 400, errorPage('Unsupported prompt', `The prompt ${details.prompt.name} is not supported.`));
    }
    if (req.method === 'GET' && action === 'abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled sign-in.' },
        { mergeWithLastSubmission: false },
      );
    }
    if (req.method === 'POST' && (action === 'login' || action === 'signup')) {
      if (details.prompt.name !== 'login') return page(res, 400, errorPage('Already signed in', 'This step is already complete.'));
      const form = parseForm(await readNodeBody(req, options.maxBodyBytes));
      try {
        const { principalId } =
          action === 'login'
            ? await accounts.signIn({ email: form.email, password: form.password, ip: clientIp(req, options.trustProxy) })
            : await accounts.signUp({
                email: form.email,
                password: form.password,
                displayName: form.display_name,
                ip: clientIp(req, options.trustProxy),
              });
        return provider.interactionFinished(req, res, { login: { accountId: principalId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const retryAfter = error.details?.retryAfterSeconds;
        return page(res, error.status, loginPage({ action: base, clientName, error: error.message, email: form.email }), {
          ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}),
        });
      }
    }
    return page(res, 405, errorPage('Not allowed', `${req.method} is not supported here.`));
  }

  function adminAuthorized(req: IncomingMessage): boolean {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    return !!match && digestsEqual(sha256(match[1]), adminTokenHash);
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL, rest: string) {
    if (!adminAuthorized(req)) return writeJson(res, 401, { error: 'unauthorized', error_description: 'The admin API needs its bearer token.' });
    const challenge = url.searchParams.get('consent_challenge') ?? '';
    if (!UID.test(challenge))
      return writeJson(res, 400, { error: 'invalid_request', error_description: 'consent_challenge is missing or malformed.' });
    try {
      if (req.method === 'GET' && rest === '/oauth2/auth/requests/consent') return writeJson(res, 200, await admin.get(challenge));
      if (req.method === 'PUT' && rest === '/oauth2/auth/requests/consent/accept') {
        return writeJson(res, 200, await admin.accept(challenge, parseJsonObject(await readNodeBody(req, options.maxBodyBytes))));
      }
      if (req.method === 'PUT' && rest === '/oauth2/auth/requests/consent/reject') {
        return writeJson(res, 200, await admin.reject(challenge, parseJsonObject(await readNodeBody(req, options.maxBodyBytes))));
      }
      return writeJson(res, 404, { error: 'not_found', error_description: `No admin route ${req.method} ${rest}.` });
    } catch (error) {
      if (error instanceof AppError) return writeJson(res, error.status, { error: error.code, error_description: error.message });
      throw error;
    }
  }

  /** Kratos-style self-service flow documents: what a custom UI needs to render the forms. */
  async function selfServiceFlow(res: ServerResponse, type: 'login' | 'registration', id: string) {
    const found = UID.test(id) ? await provider.Interaction.find(id) : undefined;
    if (found?.prompt.name !== 'login') return writeJson(res, 404, { error: 'not_found', error_description: 'No such flow, or it expired.' });
    const input = (name: string, type: string, required = true) => ({ type: 'input', group: 'password', attributes: { name, type, required } });
    const nodes =
      type === 'login'
        ? [input('email', 'email'), input('password', 'password')]
        : [input('display_name', 'text', false), input('email', 'email'), input('password', 'password')];
    return writeJson(res, 200, {
      id,
      type,
      expires_at: new Date(found.exp * 1000).toISOString(),
      ui: { action: `${issuer}/interaction/${id}/${type === 'login' ? 'login' : 'signup'}`, method: 'POST', nodes },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    if (!owns(path)) return false;
    const rest = path.slice(mountPath.length) || '/';

    const inter = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(login|signup|abort))?$/.exec(rest);
    if (inter) {
      await interaction(req, res, inter[1], inter[2] ?? '');
      return true;
    }
    if (rest.startsWith('/admin/')) {
      await handleAdmin(req, res, url, rest.slice('/admin'.length));
      return true;
    }
    const flow = /^\/self-service\/(login|registration)\/flows$/.exec(rest);
    if (flow && req.method === 'GET') {
      await selfServiceFlow(res, flow[1] as 'login' | 'registration', url.searchParams.get('id') ?? '');
      return true;
    }
    // Everything else is oidc-provider's, mounted the way Express would mount it.
    const mounted = req as IncomingMessage & { originalUrl?: string };
    mounted.originalUrl = req.url;
    req.url = (req.url ?? '/').slice(mountPath.length) || '/';
    if (!req.url.startsWith('/')) req.url = `/${req.url}`;
    await callback(req, res);
    return true;
  }

  return { issuer, mountPath, provider, owns, handle };
}
