/** docs/api.md §4.1 / §4.6: the whole browserless sign-in flow through the gateway and the embedded provider. */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Browser } from './browser.js';
import { CSRF, discover, type AuthRig, type RigApp, signIn, signInWithCookies, startAuthRig, startAuthorization, uniqueEmail } from './harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
});
afterAll(() => rig?.close());

const account = () => ({ email: uniqueEmail(), password: 'correct horse battery', displayName: 'Ada Lovelace' });

describe('the browser flow', () => {
  it('authorize with PKCE -> sign up -> consent -> callback -> token -> session -> resources -> refresh -> logout', async () => {
    const browser = new Browser(rig.url);
    const signed = await signIn(browser, rig, app, account());
    expect(signed.welcomed).toBe(true);

    const token = await browser.post(
      `${rig.url}/auth/token`,
      { code: signed.code, code_verifier: signed.verifier, redirect_uri: app.redirectUri, client_id: app.clientId },
      CSRF,
    );
    expect(token.status).toBe(200);
    expect(token.json).toEqual({ authenticated: true, expires_in: expect.any(Number) });
    // The token is never in the body; it lives in httpOnly, SameSite=Lax, host-only cookies.
    const session = browser.cookie(new URL(rig.url).host, 'gh_session')!;
    const refresh = browser.cookie(new URL(rig.url).host, 'gh_refresh')!;
    expect(token.text).not.toContain(session.value);
    expect(token.text).not.toContain(refresh.value);
    for (const cookie of [session, refresh]) {
      expect(cookie.attributes).toContain('HttpOnly');
      expect(cookie.attributes).toContain('SameSite=Lax');
      expect(cookie.raw).not.toMatch(/domain=/i);
    }
    expect(session.path).toBe('/');
    expect(refresh.path).toBe('/auth');

    const who = await browser.get(`${rig.url}/auth/session`);
    expect(who.json).toEqual({ authenticated: true, user_id: expect.stringMatching(/^usr_/) });

    const noCsrf = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Cookie team' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error).toBe('csrf_required');
    const created = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Cookie team' }, CSRF);
    expect(created.status, created.text).toBe(200);
    expect(created.json.currentMember).toEqual({ role: 'owner', state: 'active' });
    const listed = await browser.get(`${rig.url}/v1/resources?type=team`);
    expect(listed.json.resources.map((r: any) => r.id)).toEqual([created.json.id]);

    const refreshNoCsrf = await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId });
    expect(refreshNoCsrf.status).toBe(403);
    const refreshed = await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId }, CSRF);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.json).toEqual({ authenticated: true, expires_in: expect.any(Number) });
    const rotated = browser.cookie(new URL(rig.url).host, 'gh_session')!;
    expect(rotated.value).not.toBe(session.value);
    expect((await browser.get(`${rig.url}/v1/resources?type=team`)).status).toBe(200);

    const logout = await browser.post(`${rig.url}/auth/logout`, { client_id: app.clientId }, CSRF);
    expect(logout.status).toBe(200);
    expect(logout.json).toEqual({ ok: true });
    expect(browser.cookie(new URL(rig.url).host, 'gh_session')).toBeUndefined();
    expect((await browser.get(`${rig.url}/auth/session`)).json).toEqual({ authenticated: false });
    expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(401);

    // The revoked refresh token is dead at the provider too.
    const replay = new Browser(rig.url);
    const stolen = refreshed.setCookies
      .find(c => c.startsWith('gh_refresh='))!
      .split(';')[0]
      .split('=')[1];
    const again = await replay.request('POST', `${rig.url}/auth/refresh`, {
      body: JSON.stringify({ client_id: app.clientId }),
      headers: { 'content-type': 'application/json', cookie: `gh_refresh=${stolen}`, ...CSRF },
    });
    expect(again.status).toBe(401);
  });

  it('signs an existing account in and serves provider bearer tokens on /v1/resources', async () => {
    const first = new Browser(rig.url);
    const person = account();
    await signInWithCookies(first, rig, app, person);
    const second = new Browser(rig.url);
    const signed = await signInWithCookies(second, rig, app, { ...person, mode: 'login' });
    expect(signed.welcomed === null || signed.welcomed === false).toBe(true);
    const bearer = second.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const res = await fetch(`${rig.url}/v1/resources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'team', name: 'Bearer team' }),
    });
    expect(res.status).toBe(200); // no CSRF header needed with a bearer token
  });

  it('stores codes and tokens at the provider only as hashes', async () => {
    const browser = new Browser(rig.url);
    const signed = await signInWithCookies(browser, rig, app, account());
    const host = new URL(rig.url).host;
    const secrets = [signed.code, browser.cookie(host, 'gh_session')!.value, browser.cookie(host, 'gh_refresh')!.value];
    const rows = await rig.app.services.deps.prisma.oidcPayload.findMany({
      where: { model: { in: ['AccessToken', 'RefreshToken', 'AuthorizationCode'] } },
    });
    expect(new Set(rows.map(r => r.model))).toEqual(new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode']));
    const stored = JSON.stringify(rows);
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect((await browser.get(`${rig.url}/auth/session`)).json.authenticated).toBe(true);
  });

  it('refuses a wrong password with the sign-in page, not a redirect', async () => {
    const browser = new Browser(rig.url);
    const authorization = await startAuthorization(rig.url, app);
    const hop = await browser.follow(authorization.url);
    const interaction = new URL(hop.url).pathname;
    const wrong = await browser.postForm(`${rig.url}${interaction}/login`, { email: 'nobody@example.test', password: 'whatever123' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password.');
  });

  it('pauses an email after 10 sign-in attempts in 15 minutes, even with the right password; a success resets the count', async () => {
    const person = account();
    await signInWithCookies(new Browser(rig.url), rig, app, person);
    const attempt = async (password: string) => {
      const browser = new Browser(rig.url);
      const hop = await browser.follow((await startAuthorization(rig.url, app)).url);
      return browser.postForm(`${rig.url}${new URL(hop.url).pathname}/login`, { email: person.email, password });
    };
    for (let i = 0; i < 3; i++) expect((await attempt('wrong password')).status).toBe(401);
    expect((await attempt(person.password)).status).toBe(303); // success clears the count
    const parallel = await Promise.all(Array.from({ length: 12 }, () => attempt('wrong password')));
    expect(parallel.map(r => r.status).sort()).toEqual([...Array(10).fill(401), 429, 429]);
    const paused = await attempt(person.password);
    expect(paused.status).toBe(429);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(13 * 60);
    expect(paused.text).toMatch(/Too many sign-in attempts for this email\. Try again in 1[45] minutes\./);
    // Once the window has closed, the right password works again.
    const prisma = rig.app.services.deps.prisma;
    await prisma.oidcPayload.updateMany({ where: { model: 'SignInAttempts', id: person.email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await attempt(person.password)).status).toBe(303);
  });
});

describe('the OAuth checks', () => {
  it('a tampered state is rejected by the client library', async () => {
    const browser = new Browser(rig.url);
    const signed = await signIn(browser, rig, app, account());
    const as = await discover(rig.issuer);
    expect(() => oauth.validateAuthResponse(as, { client_id: app.clientId }, new URL(signed.callback), 'tampered-state')).toThrow();
  });

  it('a wrong code_verifier is refused (4xx { error }) and no cookie is set', async () => {
    const browser = new Browser(rig.url);
    const signed = await signIn(browser, rig, app, account());
    const res = await browser.post(
      `${rig.url}/auth/token`,
      { code: signed.code, code_verifier: oauth.generateRandomCodeVerifier(), redirect_uri: app.redirectUri, client_id: app.clientId },
      CSRF,
    );
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
    expect(res.setCookies).toEqual([]);
  });

  it('a reused code is refused', async () => {
    const browser = new Browser(rig.url);
    const signed = await signIn(browser, rig, app, account());
    const body = { code: signed.code, code_verifier: signed.verifier, redirect_uri: app.redirectUri, client_id: app.clientId };
    expect((await browser.post(`${rig.url}/auth/token`, body, CSRF)).status).toBe(200);
    const reused = await browser.post(`${rig.url}/auth/token`, body, CSRF);
    expect(reused.status).toBe(400);
    expect(reused.json.error).toBe('invalid_grant');
  });

  it('a redirect URI set on an existing app is accepted at authorize at once, and refused once removed', async () => {
    const changed = await rig.createApp();
    const added = `${changed.redirectUri}/changed`;
    const authorize = async () =>
      (await new Browser(rig.url).follow((await startAuthorization(rig.url, { ...changed, redirectUri: added })).url)).res;
    // Asked once before the change, so the provider holds the client as it was.
    expect((await authorize()).status).toBe(400);
    const set = (redirectUris: string[]) => rig.developer.request('PUT', `/dev/apps/${changed.appId}/redirect-uris`, { redirectUris });
    expect((await set([changed.redirectUri, added])).status).toBe(200);
    expect((await authorize()).status).toBe(200);
    expect((await set([changed.redirectUri])).status).toBe(200);
    expect((await authorize()).status).toBe(400);
  });

  it('an origin added to an existing app makes its root a redirect URI at once; removed, no more', async () => {
    const changed = await rig.createApp();
    const origin = `https://added-${Math.random().toString(36).slice(2, 10)}.example.test`;
    const authorize = async () =>
      (await new Browser(rig.url).follow((await startAuthorization(rig.url, { ...changed, redirectUri: `${origin}/` })).url)).res;
    expect((await authorize()).status).toBe(400);
    const mutate = (field: string) =>
      rig.developer.gql(`mutation($appId: ID!, $origin: String!) { ${field}(appId: $appId, origin: $origin) { origins } }`, {
        appId: changed.appId,
        origin,
      });
    expect((await mutate('addAppOrigin')).data.addAppOrigin.origins).toContain(origin);
    expect((await authorize()).status).toBe(200);
    expect((await mutate('removeAppOrigin')).data.removeAppOrigin.origins).not.toContain(origin);
    expect((await authorize()).status).toBe(400);
  });

  it('a redirect URI that is not registered exactly is refused at authorize and at token', async () => {
    const browser = new Browser(rig.url);
    const authorization = await startAuthorization(rig.url, { ...app, redirectUri: `${app.redirectUri}/other` });
    const hop = await browser.follow(authorization.url);
    expect(hop.res.status).toBe(400);
    expect(hop.res.text).toContain('redirect_uri');

    const signed = await signIn(browser, rig, app, account());
    const res = await browser.post(
      `${rig.url}/auth/token`,
      { code: signed.code, code_verifier: signed.verifier, redirect_uri: `${app.redirectUri}?x=1`, client_id: app.clientId },
      CSRF,
    );
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('PKCE is required and plain is refused', async () => {
    const browser = new Browser(rig.url);
    for (const [method, challenge] of [
      ['plain', 'a'.repeat(43)],
      [null, null],
    ] as const) {
      const params = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        response_type: 'code',
        scope: 'openid',
        state: 'abc',
      });
      if (challenge) params.set('code_challenge', challenge);
      if (method) params.set('code_challenge_method', method);
      const hop = await browser.follow(`${rig.url}/auth/authorize?${params}`, u => !u.href.startsWith(rig.url));
      const back = new URL(hop.url);
      expect(back.origin).toBe(new URL(app.redirectUri).origin);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/PKCE|code_challenge/);
    }
  });

  it('POST /auth/token validates its body', async () => {
    const browser = new Browser(rig.url);
    const res = await browser.post(`${rig.url}/auth/token`, { code: 'x' }, CSRF);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_argument');
  });

  it('POST /auth/refresh without a refresh cookie is 401 and clears cookies', async () => {
    const browser = new Browser(rig.url);
    const res = await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId }, CSRF);
    expect(res.status).toBe(401);
    expect(res.setCookies.some(c => c.startsWith('gh_session=;') && /Max-Age=0/.test(c))).toBe(true);
  });

  it('POST /auth/logout answers { ok: true } even without a session', async () => {
    const res = await new Browser(rig.url).post(`${rig.url}/auth/logout`, {}, CSRF);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
  });

  it('an expired session gets 401, then one refresh restores it', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(200);
    // Move the whole process's clock (gateway and embedded provider) past the access token's hour.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 3601 * 1000);
      expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(401);
      expect((await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId }, CSRF)).status).toBe(200);
      expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a revoked token keeps working until its cache entry expires (60 s), then is refused', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(200);
    const accessToken = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    await rig.app.services.auth.provider.revoke({ token: accessToken, clientId: app.clientId, hint: 'access_token' });
    expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(200);
    rig.advance(61_000);
    try {
      expect((await browser.get(`${rig.url}/v1/resources`)).status).toBe(401);
    } finally {
      rig.advance(-61_000);
    }
  });

  it('GraphQL mutations need the CSRF header with cookies; queries do not', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    const mutation = { query: 'mutation { createResource(input: { type: "team", name: "G" }) { id } }' };
    const refused = await browser.post(`${rig.url}/graphql`, mutation);
    expect(refused.json.errors[0].extensions.code).toBe('csrf_required');
    const allowed = await browser.post(`${rig.url}/graphql`, mutation, CSRF);
    expect(allowed.json.errors).toBeUndefined();
    const query = await browser.post(`${rig.url}/graphql`, { query: '{ resources { id } }' });
    expect(query.json.errors).toBeUndefined();
  });

  it('GET /auth/authorize forwards the query untouched to the provider', async () => {
    const res = await fetch(`${rig.url}/auth/authorize?client_id=abc&x=%2F1&state=s`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${rig.issuer}/oauth2/auth?client_id=abc&x=%2F1&state=s`);
  });

  it('GET /auth/identity/flow proxies allowlisted flow types only', async () => {
    const browser = new Browser(rig.url);
    const authorization = await startAuthorization(rig.url, app);
    const hop = await browser.follow(authorization.url);
    const id = new URL(hop.url).pathname.split('/').pop()!;
    const flow = await browser.get(`${rig.url}/auth/identity/flow?type=login&id=${id}`);
    expect(flow.status).toBe(200);
    expect(flow.json).toMatchObject({ id, type: 'login', ui: { method: 'POST' } });
    expect((await browser.get(`${rig.url}/auth/identity/flow?type=../admin&id=${id}`)).status).toBe(400);
    expect((await browser.get(`${rig.url}/auth/identity/flow?type=login&id=..%2Fx`)).status).toBe(400);
    expect((await browser.get(`${rig.url}/auth/identity/flow?type=registration&id=nope`)).status).toBe(404);
  });
});
