/**
 * The oidc-provider adapter over Prisma: every artifact (sessions, interactions, grants, codes,
 * tokens) is a row of `oidc_payloads` keyed by (model, id). OAuth clients are not stored here:
 * they are Gatehouse apps' AppClient rows (see clientMetadata).
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { PrismaClient } from '../generated/prisma/client.js';

/** Gateway-owned callback on each hosted app origin (the invite-page flow signs in through it). */
export const HOSTED_CALLBACK_PATH = '/_osg/auth/callback';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

export class PrismaOidcAdapter implements Adapter {
  private static lastSweep = 0;

  constructor(
    private readonly model: string,
    private readonly prisma: PrismaClient,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null;
    const data = {
      payload: payload as object,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt,
    };
    await this.prisma.oidcPayload.upsert({
      where: { model_id: { model: this.model, id } },
      create: { model: this.model, id, ...data },
      update: { ...data, consumedAt: null },
    });
    this.sweep();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.load(await this.prisma.oidcPayload.findUnique({ where: { model_id: { model: this.model, id } } }));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.load(await this.prisma.oidcPayload.findFirst({ where: { model: this.model, uid } }));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.load(await this.prisma.oidcPayload.findFirst({ where: { model: this.model, userCode } }));
  }

  async consume(id: string): Promise<void> {
    await this.prisma.oidcPayload.updateMany({ where: { model: this.model, id }, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    await this.prisma.oidcPayload.deleteMany({ where: { model: this.model, id } });
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
      .catch(error => console.error('[idp] sweeping expired artifacts failed', error));
  }
}

/** OAuth client metadata for an AppClient: a public client, code + refresh, exact redirect URIs. */
export async function clientMetadata(prisma: PrismaClient, clientId: string): Promise<AdapterPayload | undefined> {
  const row = await prisma.appClient.findUnique({
    where: { clientId },
    include: { app: { select: { name: true, origins: { select: { origin: true } } } } },
  });
  if (!row) return undefined;
  const hosted = row.app.origins.map(o => `${o.origin}${HOSTED_CALLBACK_PATH}`);
  return {
    client_id: row.clientId,
    client_name: row.app.name,
    redirect_uris: [...new Set([...row.redirectUris, ...hosted])],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'web',
  };
}

export class ClientAdapter implements Adapter {
  constructor(private readonly prisma: PrismaClient) {}
  find(id: string) {
    return clientMetadata(this.prisma, id);
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
