/**
 * What the embedded provider's access tokens look like, so that the gateway refuses a credential
 * that cannot be one of them without asking the provider (docs/api.md §1.3): a garbage session
 * cookie is a 401 decided in process, never a provider call that load can turn into a 502.
 * Opaque tokens are oidc-provider's: `OPAQUE_TOKEN_BITS` of randomness in nanoid's URL-safe
 * alphabet, 6 bits a character; JWT access tokens (IDP_JWT_ACCESS_TOKENS) are three base64url parts.
 */

/** oidc-provider's `formats.bitsOfOpaqueRandomness`, set here so the shape below is ours, not a default's. */
export const OPAQUE_TOKEN_BITS = 256;

const OPAQUE = `[A-Za-z0-9_-]{${Math.ceil(OPAQUE_TOKEN_BITS / 6)}}`;
const JWT = '[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+';

/** Every access token the embedded provider issues: opaque, or (with JWT access tokens on) a JWT too. */
export function embeddedAccessTokenShape(jwtAccessTokens: boolean): RegExp {
  return new RegExp(jwtAccessTokens ? `^(?:${OPAQUE}|${JWT})$` : `^${OPAQUE}$`);
}
