/**
 * The embedded identity provider on a port of its own (`gatehouse idp`): the same provider the
 * gateway mounts at /idp, for a gateway that reaches it as an external Hydra-compatible issuer
 * (OIDC_ISSUER, OIDC_ADMIN_URL and OIDC_IDENTITY_URL all naming this server).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, isIPv6 } from 'node:net';
import type { IdpConfig } from '../config.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { json, writeNodeResponse } from '../http/responses.js';
import { createIdentityProvider, type IdentityProvider, type IdentityProviderOptions } from './provider.js';
import { describeError } from '../http/error-responses.js';
import { requestIdFrom, setLogLevel, withRequestId } from '../lib/logger.js';

export interface IdentityProviderServer {
  server: Server;
  /** The issuer URL; without a configured one it is known once start() has bound the port. */
  readonly issuer: string;
  /** Listens on the configured port (0 picks a free one) and returns the address it listens on and the issuer. */
  start(): Promise<{ url: string; issuer: string }>;
  stop(): Promise<void>;
}

type ServerConfig = Omit<IdpConfig, 'issuer' | 'databaseUrl' | 'migrateOnStart' | 'signInLimits' | 'trustProxy' | 'idpSecret'> &
  Partial<Pick<IdpConfig, 'issuer' | 'signInLimits' | 'trustProxy' | 'idpSecret'>>;

/**
 * The provider's server. Without `config.issuer` the issuer is `http://HOST:<bound port>`, derived
 * after binding, so port 0 works (the provider is built once the port is known).
 */
export async function createIdentityProviderServer(
  config: ServerConfig,
  prisma: PrismaClient,
  ttl?: IdentityProviderOptions['ttl'],
): Promise<IdentityProviderServer> {
  setLogLevel(config.logLevel);
  const build = (issuer: string) =>
    createIdentityProvider({
      prisma,
      issuer,
      consentUrl: config.consentUrl,
      gatewayClient: config.gatewayClient,
      adminToken: config.adminToken,
      secret: config.idpSecret,
      debug: config.logLevel === 'debug',
      signInLimits: config.signInLimits,
      trustProxy: config.trustProxy,
      ttl,
    });
  let idp: IdentityProvider | undefined = config.issuer === undefined ? undefined : await build(config.issuer);
  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://idp.local');
    if (url.pathname === '/healthz') return writeNodeResponse(res, json(200, { ok: true }));
    // Only between binding and building the provider, before start() has returned the URL.
    if (!idp) return writeNodeResponse(res, json(503, { error: 'temporarily_unavailable', error_description: 'The provider is starting.' }));
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
  const stop = async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>(resolve => server.close(() => resolve()));
  };
  return {
    server,
    get issuer() {
      if (!idp) throw new Error('The issuer is known once the server listens: call start() first.');
      return idp.issuer;
    },
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const { address, port, family } = server.address() as AddressInfo;
      if (!idp) {
        try {
          idp = await build(issuerFor(config.host, port));
        } catch (error) {
          await stop();
          throw error;
        }
      }
      return { url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`, issuer: idp.issuer };
    },
    stop,
  };
}

/** `http://HOST:port`, as IDP_ISSUER defaults (a wildcard host is reached as localhost). */
function issuerFor(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::') return `http://localhost:${port}`;
  return `http://${isIPv6(host) ? `[${host}]` : host}:${port}`;
}
