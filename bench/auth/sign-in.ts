/**
 * A person signing in through the gateway and the embedded provider over HTTP, as a browser does:
 * GET /auth/authorize (PKCE S256) -> the provider's sign-up form -> the consent screen's JSON API
 * (POST /auth/consent/accept) -> redirects to the app's redirect URI -> POST /auth/token. The
 * same steps as test/auth/harness.ts, without vitest (which that file imports).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Browser, type BrowserResponse } from '../../test/auth/browser.js';

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
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = `${gateway}/auth/authorize?${new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    scope: 'openid profile',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;
  const atGateway = (u: URL) => u.href.startsWith(`${gateway}/`);
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

  const challenge = new URL(consent.url).searchParams.get('consent_challenge')!;
  const request = await browser.get(`${gateway}/auth/consent-request?challenge=${encodeURIComponent(challenge)}`);
  expectStatus(request, 200, 'GET /auth/consent-request');
  const accepted = await browser.post(`${gateway}/auth/consent/accept`, { challenge, grant_scope: request.json.requested_scope });
  expectStatus(accepted, 200, 'POST /auth/consent/accept');
  // Back through the provider until the browser would leave for the app's redirect URI.
  const back = await browser.follow(accepted.json.redirect_to, u => !atGateway(u));
  const callback = new URL(back.url);
  if (`${callback.origin}${callback.pathname}` !== app.redirectUri || callback.searchParams.get('state') !== state) {
    throw new Error(`sign-in: expected ${app.redirectUri}?code=…&state=…, got ${back.url} (${back.res.status} ${back.res.text.slice(0, 200)})`);
  }

  const token = await browser.post(`${gateway}/auth/token`, {
    code: callback.searchParams.get('code'),
    code_verifier: verifier,
    redirect_uri: app.redirectUri,
    client_id: app.clientId,
  });
  expectStatus(token, 200, 'POST /auth/token');
  const session = await browser.get(`${gateway}/auth/session`);
  expectStatus(session, 200, 'GET /auth/session');
  if (!session.json?.authenticated) throw new Error(`sign-in: /auth/session says ${session.text}`);
  return { browser, userId: session.json.user_id };
}

export function expectStatus(res: BrowserResponse, status: number, what: string): void {
  if (res.status !== status) throw new Error(`sign-in: ${what} -> ${res.status} (expected ${status}): ${res.text.slice(0, 300)}`);
}
