/**
 * The /_invite/<code> confirm-then-join pages (docs/api.md §4.3), on hosted app origins and on the
 * gateway's own host for apps without an origin, and the sign-in callback that brings a visitor
 * back to them (the gateway's own PKCE and state, kept in a short-lived cookie).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { describeError } from '../http/error-responses.js';
import { isAppError } from '../errors.js';
import { GATEWAY_CALLBACK_PATH, HOSTED_CALLBACK_PATH } from '../identity-provider/adapter.js';
import { PAGE_CSP, PAGE_HEADERS, layout } from '../identity-provider/pages.js';
import { escapeHtml, type HeaderValues, html, mediaType, parseCookies, redirect, serializeCookie } from '../http/responses.js';
import { parseForm } from '../http/body.js';
import { digestsEqual, sha256 } from '../lib/secrets.js';
import type { Services } from '../services.js';
import { CLIENT_COOKIE, type Mount, type RequestContext, SESSION_COOKIE } from '../http/request-context.js';
import { createSessionCookies } from './session-cookies.http.js';

/** The invite sign-in in flight: PKCE verifier, state, invite code and client, on the callback path only. */
const PENDING_COOKIE = 'gh_pending';
const PENDING_MAX_AGE_S = 10 * 60;
export const INVITE_PATH = '/_invite/';
const INVITE_CODE = /^inv_[A-Za-z0-9_-]{43}$/;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
/** Constant-time string equality (compared as digests, so the lengths do not leak either). */
const sameString = (a: string, b: string) => digestsEqual(sha256(a), sha256(b));

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

