import { describe, expect, it, vi } from 'vitest';
import { sha256 } from '../lib/secrets.js';
import { type TokenDeps, check, clearCache, tokenCache } from './tokens.service.js';

/** A token row as the database would return it, and a clock: `check` needs nothing else. */
function fakeDeps(row: Record<string, unknown> | null, now = new Date('2026-01-01T00:00:00Z')) {
  const findUnique = vi.fn(async ({ where }: { where: { tokenHash: string } }) => (row ? { ...row, tokenHash: where.tokenHash } : null));
  const deps = { prisma: { apiToken: { findUnique } }, now: () => now, tokenCache: tokenCache() } as unknown as TokenDeps;
  return { deps, findUnique };
}

const agentRow = {
  kind: 'agent',
  developerId: null,
  clientId: 'client_1',
  revokedAt: null,
  expiresAt: null,
  principal: { id: 'agt_1', kind: 'agent', ownerId: 'usr_1' },
  deployment: { id: 'dep_1', appId: 'app_1', env: 'prod' },
};

describe('tokens: check', () => {
  it('a string that is not a Gatehouse token is unknown without a query', async () => {
    const { deps, findUnique } = fakeDeps(agentRow);
    expect(await check(deps, 'Bearer-ish')).toEqual({ caller: null, problem: 'unknown' });
    expect(await check(deps, `ghd_${'x'.repeat(200)}`)).toEqual({ caller: null, problem: 'unknown' });
    expect(findUnique).not.toHaveBeenCalled();
  });

  it('looks a token up by its digest once, then answers from the cache until cleared', async () => {
    const { deps, findUnique } = fakeDeps(agentRow);
    const first = await check(deps, 'gha_secret');
    expect(first.caller).toMatchObject({ type: 'principal', credential: 'agent', clientId: 'client_1', principal: { id: 'agt_1' } });
    expect(findUnique).toHaveBeenCalledWith(expect.objectContaining({ where: { tokenHash: sha256('gha_secret') } }));
    await check(deps, 'gha_secret');
    expect(findUnique).toHaveBeenCalledTimes(1);
    clearCache(deps);
    await check(deps, 'gha_secret');
    expect(findUnique).toHaveBeenCalledTimes(2);
  });

  it('an unknown or revoked token is unknown; an expired one says when it expired', async () => {
    expect((await check(fakeDeps(null).deps, 'ghd_x')).problem).toBe('unknown');
    expect((await check(fakeDeps({ ...agentRow, revokedAt: new Date(0) }).deps, 'ghd_x')).problem).toBe('unknown');
    const expiredAt = new Date('2025-12-31T00:00:00Z');
    expect(await check(fakeDeps({ ...agentRow, kind: 'test_session', expiresAt: expiredAt }).deps, 'gst_x')).toEqual({
      caller: null,
      problem: 'expired',
      expiredAt,
    });
  });

  it('a developer token stands for its developer', async () => {
    const { deps } = fakeDeps({ ...agentRow, kind: 'developer', developerId: 'dev_1', principal: null, deployment: null });
    expect((await check(deps, 'ghd_x')).caller).toEqual({ type: 'developer', developerId: 'dev_1' });
  });
});
