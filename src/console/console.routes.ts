/**
 * The web console (README "Console"): its page, its two assets and its sign-in, on the gateway's
 * own host only. Its data comes from /graphql with the dashboard session cookie; these routes
 * serve only the page and start and finish the sign-in (docs/api.md §4.2).
 */
import { type Endpoint, defineEndpoint } from '../http/endpoint.js';
import { CONSOLE_ASSETS, type ConsoleAsset, assetResponse, consolePage } from './console-assets.http.js';
import { finishConsoleSignIn, startConsoleSignIn } from './console-signin.http.js';
import { CONSOLE_CALLBACK_PATH } from './console-client.service.js';

export const consoleEndpoints: Endpoint[] = [
  defineEndpoint({
    method: ['GET', 'HEAD'],
    path: '/console',
    credential: 'none',
    responses: { 200: { description: 'The console page', html: true } },
    errors: ['console_not_built'],
    docs: null,
    handle: async () => consolePage(),
  }),
  ...(Object.keys(CONSOLE_ASSETS) as ConsoleAsset[]).map(name =>
    defineEndpoint({
      method: ['GET', 'HEAD'],
      path: `/console/assets/${name}`,
      credential: 'none',
      errors: ['console_not_built'],
      docs: null,
      handle: async ({ context }) => assetResponse(name, context.headers, context.method),
    }),
  ),
  defineEndpoint({
    method: 'GET',
    path: '/console/signin',
    credential: 'none',
    errors: ['provider_unavailable', 'issuer_not_configured'],
    docs: null,
    handle: async ({ runtime }) => startConsoleSignIn(runtime.services, runtime.config),
  }),
  defineEndpoint({
    method: 'GET',
    path: CONSOLE_CALLBACK_PATH,
    credential: 'none',
    errors: ['invalid_grant', 'invalid_request', 'provider_unavailable', 'provider_error', 'issuer_not_configured'],
    docs: null,
    handle: async ({ context, runtime }) => finishConsoleSignIn(runtime.services, runtime.config, context),
  }),
];