function invitePage(status: number, title: string, message: string, headers: HeaderValues = {}): Response {
  return html(status, layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`), { ...PAGE_HEADERS, ...headers });
}

/** A refusal as a page; an unexpected error (5xx) is thrown for the gateway's error answer. */
function inviteError(error: unknown, headers: HeaderValues = {}): Response {
  const shape = describeError(error);
  if (shape.status >= 500) throw error;
  // A used, expired or unknown link is gone anyway; any other refusal leaves it claimable.
  const gone = shape.status === 404 || shape.status === 410;
  return invitePage(shape.status, 'This invite cannot be used', gone ? shape.message : `${shape.message} The link was not used up.`, headers);
}

/**
 * The confirmation form's token: an HMAC keyed by the session's access token (an httpOnly
 * cookie no other site can read) over the page's origin and the code. Bound to this session
 * and this link, it needs no server secret, so every instance checks it alike.
 */
const joinToken = (accessToken: string, origin: string, code: string) =>
  createHmac('sha256', accessToken).update(`invite-join\n${origin}\n${code}`).digest('base64url');

export function createInvitePages({ services, config }: { services: Services; config: Config }) {
  const { auth } = services;
  const provider = auth.provider;
  const publicOrigin = new URL(config.publicUrl).origin;
  const { sessionCookies } = createSessionCookies(config.auth.cookieSecure);

  function siteOf(mount: Mount, appId: string): InviteSite {
    return mount.host
      ? { mount, origin: mount.host.origin, appId: mount.host.appId, callbackPath: HOSTED_CALLBACK_PATH }
      : { mount, origin: publicOrigin, appId, callbackPath: GATEWAY_CALLBACK_PATH };
  }

  /**
   * The browser's session for the site's app, or null when it has none usable for that app (no
   * cookie, expired, another app's): the visitor then signs in. Other refusals (the app is not
   * deployed, a reserved subject) are thrown for the page to show.
   */
  async function inviteSession(headers: Headers, site: InviteSite) {
    const cookies = parseCookies(headers.get('cookie'));
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
  async function startInviteSignIn(site: InviteSite, code: string): Promise<Response> {
    const clientId = await services.apps.signInClientOf(site.appId);
    if (!clientId) return invitePage(503, 'Sign-in unavailable', 'This app has no OAuth client registered with the gateway.');
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
    return redirect(await provider.authorizationUrl(query.toString()), {
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
  async function inviteSite(mount: Mount, code: string) {
    if (!INVITE_CODE.test(code)) {
      return { refused: invitePage(404, 'Invite not found', 'This invite link is incomplete: check that the whole link was copied.') };
    }
    let preview;
    try {
      preview = await services.inviteLinks.preview(code);
    } catch (error) {
      return { refused: inviteError(error) };
    }
    if (mount.host && preview.appId !== mount.host.appId) {
      return { refused: invitePage(404, 'Invite not found', 'No such invite link: check that the whole code was copied.') };
    }
    return { site: siteOf(mount, preview.appId), preview };
  }

  /**
   * GET /_invite/<code>: a page asking the person to join; it never joins by itself, so a
   * cross-site redirect to this URL adds no one anywhere (docs/api.md §4.3, §5.2: no force-add).
   */
  async function invite(context: RequestContext, mount: Mount, code: string): Promise<Response> {
    const found = await inviteSite(mount, code);
    if (found.refused) return found.refused;
    const { site, preview } = found;
    let session;
    try {
      session = await inviteSession(context.request.headers, site);
    } catch (error) {
      return inviteError(error);
    }
    if (!session) return startInviteSignIn(site, code);
    if (session.caller.deployment.env !== preview.env) {
      return invitePage(404, 'Invite not found', 'No such invite link: check that the whole code was copied.');
    }
    const cancel = mount.host ? `${site.origin}/` : null;
    const body = `<h1>Join ${escapeHtml(preview.resourceName)}?</h1>
<p>You are invited to the ${escapeHtml(preview.resourceType)} <strong>${escapeHtml(preview.resourceName)}</strong> in ${escapeHtml(preview.appName)}, as <strong>${escapeHtml(preview.role)}</strong>.</p>
<form method="post" action="/_invite/${escapeHtml(code)}"><input type="hidden" name="csrf" value="${joinToken(session.accessToken, site.origin, code)}">
<button type="submit">Join</button></form>${cancel ? `<p><a href="${escapeHtml(cancel)}">Not now</a></p>` : ''}`;
    return html(200, layout(`Join ${preview.resourceName}`, body), {
      ...PAGE_HEADERS,
      'content-security-policy': `${PAGE_CSP}; form-action 'self'`,
      // no-referrer would make the Join POST carry `Origin: null` (Fetch: an origin serialized under the referrer policy).
      'referrer-policy': 'same-origin',
    });
  }

  /** POST /_invite/<code>: the Join button. Same-origin form, this session's token, then the claim. */
  async function joinInvite(context: RequestContext, mount: Mount, code: string): Promise<Response> {
    const { headers } = context.request;
    // Read first: every answer below may refuse, and an unread body would cost the connection.
    const form = parseForm(await context.body());
    const found = await inviteSite(mount, code);
    if (found.refused) return found.refused;
    const { site, preview } = found;
    const origin = headers.get('origin');
    const fetchSite = headers.get('sec-fetch-site');
    if ((origin !== null && origin !== site.origin) || (fetchSite !== null && fetchSite !== 'same-origin')) {
      return invitePage(403, 'Not joined', 'This request did not come from the invite page. Open the invite link and press Join there.');
    }
    if (mediaType(headers.get('content-type')) !== 'application/x-www-form-urlencoded') {
      return invitePage(415, 'Not joined', 'Press Join on the invite page to accept the invite.');
    }
    let session;
    try {
      session = await inviteSession(headers, site);
    } catch (error) {
      return inviteError(error);
    }
    // Signed out since the page was shown: start again from the page (sign in, then confirm).
    if (!session) return redirect(`${site.origin}/_invite/${code}`, {}, 303);
    if (!form.csrf || !sameString(form.csrf, joinToken(session.accessToken, site.origin, code))) {
      return invitePage(
        403,
        'Not joined',
        'This confirmation expired or did not come from the invite page. Open the invite link again and press Join.',
      );
    }
    let claimed;
    try {
      claimed = await services.inviteLinks.claim(session.caller, code);
    } catch (error) {
      return inviteError(error);
    }
    if (mount.host) return redirect(`${site.origin}/?invite=accepted&resource=${encodeURIComponent(claimed.resourceId)}`, {}, 303);
    return invitePage(
      200,
      'Joined',
      `You joined ${preview.resourceName} in ${preview.appName} as ${claimed.role}. You can close this page and open the app.`,
    );
  }

  /** Back from sign-in for an invite: finish the code exchange (the gateway's own PKCE and state), then show the confirmation page. */
  async function callback(context: RequestContext, mount: Mount): Promise<Response> {
    const { url } = context;
    const callbackPath = mount.host ? HOSTED_CALLBACK_PATH : GATEWAY_CALLBACK_PATH;
    const origin = mount.host ? mount.host.origin : publicOrigin;
    const clearPending = serializeCookie(PENDING_COOKIE, '', { path: callbackPath, secure: config.auth.cookieSecure, maxAge: 0 });
    let pending: { v: string; s: string; c: string; k: string } | null = null;
    try {
      pending = JSON.parse(Buffer.from(parseCookies(context.request.headers.get('cookie')).get(PENDING_COOKIE) ?? '', 'base64url').toString('utf8'));
    } catch {
      pending = null;
    }
    if (!pending?.v || !pending.s || !pending.c || !pending.k || !INVITE_CODE.test(pending.c)) {
      return invitePage(400, 'Sign-in expired', 'This sign-in took too long or started in another browser. Open the invite link again.', {
        'set-cookie': clearPending,
      });
    }
    if (url.searchParams.get('error')) {
      return invitePage(400, 'Sign-in cancelled', 'You did not finish signing in, so the invite was not used. Open the invite link again to retry.', {
        'set-cookie': clearPending,
      });
    }
    if (!sameString(url.searchParams.get('state') ?? '', pending.s)) {
      return invitePage(400, 'Sign-in failed', 'The sign-in response does not match this browser (state mismatch). Open the invite link again.', {
        'set-cookie': clearPending,
      });
    }
    const tokens = await provider.exchangeCode({
      code: url.searchParams.get('code') ?? '',
      codeVerifier: pending.v,
      redirectUri: `${origin}${callbackPath}`,
      clientId: pending.k,
    });
    return redirect(`${origin}/_invite/${pending.c}`, { 'set-cookie': [clearPending, ...sessionCookies(mount, tokens, pending.k)] }, 303);
  }

  return { invite, join: joinInvite, callback };
}

export type InvitePages = ReturnType<typeof createInvitePages>;
