/**
 * Gateway auth as a service: the provider client and token validator, provider tokens -> callers,
 * and the consent rules of docs/api.md §4.7. HTTP lives beside it (auth.routes.ts, invite.pages.ts); this module has no HTTP.
 */
import { z } from 'zod';
import type { PrincipalKind } from '../membership/membership.rules.js';
import { fail, parseInput } from '../errors.js';
import { APP_RESOURCE_TYPE } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import { displayNameSchema, handleSchema, handleSeed, issueHandleOnce } from '../principals/handles.service.js';
import { runTransition } from '../membership/membership-store.service.js';
import type { WalletService } from '../billing/wallet.service.js';
import { Cache } from '../lib/cache.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { ProviderClient } from './provider-client.service.js';
import { createTokenValidator, type JwtAccessTokens, type TokenInfo } from './token-validator.service.js';
import { logger } from '../lib/logger.js';

/** Role of an app member in the `_app` resource (app-level membership joined at consent). */
export const APP_MEMBER_ROLE = 'reader' as const;
const LOOKUP_CACHE_MS = 60_000;
/** The caller's principal after a token check (a cache miss of principalCache): the one row, enum as text. */
const PRINCIPAL_SQL = 'SELECT id, kind::text AS kind, owner_id AS "ownerId" FROM principals WHERE id = $1';

/**
 * A consent challenge: the provider's opaque id, sent back to it in a URL. A lone UTF-16 surrogate
 * (JSON can carry `"\ud800"`) is no text a URL can encode, so it is refused as input, not met later.
 */
const challengeSchema = z
  .string({ message: 'is required' })
  .min(1, 'is required')
  .max(128, 'must be at most 128 characters')
  .refine(value => !/\p{Cs}/u.test(value), 'must be well-formed text (no lone UTF-16 surrogates)');

export const acceptInput = z.strictObject({
  challenge: challengeSchema,
  grant_scope: z.array(z.string().max(200), { message: 'must be an array of scope strings' }).max(50),
  profile: z
    .strictObject({
      displayName: displayNameSchema.optional(),
      handle: handleSchema.optional(),
    })
    .optional(),
});

