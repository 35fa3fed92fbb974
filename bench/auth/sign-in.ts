/**
 * A person signing in through the gateway and the embedded provider over HTTP, as a browser does:
 * GET /auth/authorize (PKCE S256) -> the provider's sign-up form -> the consent screen's JSON API
 * (POST /auth/consent/accept) -> redirects to the app's redirect URI -> POST /auth/token. The
 * same steps as test/gateway-auth/harness.ts, without vitest (which that file imports).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Browser, type BrowserResponse } from '../../test/gateway-auth/browser.js';

/** The gateway's CSRF header: its state-changing auth routes refuse requests without it. */
const CSRF = { 'x-service-csrf': '1' };

export interface OAuthApp {
  clientId: string;
  redirectUri: string;
}

/** A signed-in person: their browser holds gh_session, gh_client and gh_refresh. */
export interface SignedIn {
  browser: Browser;
  userId: string;
}

export async function signUpAndIn(gateway: string, app: OAuthApp, name: string): Promise<SignedIn> {
  const browser = new Browser(gateway);
  const { verifier, state, url: authorize } = authorizeUrl(gateway, app);
  const atConsent = (u: URL) => u.pathname === '/auth/consent';

  // Gateway -> provider -> its sign-in page (a new browser has no provider session).
  const login = await browser.follow(authorize, atConsent);
  expectStatus(login.res, 200, 'the sign-in page');
  const interaction = new URL(login.url);
  const password = randomBytes(12).toString('base64url');
  const email = `${name}-${randomBytes(4).toString('hex')}@bench.example.test`;
  const submitted = await browser.postForm(`${interaction.origin}${interaction.pathname}/signup`, { email, password, display_name: name });
  expectStatus(submitted, 303, 'sign-up');
  const consent = await browser.follow(submitted.location!, atConsent, await browser.get(submitted.location!));
  if (!atConsent(new URL(consent.url))) throw new Error(`sign-in: expected the consent screen, got ${consent.url} (${consent.res.status})`);

  const userId = await finishAuthorization(browser, gateway, app, { url: consent.url, verifier, state });
  return { browser, userId };
}

function authorizeUrl(gateway: string, app: OAuthApp) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = `${gateway}/auth/authorize?${new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    scope: 'openid profile',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;
  return { verifier, state, url };
}

/** From the consent screen (or straight from the app's redirect URI) to a signed-in browser; returns the user id. */
async function finishAuthorization(
  browser: Browser,
  gateway: string,
  app: OAuthApp,
  at: { url: string; verifier: string; state: string },
): Promise<string> {
  const atGateway = (u: URL) => u.href.startsWith(`${gateway}/`);
  let back = at.url;
  if (new URL(at.url).pathname === '/auth/consent') {
    const challenge = new URL(at.url).searchParams.get('consent_challenge')!;
    const request = await browser.get(`${gateway}/auth/consent-request?challenge=${encodeURIComponent(challenge)}`);
    expectStatus(request, 200, 'GET /auth/consent-request');
    let redirectTo: string = request.json.redirect_to;
    if (!request.json.skip) {
      const accepted = await browser.post(`${gateway}/auth/consent/accept`, { challenge, grant_scope: request.json.requested_scope }, CSRF);
      expectStatus(accepted, 200, 'POST /auth/consent/accept');
      redirectTo = accepted.json.redirect_to;
    }
    // Back through the provider until the browser would leave for the app's redirect URI.
    back = (await browser.follow(redirectTo, u => !atGateway(u))).url;
  }
  const callback = new URL(back);
  if (`${callback.origin}${callback.pathname}` !== app.redirectUri || callback.searchParams.get('state') !== at.state) {
    throw new Error(`sign-in: expected ${app.redirectUri}?code=…&state=…, got ${back}`);
  }

  const token = await browser.post(
    `${gateway}/auth/token`,
    {
      code: callback.searchParams.get('code'),
      code_verifier: at.verifier,
      redirect_uri: app.redirectUri,
      client_id: app.clientId,
    },
    CSRF,
  );
  expectStatus(token, 200, 'POST /auth/token');
  const session = await browser.get(`${gateway}/auth/session`);
  expectStatus(session, 200, 'GET /auth/session');
  if (!session.json?.authenticated) throw new Error(`sign-in: /auth/session says ${session.text}`);
  return session.json.user_id;
}

export function expectStatus(res: BrowserResponse, status: number, what: string): void {
  if (res.status !== status) throw new Error(`sign-in: ${what} -> ${res.status} (expected ${status}): ${res.text.slice(0, 300)}`);
}
