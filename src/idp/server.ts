/**
 * The embedded identity provider on a port of its own (`gatehouse idp`): the same provider the
 * gateway mounts at /idp, for a gateway that reaches it as an external Hydra-compatible issuer
 * (OIDC_ISSUER, OIDC_ADMIN_URL and OIDC_IDENTITY_URL all naming this server).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IdpConfig } from '../config.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { json, writeNodeResponse } from '../lib/http.js';
import { createIdentityProvider, type IdentityProviderOptions } from './provider.js';
import { describeError } from '../error-responses.js';
import { requestIdFrom, setLogLevel, withRequestId } from '../lib/logger.js';

export interface IdentityProviderServer {
  server: Server;
  issuer: string;
  /** Listens on the configured port (0 picks a free one) and returns the address it listens on. */
  start(): Promise<{ url: string }>;
  stop(): Promise<void>;
}

export async function createIdentityProviderServer(
  config: Omit<IdpConfig, 'databaseUrl' | 'migrateOnStart' | 'signInLimits' | 'trustProxy'> & Partial<Pick<IdpConfig, 'signInLimits' | 'trustProxy'>>,
  prisma: PrismaClient,
  ttl?: IdentityProviderOptions['ttl'],
): Promise<IdentityProviderServer> {
  setLogLevel(config.logLevel);
  const idp = await createIdentityProvider({
    prisma,
    issuer: config.issuer,
    consentUrl: config.consentUrl,
    gatewayClient: config.gatewayClient,
    adminToken: config.adminToken,
    secret: config.idpSecret,
    debug: config.logLevel === 'debug',
    signInLimits: config.signInLimits,
    trustProxy: config.trustProxy,
    ttl,
  });
  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://idp.local');
    if (url.pathname === '/healthz') return writeNodeResponse(res, json(200, { ok: true }));
    if (!(await idp.handle(req, res, url)))
      await writeNodeResponse(res, json(404, { error: 'not_found', error_description: `No route ${req.method} ${url.pathname}.` }));
  }
  const server = createServer((req, res) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('x-request-id', requestId);
    withRequestId(requestId, () =>
      serve(req, res).catch(error => {
        // Bad input (an oversized or NUL-bearing form) keeps its 4xx; only the unexpected is a 500, logged.
        const shape = describeError(error);
        if (res.headersSent) return void res.destroy();
        return writeNodeResponse(
          res,
          json(shape.status, { error: shape.status >= 500 ? 'server_error' : shape.code, error_description: shape.message }, shape.headers),
        );
      }),
    );
  });
  return {
    server,
    issuer: idp.issuer,
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const { address, port, family } = server.address() as AddressInfo;
      return { url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}` };
    },
    async stop() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
