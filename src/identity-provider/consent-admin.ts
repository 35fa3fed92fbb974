/**
 * Hydra's consent admin API over oidc-provider interactions: get a consent request by challenge
 * (= interaction id), accept it with `grant_scope` (+ `remember`), or reject it. Accepting writes
 * an oidc-provider Grant and the interaction result; the browser then follows `redirect_to`, which
 * only the browser holding the interaction's resume cookie can complete.
 */
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { fail, parseInput } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';

const REMEMBERED = 'RememberedConsent';
const epochNow = () => Math.floor(Date.now() / 1000);

const acceptBody = z.object({
  grant_scope: z.array(z.string().max(200)).max(50).default([]),
  remember: z.boolean().default(false),
  /** Seconds; 0 or absent means no expiry (as Hydra). */
  remember_for: z.number().int().min(0).default(0),
  session: z.unknown().optional(),
});

const rejectBody = z.object({
  error: z.string().max(100).default('access_denied'),
  error_description: z.string().max(500).default('The user denied access.'),
});

export interface ConsentRequest {
  challenge: string;
  skip: boolean;
  subject: string;
  client: { client_id: string; client_name?: string };
  requested_scope: string[];
  requested_access_token_audience: string[];
  login_session_id: string | null;
  context: Record<string, unknown>;
}

export function createConsentAdmin(provider: Provider, prisma: PrismaClient) {
  async function pending(challenge: string) {
    const interaction = await provider.Interaction.find(challenge);
    if (interaction?.prompt.name !== 'consent' || !interaction.session?.accountId) {
      throw fail('not_found', 'No consent request with this challenge (unknown, expired or not a consent step).');
    }
    if (interaction.result?.consent || interaction.result?.error) {
      throw fail('request_handled', 'This consent request was already handled.', { redirect_to: interaction.returnTo });
    }
    return interaction;
  }

  const rememberKey = (subject: string, clientId: string) => `${subject} ${clientId}`;
  const requestedScope = (scope: unknown) =>
    String(scope ?? '')
      .split(' ')
      .filter(Boolean);

  return {
    async get(challenge: string): Promise<ConsentRequest> {
      const interaction = await pending(challenge);
      const subject = interaction.session!.accountId;
      const clientId = String(interaction.params.client_id);
      const requested = requestedScope(interaction.params.scope);
      const remembered = await prisma.oidcPayload.findUnique({ where: { model_id: { model: REMEMBERED, id: rememberKey(subject, clientId) } } });
      const live = remembered && (!remembered.expiresAt || remembered.expiresAt.getTime() > Date.now());
      const rememberedScope = live ? ((remembered.payload as { grant_scope?: string[] }).grant_scope ?? []) : null;
      const client = await provider.Client.find(clientId);
      return {
        challenge,
        skip: rememberedScope !== null && requested.every(s => rememberedScope.includes(s)),
        subject,
        client: { client_id: clientId, ...(client?.clientName ? { client_name: client.clientName } : {}) },
        requested_scope: requested,
        requested_access_token_audience: [],
        login_session_id: interaction.session?.uid ?? null,
        context: {},
      };
    },

    async accept(challenge: string, raw: unknown): Promise<{ redirect_to: string }> {
      const body = parseInput(acceptBody, raw, 'body');
      const interaction = await pending(challenge);
      const accountId = interaction.session!.accountId;
      const clientId = String(interaction.params.client_id);
      const requested = requestedScope(interaction.params.scope);
      const granted = requested.filter(s => body.grant_scope.includes(s));
      const refused = requested.filter(s => !granted.includes(s));

      const grant = (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
      if (granted.length) grant.addOIDCScope(granted.join(' '));
      // Refused scopes are recorded as rejected so the consent prompt does not ask again.
      if (refused.length) grant.rejectOIDCScope(refused.join(' '));
      const details = interaction.prompt.details as { missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();

      interaction.result = { ...interaction.lastSubmission, consent: { grantId } };
      await interaction.save(interaction.exp - epochNow());

      if (body.remember) {
        const id = rememberKey(accountId, clientId);
        const expiresAt = body.remember_for > 0 ? new Date(Date.now() + body.remember_for * 1000) : null;
        const data = { payload: { grant_scope: granted }, expiresAt };
        await prisma.oidcPayload.upsert({ where: { model_id: { model: REMEMBERED, id } }, create: { model: REMEMBERED, id, ...data }, update: data });
      }
      return { redirect_to: interaction.returnTo };
    },

    async reject(challenge: string, raw: unknown): Promise<{ redirect_to: string }> {
      const { error, error_description } = parseInput(rejectBody, raw, 'body');
      const interaction = await pending(challenge);
      interaction.result = { error, error_description };
      await interaction.save(interaction.exp - epochNow());
      return { redirect_to: interaction.returnTo };
    },
  };
}
