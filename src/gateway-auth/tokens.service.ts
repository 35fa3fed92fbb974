/**
 * Gatehouse-minted bearer tokens (developer, test-session, agent). Stored as SHA-256 digests,
 * resolved through a short cache so validation costs no query on the hot path.
 */
import type { Caller } from '../core/caller.rules.js';
import type { PrincipalKind } from '../membership/membership.rules.js';
import { TOKEN_PREFIX, digestsEqual, newId, newSecret, sha256 } from '../lib/secrets.js';
import { Cache } from '../lib/cache.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';

export const TEST_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** docs/api.md §9.6: token validation results are cached for 60 seconds. */
export const TOKEN_CACHE_MS = 60_000;
const CACHE_LIMIT = 10_000;

type TokenKind = keyof typeof TOKEN_PREFIX;

interface MintInput {
  kind: TokenKind;
  /** The developer (developer tokens), or who pays (test sessions, a test user's agents). */
  developerId?: string | null;
  principalId?: string;
  deploymentId?: string;
  /** Agent tokens: the OAuth client whose app budget the agent spends within. */
  clientId?: string | null;
}

/** Why a presented token does not authenticate, so the 401 can say which (unknown vs expired). */
export type TokenCheck =
  | { caller: Caller; problem?: undefined }
  | { caller: null; problem: 'unknown' }
  | { caller: null; problem: 'expired'; expiredAt: Date };

export interface CacheEntry {
  caller: Caller | null;
  /** When the token itself expires, if it does. */
  expiresAt: number | null;
}

/** Validation results by token digest: a token costs no query while its entry lives. */
export type TokenCache = Cache<CacheEntry>;
export const tokenCache = (): TokenCache => new Cache<CacheEntry>({ ttlMs: TOKEN_CACHE_MS, max: CACHE_LIMIT });

/** What the token functions use: the database, the clock and the validation cache. */
export type TokenDeps = Pick<ServiceDeps, 'prisma' | 'now'> & { tokenCache: TokenCache };

/** The stored token with this digest as a cache entry: its caller (none when unknown or revoked) and expiry. */
export async function lookup(deps: Pick<ServiceDeps, 'prisma'>, hash: string): Promise<CacheEntry> {
  const row = await deps.prisma.apiToken.findUnique({
    where: { tokenHash: hash },
    include: {
      principal: { select: { id: true, kind: true, ownerId: true } },
      deployment: { select: { id: true, appId: true, env: true } },
    },
  });
  // Equality already held in the index lookup; compare again in constant time before trusting it.
  if (!row || row.revokedAt || !digestsEqual(row.tokenHash, hash)) return { caller: null, expiresAt: null };
  const expiresAt = row.expiresAt?.getTime() ?? null;
  if (row.kind === 'developer') return { caller: { type: 'developer', developerId: row.developerId! }, expiresAt };
  if (!row.principal || !row.deployment) return { caller: null, expiresAt };
  return {
    caller: {
      type: 'principal',
      principal: { id: row.principal.id, kind: row.principal.kind as PrincipalKind, ownerId: row.principal.ownerId },
      deployment: row.deployment,
      credential: row.kind === 'agent' ? 'agent' : 'test_session',
      payer: row.developerId,
      ...(row.clientId ? { clientId: row.clientId } : {}),
      ...(expiresAt !== null ? { expiresAt } : {}),
    },
    expiresAt,
  };
}

/** The caller a bearer token stands for, or why it stands for none. */
export async function check(deps: TokenDeps, token: string): Promise<TokenCheck> {
  if (!/^gh[da]_|^gst_/.test(token) || token.length > 200) return { caller: null, problem: 'unknown' };
  const hash = sha256(token);
  const entry = await deps.tokenCache.getOrLoad(hash, () => lookup(deps, hash));
  if (!entry.caller) return { caller: null, problem: 'unknown' };
  if (entry.expiresAt !== null && entry.expiresAt <= deps.now().getTime()) {
    return { caller: null, problem: 'expired', expiredAt: new Date(entry.expiresAt) };
  }
  return { caller: entry.caller };
}

/** Mints a token (in `tx` when given); the secret is returned once and never stored. */
export async function mint(
  deps: Pick<ServiceDeps, 'prisma' | 'now'>,
  input: MintInput,
  tx: Tx = deps.prisma,
): Promise<{ token: string; expiresAt: Date | null }> {
  const token = newSecret(TOKEN_PREFIX[input.kind]);
  const expiresAt = input.kind === 'test_session' ? new Date(deps.now().getTime() + TEST_TOKEN_TTL_MS) : null;
  await tx.apiToken.create({
    data: {
      id: newId('tok'),
      kind: input.kind,
      tokenHash: sha256(token),
      developerId: input.developerId ?? null,
      principalId: input.principalId,
      deploymentId: input.deploymentId,
      clientId: input.clientId ?? null,
      expiresAt,
    },
  });
  return { token, expiresAt };
}

/** The caller a bearer token stands for, or null when it is unknown, revoked or expired. */
export async function resolve(deps: TokenDeps, token: string): Promise<Caller | null> {
  return (await check(deps, token)).caller;
}

export function clearCache(deps: Pick<TokenDeps, 'tokenCache'>): void {
  deps.tokenCache.clear();
}

/** What `services.tokens` offers; src/services.ts binds each to the server's dependencies. */
export const tokenOperations = { mint, check, resolve, clearCache };

export type TokenService = Bound<typeof tokenOperations>;
