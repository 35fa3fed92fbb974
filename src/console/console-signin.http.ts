/**
 * Signing in to the console (docs/api.md §4.2): the gateway's own authorization-code flow with
 * PKCE for the dashboard client, through whichever provider the gateway uses (the embedded one by
 * default). The verifier and state wait in a short-lived httpOnly cookie on the callback path; the
 * tokens end in the gateway's session cookies on its own host, as any sign-in's do (§4.5).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { layout, PAGE_HEADERS } from '../identity-provider/pages.js';
import { escapeHtml, html, parseCookies, redirect, serializeCookie } from '../http/responses.js';
import { GATEWAY_HOST, type RequestContext } from '../http/request-context.js';
import { digestsEqual, sha256 } from '../lib/secrets.js';
import type { Services } from '../services.js';
import { createSessionCookies } from '../gateway-auth/session-cookies.http.js';
import { CONSOLE_CALLBACK_PATH, ensureConsoleClient } from './console-client.service.js';

const PENDING_COOKIE = 'gh_console_pending';
const PENDING_MAX_AGE_S = 10 * 60;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** DASHBOARD_CLIENT_ID (default `gatehouse-console`). */
const dashboardClientOf = (config: Config): string => config.auth.dashboardClientId;

const callbackUrl = (config: Config) => `${new URL(config.publicUrl).origin}${CONSOLE_CALLBACK_PATH}`;

/** A page saying what went wrong, with the way back. */
function signInPage(status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/console/signin">Sign in again</a></p>`;
  return html(status, layout(title, body), { ...PAGE_HEADERS, ...headers });
}

/** GET /console/signin: to the provider, for the dashboard client, coming back to /console/callback. */
export async function startConsoleSignIn(services: Services, config: Config): Promise<Response> {
  const clientId = dashboardClientOf(config);
  if (!config.auth.issuer) await ensureConsoleClient(services.deps.prisma, clientId, config.publicUrl);
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callbackUrl(config),
    scope: 'openid profile',
    state,
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
  });
  const pending = Buffer.from(JSON.stringify({ v: verifier, s: state })).toString('base64url');
  return redirect(await services.auth.provider.authorizationUrl(query.toString()), {
    'set-cookie': serializeCookie(PENDING_COOKIE, pending, {
      path: CONSOLE_CALLBACK_PATH,
      secure: config.auth.cookieSecure,
      maxAge: PENDING_MAX_AGE_S,
    }),
  });
}

/** GET /console/callback: check the state, exchange the code, set the session cookies, open the console. */
export async function finishConsoleSignIn(services: Services, config: Config, context: RequestContext): Promise<Response> {
  const { url } = context;
  const clientId = dashboardClientOf(config);
  const clearPending = serializeCookie(PENDING_COOKIE, '', { path: CONSOLE_CALLBACK_PATH, secure: config.auth.cookieSecure, maxAge: 0 });
  let pending: { v?: string; s?: string } | null;
  try {
    pending = JSON.parse(Buffer.from(parseCookies(context.headers.get('cookie')).get(PENDING_COOKIE) ?? '', 'base64url').toString('utf8'));
  } catch {
    pending = null;
  }
  const cleared = { 'set-cookie': clearPending };
  if (!pending?.v || !pending.s) return signInPage(400, 'Sign-in expired', 'This sign-in took too long or started in another browser.', cleared);
  if (url.searchParams.get('error')) return signInPage(400, 'Sign-in cancelled', 'You did not finish signing in.', cleared);
  if (!digestsEqual(sha256(url.searchParams.get('state') ?? ''), sha256(pending.s))) {
    return signInPage(400, 'Sign-in failed', 'The sign-in response does not match this browser (state mismatch).', cleared);
  }
  const tokens = await services.auth.provider.exchangeCode({
    code: url.searchParams.get('code') ?? '',
    codeVerifier: pending.v,
    redirectUri: callbackUrl(config),
    clientId,
  });
  const { sessionCookies } = createSessionCookies(config.auth.cookieSecure);
  return redirect('/console', { 'set-cookie': [clearPending, ...sessionCookies(GATEWAY_HOST, tokens, clientId)] }, 303);
}
