/**
 * Turns a request's credentials into a Caller, in one place for REST, GraphQL and sockets:
 * a bearer token (Gatehouse-minted, else a provider access token) or the session cookie set by
 * POST /auth/token. It reports which credential it used so the CSRF rule (csrf.ts) can apply.
 *
 * A credential that was sent but does not authenticate is refused here, with the reason (as RFC
 * 6750 has it: an invalid token is an error even where none is required), so a 401 says whether
 * the token is unknown, expired or missing; `caller: null` means none was sent.
 */
import { type AppError, fail } from '../errors.js';
import { parseCookies } from '../http/responses.js';
import type { Services } from '../services.js';
import type { Caller } from '../core/caller.rules.js';
import { hasCsrfHeader } from '../http/csrf.js';
import type { HeaderReader } from '../http/responses.js';
import { CLIENT_COOKIE, SESSION_COOKIE } from '../http/request-context.js';

const GATEHOUSE_TOKEN = /^gh[da]_|^gst_/;

export interface ResolvedAuth {
  caller: Caller | null;
  credential: 'bearer' | 'cookie' | null;
  /** Whether the CSRF header was sent. */
  csrf: boolean;
}

/**
 * `audienceAppId` (RequestContext): the app a session cookie or token must belong to, on a hosted
 * origin or a registered Origin's cookie call; null accepts any app.
 */
export async function resolveCaller(services: Services, headers: HeaderReader, audienceAppId: string | null): Promise<ResolvedAuth> {
  const csrf = hasCsrfHeader(headers);
  const bearer = bearerOf(headers.get('authorization'));
  if (bearer) {
    if (GATEHOUSE_TOKEN.test(bearer)) {
      const checked = await services.tokens.check(bearer);
      if (checked.problem === 'expired') throw tokenExpired(bearer, checked.expiredAt);
      if (!checked.caller) throw invalidToken(bearer);
      const { caller } = checked;
      if (audienceAppId && caller.type === 'principal' && caller.deployment.appId !== audienceAppId) {
        throw fail('audience_mismatch', 'This token was issued to another app than the one this origin hosts.');
      }
      return { caller, credential: 'bearer', csrf };
    }
    const clientIdHint = headers.get('x-client-id');
    const found = await services.auth.callerForToken(bearer, { credential: 'provider', hostAppId: audienceAppId, clientIdHint });
    if (!found) throw invalidToken(bearer);
    return { caller: found.caller, credential: 'bearer', csrf };
  }
  const cookies = parseCookies(headers.get('cookie'));
  const session = cookies.get(SESSION_COOKIE);
  if (session) {
    // A dashboard session names no app: it reaches only the dashboard routes (ctx.dashboardUser).
    const dashboardClientId = services.deps.config.auth.dashboardClientId;
    if (dashboardClientId && (await services.auth.validator.validate(session))?.clientId === dashboardClientId) {
      return { caller: null, credential: 'cookie', csrf };
    }
    const found = await services.auth.callerForToken(session, {
      credential: 'session',
      hostAppId: audienceAppId,
      clientIdHint: cookies.get(CLIENT_COOKIE) ?? null,
    });
    if (!found) {
      throw fail(
        'session_expired',
        'The session cookie is no longer valid (expired, revoked or signed out): refresh it with POST /auth/refresh, or sign in again.',
      );
    }
    return { caller: found.caller, credential: 'cookie', csrf };
  }
  return { caller: null, credential: null, csrf };
}

/** What to do about a token, by its kind (the prefix says which kind it claims to be). */
function remedy(token: string): string {
  if (token.startsWith('ghd_')) return 'create a new developer token with `gatehouse dev-token create --developer <email>`';
  if (token.startsWith('gst_')) return 'mint a new test-session token (`gatehouse test-session --app <id> --user <name>`)';
  if (token.startsWith('gha_')) return 'create a new agent token (POST /v1/agents)';
  return 'sign in again to get a new access token';
}

function invalidToken(token: string): AppError {
  const why = GATEHOUSE_TOKEN.test(token) ? 'unknown or revoked' : 'unknown, revoked or expired at the identity provider';
  return fail('invalid_token', `The bearer token is not recognised (${why}): ${remedy(token)}.`);
}

function tokenExpired(token: string, expiredAt: Date): AppError {
  return fail('token_expired', `The bearer token expired at ${expiredAt.toISOString()}: ${remedy(token)}.`);
}

/** The token of an `Authorization: Bearer <token>` header; any other header is no bearer credential. */
export function bearerOf(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  return /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ?? null;
}
