/**
 * Which provider the gateway talks to. With OIDC_ISSUER: that external Hydra-compatible provider
 * (discovery, its admin API, the configured introspection credential). Without: the embedded
 * provider mounted at `${PUBLIC_URL}/idp`, reached server-to-server over this process's own
 * listening address (the backchannel) with per-process credentials unless configured.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { fail } from '../errors.js';
import { IDP_ROUTES } from '../identity-provider/routes.js';
import { createProviderClient, discoveredEndpoints, type ProviderClient } from './provider-client.service.js';
import { embeddedAccessTokenShape } from '../identity-provider/token-format.js';
import { BEARER_TOKEN_SHAPE, type JwtAccessTokens } from './token-validator.service.js';

export const EMBEDDED_MOUNT = '/idp';
export const EMBEDDED_GATEWAY_CLIENT_ID = 'gatehouse-gateway';

export interface EmbeddedProviderSettings {
  issuer: string;
  gatewayClient: { clientId: string; secret: string };
  adminToken: string;
  /** IDP_JWT_ACCESS_TOKENS: access tokens as JWTs for this gateway (audience PUBLIC_URL). */
  jwtAccessTokens: { audience: string; ttlSeconds: number } | null;
}

export interface ProviderSetup {
  client: ProviderClient;
  /** Where JWT access tokens are verified locally; null: every token is introspected (or userinfo). */
  jwt: JwtAccessTokens | null;
  /** What an access token of this provider can look like: anything else is refused without asking it. */
  tokenShape: RegExp;
  /** Set when the embedded provider is the issuer; the server mounts it. */
  embedded: EmbeddedProviderSettings | null;
  /** The embedded provider's server-to-server base; the server sets it once it listens. */
  setBackchannel(origin: string): void;
}

export function providerSetup(config: Config, fetchImpl: typeof fetch = (...args) => fetch(...args)): ProviderSetup {
  const auth = config.auth;
  if (auth.issuer) {
    return {
      embedded: null,
      jwt: null,
      tokenShape: BEARER_TOKEN_SHAPE,
      setBackchannel: () => undefined,
      client: createProviderClient({
        endpoints: discoveredEndpoints(auth.issuer, auth.adminUrl, fetchImpl),
        adminBase: auth.adminUrl ? () => auth.adminUrl! : undefined,
        adminToken: auth.adminToken,
        identityBase: auth.identityUrl ? () => auth.identityUrl! : undefined,
        introspection: auth.introspection,
        fetch: fetchImpl,
      }),
    };
  }
  if (!auth.embedded) {
    const none = () =>
      fail('issuer_not_configured', 'No identity provider is configured: set OIDC_ISSUER or enable the embedded one (IDP_EMBEDDED=1).');
    return {
      embedded: null,
      jwt: null,
      tokenShape: BEARER_TOKEN_SHAPE,
      setBackchannel: () => undefined,
      client: createProviderClient({
        endpoints: async () => {
          throw none();
        },
      }),
    };
  }
  const issuer = `${config.publicUrl}${EMBEDDED_MOUNT}`;
  const embedded: EmbeddedProviderSettings = {
    issuer,
    gatewayClient: auth.introspection ?? { clientId: EMBEDDED_GATEWAY_CLIENT_ID, secret: randomBytes(32).toString('base64url') },
    adminToken: auth.adminToken ?? randomBytes(32).toString('base64url'),
    jwtAccessTokens: auth.jwtAccessTokens ? { audience: config.publicUrl, ttlSeconds: auth.jwtAccessTokens.ttlSeconds } : null,
  };
  let backchannel = config.publicUrl;
  const base = () => `${backchannel}${EMBEDDED_MOUNT}`;
  return {
    embedded,
    jwt: embedded.jwtAccessTokens
      ? { jwksUri: () => `${base()}${IDP_ROUTES.jwks}`, issuer, audience: embedded.jwtAccessTokens.audience, fetch: fetchImpl }
      : null,
    tokenShape: embeddedAccessTokenShape(!!embedded.jwtAccessTokens),
    setBackchannel: origin => {
      backchannel = origin.replace(/\/$/, '');
    },
    client: createProviderClient({
      endpoints: async () => ({
        authorization: `${issuer}${IDP_ROUTES.authorization}`,
        token: `${base()}${IDP_ROUTES.token}`,
        revocation: `${base()}${IDP_ROUTES.revocation}`,
        userinfo: `${base()}${IDP_ROUTES.userinfo}`,
        introspection: `${base()}${IDP_ROUTES.introspection}`,
      }),
      adminBase: base,
      adminToken: embedded.adminToken,
      identityBase: base,
      introspection: embedded.gatewayClient,
      fetch: fetchImpl,
    }),
  };
}
