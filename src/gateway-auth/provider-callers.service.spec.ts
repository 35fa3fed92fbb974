import { describe, expect, it, vi } from 'vitest';
import { sqlOver } from '../db/sql.js';
import { type CallerLookupDeps, authLookups, callerForToken } from './provider-callers.service.js';
import type { TokenInfo } from './token-validator.service.js';

const DEPLOYMENT = { id: 'dep_1', appId: 'app_1', env: 'prod' };

/**
 * The lookups over fakes: the validator's answer, the apps' OAuth clients and deployments (Prisma's
 * model API), and the people table as the SQL layer's fast path reads it (statement by statement).
 */
function fakeDeps(info: TokenInfo | null, options: { people?: Record<string, string>; clients?: Record<string, string> } = {}) {
  const people = options.people ?? { usr_1: 'user' };
  const statements: string[] = [];
  const sql = sqlOver(async query => {
    statements.push(query.sql);
    const id = query.parameters[0] as string;
    return people[id] ? { rows: [{ id, kind: people[id], ownerId: null }], count: 1 } : { rows: [], count: 0 };
  });
  const upsert = vi.fn(async ({ create }: { create: { id: string } }) => ({ id: create.id, kind: 'user', ownerId: null }));
  const prisma = {
    appClient: {
      findUnique: async ({ where }: { where: { clientId: string } }) => ({ appId: (options.clients ?? { client_1: 'app_1' })[where.clientId] }),
    },
    deployment: {
      findUnique: async ({ where }: { where: { appId_env: { appId: string } } }) => (where.appId_env.appId === 'app_1' ? DEPLOYMENT : null),
    },
    principal: { upsert },
  };
  const deps = {
    prisma,
    sql,
    config: { auth: { gatewayEnv: 'prod' } },
    validator: { validate: async () => info },
    lookups: authLookups(),
  } as unknown as CallerLookupDeps;
  return { deps, statements, upsert };
}

const introspected = (sub: string, clientId: string | null = 'client_1'): TokenInfo => ({ sub, source: 'introspection', clientId, expiresAt: 5_000 });
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { code: string }) => error.code,
  );

describe('provider tokens -> callers', () => {
  it('a refused token is no caller', async () => {
    expect(await callerForToken(fakeDeps(null).deps, 't', { credential: 'provider' })).toBeNull();
  });

  it("the token's client names the app; the caller is its person in the app's gateway deployment", async () => {
    const { deps, statements } = fakeDeps(introspected('usr_1'));
    const found = await callerForToken(deps, 't', { credential: 'session' });
    expect(found?.caller).toEqual({
      type: 'principal',
      principal: { id: 'usr_1', kind: 'user', ownerId: null },
      deployment: DEPLOYMENT,
      credential: 'session',
      payer: null,
      clientId: 'client_1',
      expiresAt: 5_000,
    });
    expect(statements).toEqual(['select "id", "kind", "owner_id" as "ownerId" from "principals" where "id" = $1']);
    await callerForToken(deps, 't', { credential: 'session' });
    expect(statements).toHaveLength(1); // the person is cached
  });

  it.each<[string, TokenInfo, { hostAppId?: string; clientIdHint?: string }, string]>([
    ['another app than the hosted origin’s', introspected('usr_1'), { hostAppId: 'app_2' }, 'audience_mismatch'],
    ['a client of no app', introspected('usr_1', 'client_x'), {}, 'app_unknown'],
    ['userinfo without a hint names no app', introspected('usr_1', null), {}, 'app_unknown'],
    ['an app without a gateway deployment', introspected('usr_1', null), { hostAppId: 'app_2' }, 'env_not_deployed'],
    ['a test user’s id is no provider subject', introspected('test:app_1:alice'), {}, 'subject_reserved'],
  ])('refuses %s', async (_, info, options, expected) => {
    expect(await code(callerForToken(fakeDeps(info).deps, 't', { credential: 'provider', ...options }))).toBe(expected);
  });

  it('a provider subject naming an agent is refused', async () => {
    const { deps } = fakeDeps(introspected('agt_1'), { people: { agt_1: 'agent' } });
    expect(await code(callerForToken(deps, 't', { credential: 'provider' }))).toBe('subject_reserved');
  });

  it("an external provider's new subject is created on first sight; a JWT's must exist already", async () => {
    const created = fakeDeps(introspected('ext_1'));
    expect((await callerForToken(created.deps, 't', { credential: 'provider' }))?.caller.principal.id).toBe('ext_1');
    expect(created.upsert).toHaveBeenCalledTimes(1);
    const jwt = fakeDeps({ ...introspected('ext_1'), source: 'jwt' });
    expect(await callerForToken(jwt.deps, 't', { credential: 'provider' })).toBeNull();
    expect(jwt.upsert).not.toHaveBeenCalled();
  });
});
