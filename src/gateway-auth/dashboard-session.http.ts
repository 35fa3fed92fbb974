/**
 * Who is signed in to the dashboard (docs/api.md §4.2): the platform routes (/v1/me/wallet, /v1/me/invitations,
 * DELETE /v1/dashboard/apps/:appId/resources/:resourceId) accept only the user's own dashboard
 * session cookie, never a bearer token of any kind.
 */
import type { Config } from '../config.js';
import { fail } from '../errors.js';
import { type HeaderReader, parseCookies } from '../http/responses.js';
import { digestsEqual, sha256 } from '../lib/secrets.js';
import type { Services } from '../services.js';
import { type RequestContext, SESSION_COOKIE } from '../http/request-context.js';
import type { DeveloperCaller } from '../core/caller.rules.js';
import type { ResolvedAuth } from './resolve-caller.http.js';

/** The dashboard user's id, or the refusal: 401 without a usable session, 403 for any other credential. */
export async function dashboardUserOf(services: Services, config: Config, headers: HeaderReader): Promise<string> {
  const denied = (why: string) => fail('dashboard_session_required', `This platform route needs your dashboard session cookie: ${why}`);
  if (headers.get('authorization')) throw denied('bearer tokens (app, test or developer) are not accepted.');
  const accessToken = parseCookies(headers.get('cookie')).get(SESSION_COOKIE);
  if (!accessToken) throw fail('unauthenticated', 'Sign in to the dashboard first.');
  const dashboardClientId = config.auth.dashboardClientId;
  if (!dashboardClientId) throw denied('no dashboard client is configured (DASHBOARD_CLIENT_ID).');
  const info = await services.auth.validator.validate(accessToken);
  if (!info) throw fail('unauthenticated', 'The dashboard session expired: sign in again.');
  // Compared as digests: constant time whatever the lengths.
  if (!info.clientId || !digestsEqual(sha256(info.clientId), sha256(dashboardClientId)))
    throw denied('this session belongs to an app, not the dashboard.');
  return info.sub;
}

/** Whether a request's credential is one dashboardDeveloperOf can find a linked developer for. */
export function mayActAsLinkedDeveloper(
  request: Pick<RequestContext, 'mount' | 'audienceAppId'>,
  auth: Pick<ResolvedAuth, 'caller'> & { credential?: ResolvedAuth['credential'] },
): boolean {
  return !auth.caller && auth.credential === 'cookie' && !request.mount.host && !request.audienceAppId;
}

/**
 * The developer a console session acts as on GraphQL (docs/api.md §4.2): the developer the signed-in
 * person linked by proving their token, only for the dashboard session on the gateway's own host,
 * called from no app's origin. Every other credential resolves as before; null: not linked.
 */
export async function dashboardDeveloperOf(
  services: Services,
  config: Config,
  request: Pick<RequestContext, 'headers' | 'mount' | 'audienceAppId'>,
  auth: Pick<ResolvedAuth, 'caller'> & { credential?: ResolvedAuth['credential'] },
): Promise<DeveloperCaller | null> {
  if (!mayActAsLinkedDeveloper(request, auth)) return null;
  const personId = await dashboardUserOf(services, config, request.headers).catch(() => null);
  const linked = personId ? await services.developerLinks.linkedDeveloper(personId) : null;
  return linked ? { type: 'developer', developerId: linked.developerId } : null;
}
