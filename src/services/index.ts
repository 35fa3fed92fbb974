/** Wires the service modules together; one instance per server. */
import { createAppService } from './apps.js';
import type { ServiceDeps } from './deps.js';
import { createInviteLinkService } from './invite-links.js';
import { createMembershipService } from './membership.js';
import { createPrincipalService } from './principals.js';
import { createResourceService } from './resources.js';
import { createTokenService } from './tokens.js';

export function createServices(deps: ServiceDeps) {
  const tokens = createTokenService(deps);
  const apps = createAppService(deps, tokens);
  return {
    deps,
    tokens,
    apps,
    principals: createPrincipalService(deps, tokens),
    resources: createResourceService(deps, apps),
    membership: createMembershipService(deps, apps),
    inviteLinks: createInviteLinkService(deps, apps),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceDeps } from './deps.js';
