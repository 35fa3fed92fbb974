/**
 * docs/api.md §1.3: provider tokens (session cookies and bearer tokens) are validated and the result is
 * cached for 60 seconds, keyed by the token's SHA-256. Concurrent misses for one token share one
 * check (the cache's single flight).
 *
 * How a token is checked:
 * - A JWT access token, when the provider issues them (`jwt` below): verified here against the
 *   provider's published keys (JWKS, fetched once and refreshed on an unknown key id; the
 *   signature by node:crypto, jwt-access-token.service.ts): signature, `typ: at+jwt`, issuer, audience
 *   (this gateway) and expiry. No call to the provider. Caveat: the provider cannot revoke a JWT
 *   before it expires; logout (`end`) refuses it on this instance only, so the provider keeps JWT
 *   lifetimes short.
 * - Anything else: introspection (RFC 7662) with the gateway's credential, which names the OAuth
 *   client (so the app is known); without one, userinfo, which proves only the user.
 * Before either, a string that cannot be one of the provider's tokens (`tokenShape`: the embedded
 * provider's exact shape, else RFC 6750's token characters) is refused without a call: a garbage
 * cookie is a 401 however loaded the provider is.
 */
import { hash } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors as joseErrors, type JWTVerifyGetKey } from 'jose';
import { Cache } from '../lib/cache.js';
import { ProviderError, type ProviderClient } from './provider-client.service.js';
import { verifyAccessTokenJwt } from './jwt-access-token.service.js';

export const VALIDATION_CACHE_MS = 60_000;
const CACHE_LIMIT = 10_000;
/** How long an ended (signed-out) JWT is refused here: the longest lifetime the config allows (IDP_JWT_ACCESS_TOKEN_TTL_S). */
const ENDED_JWT_MS = 3_600_000;

export interface TokenInfo {
  sub: string;
  /** How it was checked: a JWT verified here (the embedded provider's), or the provider said so. */
  source: 'jwt' | 'introspection' | 'userinfo';
  /** Known through introspection or a JWT's `client_id`. */
  clientId: string | null;
  /** Token expiry (ms since epoch), when the provider said. */
  expiresAt: number | null;
}

/** Where JWT access tokens are verified: the provider's JWKS, its issuer, and this gateway as their audience. */
export interface JwtAccessTokens {
  jwksUri: () => string;
  issuer: string;
  audience: string;
  fetch?: typeof fetch;
}

/** jose's errors that say the token is bad (refused, cached as such); any other means the keys could not be had. */
const TOKEN_FAULTS = new Set([
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
]);
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** RFC 6750 §2.1 `b64token`: what any bearer token is made of, whoever issued it. */
export const BEARER_TOKEN_SHAPE = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Introspection's answer for a token the provider does not issue (oidc-provider: a JWT it cannot introspect): not a token. */
const NOT_A_TOKEN = new Set(['unsupported_token_type']);

export function createTokenValidator(
  provider: Pick<ProviderClient, 'introspect' | 'userinfo' | 'introspectionConfigured'>,
  now: () => Date,
  options: { jwt?: JwtAccessTokens | null; tokenShape?: RegExp } = {},
) {
  const tokenShape = options.tokenShape ?? BEARER_TOKEN_SHAPE;
  // A refused token is cached too (null); an upstream failure is not.
  const cache = new Cache<TokenInfo | null>({ ttlMs: VALIDATION_CACHE_MS, max: CACHE_LIMIT, now: () => now().getTime() });
  const jwt = options.jwt ?? null;
  // JWTs signed out on this instance (end()): they would verify again once out of the cache.
  const ended = new Cache<true>({ ttlMs: ENDED_JWT_MS, max: CACHE_LIMIT, now: () => now().getTime() });
  let keys: { uri: string; get: JWTVerifyGetKey } | null = null;

  function keySet(): JWTVerifyGetKey {
    const uri = jwt!.jwksUri();
    if (keys?.uri !== uri) {
      const fetchImpl = jwt!.fetch;
      keys = { uri, get: createRemoteJWKSet(new URL(uri), fetchImpl ? { [customFetch]: (url, init) => fetchImpl(url, init) } : {}) };
    }
    return keys.get;
  }

  async function verifyJwt(token: string): Promise<TokenInfo | null> {
    try {
      const payload = await verifyAccessTokenJwt(token, {
        getKey: keySet(),
        issuer: jwt!.issuer,
        audience: jwt!.audience,
        typ: 'at+jwt',
        now: Math.floor(now().getTime() / 1000),
      });
      const clientId = typeof payload.client_id === 'string' ? payload.client_id : null;
      return { sub: payload.sub, source: 'jwt', clientId, expiresAt: payload.exp * 1000 };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError && TOKEN_FAULTS.has(error.code)) return null;
      // The keys could not be fetched or read: the provider is at fault, not (known to be) the token; not cached.
      throw new ProviderError('provider_unavailable', 502, "The identity provider's signing keys could not be fetched; try again.");
    }
  }

  async function upstream(token: string, key: string): Promise<TokenInfo | null> {
    if (jwt && JWT_SHAPE.test(token)) return ended.get(key) ? null : verifyJwt(token);
    if (provider.introspectionConfigured) {
      let result: Awaited<ReturnType<typeof provider.introspect>>;
      try {
        result = await provider.introspect(token);
      } catch (error) {
        if (error instanceof ProviderError && NOT_A_TOKEN.has(error.code)) return null;
        throw error;
      }
      if (!result.active || typeof result.sub !== 'string' || !result.sub) return null;
      const expiresAt = typeof result.exp === 'number' ? result.exp * 1000 : null;
      return { sub: result.sub, source: 'introspection', clientId: result.client_id ?? null, expiresAt };
    }
    const user = await provider.userinfo(token);
    return user ? { sub: user.sub, source: 'userinfo', clientId: null, expiresAt: null } : null;
  }

  /** The cache key: the token's SHA-256, so no token is kept in memory (one-shot `hash` is the cheaper API). */
  const keyOf = (token: string) => hash('sha256', token, 'base64url');

  return {
    mode: provider.introspectionConfigured ? ('introspection' as const) : ('userinfo' as const),
    /** Whether JWT access tokens are verified locally. */
    verifiesJwts: !!jwt,

    /** The token's subject and client, or null when the provider refuses it or it expired. */
    async validate(token: string): Promise<TokenInfo | null> {
      // Decided here, without the provider: a string that cannot be one of its tokens.
      if (!token || token.length > 4096 || !tokenShape.test(token)) return null;
      const key = keyOf(token);
      const info = await cache.getOrLoad(key, () => upstream(token, key));
      if (info?.expiresAt != null && info.expiresAt <= now().getTime()) return null;
      return info;
    },

    /** Drops a token from this instance's cache (a refreshed session's previous token): checked again when next seen. */
    forget(token: string) {
      cache.delete(keyOf(token));
    },

    /**
     * Signs a token out on this instance (logout): an opaque one is revoked at the provider and
     * checked again when next seen (other instances follow within 60 s); a JWT, which would verify
     * again, is refused here until it expires (other instances: until it expires).
     */
    end(token: string) {
      const key = keyOf(token);
      cache.delete(key);
      if (jwt && JWT_SHAPE.test(token)) ended.set(key, true);
    },

    clear() {
      cache.clear();
    },
  };
}

export type TokenValidator = ReturnType<typeof createTokenValidator>;
