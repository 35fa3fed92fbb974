/**
 * Key material of the embedded provider, created once and stored in the database (model
 * `IdpKeys` of oidc_payloads) so restarts and several processes share it: the ID-token signing
 * key and the cookie-signing keys. IDP_SECRET, when set, is the cookie key instead.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { PrismaClient } from '../generated/prisma/client.js';

interface StoredKeys {
  signing: JWK;
  cookieKeys: string[];
}

const WHERE = { model_id: { model: 'IdpKeys', id: 'default' } } as const;

export async function loadIdpKeys(prisma: PrismaClient, secret?: string): Promise<StoredKeys> {
  let row = await prisma.oidcPayload.findUnique({ where: WHERE });
  if (!row) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signing = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };
    const keys: StoredKeys = { signing, cookieKeys: [randomBytes(32).toString('base64url')] };
    try {
      await prisma.oidcPayload.create({ data: { model: 'IdpKeys', id: 'default', payload: keys as object } });
    } catch (error) {
      // Another process stored its keys first: use those.
      if ((error as { code?: string }).code !== 'P2002') throw error;
    }
    row = await prisma.oidcPayload.findUniqueOrThrow({ where: WHERE });
  }
  const stored = row.payload as unknown as StoredKeys;
  return { signing: stored.signing, cookieKeys: secret ? [secret] : stored.cookieKeys };
}
