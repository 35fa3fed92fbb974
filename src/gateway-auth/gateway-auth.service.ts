/**
 * Gateway auth as a service (`services.auth`): the provider client and token validator, provider
 * tokens -> callers (src/gateway-auth/provider-callers.service.ts) and the consent rules of
 * docs/api.md §4.7 (consent.service.ts). HTTP lives beside it (auth.routes.ts, invite.pages.ts);
 * this module has no HTTP.
 */
import type { ServiceDeps } from '../core/deps.js';
import { bindDeps } from '../core/bind-deps.js';
import type { WalletService } from '../billing/wallet.service.js';
import type { ProviderClient } from './provider-client.service.js';
import type { TokenValidator } from './token-validator.service.js';
import { type AuthLookups, appOfClient, callerForToken } from './provider-callers.service.js';
import { acceptConsent, consentRequest, rejectConsent } from './consent.service.js';

export { APP_MEMBER_ROLE, acceptInput } from './consent.service.js';
export { authLookups } from './provider-callers.service.js';

/** What gateway auth uses: the server's dependencies, the provider, its token validator, the wallet (welcome credit) and the lookups. */
export type AuthDeps = ServiceDeps & {
  provider: ProviderClient;
  validator: TokenValidator;
  wallet: Pick<WalletService, 'grantWelcomeCredit'>;
  lookups: AuthLookups;
};

/** What `services.auth` offers beside the provider and the validator; src/services.ts binds each. */
export const authOperations = { appOfClient, callerForToken, consentRequest, acceptConsent, rejectConsent };

/** `services.auth`: the provider client, the validator, and the operations bound to `deps`. */
export function authService(deps: AuthDeps) {
  return {
    provider: deps.provider,
    // Clearing the tokens (account deletion) clears their people too: a JWT outlives its account.
    validator: {
      ...deps.validator,
      clear() {
        deps.validator.clear();
        deps.lookups.people.clear();
      },
    },
    ...bindDeps(deps, authOperations),
  };
}

export type AuthService = ReturnType<typeof authService>;
