/**
 * Spec 5.2: provider tokens (session cookies and bearer tokens) are validated upstream and the
 * result is cached for 60 seconds, keyed by the token's SHA-256. With an introspection
 * credential the provider's answer names the OAuth client (so the app is known); otherwise
 * userinfo proves only the user. Concurrent misses for one token share one upstream call.
 */
import { sha256 } from '../lib/secrets.js';
import { TtlCache } from '../lib/ttl-cache.js';
import type { ProviderClient } from './provider-client.js';

export const VALIDATION_CACHE_MS = 60_000;
const CACHE_LIMIT = 10_000;

export interface TokenInfo {
  sub: string;
  /** Known only through introspection. */
  clientId: string | null;
  /** Token expiry (ms since epoch), when the provider said. */
  expiresAt: number | null;
}

export function createTokenValidator(provider: Pick<ProviderClient, 'introspect' | 'userinfo' | 'introspectionConfigured'>, now: () => Date) {
  // A refused token is cached too (null); an upstream failure is not.
  const cache = new TtlCache<TokenInfo | null>(VALIDATION_CACHE_MS, CACHE_LIMIT, () => now().getTime());
  const inFlight = new Map<string, Promise<TokenInfo | null>>();

  async function upstream(token: string): Promise<TokenInfo | null> {
    if (provider.introspectionConfigured) {
      const result = await provider.introspect(token);
      if (!result.active || typeof result.sub !== 'string' || !result.sub) return null;
      return { sub: result.sub, clientId: result.client_id ?? null, expiresAt: typeof result.exp === 'number' ? result.exp * 1000 : null };
    }
    const user = await provider.userinfo(token);
    return user ? { sub: user.sub, clientId: null, expiresAt: null } : null;
  }

  return {
    mode: provider.introspectionConfigured ? ('introspection' as const) : ('userinfo' as const),

    /** The token's subject and client, or null when the provider refuses it or it expired. */
    async validate(token: string): Promise<TokenInfo | null> {
      if (!token || token.length > 4096) return null;
      const key = sha256(token);
      let info = cache.get(key);
      if (info === undefined) {
        let pending = inFlight.get(key);
        if (!pending) {
          pending = upstream(token).finally(() => inFlight.delete(key));
          inFlight.set(key, pending);
          pending.then(
            result => cache.set(key, result),
            () => undefined, // failures are not cached
          );
        }
        info = await pending;
      }
      if (info?.expiresAt != null && info.expiresAt <= now().getTime()) return null;
      return info;
    },

    /** Drops a token from this instance's cache (logout); other instances follow within 60 s. */
    forget(token: string) {
      cache.delete(sha256(token));
    },

    clear() {
      cache.clear();
    },
  };
}

export type TokenValidator = ReturnType<typeof createTokenValidator>;
