/**
 * The gateway against an external Hydra-compatible provider: the embedded provider run on its own
 * port (as `gatehouse idp` runs it), reached only through OIDC_ISSUER discovery, the consent
 * admin API at OIDC_ADMIN_URL, introspection or userinfo, and self-service flows at OIDC_IDENTITY_URL.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createIdentityProviderServer } from '../../src/identity-provider/server.js';
import { createTestDatabase } from '../helpers/db.js';
import { Browser } from './browser.js';
import { CSRF, type AuthRig, type RigApp, signIn, signInWithCookies, startAuthRig, startAuthorization, uniqueEmail } from './harness.js';

const account = () => ({ email: uniqueEmail(), password: 'correct horse battery', displayName: 'Grace Hopper' });

describe('with introspection (OIDC_INTROSPECTION_CLIENT_*)', () => {
  let rig: AuthRig;
  let app: RigApp;
  beforeAll(async () => {
    rig = await startAuthRig({}, { standaloneIdp: { introspection: true } });
    app = await rig.createApp();
  });
  afterAll(() => rig?.close());

  it('authorize -> sign up at the provider -> consent over the admin API -> token -> resources -> refresh -> logout', async () => {
    const redirect = await fetch(`${rig.url}/auth/authorize?client_id=abc&state=s`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`${rig.issuer}/oauth2/auth?client_id=abc&state=s`);

    const browser = new Browser(rig.url);
    const signed = await signIn(browser, rig, app, account());
    expect(signed.welcomed).toBe(true);
    const token = await browser.post(
      `${rig.url}/auth/token`,
      { code: signed.code, code_verifier: signed.verifier, redirect_uri: app.redirectUri, client_id: app.clientId },
      CSRF,
    );
    expect(token.status, token.text).toBe(200);
    expect(token.json).toEqual({ authenticated: true, expires_in: expect.any(Number) });
    const who = await browser.get(`${rig.url}/auth/session`);
    expect(who.json).toEqual({ authenticated: true, user_id: expect.stringMatching(/^usr_/) });

    const created = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'External team' }, CSRF);
    expect(created.status, created.text).toBe(200);
    expect(created.json.currentMember).toEqual({ role: 'owner', state: 'active' });
    // Consent joined the user to the app's _app resource through the provider's client id.
    const appMember = await rig.app.services.deps.prisma.membership.findFirst({
      where: { principalId: who.json.user_id, resource: { type: '_app' } },
    });
    expect(appMember).toMatchObject({ role: 'reader', state: 'active' });

    const before = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const refreshed = await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId }, CSRF);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(browser.cookie(new URL(rig.url).host, 'gh_session')!.value).not.toBe(before);

    const stolen = browser.cookie(new URL(rig.url).host, 'gh_refresh')!.value;
    expect((await browser.post(`${rig.url}/auth/logout`, {}, CSRF)).json).toEqual({ ok: true });
    expect((await browser.get(`${rig.url}/auth/session`)).json).toEqual({ authenticated: false });
    const replay = await new Browser(rig.url).request('POST', `${rig.url}/auth/refresh`, {
      body: JSON.stringify({ client_id: app.clientId }),
      headers: { 'content-type': 'application/json', cookie: `gh_refresh=${stolen}`, ...CSRF },
    });
    expect(replay.status).toBe(401); // revoked at the provider by logout
  });

  it('introspection names the app, so a provider bearer token needs no client hint', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    const bearer = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const res = await fetch(`${rig.url}/v1/resources`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(res.status).toBe(200);
  });

  it('docs/api.md §1.3, rule 1: concurrent requests with a new token make one introspection call at the provider (single flight), then hit the cache', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    const bearer = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    rig.app.services.auth.validator.forget(bearer); // signing in checked it once already
    let introspections = 0;
    const count = (req: IncomingMessage) => {
      if (req.url?.startsWith('/oauth2/introspect')) introspections++;
    };
    rig.idp!.server.prependListener('request', count);
    try {
      const call = () => fetch(`${rig.url}/v1/resources`, { headers: { authorization: `Bearer ${bearer}` } }).then(r => r.status);
      expect(await Promise.all(Array.from({ length: 20 }, call))).toEqual(Array(20).fill(200));
      expect(introspections).toBe(1);
      expect(await call()).toBe(200);
      expect(introspections).toBe(1);
    } finally {
      rig.idp!.server.off('request', count);
    }
  });

  it('GET /auth/identity/flow proxies to OIDC_IDENTITY_URL', async () => {
    const browser = new Browser(rig.url);
    const hop = await browser.follow((await startAuthorization(rig.url, app)).url);
    expect(hop.url.startsWith(`${rig.issuer}/interaction/`)).toBe(true);
    const id = new URL(hop.url).pathname.split('/').pop()!;
    const flow = await browser.get(`${rig.url}/auth/identity/flow?type=registration&id=${id}`);
    expect(flow.status, flow.text).toBe(200);
    expect(flow.json).toMatchObject({ id, type: 'registration', ui: { action: `${rig.issuer}/interaction/${id}/signup`, method: 'POST' } });
    expect((await browser.get(`${rig.url}/auth/identity/flow?type=login&id=unknown`)).status).toBe(404);
  });

  it('an unknown consent challenge is 404 from the admin API', async () => {
    const res = await fetch(`${rig.url}/auth/consent-request?challenge=unknown`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('consent_request_not_found');
  });
});

describe('without introspection (userinfo)', () => {
  let rig: AuthRig;
  let app: RigApp;
  beforeAll(async () => {
    rig = await startAuthRig({}, { standaloneIdp: { introspection: false } });
    app = await rig.createApp();
  });
  afterAll(() => rig?.close());

  it('a cookie session names its app through the gh_client cookie', async () => {
    const browser = new Browser(rig.url);
    const signed = await signInWithCookies(browser, rig, app, account());
    expect(signed.userId).toMatch(/^usr_/);
    const created = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Userinfo team' }, CSRF);
    expect(created.status, created.text).toBe(200);
  });

  it('a bearer token needs X-Client-Id to name its app (docs/api.md §1.3, rule 3: userinfo proves the user, not the app)', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    const bearer = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const anonymous = await fetch(`${rig.url}/v1/resources`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toBe('app_unknown');
    const named = await fetch(`${rig.url}/v1/resources`, { headers: { authorization: `Bearer ${bearer}`, 'x-client-id': app.clientId } });
    expect(named.status).toBe(200);
  });
});

describe('the provider on a port the OS picks (`gatehouse idp` with IDP_PORT=0)', () => {
  const settings = {
    port: 0,
    host: '127.0.0.1',
    consentUrl: 'http://127.0.0.1:4000/auth/consent',
    gatewayClient: { clientId: 'gatehouse-gateway', secret: 'a-secret-of-enough-length' },
    adminToken: 'an-admin-token-of-enough-length',
    logLevel: 'silent' as const,
  };
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('without a configured issuer, takes it from the port it bound; discovery names it', async () => {
    const idp = await createIdentityProviderServer(settings, database.prisma);
    try {
      expect(() => idp.issuer).toThrow(/start\(\)/);
      const { url, issuer } = await idp.start();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      expect(issuer).toBe(url);
      expect(idp.issuer).toBe(issuer);
      const discovery = (await (await fetch(`${url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(discovery).toMatchObject({ issuer, token_endpoint: `${issuer}/oauth2/token` });
    } finally {
      await idp.stop();
    }
  });
});
