/**
 * The sign-in test rig: a Gatehouse server whose PUBLIC_URL is its real loopback address (so the
 * embedded provider's issuer is reachable), an app with an origin and a redirect URI deployed to
 * prod, and the whole browser flow with a real OAuth client library (oauth4webapi).
 */
import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createIdentityProviderServer, type IdentityProviderServer } from '../../src/identity-provider/server.js';
import { buildApp, type App } from '../../src/server.js';
import { Client, TEST_SCHEMA } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { watchBus } from '../helpers/feeds.js';
import { loopbackFront } from '../helpers/ports.js';
import type { Browser } from './browser.js';

export const CSRF = { 'x-service-csrf': '1' };

export interface AuthRig {
  app: App;
  url: string;
  issuer: string;
  /** The provider's own server when it runs standalone (RigOptions.standaloneIdp). */
  idp: IdentityProviderServer | null;
  advance(ms: number): void;
  developer: Client;
  close(): Promise<void>;
  createApp(options?: { deployProd?: boolean }): Promise<RigApp>;
}

export interface RigApp {
  appId: string;
  clientId: string;
  origin: string;
  redirectUri: string;
}

export interface RigOptions {
  /**
   * Run the provider as `gatehouse idp` does, on its own port, and point the gateway at it as an
   * external Hydra-compatible issuer; `introspection: false` leaves the gateway on userinfo.
   */
  standaloneIdp?: { introspection: boolean };
}

export async function startAuthRig(env: Record<string, string> = {}, options: RigOptions = {}): Promise<AuthRig> {
  const database = await createTestDatabase();
  // PUBLIC_URL and the issuer must be known before the servers are built: a front listening on a
  // port the OS picked, attached to the server once it exists (never a closed-then-reused port).
  const front = await loopbackFront();
  const url = front.url;
  let idpFront: Awaited<ReturnType<typeof loopbackFront>> | null = null;
  let offset = 0;
  let idp: IdentityProviderServer | null = null;
  let issuer = `${url}/idp`;
  if (options.standaloneIdp) {
    const gatewayClient = { clientId: 'gatehouse-gateway', secret: randomBytes(24).toString('base64url') };
    const adminToken = randomBytes(24).toString('base64url');
    idpFront = await loopbackFront();
    issuer = idpFront.url;
    idp = await createIdentityProviderServer(
      {
        port: 0,
        host: '127.0.0.1',
        issuer,
        consentUrl: `${url}/auth/consent`,
        gatewayClient,
        adminToken,
        logLevel: 'silent',
        signInLimits: { perIp: 100_000, global: 100_000 },
      },
      database.prisma,
    );
    idpFront.attach(idp.server);
    env = {
      OIDC_ISSUER: issuer,
      OIDC_ADMIN_URL: issuer,
      OIDC_ADMIN_TOKEN: adminToken,
      OIDC_IDENTITY_URL: issuer,
      ...(options.standaloneIdp.introspection
        ? { OIDC_INTROSPECTION_CLIENT_ID: gatewayClient.clientId, OIDC_INTROSPECTION_CLIENT_SECRET: gatewayClient.secret }
        : {}),
      ...env,
    };
  }
  // The suites sign many people up from one loopback address: the per-address limit is tested on its own.
  const config = loadConfig({
    NODE_ENV: 'test',
    // Unexpected errors (500s) print with their stack: a test that meets one says why.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    PORT: '0',
    PUBLIC_URL: url,
    COOKIE_SECURE: '0',
    DATA_DIR: 'memory://',
    SIGNIN_MAX_PER_IP: '100000',
    SIGNIN_MAX_GLOBAL: '100000',
    ...env,
  });
  const app = await buildApp({ config, database, now: () => new Date(Date.now() + offset) });
  // Feed tests wait for their subscription to attach (feedAttached), not a fixed time.
  watchBus(app.services.deps.bus);
  // Listening on its own port too sets the app up as a server (ready, provider backchannel).
  await app.start();
  front.attach(app.server);
  const bootstrap = await app.services.principals.createDeveloperToken(`dev-${Math.random().toString(36).slice(2)}@example.test`);
  const developer = new Client(url, bootstrap.token);
  return {
    app,
    url,
    issuer,
    idp,
    advance: ms => {
      offset += ms;
    },
    developer,
    async close() {
      await front.close();
      await idpFront?.close();
      await app.stop();
      await idp?.stop();
      await database.close();
    },
    async createApp({ deployProd = true } = {}) {
      const origin = `https://app-${Math.random().toString(36).slice(2, 10)}.example.test`;
      const redirectUri = `${origin}/callback`;
      const created = await developer.post('/dev/apps', { name: 'Rig app', origins: [origin], redirectUris: [redirectUri] });
      expect(created.status).toBe(200);
      if (deployProd) {
        const deployed = await developer.request('PUT', `/dev/apps/${created.body.id}/deployments/prod`, { schema: TEST_SCHEMA });
        expect(deployed.status).toBe(200);
      }
      return { appId: created.body.id, clientId: created.body.clientIds[0], origin, redirectUri };
    },
  };
}

