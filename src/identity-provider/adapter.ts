/**
 * The oidc-provider adapter over Prisma: every artifact (sessions, interactions, grants, codes,
 * tokens) is a row of `oidc_payloads` keyed by (model, id). OAuth clients are not stored here:
 * they are Gatehouse apps' AppClient rows (see clientMetadata).
 *
 * Bearer artifacts (codes and tokens) are stored under the SHA-256 of their value, without the
 * value itself in the payload (`jti`), so a copy of the database holds no usable token.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { PrismaClient } from '../generated/prisma/client.js';
import { sha256 } from '../lib/secrets.js';
import { Cache } from '../lib/cache.js';
import { logger } from '../lib/logger.js';

/** Gateway-owned callback on each hosted app origin (the invite-page flow signs in through it). */
export const HOSTED_CALLBACK_PATH = '/_osg/auth/callback';
/** The same callback on the gateway's own host, for invite links of apps without an origin. */
export const GATEWAY_CALLBACK_PATH = '/auth/callback';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** Models whose id is a credential someone presents; only ever looked up by that value. */
const BEARER_MODELS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export class PrismaOidcAdapter implements Adapter {
  private static lastSweep = 0;
  private readonly hashed: boolean;

  constructor(
    private readonly model: string,
    private readonly prisma: PrismaClient,
  ) {
    this.hashed = BEARER_MODELS.has(model);
  }

  /** The stored key of an artifact id. */
  private key(id: string): string {
    return this.hashed ? sha256(id) : id;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null;
    const { jti: _value, ...withoutValue } = payload;
    const data = {
      payload: (this.hashed ? withoutValue : payload) as object,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt,
    };
    const key = this.key(id);
    await this.prisma.oidcPayload.upsert({
      where: { model_id: { model: this.model, id: key } },
      create: { model: this.model, id: key, ...data },
      update: { ...data, consumedAt: null },
    });
    this.sweep();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const found = this.load(await this.prisma.oidcPayload.findUnique({ where: { model_id: { model: this.model, id: this.key(id) } } }));
    return found && this.hashed ? { ...found, jti: id } : found;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.load(await this.prisma.oidcPayload.findFirst({ where: { model: this.model, uid } }));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.load(await this.prisma.oidcPayload.findFirst({ where: { model: this.model, userCode } }));
  }

  async consume(id: string): Promise<void> {
    await this.prisma.oidcPayload.updateMany({ where: { model: this.model, id: this.key(id) }, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    await this.prisma.oidcPayload.deleteMany({ where: { model: this.model, id: this.key(id) } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.prisma.oidcPayload.deleteMany({ where: { model: this.model, grantId } });
  }

  private load(row: { payload: unknown; expiresAt: Date | null; consumedAt: Date | null } | null): AdapterPayload | undefined {
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  /** Expired rows are deleted now and then, off the request path. */
  private sweep() {
    const now = Date.now();
    if (now - PrismaOidcAdapter.lastSweep < SWEEP_EVERY_MS) return;
    PrismaOidcAdapter.lastSweep = now;
    this.prisma.oidcPayload
      .deleteMany({ where: { expiresAt: { lt: new Date(now - 60_000) } } })
      .catch(error => logger.error({ err: error }, 'idp: sweeping expired artifacts failed'));
  }
}

/** OAuth client metadata for an AppClient: a public client, code + refresh, exact redirect URIs. */
export async function clientMetadata(prisma: PrismaClient, clientId: string, gatewayCallbacks: string[] = []): Promise<AdapterPayload | undefined> {
  const row = await prisma.appClient.findUnique({
    where: { clientId },
    include: { app: { select: { name: true, origins: { select: { origin: true } } } } },
  });
  if (!row) return undefined;
  // A registered origin's gateway callback, and its root: the page a published site or `gatehouse
  // dev` signs in from (createClient() with no options) without registering it by hand.
  const hosted = row.app.origins.flatMap(o => [`${o.origin}${HOSTED_CALLBACK_PATH}`, `${o.origin}/`]);
  return {
    client_id: row.clientId,
    client_name: row.app.name,
    redirect_uris: [...new Set([...row.redirectUris, ...hosted, ...gatewayCallbacks])],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'web',
  };
}

/**
 * Every introspection and token request looks a client up. Its redirect URIs follow the app's
 * origins: registering one (`gatehouse dev`, another hosted origin) forgets the app's clients here
 * at once; other instances see it when their entry expires.
 */
const CLIENT_CACHE_MS = 30_000;

export type OidcClientCache = Cache<AdapterPayload | undefined>;
export const oidcClientCache = (): OidcClientCache => new Cache<AdapterPayload | undefined>({ ttlMs: CLIENT_CACHE_MS });

export class ClientAdapter implements Adapter {
  constructor(
    private readonly prisma: PrismaClient,
    /** Gateway-owned callbacks every app client may use (the invite flow on the gateway's host). */
    private readonly gatewayCallbacks: string[] = [],
    private readonly cache: OidcClientCache = oidcClientCache(),
  ) {}
  async find(id: string) {
    // Unknown ids come back undefined, which the cache does not keep: a client registered a moment later is found.
    const metadata = await this.cache.getOrLoad(id, () => clientMetadata(this.prisma, id, this.gatewayCallbacks));
    return metadata && structuredClone(metadata); // oidc-provider may keep and change what it is given
  }
  async upsert() {
    throw new Error('OAuth clients are Gatehouse apps: register them with POST /dev/apps.');
  }
  async findByUid() {
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume() {}
  async destroy() {}
  async revokeByGrantId() {}
}
