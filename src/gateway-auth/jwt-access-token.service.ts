/**
 * Verifies a JWT access token (RFC 9068) as jose's `jwtVerify` does, with node:crypto doing the
 * signature. jose's key set still finds, fetches, caches and refreshes the keys; only the verify
 * itself moves: jose 6 verifies through WebCrypto, about 200 µs of CPU per RS256 token against
 * about 40 µs for node:crypto's one-shot `verify` on the same key (bench/README.md, "Gateway auth"),
 * and a never-seen token pays it on every request.
 *
 * The checks are jose's (jws/compact/verify, jwt/verify, lib/jwt_claims_set) for the options the
 * gateway uses: compact form; a protected header that is a JSON object without `crit` (so `b64` is
 * true); an allowed `alg` with a key the key set picked for it; `typ` (`application/` prefix and
 * case ignored); then the payload a JSON object, `iss` equal, `aud` equal or containing, `sub`,
 * `exp` required, and the numeric dates: `exp` after now, `nbf` (if any) not after now, `iat` (if
 * any) a number. No clock tolerance. The claims are checked before the key is asked for, so a
 * forged or stale token is refused without the key set fetching the provider's keys; a token is
 * accepted only once its signature verifies too.
 */
import { KeyObject, constants, verify } from 'node:crypto';
import { errors as joseErrors, type JWTVerifyGetKey } from 'jose';

export interface AccessTokenClaims {
  sub: string;
  exp: number;
  client_id?: unknown;
  [claim: string]: unknown;
}

export interface VerifyOptions {
  getKey: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  /** Expected `typ`, e.g. `at+jwt`. */
  typ: string;
  /** Seconds since the epoch. */
  now: number;
}

/** How node:crypto verifies each JWS algorithm the provider may sign with (the JWKS decides which key). */
const ALGORITHMS: Record<string, (data: Buffer, key: KeyObject, signature: Buffer) => boolean> = {
  RS256: (data, key, signature) => verify('sha256', data, { key, padding: constants.RSA_PKCS1_PADDING }, signature),
  PS256: (data, key, signature) =>
    verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, signature),
  ES256: (data, key, signature) => verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature),
  EdDSA: (data, key, signature) => verify(null, data, key, signature),
};

/** A key the key set handed out (a CryptoKey in jose 6), as node:crypto's KeyObject; one conversion per key. */
const keyObjects = new WeakMap<object, KeyObject>();

function asKeyObject(key: unknown): KeyObject {
  if (key instanceof KeyObject) return key;
  if (!(key instanceof CryptoKey)) throw new joseErrors.JOSENotSupported('unsupported key type');
  let found = keyObjects.get(key);
  if (!found) {
    found = KeyObject.from(key);
    keyObjects.set(key, found);
  }
  return found;
}

/** A JSON object from a base64url segment, or a JOSE error of the given kind. */
function decodeObject(segment: string, fault: () => Error): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw fault();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fault();
  return value as Record<string, unknown>;
}

const normalizeTyp = (value: string) => value.toLowerCase().replace(/^application\//, '');

/**
 * The token's claims when it is a valid access token for `audience` from `issuer`; otherwise
 * throws jose's error for the fault (a bad token), or whatever `getKey` threw (keys unavailable).
 */
export async function verifyAccessTokenJwt(token: string, options: VerifyOptions): Promise<AccessTokenClaims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new joseErrors.JWSInvalid('Invalid Compact JWS');
  const [encodedHeader, encodedPayload, encodedSignature] = parts;

  const header = decodeObject(encodedHeader, () => new joseErrors.JWSInvalid('JWS Protected Header is invalid'));
  // No critical extensions are understood here (jose knows only b64, which a JWT may not turn off).
  if (header.crit !== undefined) throw new joseErrors.JOSENotSupported('JWS "crit" Header Parameter is not supported');
  const alg = header.alg;
  if (typeof alg !== 'string' || !Object.hasOwn(ALGORITHMS, alg))
    throw new joseErrors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');

  const payload = decodeObject(encodedPayload, () => new joseErrors.JWTInvalid('JWT Claims Set must be a top-level JSON object'));
  const claim = (reason: string, name: string) => new joseErrors.JWTClaimValidationFailed(reason, payload, name, 'check_failed');
  if (typeof header.typ !== 'string' || normalizeTyp(header.typ) !== normalizeTyp(options.typ))
    throw claim('unexpected "typ" JWT header value', 'typ');
  for (const name of ['iss', 'aud', 'sub', 'exp']) if (payload[name] === undefined) throw claim(`missing required "${name}" claim`, name);
  if (payload.iss !== options.issuer) throw claim('unexpected "iss" claim value', 'iss');
  const aud = payload.aud;
  if (!(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))) throw claim('unexpected "aud" claim value', 'aud');
  if (typeof payload.sub !== 'string' || !payload.sub) throw claim('"sub" claim must be a non-empty string', 'sub');
  if (payload.iat !== undefined && typeof payload.iat !== 'number') throw claim('"iat" claim must be a number', 'iat');
  if (payload.nbf !== undefined) {
    if (typeof payload.nbf !== 'number') throw claim('"nbf" claim must be a number', 'nbf');
    if (payload.nbf > options.now) throw claim('"nbf" claim timestamp check failed', 'nbf');
  }
  if (typeof payload.exp !== 'number') throw claim('"exp" claim must be a number', 'exp');
  if (payload.exp <= options.now) throw new joseErrors.JWTExpired('"exp" claim timestamp check failed', payload, 'exp', 'check_failed');

  // The key last: a token whose claims already fail never makes the key set fetch the provider's keys.
  const key = asKeyObject(await options.getKey(header as Parameters<JWTVerifyGetKey>[0], { payload: encodedPayload, signature: encodedSignature }));
  let valid: boolean;
  try {
    valid = ALGORITHMS[alg](Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii'), key, Buffer.from(encodedSignature, 'base64url'));
  } catch {
    // A key of another type than the algorithm's, or a malformed signature.
    valid = false;
  }
  if (!valid) throw new joseErrors.JWSSignatureVerificationFailed();

  return payload as AccessTokenClaims;
}
