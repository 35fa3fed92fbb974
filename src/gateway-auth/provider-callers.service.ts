/**
 * Provider tokens -> callers: the app a token was issued to, its gateway deployment and the person
 * behind its subject, each looked up through a short cache.
 */
import type { PrincipalKind } from '../membership/membership.rules.js';
import { fail } from '../errors.js';
import type { ServiceDeps } from '../core/deps.js';
import { Cache } from '../lib/cache.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { TokenInfo, TokenValidator } from './token-validator.service.js';

const LOOKUP_CACHE_MS = 60_000;

type Person = PrincipalCaller['principal'];

/** What a token check looks up, cached: the app of an OAuth client, an app's gateway deployment, a subject's person. */
export interface AuthLookups {
  appOfClient: Cache<string | null>;
  deployment: Cache<{ id: string; appId: string; env: string } | null>;
  people: Cache<Person | undefined>;
}

export const authLookups = (): AuthLookups => ({
  appOfClient: new Cache<string | null>({ ttlMs: LOOKUP_CACHE_MS }),
  deployment: new Cache<{ id: string; appId: string; env: string } | null>({ ttlMs: 5_000 }),
  people: new Cache<Person | undefined>({ ttlMs: LOOKUP_CACHE_MS }),
});

/** What the lookups use: the database, the gateway's environment, the cached lookups, and the validator. */
export type CallerLookupDeps = Pick<ServiceDeps, 'prisma' | 'sql' | 'config'> & { validator: TokenValidator; lookups: AuthLookups };

/** The app an OAuth client belongs to, or null. */
export function appOfClient(deps: Pick<CallerLookupDeps, 'prisma' | 'lookups'>, clientId: string): Promise<string | null> {
  return deps.lookups.appOfClient.getOrLoad(
    clientId,
    async () => (await deps.prisma.appClient.findUnique({ where: { clientId }, select: { appId: true } }))?.appId ?? null,
  );
}

/** The app's deployment in the gateway's environment (GATEWAY_ENV), or null. */
export function gatewayDeployment(deps: Pick<CallerLookupDeps, 'prisma' | 'config' | 'lookups'>, appId: string) {
  const env = deps.config.auth.gatewayEnv;
  return deps.lookups.deployment.getOrLoad(appId, () =>
    deps.prisma.deployment.findUnique({ where: { appId_env: { appId, env } }, select: { id: true, appId: true, env: true } }),
  );
}

/** Provider subjects are people. They may never name a test user or an agent. */
export function assertPersonSubject(sub: string): void {
  if (sub.startsWith('test:') || !/^[\x21-\x7e]{1,200}$/.test(sub)) {
    throw fail('subject_reserved', 'The provider subject is not a valid person id for this gateway.');
  }
}

/**
 * The person behind a provider subject: one lean read; an external provider's subject is created
 * on first sight. A JWT is verified here without asking the provider, so it may outlive its
 * account (deleted within the token's lifetime): its subject must already exist, else null.
 */
export function personFor(
  deps: Pick<CallerLookupDeps, 'prisma' | 'sql' | 'lookups'>,
  sub: string,
  options: { create: boolean } = { create: true },
): Promise<Person | null> {
  return deps.lookups.people
    .getOrLoad(sub, async () => {
      assertPersonSubject(sub);
      // The one row, on the fast path: a cache miss after every token check of a new person.
      const found = await deps.sql.selectFrom('principals').select(['id', 'kind', 'owner_id as ownerId']).where('id', '=', sub).executeTakeFirst();
      // Not cached when missing and not created: a sign-up may create it next.
      if (!found && !options.create) return undefined;
      const row =
        found ??
        (await deps.prisma.principal.upsert({
          where: { id: sub },
          create: { id: sub, kind: 'user' },
          update: {},
          select: { id: true, kind: true, ownerId: true },
        }));
      if (row.kind !== 'user') throw fail('subject_reserved', 'The provider subject names an agent, not a person.');
      return { id: row.id, kind: row.kind as PrincipalKind, ownerId: row.ownerId };
    })
    .then(principal => principal ?? null);
}

/**
 * A provider token as a caller in the app's gateway deployment. `hostAppId` is the app of a
 * hosted origin (the audience must match); `clientIdHint` names the app in userinfo mode.
 */
export async function callerForToken(
  deps: Pick<CallerLookupDeps, 'prisma' | 'sql' | 'config' | 'validator' | 'lookups'>,
  token: string,
  options: { credential: 'session' | 'provider'; hostAppId?: string | null; clientIdHint?: string | null },
): Promise<{ caller: PrincipalCaller; info: TokenInfo } | null> {
  const info = await deps.validator.validate(token);
  if (!info) return null;
  let appId = info.clientId ? await appOfClient(deps, info.clientId) : null;
  if (options.hostAppId) {
    if (info.clientId && appId !== options.hostAppId) {
      throw fail('audience_mismatch', 'This token was issued to another app than the one this origin hosts.');
    }
    appId = options.hostAppId;
  }
  if (!appId && !info.clientId && options.clientIdHint) appId = await appOfClient(deps, options.clientIdHint);
  if (!appId) {
    throw fail('app_unknown', 'The token does not name a Gatehouse app: sign in through an app registered with this gateway.');
  }
  const deployment = await gatewayDeployment(deps, appId);
  if (!deployment) {
    throw fail(
      'env_not_deployed',
      `The app has no '${deps.config.auth.gatewayEnv}' deployment yet: deploy its schema first (GATEWAY_ENV selects the environment).`,
    );
  }
  const principal = await personFor(deps, info.sub, { create: info.source !== 'jwt' });
  if (!principal) return null;
  const caller: PrincipalCaller = {
    type: 'principal',
    principal,
    deployment,
    credential: options.credential,
    payer: null,
    // Userinfo proves the user, not the app: its clientId is null and app budgets do not apply (spec 5.2).
    clientId: info.clientId,
    expiresAt: info.expiresAt,
  };
  return { caller, info };
}