let counter = 0;
export const uniqueEmail = () => `user${++counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;

export interface Authorization {
  verifier: string;
  state: string;
  /** The gateway URL the SDK's signIn() navigates to. */
  url: string;
}

/** What `auth.signIn()` does: PKCE S256 and state with oauth4webapi, then GET /auth/authorize. */
export async function startAuthorization(gateway: string, app: RigApp, prefix = '', scope = 'openid profile'): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const params = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { verifier, state, url: `${gateway}${prefix}/auth/authorize?${params}` };
}

export async function discover(issuer: string) {
  const response = await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true });
  return oauth.processDiscoveryResponse(new URL(issuer), response);
}

const atGatewayOrProvider = (rig: AuthRig, u: URL) => u.href.startsWith(rig.url) || u.href.startsWith(rig.issuer);

/**
 * Authorize -> provider login page -> sign up or in -> consent screen. Returns the consent
 * challenge (the gateway's consent URL carries it), or the app callback URL when no consent step
 * was needed (an existing grant in this browser's provider session).
 */
export async function signInToConsent(
  browser: Browser,
  rig: AuthRig,
  authorization: Authorization,
  account: { email: string; password: string; displayName?: string; mode?: 'signup' | 'login' },
): Promise<{ challenge: string | null; callback: string | null }> {
  const atGateway = await browser.get(authorization.url);
  expect(atGateway.status).toBe(302);
  const isConsent = (u: URL) => u.pathname.endsWith('/auth/consent');
  const isApp = (u: URL) => !atGatewayOrProvider(rig, u);
  let hop = await browser.follow(authorization.url, u => isConsent(u) || isApp(u), atGateway);
  if (isApp(new URL(hop.url))) return { challenge: null, callback: hop.url };
  if (!isConsent(new URL(hop.url))) {
    expect(hop.res.status, hop.res.text.slice(0, 300)).toBe(200);
    expect(hop.res.text).toContain('Sign in');
    const interaction = new URL(hop.url);
    const mode = account.mode ?? 'signup';
    const fields: Record<string, string> = { email: account.email, password: account.password };
    if (mode === 'signup' && account.displayName) fields.display_name = account.displayName;
    const submitted = await browser.postForm(`${interaction.origin}${interaction.pathname}/${mode}`, fields);
    expect(submitted.status, submitted.text.slice(0, 300)).toBe(303);
    hop = await browser.follow(submitted.location!, u => isConsent(u) || isApp(u), await browser.get(submitted.location!));
  }
  const where = new URL(hop.url);
  if (isApp(where)) return { challenge: null, callback: hop.url };
  expect(isConsent(where)).toBe(true);
  return { challenge: where.searchParams.get('consent_challenge'), callback: null };
}

/** Follows the consent's redirect_to back through the provider to the app's redirect URI. */
export async function finishAtApp(browser: Browser, rig: AuthRig, redirectTo: string): Promise<string> {
  const hop = await browser.follow(redirectTo, u => !atGatewayOrProvider(rig, u));
  expect(atGatewayOrProvider(rig, new URL(hop.url)), `stuck at ${hop.url}: ${hop.res.status} ${hop.res.text.slice(0, 200)}`).toBe(false);
  return hop.url;
}

/** The whole sign-in up to the gateway's token exchange; returns the code and the verifier. */
export async function signIn(
  browser: Browser,
  rig: AuthRig,
  app: RigApp,
  account: { email: string; password: string; displayName?: string; mode?: 'signup' | 'login' },
  options: { prefix?: string; gateway?: string } = {},
) {
  const gateway = options.gateway ?? rig.url;
  const authorization = await startAuthorization(gateway, app, options.prefix ?? '');
  const step = await signInToConsent(browser, rig, authorization, account);
  let callback = step.callback;
  let welcomed: boolean | null = null;
  if (step.challenge) {
    const request = await browser.get(`${gateway}${options.prefix ?? ''}/auth/consent-request?challenge=${step.challenge}`);
    expect(request.status, request.text).toBe(200);
    let redirectTo: string;
    if (request.json.skip) {
      redirectTo = request.json.redirect_to;
      welcomed = request.json.welcomed;
    } else {
      const accepted = await browser.post(
        `${gateway}${options.prefix ?? ''}/auth/consent/accept`,
        {
          challenge: step.challenge,
          grant_scope: request.json.requested_scope,
          ...(account.displayName ? { profile: { displayName: account.displayName } } : {}),
        },
        { 'x-service-csrf': '1' },
      );
      expect(accepted.status, accepted.text).toBe(200);
      redirectTo = accepted.json.redirect_to;
      welcomed = accepted.json.welcomed;
    }
    callback = await finishAtApp(browser, rig, redirectTo);
  }
  const as = await discover(rig.issuer);
  const params = oauth.validateAuthResponse(as, { client_id: app.clientId }, new URL(callback!), authorization.state);
  const code = params.get('code')!;
  return { code, verifier: authorization.verifier, state: authorization.state, callback: callback!, welcomed };
}

/** signIn + POST /auth/token: the browser then holds the session cookies. */
export async function signInWithCookies(
  browser: Browser,
  rig: AuthRig,
  app: RigApp,
  account: { email: string; password: string; displayName?: string; mode?: 'signup' | 'login' },
  options: { prefix?: string; gateway?: string } = {},
) {
  const signed = await signIn(browser, rig, app, account, options);
  const gateway = options.gateway ?? rig.url;
  const token = await browser.post(
    `${gateway}${options.prefix ?? ''}/auth/token`,
    {
      code: signed.code,
      code_verifier: signed.verifier,
      redirect_uri: app.redirectUri,
      client_id: app.clientId,
    },
    CSRF,
  );
  expect(token.status, token.text).toBe(200);
  const session = await browser.get(`${gateway}${options.prefix ?? ''}/auth/session`);
  return { ...signed, userId: session.json.user_id as string };
}
