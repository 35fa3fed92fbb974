/**
 * The embedded provider, built on its first request. oidc-provider and its dependencies are
 * ~0.5 s and ~15 MB of a server's start, and many processes (PostgreSQL-backed API nodes behind
 * an external issuer's clients, tests, tools) never serve a sign-in.
 */
import type { IdentityProvider, IdentityProviderOptions } from './provider.js';
import { issuerMount } from './routes.js';

export interface LazyIdentityProvider extends IdentityProvider {
  /** Builds the provider now (its keys are created in the database on the first build). */
  load(): Promise<IdentityProvider>;
}

export function lazyIdentityProvider(options: IdentityProviderOptions): LazyIdentityProvider {
  const { issuer, mountPath, owns } = issuerMount(options.issuer);
  let built: Promise<IdentityProvider> | undefined;
  const load = () => {
    // Concurrent first requests share one build; a failed build (the database was down) is retried.
    built ??= import('./provider.js')
      .then(({ createIdentityProvider }) => createIdentityProvider(options))
      .catch(error => {
        built = undefined;
        throw error;
      });
    return built;
  };
  return {
    issuer,
    mountPath,
    owns,
    load,
    async handle(req, res, url) {
      if (!owns(url.pathname)) return false;
      return (await load()).handle(req, res, url);
    },
  };
}
