/** Random ids, bearer secrets and their hashes. Secrets are stored only as SHA-256 digests. */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bytes for ids, drawn a page at a time: a randomBytes call per id costs more than the rest of the id's work. */
let idPool = Buffer.alloc(0);
let idPoolOffset = 0;

/** Where the next `size` random bytes of the pool start (refilled when spent). */
function takeFromPool(size: number): number {
  if (idPoolOffset + size > idPool.length) {
    idPool = randomBytes(Math.max(4096, size));
    idPoolOffset = 0;
  }
  idPoolOffset += size;
  return idPoolOffset - size;
}

/** `size` random bytes for an id (not for secrets: newSecret draws its own), a fresh Buffer the caller may change. */
export function idBytes(size: number): Buffer {
  const start = takeFromPool(size);
  return Buffer.from(idPool.subarray(start, start + size));
}

/** A short random id with a type prefix, e.g. `res_4f9c2a…`. Ids are not secrets (newSecret is). */
export function newId(prefix: string, bytes = 10): string {
  const start = takeFromPool(bytes);
  return `${prefix}_${idPool.toString('hex', start, start + bytes)}`;
}

/** A bearer secret: `<prefix>_<43 url-safe chars>` (256 bits). */
export const newSecret = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** Hex SHA-256; the one-shot `hash` (no Hash object): a bearer token is hashed on every request. */
export const sha256 = (value: string) => hash('sha256', value, 'hex');

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Bearer token prefixes (docs/api.md §1.1); the test-session one is the short type prefix of §3.1. */
export const TOKEN_PREFIX = { developer: 'ghd', test_session: 'gst', agent: 'gha' } as const;
