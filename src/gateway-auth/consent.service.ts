/**
 * The consent rules of docs/api.md §4.7: the provider's consent request as the consent page shows
 * it, and accepting it (profile, handle, welcome credit, joining the app's `_app` resource) or
 * rejecting it.
 */
import { z } from 'zod';
import { fail, parseInput } from '../errors.js';
import { APP_RESOURCE_TYPE } from '../apps/apps.service.js';
import { displayNameSchema, handleSchema, handleSeed, issueHandleOnce } from '../principals/handles.service.js';
import { runTransition } from '../membership/membership-store.service.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { logger } from '../lib/logger.js';
import type { AuthDeps } from './gateway-auth.service.js';
import { appOfClient, assertPersonSubject, gatewayDeployment, personFor } from './provider-callers.service.js';

/** Role of an app member in the `_app` resource (app-level membership joined at consent). */
export const APP_MEMBER_ROLE = 'reader' as const;

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

/** Consent rule 7 (docs/api.md §4.7): best effort, never blocks consent (the app may have no deployment yet). */
export async function joinAppResource(deps: AuthDeps, subject: string, clientId: string): Promise<boolean> {
  try {
    const appId = await appOfClient(deps, clientId);
    const deployment = appId ? await gatewayDeployment(deps, appId) : null;
    if (!deployment) return false;
    const resource = await deps.prisma.resource.findFirst({ where: { deploymentId: deployment.id, type: APP_RESOURCE_TYPE }, select: { id: true } });
    if (!resource) return false;
    const principal = (await personFor(deps, subject))!;
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
export async function onboard(
  deps: Pick<AuthDeps, 'prisma' | 'sql' | 'lookups' | 'wallet' | 'now'>,
  subject: string,
  profile: z.infer<typeof acceptInput>['profile'],
): Promise<boolean> {
  const { prisma } = deps;
  await personFor(deps, subject);
  const before = await prisma.principal.findUniqueOrThrow({ where: { id: subject }, select: { displayName: true, onboardedAt: true } });
  const displayName = profile?.displayName || before.displayName;
  if (profile?.displayName) await prisma.principal.update({ where: { id: subject }, data: { displayName: profile.displayName } });
  // issueHandleOnce writes only if no handle was ever issued (docs/api.md §4.7, consent rule 6).
  await issueHandleOnce(prisma, subject, profile?.handle ?? handleSeed(displayName));
  const welcomed = await deps.wallet.grantWelcomeCredit(subject);
  if (!before.onboardedAt) await prisma.principal.updateMany({ where: { id: subject, onboardedAt: null }, data: { onboardedAt: deps.now() } });
  return welcomed;
}

async function accept(deps: AuthDeps, input: z.infer<typeof acceptInput>) {
  const request = await deps.provider.getConsentRequest(input.challenge);
  const subject = String(request.subject ?? '');
  const clientId = String(request.client?.client_id ?? '');
  if (!subject) throw fail('consent_request_invalid', 'The provider returned a consent request without a subject.');
  assertPersonSubject(subject);
  const welcomed = await onboard(deps, subject, input.profile);
  const { redirect_to } = await deps.provider.acceptConsentRequest(input.challenge, {
    grant_scope: input.grant_scope,
    remember: true,
    remember_for: 0,
  });
  if (clientId) await joinAppResource(deps, subject, clientId);
  return { redirect_to, welcomed };
}

/** GET /auth/consent-request: the provider's record; a remembered consent is accepted at once. */
export async function consentRequest(deps: AuthDeps, raw: string) {
  const challenge = parseInput(challengeSchema, raw, 'query.challenge');
  const request = await deps.provider.getConsentRequest(challenge);
  const subject = String(request.subject ?? '');
  const scope: string[] = Array.isArray(request.requested_scope) ? request.requested_scope : [];
  if (request.skip) {
    const { redirect_to, welcomed } = await accept(deps, { challenge, grant_scope: scope });
    return { skip: true, redirect_to, welcomed };
  }
  const principal = subject
    ? await deps.prisma.principal.findUnique({ where: { id: subject }, select: { onboardedAt: true, displayName: true } })
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
}

export async function acceptConsent(deps: AuthDeps, raw: unknown) {
  return accept(deps, parseInput(acceptInput, raw, 'body'));
}

export async function rejectConsent(deps: Pick<AuthDeps, 'provider'>, raw: unknown) {
  const { challenge } = parseInput(z.strictObject({ challenge: challengeSchema }), raw, 'body');
  const { redirect_to } = await deps.provider.rejectConsentRequest(challenge, {
    error: 'access_denied',
    error_description: 'The user declined to share their account with the app.',
  });
  return { redirect_to };
}
