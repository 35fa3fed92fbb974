/**
 * Provider access tokens for the cache-miss rows of bench/auth/session.ts, thousands a second
 * instead of the token endpoint's ~100 (its refresh_token grant: 6 Prisma queries, a rotated
 * refresh token and an ID token besides the access token, ~10 ms of CPU each).
 *
 * A twin of the embedded provider in the server child: `createIdentityProvider` with the options
 * the gateway gives its own (src/gateway-auth/gateway-setup.http.ts), so the same signing key (stored in the
 * database), issuer, resource-server format and lifetimes. For the reader's real grant (from a
 * sign-in over HTTP) it makes access tokens with the provider's own AccessToken model, as the
 * refresh_token grant does at its end (oidc-provider's grants/refresh_token.js): a JWT is signed
 * there, an opaque one is stored in oidc_payloads where the gateway's provider introspects it.
 *
 * Before it serves, it proves the twin's tokens are the endpoint's: one token from a real
 * refresh_token grant over HTTP and one minted must agree on the JWT header and every claim but
 * jti/iat/exp (and on the lifetime), or for opaque tokens on the introspection answer.
 */
import { createServer } from 'node:http';
import type { Config } from '../../src/config.js';
import { createIdentityProvider } from '../../src/identity-provider/provider.js';
import { GATEWAY_CALLBACK_PATH } from '../../src/identity-provider/adapter.js';
import type { Services } from '../../src/services.js';
import { listen, sendJson } from './lifecycle.js';

export interface Minter {
  /** GET `${url}?count=N`: N new access tokens, as a JSON array. */
  url: string;
  close(): Promise<void>;
}

/** `refreshToken`: the reader's, used once here (a real grant at the token endpoint, for the comparison). */
export async function startMinter(options: {
  gateway: string;
  services: Services;
  config: Config;
  clientId: string;
  refreshToken: string;
}): Promise<Minter> {
  const { services, config } = options;
  const embedded = services.providers.embedded;
  if (!embedded) throw new Error('minter: the embedded provider is not the issuer');
  const { provider } = await createIdentityProvider({
    prisma: services.deps.prisma,
    issuer: embedded.issuer,
    consentUrl: config.auth.consentUrl,
    gatewayClient: embedded.gatewayClient,
    adminToken: embedded.adminToken,
    jwtAccessTokens: embedded.jwtAccessTokens,
    secret: config.auth.idpSecret,
    gatewayCallbackUrl: `${config.publicUrl}${GATEWAY_CALLBACK_PATH}`,
  });

  // One real refresh_token grant: its access token is the reference, its refresh token names the grant.
  const res = await fetch(`${options.gateway}/idp/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: options.refreshToken, client_id: options.clientId }),
  });
  const issued = (await res.json()) as { access_token?: string; refresh_token?: string };
  if (!issued.access_token || !issued.refresh_token) throw new Error(`minter: refresh_token grant -> ${res.status} ${JSON.stringify(issued)}`);
  const refresh = await provider.RefreshToken.find(issued.refresh_token);
  if (!refresh) throw new Error('minter: the refresh token just issued is not found');
  const client = await provider.Client.find(String(refresh.clientId));
  if (!client) throw new Error('minter: the app client is not found');

  const jwt = embedded.jwtAccessTokens;
  const introspect = async (token: string) => (await services.auth.provider.introspect(token)) as unknown as Record<string, unknown>;
  const reference: JwtParts | Record<string, unknown> = jwt ? decodeJwt(issued.access_token) : await introspect(issued.access_token);
  const scope = String((jwt ? (reference as JwtParts).payload : (reference as Record<string, unknown>)).scope ?? '');

  async function mintOne(): Promise<string> {
    // As grants/refresh_token.js builds it (createAccessToken), for the same grant and session.
    const at = new provider.AccessToken({
      accountId: refresh!.accountId,
      client: client!,
      expiresWithSession: refresh!.expiresWithSession,
      grantId: String(refresh!.grantId),
      gty: refresh!.gty?.endsWith('refresh_token') ? refresh!.gty : `${refresh!.gty ?? ''} refresh_token`.trim(),
      sessionUid: refresh!.sessionUid,
      sid: refresh!.sid,
    });
    if (jwt) {
      const { header, payload } = reference as JwtParts;
      at.resourceServer = new provider.ResourceServer(jwt.audience, {
        audience: jwt.audience,
        scope,
        accessTokenTTL: jwt.ttlSeconds,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: header.alg as 'RS256' } },
      });
      if (payload.exp !== undefined && Number(payload.exp) - Number(payload.iat) !== jwt.ttlSeconds) throw new Error('minter: unexpected lifetime');
    } else {
      at.claims = refresh!.claims;
    }
    at.scope = scope;
    return at.save();
  }

  const sample = await mintOne();
  if (jwt) sameJwt(reference as JwtParts, decodeJwt(sample));
  else sameIntrospection(reference as Record<string, unknown>, await introspect(sample));

  const server = createServer(async (req, res) => {
    try {
      const count = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('count'));
      if (!Number.isInteger(count) || count < 1 || count > 10_000) return sendJson(res, 400, { error: 'count: 1-10000' });
      const tokens: string[] = [];
      // Opaque ones wait on a database write each: a few at a time.
      const batch = jwt ? 1 : 16;
      while (tokens.length < count) tokens.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - tokens.length) }, mintOne))));
      sendJson(res, 200, tokens);
    } catch (error) {
      sendJson(res, 500, { error: String(error) });
    }
  });
  const url = await listen(server);
  return { url, close: () => new Promise(resolve => server.close(() => resolve())) };
}

interface JwtParts {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

function decodeJwt(token: string): JwtParts {
  const [header, payload] = token
    .split('.')
    .slice(0, 2)
    .map(part => JSON.parse(Buffer.from(part, 'base64url').toString()));
  return { header, payload };
}

/** The same header, the same claims (names and values) but the per-token ones, the same lifetime. */
function sameJwt(issued: JwtParts, minted: JwtParts) {
  const perToken = new Set(['jti', 'iat', 'exp']);
  const comparable = (claims: Record<string, unknown>) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(claims)
          .filter(([name]) => !perToken.has(name))
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
    );
  const lifetime = ({ payload }: JwtParts) => Number(payload.exp) - Number(payload.iat);
  if (JSON.stringify(issued.header) !== JSON.stringify(minted.header)) mismatch('header', issued.header, minted.header);
  if (comparable(issued.payload) !== comparable(minted.payload)) mismatch('claims', issued.payload, minted.payload);
  if (lifetime(issued) !== lifetime(minted)) mismatch('lifetime', lifetime(issued), lifetime(minted));
}

function sameIntrospection(issued: Record<string, unknown>, minted: Record<string, unknown>) {
  const perToken = new Set(['jti', 'iat', 'exp']);
  const comparable = (answer: Record<string, unknown>) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(answer)
          .filter(([name]) => !perToken.has(name))
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
    );
  if (!issued.active || comparable(issued) !== comparable(minted)) mismatch('introspection', issued, minted);
}

function mismatch(what: string, issued: unknown, minted: unknown): never {
  throw new Error(
    `minter: a minted token's ${what} differs from the token endpoint's:\n  issued ${JSON.stringify(issued)}\n  minted ${JSON.stringify(minted)}`,
  );
}
