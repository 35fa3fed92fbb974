/**
 * The server child of bench/auth/session.ts: Gatehouse with its embedded identity provider, as
 * the CLI would start it, on the database the parent chose (DATABASE_URL or a PGlite DATA_DIR).
 * The provider's issuer is `${PUBLIC_URL}/idp`, so the port is chosen before the config is
 * built; COOKIE_SECURE=0 (plain http), which the config refuses with NODE_ENV=production, so the
 * config says development (that only turns GraphiQL on; the rows never ask for it).
 *
 * Seeds, then announces:
 * - `baseline`: bench/servers/gatehouse-seed.ts with one room: a test user (`gst_` token, `dev`
 *   deployment) who is a writer member of a room of two, as in `npm run bench`'s rest-get row;
 * - `session`: the same shape in `prod` (GATEWAY_ENV) through the gateway: two people sign up and
 *   in over HTTP, one creates a room with their cookie and invites the other, who accepts;
 *   the reader's cookies and provider tokens are announced for the rows, with the address of a
 *   token minter (token-minter.ts) that makes never-seen access tokens of the reader's grant.
 */
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';
import { BENCH_SCHEMA, seedGatehouse } from './gatehouse-seed.js';
import { announce, freePort, main, onShutdown } from './lifecycle.js';
import { type SignedIn, expectStatus, signUpAndIn } from '../auth/sign-in.js';
import { type Minter, startMinter } from './token-minter.js';

const CSRF = { 'x-service-csrf': '1' };

export interface SessionSeed {
  resourceId: string;
  /** `Cookie:` header value: gh_session and gh_client, as the browser sends them on /v1. */
  cookie: string;
  /** The provider access token in gh_session. */
  accessToken: string;
  /** GET `${minter}?count=N`: N never-seen access tokens of the reader (servers/token-minter.ts). */
  minter: string;
  /** Whether the provider issues JWT access tokens (IDP_JWT_ACCESS_TOKENS), as the config says. */
  jwtAccessTokens: boolean;
  clientId: string;
  userId: string;
}

main(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATA_DIR || 'memory://',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    COOKIE_SECURE: '0',
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.LOG_LEVEL || 'error',
  });
  const app = await buildApp({ config });
  let minter: Minter | undefined;
  onShutdown(async () => {
    await minter?.close();
    await app.stop();
  });
  await app.start();

  const baseline = await seedGatehouse(url, app.services, { rooms: 1, teams: 0, pairs: 0 });

  const developer = await app.services.principals.createDeveloperToken(`bench-auth-${port}@example.test`);
  const dev = (method: string, path: string, body: unknown) =>
    fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${developer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async res => (res.ok ? res.json() : Promise.reject(new Error(`seed: ${method} ${path} -> ${res.status} ${await res.text()}`))));
  const origin = `https://bench-auth-${port}.example.test`;
  const redirectUri = `${origin}/callback`;
  const created = await dev('POST', '/dev/apps', { name: 'Bench auth', origins: [origin], redirectUris: [redirectUri] });
  await dev('PUT', `/dev/apps/${created.id}/deployments/${config.auth.gatewayEnv}`, { schema: BENCH_SCHEMA });
  const oauthApp = { clientId: created.clientIds[0] as string, redirectUri };

  const host = await signUpAndIn(url, oauthApp, 'host');
  const reader = await signUpAndIn(url, oauthApp, 'reader');
  const signedIn = credentials(reader, `127.0.0.1:${port}`);
  const room = await host.browser.post(`${url}/v1/resources`, { type: 'room', name: 'Shared room' }, CSRF);
  expectStatus(room, 200, 'POST /v1/resources (cookie)');
  const resourceId: string = room.json.id;
  expectStatus(await host.browser.post(`${url}/v1/resources/${resourceId}/invite`, { userId: reader.userId }, CSRF), 200, 'invite (cookie)');
  expectStatus(await reader.browser.post(`${url}/v1/resources/${resourceId}/accept`, {}, CSRF), 200, 'accept (cookie)');

  minter = await startMinter({ gateway: url, services: app.services, config, clientId: oauthApp.clientId, refreshToken: signedIn.refreshToken });

  // As gatehouse.ts does: statistics for the seeded tables, as autovacuum would gather them.
  await app.database.prisma.$executeRawUnsafe('ANALYZE');
  const session: SessionSeed = {
    resourceId,
    accessToken: signedIn.accessToken,
    cookie: signedIn.cookie,
    minter: minter.url,
    jwtAccessTokens: !!config.auth.jwtAccessTokens,
    clientId: oauthApp.clientId,
    userId: reader.userId,
  };
  announce({ url, database: app.database.describe(), baseline: { token: baseline.reader.token, resourceId: baseline.resourceId }, session });
});

function credentials({ browser }: SignedIn, host: string) {
  const value = (name: string) => {
    const found = browser.cookie(host, name);
    if (!found) throw new Error(`seed: the browser holds no ${name} cookie after sign-in`);
    return found.value;
  };
  const accessToken = value('gh_session');
  return {
    accessToken,
    refreshToken: value('gh_refresh'),
    cookie: `gh_session=${encodeURIComponent(accessToken)}; gh_client=${encodeURIComponent(value('gh_client'))}`,
  };
}
