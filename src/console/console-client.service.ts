/**
 * The console's OAuth client (docs/api.md §4.2): the dashboard client, `DASHBOARD_CLIENT_ID`.
 * With the embedded provider its clients are Gatehouse apps, so the console registers itself once,
 * as an app of an internal platform developer that no token names, with the gateway's
 * `/console/callback` as its redirect URI. An operator who registered the client already (or runs
 * an external provider, where it is registered there) keeps theirs; the redirect URI is added.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

/** Ids of the platform's own records; no developer token or app listing ever names them. */
const PLATFORM_DEVELOPER = { id: 'dev_gatehouse_console', email: 'console@gatehouse.invalid' };
const CONSOLE_APP = { id: 'app_gatehouse_console', name: 'Gatehouse console' };

export const CONSOLE_CALLBACK_PATH = '/console/callback';

export async function ensureConsoleClient(prisma: PrismaClient, clientId: string, publicUrl: string): Promise<void> {
  const redirectUri = `${new URL(publicUrl).origin}${CONSOLE_CALLBACK_PATH}`;
  const existing = await prisma.appClient.findUnique({ where: { clientId }, select: { redirectUris: true } });
  if (existing) {
    if (!existing.redirectUris.includes(redirectUri)) {
      await prisma.appClient.update({ where: { clientId }, data: { redirectUris: [...existing.redirectUris, redirectUri] } });
    }
    return;
  }
  await prisma.developer.upsert({ where: { id: PLATFORM_DEVELOPER.id }, create: PLATFORM_DEVELOPER, update: {} });
  await prisma.app.upsert({ where: { id: CONSOLE_APP.id }, create: { ...CONSOLE_APP, developerId: PLATFORM_DEVELOPER.id }, update: {} });
  // Two instances racing: the second create fails on the key, and the client is there anyway.
  await prisma.appClient.create({ data: { clientId, appId: CONSOLE_APP.id, redirectUris: [redirectUri] } }).catch(async error => {
    if (!(await prisma.appClient.findUnique({ where: { clientId } }))) throw error;
  });
}
