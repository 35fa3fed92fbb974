/**
 * The gateway's HTTP surface (docs/api.md §1.1, §1.3, §4): /auth/* on the gateway's own host; on hosted
 * app origins (Host = a registered AppOrigin) /_osg/auth/*, /_osg/v1/* and /_osg/graphql (the
 * app taken from the host, audience checked), the /_invite/<code> confirm-then-join pages (on
 * hosted origins, and on the gateway's own host for apps without an origin); the dashboard
 * surfaces /v1/me/invitations, /v1/me/wallet and DELETE /v1/dashboard/apps/:appId/resources/:resourceId; and
 * the embedded identity provider's mount (/idp).
 *
 * Tokens live only in httpOnly cookies: never in a response body or a log line.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Config } from '../config.js';
import { AppError, isAppError, parseInput } from '../errors.js';
import { GATEWAY_CALLBACK_PATH, HOSTED_CALLBACK_PATH } from '../idp/adapter.js';
import type { IdentityProvider } from '../idp/provider.js';
import { PAGE_CSP, PAGE_HEADERS, layout } from '../idp/pages.js';
import { describeError, sendRestError } from '../error-responses.js';
import { escapeHtml, parseCookies, readForm, readJson, readText, redirect, sendHtml, sendJson, serializeCookie } from '../lib/http.js';
import type { Services } from '../services/index.js';
import { CSRF_HEADER, csrfRequired, hasCsrfHeader } from './csrf.js';
import {
  CLIENT_COOKIE,
  GATEWAY_HOST,
  HOSTED_PREFIX,
  type HostedApp,
  type Mount,
  REFRESH_COOKIE,
  type RequestScope,
  SESSION_COOKIE,
  apiPathOf,
  hostedMount,
} from './request-scope.js';
import { logger } from '../lib/logger.js';

/** Session lifetime follows the refresh token (the embedded provider's default: 14 days). */
export const SESSION_MAX_AGE_S = 14 * 24 * 60 * 60;
const PENDING_COOKIE = 'gh_pending';
const PENDING_MAX_AGE_S = 10 * 60;
const OSG = HOSTED_PREFIX;

type Headers = Record<string, string | string[]>;

