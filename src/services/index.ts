/** Wires the service modules together; one instance per server. */
import { createAuthService } from './gateway-auth.js';
import { providerSetup } from './identity-provider/setup.js';
import { createAccountDeletionService } from './account-deletion.js';
import { createAppService } from './apps.js';
import { type BlobStore, lazyBlobStore } from '../storage/index.js';
import type { ServiceDeps } from './deps.js';
import { createFeedService } from './feeds.js';
import { createFileService } from './files.js';
import { createGatewayHosts } from './gateway-hosts.js';
import { createInviteLinkService } from './invite-links.js';
import { createMembershipService } from './membership.js';
import { createMeteringService } from './metering.js';
import { createPrincipalService } from './principals.js';
import { createProfileService } from './profiles.js';
import { createResourceDeletionService } from './resource-deletion.js';
import { createResourceService } from './resources.js';
import { createRoomService } from './rooms.js';
import { createRowService } from './rows.js';
import { createLiveRows } from './rows-live.js';
import { createTokenService } from './tokens.js';
import { createWalletService } from './wallet.js';

export function createServices(deps: ServiceDeps, options: { fetch?: typeof fetch; blobs?: BlobStore } = {}) {
  const tokens = createTokenService(deps);
  const gatewayHosts = createGatewayHosts(deps.config);
  const apps = createAppService(deps, tokens, gatewayHosts);
  const wallet = createWalletService(deps);
  const metering = createMeteringService(deps, wallet);
  const blobs = options.blobs ?? lazyBlobStore(deps.config.files);
  // Deletions remove files' rows in their transaction and the bytes after it commits (a failure
  // there leaves garbage the hourly sweep removes, never a row without its bytes).
  const rows = createRowService(deps, apps, metering);
  const liveRows = createLiveRows(deps, rows, apps);
  const blobsOrphaned = (keys: string[]) => void blobs.delete(keys).catch(() => {});
  const providers = providerSetup(deps.config, options.fetch);
  const auth = createAuthService(deps, providers.client, wallet, { jwt: providers.jwt, tokenShape: providers.tokenShape });
  return {
    deps,
    tokens,
    gatewayHosts,
    apps,
    wallet,
    metering,
    providers,
    auth,
    // A deleted account's tokens stop on this instance at once, not when their cache entries expire.
    accountDeletion: createAccountDeletionService(deps, {
      blobsOrphaned,
      credentialsEnded: () => {
        tokens.clearCache();
        auth.validator.clear();
      },
    }),
    principals: createPrincipalService(deps, tokens),
    profiles: createProfileService(deps),
    resources: createResourceService(deps, apps),
    resourceDeletion: createResourceDeletionService(deps, { blobsOrphaned }),
    membership: createMembershipService(deps, apps),
    inviteLinks: createInviteLinkService(deps, apps),
    rooms: createRoomService(deps, apps),
    rows,
    files: createFileService(deps, apps, metering, blobs),
    /** The live row feed's fan-out (its stats: tests and diagnostics). */
    liveRows,
    feeds: createFeedService(deps, liveRows),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceDeps } from './deps.js';
