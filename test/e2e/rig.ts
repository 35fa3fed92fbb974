/**
 * The browser end-to-end rig: a Gatehouse server behind one loopback port that also serves the
 * demo app (test/e2e/app) on a hosted app origin, `http://app.localhost:<port>`. Chromium maps
 * that host to 127.0.0.1 (--host-resolver-rules), so the gateway sees a real, registered app origin
 * (docs/api.md §4.3): the page's /_osg/* and /_invite/* reach the gateway with that Host, as a
 * reverse proxy in front of a hosted app would send them. A `.localhost` host because plain http is
 * allowed only there for redirect URIs (§4.6), and the browser treats it as a secure context
 * (WebCrypto, for the SDK's PKCE). The gateway can be restarted behind the same port.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { CLIENT_PACKAGE_DIR } from '../../src/http/sdk-script.js';
import { buildApp, type App } from '../../src/server.js';
import { Client, TEST_SCHEMA } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { listenOnLoopback } from '../helpers/ports.js';

export const APP_HOST = 'app.localhost';

export interface E2eRig {
  /** The gateway's own URL (PUBLIC_URL): the embedded provider and the consent page live here. */
  url: string;
  /** The demo app's origin, registered with the gateway. */
  appOrigin: string;
  appId: string;
  clientId: string;
  /** The developer who owns the demo app (its /dev API). */
  developer: Client;
  app(): App;
  /** Stops the gateway and starts a new one on the same database behind the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export async function startE2eRig(): Promise<E2eRig> {
  // The page loads the SDK from the gateway (/sdk/client.js): the client package's build, made as `npm install` makes it.
  execFileSync(process.execPath, [resolve(CLIENT_PACKAGE_DIR, 'build.mjs')], { stdio: 'inherit' });
  const database = await createTestDatabase();
  let target: Server | null = null;
  let clientId = '';
  let appOrigin = '';
  const statics: Record<string, () => { type: string; body: string }> = {
    '/': () => ({ type: 'text/html; charset=utf-8', body: readFileSync(resolve(import.meta.dirname, 'app/index.html'), 'utf8') }),
    '/app.js': () => ({ type: 'text/javascript; charset=utf-8', body: readFileSync(resolve(import.meta.dirname, 'app/app.js'), 'utf8') }),
    '/config.json': () => ({ type: 'application/json', body: JSON.stringify({ clientId, gatewayUrl: url }) }),
  };
  const front = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = req.method === 'GET' && req.headers.host === new URL(appOrigin || 'http://x').host ? statics[path] : undefined;
    if (page) {
      const { type, body } = page();
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } else if (target) target.emit('request', req, res);
    else res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"restarting","message":"The gateway is restarting."}');
  });
  front.on('upgrade', (req, socket, head) => {
    if (target) target.emit('upgrade', req, socket, head);
    else socket.destroy();
  });
  const port = await listenOnLoopback(front);
  const url = `http://127.0.0.1:${port}`;
  appOrigin = `http://${APP_HOST}:${port}`;

  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    PORT: '0',
    PUBLIC_URL: url,
    // Plain http in the test: Secure cookies would not be stored for http://127.0.0.1 (§4.5).
    COOKIE_SECURE: '0',
    DATA_DIR: 'memory://',
    SIGNIN_MAX_PER_IP: '100000',
    SIGNIN_MAX_GLOBAL: '100000',
  });
  const boot = async () => {
    const app = await buildApp({ config, database });
    await app.start();
    target = app.server;
    return app;
  };
  let app = await boot();

  const bootstrap = await app.services.principals.createDeveloperToken(`dev-${Math.random().toString(36).slice(2)}@example.test`);
  const developer = new Client(url, bootstrap.token);
  const created = await developer.post('/dev/apps', { name: 'E2E demo', origins: [appOrigin], redirectUris: [`${appOrigin}/`] });
  if (created.status !== 200) throw new Error(`POST /dev/apps: ${created.status} ${JSON.stringify(created.body)}`);
  const deployed = await developer.request('PUT', `/dev/apps/${created.body.id}/deployments/prod`, { schema: TEST_SCHEMA });
  if (deployed.status !== 200) throw new Error(`deploy: ${deployed.status} ${JSON.stringify(deployed.body)}`);
  clientId = created.body.clientIds[0];

  return {
    url,
    appOrigin,
    appId: created.body.id,
    clientId,
    developer,
    app: () => app,
    async restart({ downMs = 500 } = {}) {
      target = null;
      await app.stop();
      await new Promise(r => setTimeout(r, downMs));
      app = await boot();
    },
    async close() {
      target = null;
      front.closeAllConnections();
      await new Promise<void>(r => front.close(() => r()));
      await app.stop();
      await database.close();
    },
  };
}
