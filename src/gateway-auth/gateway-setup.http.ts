/**
 * Builds the gateway for one server: where a request arrived (the gateway's own host or a hosted
 * app origin), the sign-in and invite handlers its routes run (auth.routes.ts, invite.routes.ts),
 * and the embedded provider (when it is the issuer; built on its first request, see
 * identity-provider/lazy.ts), bridged in below its mount.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import { restError } from '../http/error-responses.js';
import { GATEWAY_HOST, type Mount, type RequestContext, hostedMount } from '../http/request-context.js';
import { json, writeNodeResponse } from '../http/responses.js';
import { GATEWAY_CALLBACK_PATH } from '../identity-provider/adapter.js';
import { lazyIdentityProvider } from '../identity-provider/lazy.js';
import type { IdentityProvider } from '../identity-provider/provider.js';
import type { Services } from '../services.js';
import { createAuthHandlers } from './auth.routes.js';
import { createInvitePages } from './invite.pages.js';

/** Methods whose request carries no body: nothing to read before bridging to the provider. */
const BODYLESS = new Set(['GET', 'HEAD']);

export async function createGatewayAuth({ services, config }: { services: Services; config: Config }) {
  const embedded = services.providers.embedded;
  const idp = embedded
    ? lazyIdentityProvider({
        prisma: services.deps.prisma,
        clientCache: services.oauthClientCache,
        issuer: embedded.issuer,
        consentUrl: config.auth.consentUrl,
        gatewayClient: embedded.gatewayClient,
        adminToken: embedded.adminToken,
        jwtAccessTokens: embedded.jwtAccessTokens,
        secret: config.auth.idpSecret,
        debug: config.logLevel === 'debug',
        signInLimits: config.auth.signInLimits,
        trustProxy: config.auth.trustProxy,
        gatewayCallbackUrl: `${config.publicUrl}${GATEWAY_CALLBACK_PATH}`,
        maxBodyBytes: config.maxBodyBytes,
      })
    : null;

  /**
   * Where a request arrived, by its Host: the gateway's own names (services.gatewayHosts, even if
   * an app registered one before they were reserved), else a registered app origin, else the gateway.
   */
  function mountOf(host: string | undefined): Mount | Promise<Mount> {
    const name = (host ?? '').toLowerCase();
    if (!name || services.gatewayHosts.has(name)) return GATEWAY_HOST;
    return services.apps.appOfHost(name).then(app => (app ? hostedMount(app) : GATEWAY_HOST));
  }

  return {
    mountOf,
    authHandlers: createAuthHandlers({ services, config }),
    invitePages: createInvitePages({ services, config }),
    /** The embedded provider's mount path (it routes below it itself), or null with an external issuer. */
    identityProviderMount: idp ? idp.mountPath : null,
    identityProvider: idp ? (context: RequestContext) => bridgeIdentityProvider(idp, context) : null,
    /** Tells the provider client where this process listens (the embedded provider's backchannel). */
    onListening(address: AddressInfo | string | null) {
      if (!address || typeof address === 'string') return;
      // PORT=0 picks the port now: the gateway's names are reserved on it from here on.
      services.gatewayHosts.listening(address.port);
      const host =
        address.address === '0.0.0.0'
          ? '127.0.0.1'
          : address.address === '::'
            ? '[::1]'
            : address.family === 'IPv6'
              ? `[${address.address}]`
              : address.address;
      services.providers.setBackchannel(`http://${host}:${address.port}`);
    },
  };
}

export type GatewayAuth = Awaited<ReturnType<typeof createGatewayAuth>>;

/**
 * The embedded provider is a node:http (Koa) app: bridged in without a socket, its body already
 * read through the pipeline's limited reader. Its failures are answered like the gateway's.
 */
async function bridgeIdentityProvider(provider: IdentityProvider, context: RequestContext): Promise<Response> {
  const { request, url } = context;
  async function serve(req: IncomingMessage, res: ServerResponse) {
    try {
      if (await provider.handle(req, res, url)) return;
      await writeNodeResponse(res, json(404, { error: 'not_found', message: `No route ${request.method} ${url.pathname}.` }));
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      await writeNodeResponse(res, restError(error));
    }
  }
  const listener = (req: IncomingMessage, res: ServerResponse) => void serve(req, res).catch(() => res.destroy());
  const body = BODYLESS.has(request.method) ? new Uint8Array(0) : await context.body();
  // Loaded with the provider's first request, like the provider itself (start-up).
  const { injectFetch } = await import('../http/inject-fetch.js');
  return injectFetch(listener, request, { remoteAddress: context.remoteAddress, body });
}
