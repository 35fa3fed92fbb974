/**
 * The gateway's HTTP surface (docs/api.md §4): which of its routes a request is for, by where it
 * arrived.
 * - The gateway's own host: /auth/* (auth.routes.ts), /_invite/<code> for apps without an origin
 *   (invite.pages.ts) and the embedded identity provider's mount (/idp).
 * - A hosted app origin (Host = a registered AppOrigin): /_osg/auth/* and /_invite/<code>; its
 *   /_osg/v1/* and /_osg/graphql are the API's (bound to the host's app by the context's audience).
 * Everything else is left to the API (`handle` answers null).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { restError } from '../http/error-responses.js';
import type { IdentityProvider } from '../identity-provider/provider.js';
import { json, writeNodeResponse } from '../http/responses.js';
import type { Services } from '../services.js';
import { createAuthRoutes } from './auth.routes.js';
import { INVITE_PATH, createInvitePages } from './invite.pages.js';
import { GATEWAY_HOST, HOSTED_PREFIX, type Mount, type RequestContext, apiPathOf, hostedMount } from '../http/request-context.js';

export interface GatewayDeps {
  services: Services;
  config: Config;
  idp: IdentityProvider | null;
}

/** Methods whose request carries no body: nothing to read before bridging to the provider. */
const BODYLESS = new Set(['GET', 'HEAD']);

export function createGateway({ services, config, idp }: GatewayDeps) {
  const invitePages = createInvitePages({ services, config });
  const authRoutes = createAuthRoutes({ services, config, callback: invitePages.callback });

  /**
   * The embedded provider is a node:http (Koa) app: bridged in without a socket, its body already
   * read through the pipeline's limited reader. Its failures are answered like the gateway's.
   */
  async function identityProvider(provider: IdentityProvider, context: RequestContext): Promise<Response> {
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

  /** A hosted app origin's gateway request (`handle` has left its API paths to the API). */
  async function routeHosted(context: RequestContext, mount: Mount): Promise<Response> {
    const path = context.url.pathname;
    const answered = path.startsWith(`${HOSTED_PREFIX}/auth/`)
      ? await authRoutes.handle(context, mount, path.slice(`${HOSTED_PREFIX}/auth`.length))
      : await invitePages.route(context, mount);
    return (
      answered ??
      json(404, {
        error: 'not_found',
        message: `No gateway route ${context.method} ${path} on this app origin (gateway routes live under ${HOSTED_PREFIX}).`,
      })
    );
  }

  /** A gateway-host request under /auth, /_invite or the provider's mount (`handle` has chosen it). */
  async function routeGatewayHost(context: RequestContext, mount: Mount): Promise<Response> {
    const path = context.url.pathname;
    if (idp?.owns(path)) return identityProvider(idp, context);
    const answered = path.startsWith('/auth/')
      ? await authRoutes.handle(context, mount, path.slice('/auth'.length))
      : await invitePages.route(context, mount);
    return answered ?? json(404, { error: 'not_found', message: `No route ${context.method} ${path}.` });
  }

  /**
   * The gateway's answer to a request, or null to leave it to the API (`apiPathOf(context)`). Errors
   * are answered here, as REST errors.
   */
  function handle(context: RequestContext): Promise<Response> | null {
    const path = context.url.pathname;
    // The one place that tells the gateway's requests from the API's, by path alone, so the
    // common (API) request pays no await here.
    const forGateway = context.mount.host
      ? path.startsWith(`${HOSTED_PREFIX}/auth/`) || (apiPathOf(context) === path && path !== '/healthz')
      : path.startsWith('/auth/') || path.startsWith(INVITE_PATH) || idp?.owns(path);
    if (!forGateway) return null;
    const routed = context.mount.host ? routeHosted(context, context.mount) : routeGatewayHost(context, context.mount);
    return routed.catch(error => restError(error));
  }

  /**
   * Where a request arrived, by its Host: the gateway's own names (services.gatewayHosts, even if
   * an app registered one before they were reserved), else a registered app origin, else the gateway.
   */
  function mountOf(host: string | undefined): Mount | Promise<Mount> {
    const name = (host ?? '').toLowerCase();
    if (!name || services.gatewayHosts.has(name)) return GATEWAY_HOST;
    return services.apps.appOfHost(name).then(app => (app ? hostedMount(app) : GATEWAY_HOST));
  }

  return { handle, mountOf };
}

export type Gateway = ReturnType<typeof createGateway>;
