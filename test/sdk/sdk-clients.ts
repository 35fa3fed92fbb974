/** The SDK tests' clients as an appTest file fixture: `.extend('sdk', { scope: 'file' }, sdkClients)`. */
import { createClient, type GatehouseClient } from '../../src/sdk/index.js';
import type { Seed, TestContext } from '../helpers/app.js';

/**
 * sdk[name]: a bearer-mode client per test user against ctx's server (over its socket, so the app
 * listens), with its user id; closed when the file ends, before the app.
 */
export async function sdkClients({ ctx, s }: { ctx: TestContext; s: Seed }, { onCleanup }: { onCleanup: (fn: () => void) => void }) {
  const sdk: Record<string, GatehouseClient & { userId: string }> = {};
  for (const [name, user] of Object.entries(s.users)) {
    sdk[name] = Object.assign(createClient({ gatewayUrl: ctx.url, accessToken: user.token! }), { userId: user.id });
  }
  onCleanup(() => {
    for (const client of Object.values(sdk)) client.close();
  });
  return sdk;
}
