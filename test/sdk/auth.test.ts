/**
 * gatehouse/client in cookie mode against the sign-in rig (a real gateway and its embedded
 * provider): signIn's PKCE S256 and state, handleRedirectCallback, getSession/getUser/signOut, the
 * CSRF header on every state change, and the refresh-once rule (concurrent 401s share one
 * POST /auth/refresh). The browser is test/gateway-auth/browser.ts's cookie jar, handed to the SDK as its fetch.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, GatehouseError, type KeyValueStorage, pkceChallenge } from '../../src/sdk/index.js';
import { Browser } from '../gateway-auth/browser.js';
import { jarFetch, type Sent } from './jar-fetch.js';
import { type AuthRig, finishAtApp, type RigApp, signInToConsent, startAuthRig, uniqueEmail } from '../gateway-auth/harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
});
afterAll(() => rig?.close());

function memory(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: k => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: k => void map.delete(k) };
}

/** signIn() -> provider sign-up and consent -> handleRedirectCallback(): a signed-in cookie client. */
async function signedIn() {
  const browser = new Browser(rig.url);
  const sent: Sent[] = [];
  const storage = memory();
  const client = createClient({ gatewayUrl: rig.url, clientId: app.clientId, redirectUri: app.redirectUri, storage, fetch: jarFetch(browser, sent) });
  const url = await client.auth.signIn({ navigate: false });
  const pending = JSON.parse(storage.getItem('gatehouse.signin')!);
  const email = uniqueEmail();
  const step = await signInToConsent(
    browser,
    rig,
    { url, verifier: pending.verifier, state: pending.state },
    { email, password: 'correct horse battery', displayName: 'Sdk User' },
  );
  let callback = step.callback;
  if (step.challenge) {
    const request = await browser.get(`${rig.url}/auth/consent-request?challenge=${step.challenge}`);
    const accepted = await browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: step.challenge, grant_scope: request.json.requested_scope },
      { 'x-service-csrf': '1' },
    );
    callback = await finishAtApp(browser, rig, accepted.json.redirect_to);
  }
  const session = await client.auth.handleRedirectCallback(callback!);
  return { browser, sent, storage, client, url, pending, session, email };
}

const dropCookie = (browser: Browser, name: string) => {
  for (let i = browser.cookies.length - 1; i >= 0; i--) if (browser.cookies[i].name === name) browser.cookies.splice(i, 1);
};

describe('auth (cookie mode)', () => {
  it('pkceChallenge is RFC 7636 S256 (appendix B vector)', async () => {
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('signIn builds an S256 authorize URL with state; the callback signs in; the page sees no token', async () => {
    const { url, pending, session, client, storage, browser, email } = await signedIn();
    const authorize = new URL(url);
    expect(authorize.origin + authorize.pathname).toBe(`${rig.url}/auth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      state: pending.state,
      code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update(pending.verifier).digest('base64url'),
    });
    expect(pending.verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(storage.map.size).toBe(0); // the verifier is gone once used
    expect(session).toEqual({ authenticated: true, userId: expect.any(String) });
    expect(client.mode).toBe('cookie');
    // Issue 25 item 2: the product's user shape, the email only for yourself.
    const user = await client.auth.getUser();
    expect(user).toEqual({
      id: session.userId,
      kind: 'user',
      handle: 'sdkuser',
      displayName: 'Sdk User',
      email,
      profile: { handle: 'sdkuser', displayName: 'Sdk User' },
      owner: null,
    });
    expect(browser.cookie(new URL(rig.url).host, 'gh_session')).toBeTruthy();
  });

  it('a callback whose state does not match is refused before any request', async () => {
    const storage = memory();
    const client = createClient({ gatewayUrl: rig.url, clientId: app.clientId, redirectUri: app.redirectUri, storage });
    await client.auth.signIn({ navigate: false });
    const error = await client.auth.handleRedirectCallback(`${app.redirectUri}?code=abc&state=forged`).catch(e => e);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_state' });
    const denied = await client.auth.handleRedirectCallback(`${app.redirectUri}?error=access_denied`).catch(e => e);
    expect(denied).toMatchObject({ code: 'access_denied' });
    const noClient = await createClient({ gatewayUrl: rig.url })
      .auth.signIn({ navigate: false })
      .catch(e => e);
    expect(noClient).toMatchObject({ code: 'client_id_required' });
  });

  it('every state change carries X-Service-Csrf: 1 and works on the cookie session', async () => {
    const { client, sent } = await signedIn();
    sent.length = 0;
    const created = await client.resource.create('team', { name: 'Cookie team' });
    expect(created.currentMember).toEqual({ role: 'owner', state: 'active' });
    await client.resource(created.id).rooms.create({ name: 'R' });
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent.filter(r => r.method !== 'GET')) expect(request.headers['x-service-csrf']).toBe('1');
    expect(sent.every(r => !r.headers.authorization)).toBe(true);
  });

  it('concurrent 401s share one POST /auth/refresh, then every call succeeds', async () => {
    const { client, browser, sent } = await signedIn();
    await client.resource.create('team', { name: 'Before refresh' });
    dropCookie(browser, 'gh_session'); // the access cookie lapsed; the refresh cookie remains
    sent.length = 0;
    const before = client.refreshCount;
    const results = await Promise.all(Array.from({ length: 6 }, () => client.resource.list({ type: 'team' })));
    for (const list of results) expect(list.map(r => r.name)).toContain('Before refresh');
    expect(sent.filter(r => r.path === '/auth/refresh')).toHaveLength(1);
    // Each call was refused once, then retried once after the shared refresh.
    expect(sent.filter(r => r.path === '/graphql')).toHaveLength(12);
    expect(client.refreshCount - before).toBe(1);
    // The refreshed session keeps working without another refresh.
    await client.resource.list();
    expect(sent.filter(r => r.path === '/auth/refresh')).toHaveLength(1);
  });

  it('getSession refreshes once when the access cookie lapsed', async () => {
    const { client, browser, session } = await signedIn();
    dropCookie(browser, 'gh_session');
    expect(await client.auth.getSession()).toEqual(session);
  });

  it('without a usable refresh token the 401 stands after one refresh attempt', async () => {
    const { client, browser, sent } = await signedIn();
    dropCookie(browser, 'gh_session');
    dropCookie(browser, 'gh_refresh');
    sent.length = 0;
    const errors = await Promise.all([client.resource.list(), client.resource.list()].map(p => p.catch(e => e)));
    for (const error of errors) {
      expect(error).toBeInstanceOf(GatehouseError);
      expect(error.status).toBe(401);
    }
    expect(sent.filter(r => r.path === '/auth/refresh')).toHaveLength(1);
    expect(await client.auth.getUser()).toBeNull();
  });

  it('signOut clears the session', async () => {
    const { client } = await signedIn();
    await client.auth.signOut();
    expect(await client.auth.getSession()).toEqual({ authenticated: false, userId: null });
  });
});