export function createAuthService(
  deps: ServiceDeps,
  provider: ProviderClient,
  wallet: WalletService,
  tokens: { jwt?: JwtAccessTokens | null; tokenShape?: RegExp } = {},
) {
  const { prisma, config } = deps;
  const validator = createTokenValidator(provider, deps.now, tokens);
  const appOfClientCache = new Cache<string | null>({ ttlMs: LOOKUP_CACHE_MS });
  const deploymentCache = new Cache<{ id: string; appId: string; env: string } | null>({ ttlMs: 5_000 });
  const principalCache = new Cache<PrincipalCaller['principal'] | undefined>({ ttlMs: LOOKUP_CACHE_MS });

  function appOfClient(clientId: string): Promise<string | null> {
    return appOfClientCache.getOrLoad(
      clientId,
      async () => (await prisma.appClient.findUnique({ where: { clientId }, select: { appId: true } }))?.appId ?? null,
    );
  }

  function gatewayDeployment(appId: string) {
    const env = config.auth.gatewayEnv;
    return deploymentCache.getOrLoad(appId, () =>
      prisma.deployment.findUnique({ where: { appId_env: { appId, env } }, select: { id: true, appId: true, env: true } }),
    );
  }

  /** Provider subjects are people. They may never name a test user or an agent. */
  function assertPersonSubject(sub: string) {
    if (sub.startsWith('test:') || !/^[\x21-\x7e]{1,200}$/.test(sub)) {
      throw fail('subject_reserved', 'The provider subject is not a valid person id for this gateway.');
    }
  }

  /**
   * The person behind a provider subject: one lean read; an external provider's subject is created
   * on first sight. A JWT is verified here without asking the provider, so it may outlive its
   * account (deleted within the token's lifetime): its subject must already exist, else null.
   */
  function personFor(sub: string, options: { create: boolean } = { create: true }): Promise<PrincipalCaller['principal'] | null> {
    return principalCache
      .getOrLoad(sub, async () => {
        assertPersonSubject(sub);
        const [found] = await deps.query<{ id: string; kind: string; ownerId: string | null }>(PRINCIPAL_SQL, [sub]);
        // Not cached when missing and not created: a sign-up may create it next.
        if (!found && !options.create) return undefined;
        const row =
          found ??
          (await prisma.principal.upsert({
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

  /** Consent rule 7 (docs/api.md §4.7): best effort, never blocks consent (the app may have no deployment yet). */
  async function joinAppResource(subject: string, clientId: string): Promise<boolean> {
    try {
      const appId = await appOfClient(clientId);
      const deployment = appId ? await gatewayDeployment(appId) : null;
      if (!deployment) return false;
      const resource = await prisma.resource.findFirst({ where: { deploymentId: deployment.id, type: APP_RESOURCE_TYPE }, select: { id: true } });
      if (!resource) return false;
      const principal = (await personFor(subject))!;
      const caller: PrincipalCaller = { type: 'principal', principal, deployment, credential: 'provider', payer: null };
      await runTransition(deps, caller, resource.id, async ({ changes }) => {
        const party = await changes.party(subject, principal);
        if (party?.membership?.state === 'active') return;
        await changes.apply(subject, party?.membership ?? null, { role: APP_MEMBER_ROLE, state: 'active' });
      });
      return true;
    } catch (error) {
      logger.error({ err: error }, 'joining _app after consent failed (consent continues)');
      return false;
    }
  }

  /** Consent rules 1, 3–6 (docs/api.md §4.7): profile, handle and welcome credit for the verified subject. */
  async function onboard(subject: string, profile: z.infer<typeof acceptInput>['profile']): Promise<boolean> {
    await personFor(subject);
    const before = await prisma.principal.findUniqueOrThrow({ where: { id: subject }, select: { displayName: true, onboardedAt: true } });
    const displayName = profile?.displayName || before.displayName;
    if (profile?.displayName) await prisma.principal.update({ where: { id: subject }, data: { displayName: profile.displayName } });
    // issueHandleOnce writes only if no handle was ever issued (docs/api.md §4.7, consent rule 6).
    await issueHandleOnce(prisma, subject, profile?.handle ?? handleSeed(displayName));
    const welcomed = await wallet.grantWelcomeCredit(subject);
    if (!before.onboardedAt) await prisma.principal.updateMany({ where: { id: subject, onboardedAt: null }, data: { onboardedAt: deps.now() } });
    return welcomed;
  }

  async function accept(input: z.infer<typeof acceptInput>) {
    const request = await provider.getConsentRequest(input.challenge);
    const subject = String(request.subject ?? '');
    const clientId = String(request.client?.client_id ?? '');
    if (!subject) throw fail('consent_request_invalid', 'The provider returned a consent request without a subject.');
    assertPersonSubject(subject);
    const welcomed = await onboard(subject, input.profile);
    const { redirect_to } = await provider.acceptConsentRequest(input.challenge, { grant_scope: input.grant_scope, remember: true, remember_for: 0 });
    if (clientId) await joinAppResource(subject, clientId);
    return { redirect_to, welcomed };
  }

  return {
    provider,
    // Clearing the tokens (account deletion) clears their people too: a JWT outlives its account.
    validator: {
      ...validator,
      clear() {
        validator.clear();
        principalCache.clear();
      },
    },
    appOfClient,

    /**
     * A provider token as a caller in the app's gateway deployment. `hostAppId` is the app of a
     * hosted origin (the audience must match); `clientIdHint` names the app in userinfo mode.
     */
    async callerForToken(
      token: string,
      options: { credential: 'session' | 'provider'; hostAppId?: string | null; clientIdHint?: string | null },
    ): Promise<{ caller: PrincipalCaller; info: TokenInfo } | null> {
      const info = await validator.validate(token);
      if (!info) return null;
      let appId = info.clientId ? await appOfClient(info.clientId) : null;
      if (options.hostAppId) {
        if (info.clientId && appId !== options.hostAppId) {
          throw fail('audience_mismatch', 'This token was issued to another app than the one this origin hosts.');
        }
        appId = options.hostAppId;
      }
      if (!appId && !info.clientId && options.clientIdHint) appId = await appOfClient(options.clientIdHint);
      if (!appId) {
        throw fail('app_unknown', 'The token does not name a Gatehouse app: sign in through an app registered with this gateway.');
      }
      const deployment = await gatewayDeployment(appId);
      if (!deployment) {
        throw fail(
          'env_not_deployed',
          `The app has no '${config.auth.gatewayEnv}' deployment yet: deploy its schema first (GATEWAY_ENV selects the environment).`,
        );
      }
      const principal = await personFor(info.sub, { create: info.source !== 'jwt' });
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
    },

    /** GET /auth/consent-request: the provider's record; a remembered consent is accepted at once. */
    async consentRequest(raw: string) {
      const challenge = parseInput(challengeSchema, raw, 'query.challenge');
      const request = await provider.getConsentRequest(challenge);
      const subject = String(request.subject ?? '');
      const scope: string[] = Array.isArray(request.requested_scope) ? request.requested_scope : [];
      if (request.skip) {
        const { redirect_to, welcomed } = await accept({ challenge, grant_scope: scope });
        return { skip: true, redirect_to, welcomed };
      }
      const principal = subject
        ? await prisma.principal.findUnique({ where: { id: subject }, select: { onboardedAt: true, displayName: true } })
        : null;
      return {
        challenge,
        skip: false,
        subject,
        client_id: request.client?.client_id ?? null,
        client_name: request.client?.client_name ?? null,
        requested_scope: scope,
        is_new_user: !principal?.onboardedAt,
        display_name: principal?.displayName ?? null,
      };
    },

    async acceptConsent(raw: unknown) {
      return accept(parseInput(acceptInput, raw, 'body'));
    },

    async rejectConsent(raw: unknown) {
      const { challenge } = parseInput(z.strictObject({ challenge: challengeSchema }), raw, 'body');
      const { redirect_to } = await provider.rejectConsentRequest(challenge, {
        error: 'access_denied',
        error_description: 'The user declined to share their account with the app.',
      });
      return { redirect_to };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
