/**
 * Issue #8: sign-in/sign-up throttles per address (6), login CSRF on POST /auth/token (7), no
 * account enumeration through sign-up (9), and framing/CSP headers on the provider's pages (10).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.js';
import { CSRF, type AuthRig, type RigApp, startAuthRig, startAuthorization, uniqueEmail } from './harness.js';

const PER_IP = 3;
let rig: AuthRig;
let app: RigApp;
let other: RigApp;

beforeAll(async () => {
  // Behind one trusted proxy, so each test can speak from its own client address.
  rig = await startAuthRig({ TRUST_PROXY: '1', SIGNIN_MAX_PER_IP: String(PER_IP) });
  app = await rig.createApp();
  other = await rig.createApp();
});
afterAll(() => rig?.close());

let addresses = 0;
const newAddress = () => `203.0.113.${++addresses}`;

/** Opens the provider's sign-in page for `app`; returns its form base URL. */
async function signInPage(browser: Browser) {
  const authorization = await startAuthorization(rig.url, app);
  const { url, res } = await browser.follow(authorization.url);
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  expect(res.text).toContain('Sign in');
  return { url, res };
}

describe('6: sign-in and sign-up throttling per client address', () => {
  it(`allows ${PER_IP} attempts (any emails, sign-ups too) per address, then 429 with Retry-After; other addresses are unaffected`, async () => {
    const browser = new Browser(rig.url);
    const { url } = await signInPage(browser);
    const from = { 'x-forwarded-for': `198.51.100.9, ${newAddress()}` };
    const login = (email: string) => browser.postForm(`${url}/login`, { email, password: 'wrong password' }, from);
    expect((await login(uniqueEmail())).status).toBe(401);
    expect((await login(uniqueEmail())).status).toBe(401);
    expect((await browser.postForm(`${url}/signup`, { email: 'not an email', password: 'x' }, from)).status).toBe(400); // invalid input costs nothing
    expect((await browser.postForm(`${url}/signup`, { email: uniqueEmail(), password: 'correct horse battery' }, from)).status).toBe(303);

    // A fresh interaction, the same address: every further email and sign-up waits.
    const again = await signInPage(browser);
    const limited = await browser.postForm(`${again.url}/login`, { email: uniqueEmail(), password: 'wrong password' }, from);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many sign-in attempts from this network');
    const signUp = await browser.postForm(`${again.url}/signup`, { email: uniqueEmail(), password: 'correct horse battery' }, from);
    expect(signUp.status).toBe(429);
    expect(signUp.headers['retry-after']).toBeTruthy();

    const elsewhere = await browser.postForm(
      `${again.url}/login`,
      { email: uniqueEmail(), password: 'wrong password' },
      { 'x-forwarded-for': newAddress() },
    );
    expect(elsewhere.status).toBe(401);
  });
});

describe('7: login CSRF on POST /auth/token', () => {
  const body = () => ({ code: 'bogus-code', code_verifier: 'v'.repeat(43), redirect_uri: app.redirectUri, client_id: app.clientId });
  const post = (headers: Record<string, string>, contentType = 'application/json') =>
    new Browser(rig.url).request('POST', `${rig.url}/auth/token`, {
      body: JSON.stringify(body()),
      headers: { 'content-type': contentType, ...headers },
    });

  it('refuses a text/plain body (what a cross-site form can send) with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post({ origin: app.origin, ...CSRF }, type);
      expect(res.status, type).toBe(415);
      expect(res.json.error).toBe('unsupported_media_type');
    }
  });

  it("refuses a cross-site Origin, another app's origin, or no Origin at all without the CSRF header", async () => {
    for (const headers of [{ origin: 'https://evil.example.test' }, { origin: other.origin }, { origin: 'null' }, {}] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json.error).toBe('csrf_required');
      expect(res.setCookies).toEqual([]);
    }
  });

  it("lets the app's own origin, the gateway's origin, or the CSRF header through to the code exchange", async () => {
    for (const headers of [{ origin: app.origin }, { origin: rig.url }, CSRF] as Record<string, string>[]) {
      const res = await post(headers);
      // Past the CSRF check: the bogus code is the provider's to refuse.
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(res.json.error).toBe('invalid_grant');
    }
  });
});

describe('9: sign-up never tells whether an email has an account', () => {
  it('a taken email answers as a wrong sign-in does; its owner simply goes on', async () => {
    const from = { 'x-forwarded-for': newAddress() };
    const email = uniqueEmail();
    const first = new Browser(rig.url);
    const page = await signInPage(first);
    expect((await first.postForm(`${page.url}/signup`, { email, password: 'correct horse battery' }, from)).status).toBe(303);

    const probe = new Browser(rig.url);
    const probePage = await signInPage(probe);
    const taken = await probe.postForm(`${probePage.url}/signup`, { email, password: 'attacker guess 1' }, { 'x-forwarded-for': newAddress() });
    const unknown = await probe.postForm(
      `${probePage.url}/login`,
      { email: uniqueEmail(), password: 'attacker guess 1' },
      { 'x-forwarded-for': newAddress() },
    );
    expect(taken.status).toBe(unknown.status);
    expect(taken.status).toBe(401);
    const message = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
    expect(message(taken.text)).toBe(message(unknown.text));
    expect(taken.text).not.toMatch(/exist|already|taken/i);

    // The owner who signs up again with their password is signed in to the same account.
    const owner = new Browser(rig.url);
    const ownerPage = await signInPage(owner);
    const again = await owner.postForm(`${ownerPage.url}/signup`, { email, password: 'correct horse battery' }, { 'x-forwarded-for': newAddress() });
    expect(again.status).toBe(303);
    expect(await rig.app.services.deps.prisma.account.count({ where: { email } })).toBe(1);
  });
});

describe("10: the provider's pages refuse framing and carry a CSP", () => {
  const expectPageHeaders = (res: { headers: Record<string, unknown> }) => {
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'none'");
  };

  it('the sign-in page, its error re-render, the provider error page and the logout page', async () => {
    const browser = new Browser(rig.url);
    const page = await signInPage(browser);
    expectPageHeaders(page.res);
    expectPageHeaders(
      await browser.postForm(`${page.url}/login`, { email: uniqueEmail(), password: 'wrong password' }, { 'x-forwarded-for': newAddress() }),
    );
    // oidc-provider's renderError: an unknown client.
    const error = await browser.get(`${rig.issuer}/oauth2/auth?client_id=nobody&response_type=code&scope=openid`);
    expect(error.status).toBe(400);
    expect(error.headers['content-type']).toContain('text/html');
    expectPageHeaders(error);
    const logout = await browser.get(`${rig.issuer}/oauth2/sessions/logout`);
    expect(logout.status).toBe(200);
    expectPageHeaders(logout);
    expect(logout.text).not.toContain('fonts.googleapis.com');
    // JSON answers carry no page CSP.
    const discovery = await browser.get(`${rig.issuer}/.well-known/openid-configuration`);
    expect(discovery.headers['content-security-policy']).toBeUndefined();
  });
});
