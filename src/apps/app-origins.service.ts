/**
 * Which app an origin or a hosted Host names: an exact, registered `scheme://host[:port]`, cached
 * for ORIGIN_CACHE_MS (other instances may answer that stale after an app registers an origin).
 */
import { Cache } from '../lib/cache.js';
import type { ServiceDeps } from '../core/deps.js';
import { isOriginShaped } from './apps.rules.js';

/** Origin -> app answers may be this stale on other instances after an app registers an origin. */
export const ORIGIN_CACHE_MS = 30_000;

/** A registered app origin and the app it belongs to. */
export interface OriginApp {
  appId: string;
  origin: string;
}

export type OriginCache = Cache<OriginApp | null>;
export const originCache = (): OriginCache => new Cache<OriginApp | null>({ ttlMs: ORIGIN_CACHE_MS });

export type OriginDeps = Pick<ServiceDeps, 'prisma'> & { originCache: OriginCache };

/**
 * The one origin -> app rule: an exact, registered `scheme://host[:port]` (http or https, as
 * the URL parser writes it: lowercase, no default port). Anything else names no app.
 */
export function appOfOrigin(deps: OriginDeps, origin: string): Promise<OriginApp | null> {
  if (!isOriginShaped(origin)) return Promise.resolve(null);
  return deps.originCache.getOrLoad(origin, async () => {
    const row = await deps.prisma.appOrigin.findUnique({ where: { origin }, select: { appId: true, origin: true } });
    return row ? { appId: row.appId, origin: row.origin } : null;
  });
}

/**
 * The app served on a hosted origin, from the request's Host (`host[:port]`, lowercase): the
 * same rule as appOfOrigin, for the origin `https://<host>` or else `http://<host>`. The
 * scheme is not taken from the request (a proxy may end TLS); registration keeps one host to one app.
 */
export async function appOfHost(deps: OriginDeps, host: string): Promise<OriginApp | null> {
  const h = host.toLowerCase();
  return (await appOfOrigin(deps, `https://${h}`)) ?? (await appOfOrigin(deps, `http://${h}`));
}
