/**
 * Turns a request's credentials into a Caller, in one place for REST, GraphQL and sockets:
 * a bearer token (Gatehouse-minted, else a provider access token) or the session cookie set by
 * POST /auth/token. It reports which credential it used so the CSRF rule (csrf.ts) can apply.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parseCookies } from '../lib/http.js';
import type { Services } from '../services/index.js';
import type { Caller } from './caller.js';
import { hasCsrfHeader } from './csrf.js';

export const SESSION_COOKIE = 'gh_session';
export const REFRESH_COOKIE = 'gh_refresh';
export const CLIENT_COOKIE = 'gh_client';

const GATEHOUSE_TOKEN = /^gh[da]_|^gst_/;

export interface ResolvedAuth {
  caller: Caller | null;
  credential: 'bearer' | 'cookie' | null;
  /** Whether the CSRF header was sent. */
  csrf: boolean;
}

/** Where the gateway is mounted on a hosted app origin (spec 1, 5.3). */
export const HOSTED_PREFIX = '/_osg';

/** Requests arriving on a hosted app origin under /_osg: the app the host belongs to. */
const hostedApps = new WeakMap<object, string>();
export const markHostedApp = (req: object, appId: string) => hostedApps.set(req, appId);
export const hostedAppOf = (req: object) => hostedApps.get(req) ?? null;

export async function resolveCaller(services: Services, request: { headers: IncomingHttpHeaders }): Promise<ResolvedAuth> {
  const { headers } = request;
  const csrf = hasCsrfHeader(headers);
  const hostAppId = hostedAppOf(request);
  const bearer = bearerOf(headers.authorization);
  if (bearer) {
    if (GATEHOUSE_TOKEN.test(bearer)) {
      const caller = await services.tokens.resolve(bearer);
      if (hostAppId && caller?.type === 'principal' && caller.deployment.appId !== hostAppId) {
        return { caller: null, credential: 'bearer', csrf };
      }
      return { caller, credential: 'bearer', csrf };
    }
    const clientIdHint = typeof headers['x-client-id'] === 'string' ? headers['x-client-id'] : null;
    const found = await services.auth.callerForToken(bearer, { credential: 'provider', hostAppId, clientIdHint });
    return { caller: found?.caller ?? null, credential: 'bearer', csrf };
  }
  const cookies = parseCookies(headers.cookie);
  const session = cookies.get(SESSION_COOKIE);
  if (session) {
    const found = await services.auth.callerForToken(session, { credential: 'session', hostAppId, clientIdHint: cookies.get(CLIENT_COOKIE) ?? null });
    return { caller: found?.caller ?? null, credential: 'cookie', csrf };
  }
  return { caller: null, credential: null, csrf };
}

/** The token of an `Authorization: Bearer <token>` header; any other header is no bearer credential. */
export function bearerOf(authorization: string | undefined): string | null {
  if (!authorization) return null;
  return /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ?? null;
}