const tokenBody = z.strictObject({
  code: z.string({ message: 'is required' }).min(1).max(2048),
  code_verifier: z.string({ message: 'is required' }).min(43, 'must be 43-128 characters').max(128, 'must be 43-128 characters'),
  redirect_uri: z.string({ message: 'is required' }).url('must be an absolute URL'),
  client_id: z.string({ message: 'is required' }).min(1).max(200),
});
const clientBody = z.strictObject({ client_id: z.string().min(1).max(200).optional() });

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The media type of a request body, without parameters. */
const mediaType = (req: IncomingMessage) => (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

const INVITE_CODE = /^inv_[A-Za-z0-9_-]{43}$/;

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface GatewayDeps {
  services: Services;
  config: Config;
  idp: IdentityProvider | null;
}

export function createGateway({ services, config, idp }: GatewayDeps) {
  const { auth } = services;
  const provider = auth.provider;
  const publicHost = new URL(config.publicUrl).host;
  const publicOrigin = new URL(config.publicUrl).origin;

  // ---- cookies -------------------------------------------------------------------------------

  function cookieOptions(mount: Mount) {
    return {
      session: { path: '/', secure: config.auth.cookieSecure },
      refresh: { path: `${mount.prefix}/auth`, secure: config.auth.cookieSecure },
    };
  }

  function sessionCookies(mount: Mount, tokens: { accessToken: string; refreshToken?: string; expiresIn: number }, clientId: string): string[] {
    const o = cookieOptions(mount);
    const maxAge = tokens.refreshToken ? SESSION_MAX_AGE_S : tokens.expiresIn;
    const cookies = [
      serializeCookie(SESSION_COOKIE, tokens.accessToken, { ...o.session, maxAge }),
      serializeCookie(CLIENT_COOKIE, clientId, { ...o.session, maxAge }),
    ];
    if (tokens.refreshToken) cookies.push(serializeCookie(REFRESH_COOKIE, tokens.refreshToken, { ...o.refresh, maxAge: SESSION_MAX_AGE_S }));
    return cookies;
  }

  function clearedCookies(mount: Mount): string[] {
    const o = cookieOptions(mount);
    return [
      serializeCookie(SESSION_COOKIE, '', { ...o.session, maxAge: 0 }),
      serializeCookie(CLIENT_COOKIE, '', { ...o.session, maxAge: 0 }),
      serializeCookie(REFRESH_COOKIE, '', { ...o.refresh, maxAge: 0 }),
    ];
  }

  // ---- hosted app origins --------------------------------------------------------------------

  async function hostedApp(req: IncomingMessage): Promise<HostedApp | null> {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!host || host === publicHost) return null;
    return services.apps.appOfHost(host);
  }

  // ---- /auth/* handlers ----------------------------------------------------------------------

  async function authorize(res: ServerResponse, url: URL) {
    redirect(res, await provider.authorizationUrl(url.search));
  }

  /** The app that registered `origin` exactly (scheme://host[:port]). */
  const appOfOrigin = async (origin: string) => (await services.apps.appOfOrigin(origin))?.appId ?? null;

  /**
   * Login CSRF: a cross-site page must not sign the browser in to someone else's account. A JSON
   * body cannot be sent cross-site without a preflight, and neither can the CSRF header; an Origin
   * is accepted only when it is the gateway's own, this hosted origin, or an origin registered by
   * the app that owns `client_id`.
   */
  async function assertTokenRequestFromApp(req: IncomingMessage, mount: Mount, clientId: string) {
    if (hasCsrfHeader(req.headers)) return;
    const origin = req.headers.origin;
    if (origin) {
      if (mount.host ? origin === mount.host.origin : origin === publicOrigin) return;
      const [ofOrigin, ofClient] = await Promise.all([appOfOrigin(origin), auth.appOfClient(clientId)]);
      if (ofOrigin && ofOrigin === ofClient) return;
    }
    throw new AppError(
      'csrf_required',
      403,
      `POST /auth/token must send the header ${CSRF_HEADER}: 1, or come from an origin registered for the app of this client_id.`,
    );
  }

  async function token(req: IncomingMessage, res: ServerResponse, mount: Mount) {
    if (mediaType(req) !== 'application/json') {
      await readText(req).catch(() => '');
      throw new AppError('unsupported_media_type', 415, 'POST /auth/token takes a JSON body: send Content-Type: application/json.');
    }
    const body = parseInput(tokenBody, await readJson(req), 'body');
    await assertTokenRequestFromApp(req, mount, body.client_id);
    const tokens = await provider.exchangeCode({
      code: body.code,
      codeVerifier: body.code_verifier,
      redirectUri: body.redirect_uri,
      clientId: body.client_id,
    });
    sendJson(res, 200, { authenticated: true, expires_in: tokens.expiresIn }, { 'set-cookie': sessionCookies(mount, tokens, body.client_id) });
  }

  async function refresh(req: IncomingMessage, res: ServerResponse, mount: Mount) {
    if (!hasCsrfHeader(req.headers)) throw csrfRequired();
    const body = parseInput(clientBody, await readJson(req), 'body');
    const cookies = parseCookies(req.headers.cookie);
    const refreshToken = cookies.get(REFRESH_COOKIE);
    const clientId = body.client_id ?? cookies.get(CLIENT_COOKIE);
    const refused = (message: string) => sendJson(res, 401, { error: 'invalid_refresh_token', message }, { 'set-cookie': clearedCookies(mount) });
    if (!refreshToken || !clientId) return refused('No refresh token: sign in again.');
    try {
      const tokens = await provider.refresh({ refreshToken, clientId });
      const previous = cookies.get(SESSION_COOKIE);
      if (previous) auth.validator.forget(previous);
      sendJson(res, 200, { authenticated: true, expires_in: tokens.expiresIn }, { 'set-cookie': sessionCookies(mount, tokens, clientId) });
    } catch (error) {
      if (isAppError(error) && error.status < 500) return refused('The refresh token is invalid or expired: sign in again.');
      throw error;
    }
  }

  async function logout(req: IncomingMessage, res: ServerResponse, mount: Mount) {
    if (!hasCsrfHeader(req.headers)) throw csrfRequired();
    const body = clientBody.safeParse(await readJson(req).catch(() => ({})));
    const cookies = parseCookies(req.headers.cookie);
    const clientId = (body.success ? body.data.client_id : undefined) ?? cookies.get(CLIENT_COOKIE);
    const refreshToken = cookies.get(REFRESH_COOKIE);
    const accessToken = cookies.get(SESSION_COOKIE);
    if (accessToken) auth.validator.forget(accessToken);
    if (clientId) {
      // Best effort: revoking the refresh token ends the grant's tokens at the provider too.
      const revocations = [
        refreshToken && provider.revoke({ token: refreshToken, clientId, hint: 'refresh_token' }),
        accessToken && provider.revoke({ token: accessToken, clientId, hint: 'access_token' }),
      ].filter(Boolean);
      const results = await Promise.allSettled(revocations);
      if (results.some(r => r.status === 'rejected')) logger.warn('logout: revocation at the provider failed (cookies cleared anyway)');
    }
    sendJson(res, 200, { ok: true }, { 'set-cookie': clearedCookies(mount) });
  }

  async function session(req: IncomingMessage, res: ServerResponse, mount: Mount) {
    const accessToken = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const info = accessToken ? await auth.validator.validate(accessToken) : null;
    let authenticated = !!info;
    if (info && mount.host && info.clientId) authenticated = (await auth.appOfClient(info.clientId)) === mount.host.appId;
    sendJson(res, 200, authenticated ? { authenticated: true, user_id: info!.sub } : { authenticated: false });
  }

  async function identityFlow(res: ServerResponse, url: URL) {
    const type = url.searchParams.get('type');
    const id = url.searchParams.get('id') ?? '';
    if (type !== 'login' && type !== 'registration') throw new AppError('invalid_argument', 400, 'query.type: must be login or registration.');
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new AppError('invalid_argument', 400, 'query.id: must be a flow id.');
    const upstream = await provider.identityFlow(type, id);
    if (upstream.status === 404) throw new AppError('flow_not_found', 404, 'No such flow, or it expired.');
    if (upstream.status !== 200) throw new AppError('provider_error', 502, 'The identity provider could not return the flow.');
    sendJson(res, 200, upstream.body);
  }

  /** The default consent screen (Hydra's consent URL): asks once, then calls the JSON API. */
  function consentPage(res: ServerResponse, url: URL) {
    const challenge = url.searchParams.get('consent_challenge') ?? '';
    const nonce = randomBytes(16).toString('base64');
    const body = `<h1>Allow access</h1><div id="details"><p>Loading…</p></div>
<form id="consent"><label>Display name (optional) <input name="displayName" maxlength="100" autocomplete="name"></label>
<button type="submit" name="decision" value="accept">Allow</button> <button type="button" id="deny">Deny</button></form>
<p class="error" id="error" hidden></p>
<script nonce="${nonce}">
const challenge = ${JSON.stringify(challenge).replace(/</g, '\\u003c')};
const show = m => { const e = document.getElementById('error'); e.textContent = m; e.hidden = false; };
const post = async (path, body) => {
  const r = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-service-csrf': '1' }, body: JSON.stringify(body) });
  const j = await r.json(); if (!r.ok) throw new Error(j.message || j.error); return j;
};
let scope = [];
fetch('/auth/consent-request?challenge=' + encodeURIComponent(challenge)).then(r => r.json()).then(d => {
  if (d.redirect_to) { location.href = d.redirect_to; return; }
  if (d.error) { show(d.message || d.error); return; }
  scope = d.requested_scope;
  const p = document.createElement('p');
  p.textContent = (d.client_name || d.client_id) + ' asks for: ' + scope.join(', ');
  document.getElementById('details').replaceChildren(p);
  if (d.display_name) document.querySelector('[name=displayName]').value = d.display_name;
}, () => show('Could not load the request.'));
document.getElementById('consent').addEventListener('submit', async ev => {
  ev.preventDefault();
  const displayName = new FormData(ev.target).get('displayName');
  try { location.href = (await post('/auth/consent/accept', { challenge, grant_scope: scope, ...(displayName ? { profile: { displayName } } : {}) })).redirect_to; } catch (e) { show(e.message); }
});
document.getElementById('deny').addEventListener('click', async () => {
  try { location.href = (await post('/auth/consent/reject', { challenge })).redirect_to; } catch (e) { show(e.message); }
});
</script>`;
    sendHtml(res, 200, layout('Allow access', body), {
      'content-security-policy': `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'`,
    });
  }

  // ---- dashboard surfaces --------------------------------------------------------------------

  /** Only the signed-in user's own dashboard session cookie: never a bearer token of any kind. */
  async function dashboardUser(req: IncomingMessage): Promise<string> {
    const denied = (why: string) =>
      new AppError('dashboard_session_required', 403, `This platform route needs your dashboard session cookie: ${why}`);
    if (req.headers.authorization) throw denied('bearer tokens (app, test or developer) are not accepted.');
    const accessToken = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    if (!accessToken) throw new AppError('unauthenticated', 401, 'Sign in to the dashboard first.');
    if (!config.auth.dashboardClientId) throw denied('no dashboard client is configured (DASHBOARD_CLIENT_ID).');
    const info = await auth.validator.validate(accessToken);
    if (!info) throw new AppError('unauthenticated', 401, 'The dashboard session expired: sign in again.');
    if (!info.clientId || !sameString(info.clientId, config.auth.dashboardClientId))
      throw denied('this session belongs to an app, not the dashboard.');
    return info.sub;
  }

  async function myInvitations(req: IncomingMessage, res: ServerResponse) {
    const userId = await dashboardUser(req);
    sendJson(res, 200, { invitations: await services.membership.invitationsAcrossApps(userId) });
  }

  async function deleteResource(req: IncomingMessage, res: ServerResponse, appId: string, resourceId: string) {
    if (!hasCsrfHeader(req.headers)) throw csrfRequired();
    const userId = await dashboardUser(req);
    // resource_not_found (404), reserved_resource and owner_only (403) are checked under the resource lock.
    sendJson(res, 200, await services.resourceDeletion.deleteAsOwner(userId, appId, resourceId));
  }

  // ---- the invite page (hosted origins, and the gateway's own host) ---------------------------

  /**
   * Where an invite page is served: a hosted app origin, or the gateway's own host for a link of
   * an app without an origin (the app then comes from the link's resource).
   */
  interface InviteSite {
    mount: Mount;
    /** The origin the page is served on (the hosted origin or PUBLIC_URL's). */
    origin: string;
    appId: string;
    callbackPath: string;
  }

  function siteOf(mount: Mount, appId: string): InviteSite {
    return mount.host
      ? { mount, origin: mount.host.origin, appId: mount.host.appId, callbackPath: HOSTED_CALLBACK_PATH }
      : { mount, origin: publicOrigin, appId, callbackPath: GATEWAY_CALLBACK_PATH };
  }

  function invitePage(res: ServerResponse, status: number, title: string, message: string, headers: Headers = {}) {
    sendHtml(res, status, layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`), { ...PAGE_HEADERS, ...headers });
  }

  function inviteError(res: ServerResponse, error: unknown, headers: Headers = {}) {
    const shape = describeError(error);
    if (shape.status >= 500) throw error;
    // A used, expired or unknown link is gone anyway; any other refusal leaves it claimable.
    const gone = shape.status === 404 || shape.status === 410;
    invitePage(res, shape.status, 'This invite cannot be used', gone ? shape.message : `${shape.message} The link was not used up.`, headers);
  }

  /**
   * The confirmation form's token: an HMAC keyed by the session's access token (an httpOnly
   * cookie no other site can read) over the page's origin and the code. Bound to this session
   * and this link, it needs no server secret, so every instance checks it alike.
   */
  const joinToken = (accessToken: string, origin: string, code: string) =>
    createHmac('sha256', accessToken).update(`invite-join\n${origin}\n${code}`).digest('base64url');

  /**
   * The browser's session for the site's app, or null when it has none usable for that app (no
   * cookie, expired, another app's): the visitor then signs in. Other refusals (the app is not
   * deployed, a reserved subject) are thrown for the page to show.
   */
  async function inviteSession(req: IncomingMessage, site: InviteSite) {
    const cookies = parseCookies(req.headers.cookie);
    const accessToken = cookies.get(SESSION_COOKIE);
    if (!accessToken) return null;
    if (auth.validator.mode === 'userinfo') {
      // Userinfo does not name the token's client; the gh_client cookie set beside it does.
      const clientId = cookies.get(CLIENT_COOKIE);
      if (!clientId || (await auth.appOfClient(clientId)) !== site.appId) return null;
    }
    try {
      const found = await auth.callerForToken(accessToken, { credential: 'session', hostAppId: site.appId });
      return found ? { caller: found.caller, accessToken } : null;
    } catch (error) {
      if (isAppError(error) && (error.status === 401 || error.code === 'audience_mismatch')) return null;
      throw error;
    }
  }

  /** Not signed in: sign in or up and consent, then back through the site's callback to the confirmation page. */
  async function startInviteSignIn(res: ServerResponse, site: InviteSite, code: string) {
    const clientId = await services.apps.signInClientOf(site.appId);
    if (!clientId) return invitePage(res, 503, 'Sign-in unavailable', 'This app has no OAuth client registered with the gateway.');
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `${site.origin}${site.callbackPath}`,
      scope: 'openid profile',
      state,
      code_challenge: s256(verifier),
      code_challenge_method: 'S256',
    });
    const pending = Buffer.from(JSON.stringify({ v: verifier, s: state, c: code, k: clientId })).toString('base64url');
    redirect(res, await provider.authorizationUrl(query.toString()), {
      'set-cookie': serializeCookie(PENDING_COOKIE, pending, {
        path: site.callbackPath,
        secure: config.auth.cookieSecure,
        maxAge: PENDING_MAX_AGE_S,
      }),
    });
  }

  /**
   * The link's resource and role, or an error page. On the gateway's own host the link names the
   * app; on a hosted origin it must be that origin's app's link.
   */
  async function inviteSite(res: ServerResponse, mount: Mount, code: string) {
    if (!INVITE_CODE.test(code)) {
      invitePage(res, 404, 'Invite not found', 'This invite link is incomplete: check that the whole link was copied.');
      return null;
    }
    let preview;
    try {
      preview = await services.inviteLinks.preview(code);
    } catch (error) {
      inviteError(res, error);
      return null;
    }
    if (mount.host && preview.appId !== mount.host.appId) {
      invitePage(res, 404, 'Invite not found', 'No such invite link: check that the whole code was copied.');
      return null;
    }
    return { site: siteOf(mount, preview.appId), preview };
  }

  /**
   * GET /_invite/<code>: a page asking the person to join; it never joins by itself, so a
   * cross-site redirect to this URL adds no one anywhere (docs/api.md §4.3, §5.2: no force-add).
   */
  async function invite(req: IncomingMessage, res: ServerResponse, mount: Mount, code: string) {
    const found = await inviteSite(res, mount, code);
    if (!found) return;
    const { site, preview } = found;
    let session;
    try {
      session = await inviteSession(req, site);
    } catch (error) {
      return inviteError(res, error);
    }
    if (!session) return startInviteSignIn(res, site, code);
    if (session.caller.deployment.env !== preview.env) {
      return invitePage(res, 404, 'Invite not found', 'No such invite link: check that the whole code was copied.');
    }
    const cancel = mount.host ? `${site.origin}/` : null;
    const body = `<h1>Join ${escapeHtml(preview.resourceName)}?</h1>
<p>You are invited to the ${escapeHtml(preview.resourceType)} <strong>${escapeHtml(preview.resourceName)}</strong> in ${escapeHtml(preview.appName)}, as <strong>${escapeHtml(preview.role)}</strong>.</p>
<form method="post" action="/_invite/${escapeHtml(code)}"><input type="hidden" name="csrf" value="${joinToken(session.accessToken, site.origin, code)}">
<button type="submit">Join</button></form>${cancel ? `<p><a href="${escapeHtml(cancel)}">Not now</a></p>` : ''}`;
    sendHtml(res, 200, layout(`Join ${preview.resourceName}`, body), {
      ...PAGE_HEADERS,
      'content-security-policy': `${PAGE_CSP}; form-action 'self'`,
    });
  }

  /** POST /_invite/<code>: the Join button. Same-origin form, this session's token, then the claim. */
  async function joinInvite(req: IncomingMessage, res: ServerResponse, mount: Mount, code: string) {
    // Read first: every answer below may refuse, and an unread body would cost the connection.
    const form = await readForm(req);
    const found = await inviteSite(res, mount, code);
    if (!found) return;
    const { site, preview } = found;
    const origin = req.headers.origin;
    const fetchSite = req.headers['sec-fetch-site'];
    if ((origin !== undefined && origin !== site.origin) || (fetchSite !== undefined && fetchSite !== 'same-origin')) {
      return invitePage(res, 403, 'Not joined', 'This request did not come from the invite page. Open the invite link and press Join there.');
    }
    if (mediaType(req) !== 'application/x-www-form-urlencoded') {
      return invitePage(res, 415, 'Not joined', 'Press Join on the invite page to accept the invite.');
    }
    let session;
    try {
      session = await inviteSession(req, site);
    } catch (error) {
      return inviteError(res, error);
    }
    // Signed out since the page was shown: start again from the page (sign in, then confirm).
    if (!session) return redirect(res, `${site.origin}/_invite/${code}`, {}, 303);
    if (!form.csrf || !sameString(form.csrf, joinToken(session.accessToken, site.origin, code))) {
      return invitePage(
        res,
        403,
        'Not joined',
        'This confirmation expired or did not come from the invite page. Open the invite link again and press Join.',
      );
    }
    let claimed;
    try {
      claimed = await services.inviteLinks.claim(session.caller, code);
    } catch (error) {
      return inviteError(res, error);
    }
    if (mount.host) return redirect(res, `${site.origin}/?invite=accepted&resource=${encodeURIComponent(claimed.resourceId)}`, {}, 303);
    invitePage(
      res,
      200,
      'Joined',
      `You joined ${preview.resourceName} in ${preview.appName} as ${claimed.role}. You can close this page and open the app.`,
    );
  }

  /** Back from sign-in for an invite: finish the code exchange (the gateway's own PKCE and state), then show the confirmation page. */
  async function inviteCallback(req: IncomingMessage, res: ServerResponse, url: URL, mount: Mount) {
    const callbackPath = mount.host ? HOSTED_CALLBACK_PATH : GATEWAY_CALLBACK_PATH;
    const origin = mount.host ? mount.host.origin : publicOrigin;
    const clearPending = serializeCookie(PENDING_COOKIE, '', { path: callbackPath, secure: config.auth.cookieSecure, maxAge: 0 });
    let pending: { v: string; s: string; c: string; k: string } | null = null;
    try {
      pending = JSON.parse(Buffer.from(parseCookies(req.headers.cookie).get(PENDING_COOKIE) ?? '', 'base64url').toString('utf8'));
    } catch {
      pending = null;
    }
    if (!pending?.v || !pending.s || !pending.c || !pending.k || !INVITE_CODE.test(pending.c)) {
      return invitePage(res, 400, 'Sign-in expired', 'This sign-in took too long or started in another browser. Open the invite link again.', {
        'set-cookie': clearPending,
      });
    }
    if (url.searchParams.get('error')) {
      return invitePage(
        res,
        400,
        'Sign-in cancelled',
        'You did not finish signing in, so the invite was not used. Open the invite link again to retry.',
        { 'set-cookie': clearPending },
      );
    }
    if (!sameString(url.searchParams.get('state') ?? '', pending.s)) {
      return invitePage(
        res,
        400,
        'Sign-in failed',
        'The sign-in response does not match this browser (state mismatch). Open the invite link again.',
        { 'set-cookie': clearPending },
      );
    }
    const tokens = await provider.exchangeCode({
      code: url.searchParams.get('code') ?? '',
      codeVerifier: pending.v,
      redirectUri: `${origin}${callbackPath}`,
      clientId: pending.k,
    });
    const headers = { 'set-cookie': [clearPending, ...sessionCookies(mount, tokens, pending.k)] };
    redirect(res, `${origin}/_invite/${pending.c}`, headers, 303);
  }

  // ---- dispatch ------------------------------------------------------------------------------

  async function authRoute(req: IncomingMessage, res: ServerResponse, url: URL, mount: Mount, route: string): Promise<boolean> {
    const method = req.method ?? 'GET';
    const key = `${method} ${route}`;
    switch (key) {
      case 'GET /authorize':
        await authorize(res, url);
        return true;
      case 'POST /token':
        await token(req, res, mount);
        return true;
      case 'POST /refresh':
        await refresh(req, res, mount);
        return true;
      case 'POST /logout':
        await logout(req, res, mount);
        return true;
      case 'GET /session':
        await session(req, res, mount);
        return true;
      case 'GET /consent-request':
        sendJson(res, 200, await auth.consentRequest(url.searchParams.get('challenge') ?? ''));
        return true;
      // State changes on the user's provider session: the CSRF header, like every other one (docs/api.md §4.5).
      case 'POST /consent/accept':
        if (!hasCsrfHeader(req.headers)) throw csrfRequired();
        sendJson(res, 200, await auth.acceptConsent(await readJson(req)));
        return true;
      case 'POST /consent/reject':
        if (!hasCsrfHeader(req.headers)) throw csrfRequired();
        sendJson(res, 200, await auth.rejectConsent(await readJson(req)));
        return true;
      case 'GET /identity/flow':
        await identityFlow(res, url);
        return true;
      case 'GET /consent':
        consentPage(res, url);
        return true;
      case 'GET /callback':
        await inviteCallback(req, res, url, mount);
        return true;
    }
    return false;
  }

  /** GET and POST /_invite/<code>, on a hosted origin or the gateway's own host. */
  async function inviteRoute(req: IncomingMessage, res: ServerResponse, mount: Mount, path: string): Promise<boolean> {
    if (!path.startsWith('/_invite/')) return false;
    const code = path.slice('/_invite/'.length);
    if (req.method === 'GET') await invite(req, res, mount, code);
    else if (req.method === 'POST') await joinInvite(req, res, mount, code);
    else invitePage(res, 405, 'Not allowed', `${req.method} is not supported here.`, { allow: 'GET, POST' });
    return true;
  }

  /**
   * Serves the gateway's own routes for a request whose scope server.ts computed. Returns true when
   * it answered; false leaves the request to the API (`apiPathOf(scope)`: on a hosted origin
   * /_osg/v1/* and /_osg/graphql, bound to the host's app by `scope.audienceAppId`).
   */
  async function handle(req: IncomingMessage, res: ServerResponse, scope: RequestScope): Promise<boolean> {
    const { url, mount } = scope;
    const path = url.pathname;
    try {
      if (mount.host) {
        if (path.startsWith(`${OSG}/auth/`)) {
          if (await authRoute(req, res, url, mount, path.slice(`${OSG}/auth`.length))) return true;
        } else if (apiPathOf(scope) !== path || path === '/healthz') {
          return false;
        } else if (await inviteRoute(req, res, mount, path)) {
          return true;
        }
        sendJson(res, 404, {
          error: 'not_found',
          message: `No gateway route ${req.method} ${path} on this app origin (gateway routes live under ${OSG}).`,
        });
        return true;
      }
      if (path.startsWith('/auth/')) {
        if (await authRoute(req, res, url, mount, path.slice('/auth'.length))) return true;
        sendJson(res, 404, { error: 'not_found', message: `No route ${req.method} ${path}.` });
        return true;
      }
      if (await inviteRoute(req, res, mount, path)) return true;
      if (path === '/v1/me/wallet' && req.method === 'GET') {
        sendJson(res, 200, await services.wallet.statement(await dashboardUser(req)));
        return true;
      }
      if (path === '/v1/me/invitations' && req.method === 'GET') {
        await myInvitations(req, res);
        return true;
      }
      const deletion = /^\/v1\/dashboard\/apps\/([^/]+)\/resources\/([^/]+)$/.exec(path);
      if (deletion && req.method === 'DELETE') {
        await deleteResource(req, res, decodeURIComponent(deletion[1]), decodeURIComponent(deletion[2]));
        return true;
      }
      return !!idp && (await idp.handle(req, res, url));
    } catch (error) {
      if (res.headersSent) throw error;
      sendRestError(res, error);
      return true;
    }
  }

  /** Where a request arrived: a registered app origin (by its Host) or the gateway's own host. */
  async function mountOf(req: IncomingMessage): Promise<Mount> {
    const host = await hostedApp(req);
    return host ? hostedMount(host) : GATEWAY_HOST;
  }

  return { handle, mountOf };
}

export type Gateway = ReturnType<typeof createGateway>;
