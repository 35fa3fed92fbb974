/**
 * The gateway's session cookies (docs/api.md §4.5): the access token and the client id on `/`,
 * the refresh token only on `<prefix>/auth`. Tokens live only in these httpOnly cookies: never in a
 * response body or a log line.
 */
import { serializeCookie } from '../http/responses.js';
import { CLIENT_COOKIE, type Mount, REFRESH_COOKIE, SESSION_COOKIE } from '../http/request-context.js';

/** Session lifetime follows the refresh token (the embedded provider's default: 14 days). */
export const SESSION_MAX_AGE_S = 14 * 24 * 60 * 60;

export interface SessionTokens {
  accessToken: string;
  refreshToken?: string;
  expiresIn: number;
}

/** `secure`: COOKIE_SECURE (config.auth.cookieSecure). */
export function createSessionCookies(secure: boolean) {
  function cookieOptions(mount: Mount) {
    return {
      session: { path: '/', secure },
      refresh: { path: `${mount.prefix}/auth`, secure },
    };
  }

  /** Set-Cookie values for a signed-in session; without a refresh token it lasts as long as the access token. */
  function sessionCookies(mount: Mount, tokens: SessionTokens, clientId: string): string[] {
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

  return { cookieOptions, sessionCookies, clearedCookies };
}

export type SessionCookies = ReturnType<typeof createSessionCookies>;
