/** Wires the service modules together; one instance per server. */
import { authLookups, authService } from './gateway-auth/gateway-auth.service.js';
import { createTokenValidator } from './gateway-auth/token-validator.service.js';
import { providerSetup } from './gateway-auth/provider-setup.service.js';
import { accountDeletionOperations } from './principals/account-deletion.service.js';
import { appOperations, deploymentCache, originCache } from './apps/apps.service.js';
import { oidcClientCache } from './identity-provider/adapter.js';
import { appRemovalOperations } from './apps/app-removal.service.js';
import { type BlobStore, lazyBlobStore } from './storage/index.js';
import type { ServiceDeps } from './core/deps.js';
import { bindDeps, extendDeps } from './core/bind-deps.js';
import { feedOperations } from './feeds/feeds.service.js';
import { snapshotTurns } from './feeds/feed-follow.service.js';
import { fileOperations } from './files/files.service.js';
import { createGatewayHosts } from './gateway-auth/gateway-hosts.service.js';
import { inviteLinkOperations } from './membership/invite-links.service.js';
import { membershipOperations } from './membership/membership.service.js';
import { developerLinkOperations } from './principals/developer-link.service.js';
import { dashboardOperations } from './membership/dashboard.service.js';
import { resourceDeletionOperations } from './membership/resource-deletion.service.js';
import { resourceOperations } from './membership/resources.service.js';
import { meteringOperations, meteringSeen } from './billing/metering.service.js';
import { dailySpendOperations } from './billing/daily-spend.service.js';
import { principalOperations } from './principals/principals.service.js';
import { profileLookups, profileOperations } from './principals/profiles.service.js';
import { roomOperations } from './rooms/rooms.service.js';
import { rowOperations } from './rows/rows.service.js';
import { createLiveRows } from './rows/rows-live.service.js';
import { tokenCache, tokenOperations } from './gateway-auth/tokens.service.js';
import { walletOperations } from './billing/wallet.service.js';
import { siteOperations } from './hosting/sites.service.js';
import { siteCache, siteServingOperations, transferMeter } from './hosting/site-serving.service.js';

export function createServices(deps: ServiceDeps, options: { fetch?: typeof fetch; blobs?: BlobStore } = {}) {
  const tokens = bindDeps(extendDeps(deps, { tokenCache: tokenCache() }), tokenOperations);
  const gatewayHosts = createGatewayHosts(deps.config);
  const appCaches = { originCache: originCache(), deploymentCache: deploymentCache(), oauthClientCache: oidcClientCache() };
  const apps = bindDeps(extendDeps(deps, { tokens, gatewayHosts, ...appCaches }), appOperations);
  const wallet = bindDeps(deps, walletOperations);
  const metering = bindDeps(extendDeps(deps, { meteringSeen: meteringSeen() }), meteringOperations);
  const blobs = options.blobs ?? lazyBlobStore(deps.config.files);
  // Deletions remove files' rows in their transaction and the bytes after it commits (a failure
  // there leaves garbage the hourly sweep removes, never a row without its bytes).
  const rows = bindDeps(extendDeps(deps, { apps, metering }), rowOperations);
  const liveRows = createLiveRows(deps, rows, apps);
  const blobsOrphaned = (keys: string[]) => void blobs.delete(keys).catch(() => {});
  const providers = providerSetup(deps.config, options.fetch);
  // Published sites: one cache of active versions for publishing and serving, one transfer meter.
  const sites = { siteCache: siteCache(), transfer: transferMeter(deps) };
  const auth = authService(
    extendDeps(deps, {
      provider: providers.client,
      validator: createTokenValidator(providers.client, deps.now, { jwt: providers.jwt, tokenShape: providers.tokenShape }),
      wallet,
      lookups: authLookups(),
    }),
  );
  return {
    deps,
    tokens,
    gatewayHosts,
    apps,
    /** The embedded provider's client metadata, forgotten when an app's origins change. */
    oauthClientCache: appCaches.oauthClientCache,
    wallet,
    metering,
    spend: bindDeps(deps, dailySpendOperations),
    providers,
    auth,
    // A deleted account's tokens stop on this instance at once, not when their cache entries expire.
    accountDeletion: bindDeps(
      extendDeps(deps, {
        blobsOrphaned,
        credentialsEnded: () => {
          tokens.clearCache();
          auth.validator.clear();
        },
      }),
      accountDeletionOperations,
    ),
    principals: bindDeps(extendDeps(deps, { tokens }), principalOperations),
    developerLinks: bindDeps(extendDeps(deps, { tokens }), developerLinkOperations),
    profiles: bindDeps(extendDeps(deps, { profileLookups: profileLookups(() => deps.now()) }), profileOperations),
    resources: bindDeps(extendDeps(deps, { apps }), resourceOperations),
    // Deleting an app or an environment: its caches and tokens forgotten on this instance at once.
    appRemoval: bindDeps(extendDeps(deps, { tokens, blobsOrphaned, ...appCaches }), appRemovalOperations),
    resourceDeletion: bindDeps(extendDeps(deps, { blobsOrphaned }), resourceDeletionOperations),
    membership: bindDeps(extendDeps(deps, { apps }), membershipOperations),
    dashboard: bindDeps(deps, dashboardOperations),
    inviteLinks: bindDeps(extendDeps(deps, { apps }), inviteLinkOperations),
    rooms: bindDeps(extendDeps(deps, { apps }), roomOperations),
    rows,
    files: { blobs, ...bindDeps(extendDeps(deps, { apps, metering, blobs }), fileOperations) },
    /** Publishing static sites (src/hosting), and serving them on hosted origins. */
    sites: bindDeps(extendDeps(deps, { blobs, siteCache: sites.siteCache }), siteOperations),
    hosting: bindDeps(extendDeps(deps, sites), siteServingOperations),
    /** The live row feed's fan-out (its stats: tests and diagnostics). */
    liveRows,
    feeds: bindDeps(extendDeps(deps, { liveRows, snapshotTurn: snapshotTurns(deps.config) }), feedOperations),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceDeps } from './core/deps.js';
