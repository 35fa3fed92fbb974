/**
 * What a hosted origin serves (docs/api.md §15): the active version of its app's site in the
 * gateway's environment (GATEWAY_ENV, the one its sign-in uses), cached for SITE_CACHE_MS (another
 * instance may serve the previous version that long after a publish), what its page learns about
 * its gateway (`/_osg/config.json`), and the metering of the bytes it sends: transfer charged to
 * the app's developer, gathered in memory and written to the ledger every few seconds (one entry
 * per environment and flush, not one per page view).
 */
import { Cache } from '../lib/cache.js';
import type { ServiceDeps } from '../core/deps.js';
import { costMicros } from '../billing/pricing.rules.js';
import { appendEntry, grantDeveloperCredit } from '../billing/wallet.service.js';
import { logger } from '../lib/logger.js';
import { signInClientOf } from '../apps/apps.service.js';
import { HOSTED_PREFIX, type SiteConfig } from './sites.rules.js';
import type { StoredSiteFile } from './sites.service.js';
import { asSystemWork } from '../db/fair-queue.js';

/** After a publish, other instances may serve the previous version this long. */
export const SITE_CACHE_MS = 5_000;
/** Served bytes are charged at most this long after they were sent (and when the server stops). */
export const TRANSFER_FLUSH_MS = 10_000;

export interface ActiveSite {
  deploymentId: string;
  appId: string;
  env: string;
  developerId: string;
  number: number;
  spa: boolean;
  files: Record<string, StoredSiteFile>;
}

export function siteCache() {
  const cache = new Cache<ActiveSite | null>({ ttlMs: SITE_CACHE_MS, max: 1_000 });
  const key = (appId: string, env: string) => `${appId}\0${env}`;
  return {
    load: (appId: string, env: string, load: () => Promise<ActiveSite | null>) => cache.getOrLoad(key(appId, env), load),
    /** After a publish or rollback on this instance: served at once here. */
    forget: (appId: string, env: string) => cache.delete(key(appId, env)),
  };
}
export type SiteCache = ReturnType<typeof siteCache>;

/** The bytes (and responses) sent per environment since the last flush, and their charge to each app's developer. */
export function transferMeter(deps: Pick<ServiceDeps, 'transaction' | 'config' | 'now'>) {
  const pending = new Map<string, { developerId: string; appId: string; env: string; bytes: number; responses: number }>();
  let timer: NodeJS.Timeout | null = null;

  async function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const bills = [...pending.values()];
    pending.clear();
    for (const bill of bills) {
      const cost = costMicros(deps.config.metering.prices, [{ class: 'transfer', quantity: bill.bytes }]);
      if (cost === 0n) continue;
      try {
        await deps.transaction(async tx => {
          await grantDeveloperCredit(deps, bill.developerId, tx);
          const facts = {
            kind: 'charge:site.transfer',
            appId: bill.appId,
            env: bill.env,
            quantity: BigInt(bill.bytes),
            calls: bill.responses,
            byClass: { transfer: -cost },
          };
          await appendEntry(tx, { kind: 'developer', id: bill.developerId }, -cost, facts, deps.now());
        });
      } catch (error) {
        // Kept for the next flush: sent bytes are charged once, late rather than never.
        record(bill, bill.bytes, bill.responses);
        logger.warn({ err: error }, 'site transfer charge failed; retrying');
      }
    }
  }

  function record(site: Pick<ActiveSite, 'developerId' | 'appId' | 'env'>, bytes: number, responses = 1) {
    if (!deps.config.metering.enabled || bytes <= 0) return;
    const key = `${site.appId}\0${site.env}`;
    const bill = pending.get(key) ?? { developerId: site.developerId, appId: site.appId, env: site.env, bytes: 0, responses: 0 };
    bill.bytes += bytes;
    bill.responses += responses;
    pending.set(key, bill);
    // Upkeep, not the turn of the request that happened to start the timer.
    timer ??= asSystemWork(() => setTimeout(() => void flush(), TRANSFER_FLUSH_MS).unref());
  }

  return { record, flush };
}
export type TransferMeter = ReturnType<typeof transferMeter>;

export type ServingDeps = Pick<ServiceDeps, 'prisma' | 'config'> & { siteCache: SiteCache; transfer: TransferMeter };

/** The site a hosted origin serves now: its app's active version in the gateway's environment, or null. */
export function activeSite(deps: ServingDeps, appId: string): Promise<ActiveSite | null> {
  const env = deps.config.auth.gatewayEnv;
  return deps.siteCache.load(appId, env, async () => {
    const deployment = await deps.prisma.deployment.findUnique({
      where: { appId_env: { appId, env } },
      select: { id: true, app: { select: { developerId: true } }, site: { select: { activeVersionId: true } } },
    });
    if (!deployment?.site) return null;
    const version = await deps.prisma.siteVersion.findUnique({ where: { id: deployment.site.activeVersionId } });
    if (!version) return null;
    return {
      deploymentId: deployment.id,
      appId,
      env,
      developerId: deployment.app.developerId,
      number: version.number,
      spa: version.spa,
      files: version.files as unknown as Record<string, StoredSiteFile>,
    };
  });
}

/** What a hosted page learns about its gateway: public values only. */
export async function siteConfig(deps: Pick<ServiceDeps, 'prisma' | 'config'>, host: { appId: string; origin: string }): Promise<SiteConfig> {
  return {
    gateway: `${host.origin}${HOSTED_PREFIX}`,
    clientId: await signInClientOf(deps, host.appId),
    appId: host.appId,
    env: deps.config.auth.gatewayEnv,
  };
}

/** Bytes a page view sent, charged to the app's developer at the next flush. */
export function meterTransfer(deps: ServingDeps, site: ActiveSite, bytes: number): void {
  deps.transfer.record(site, bytes);
}

/** Charges every byte sent so far now (the server's stop; tests). */
export const flushTransfer = (deps: ServingDeps) => deps.transfer.flush();

export const siteServingOperations = { activeSite, siteConfig, meterTransfer, flushTransfer };
