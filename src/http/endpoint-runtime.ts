/**
 * What a handler reaches beyond its request: the services and configuration, and the per-process
 * state of the features whose handlers keep some (compiled operations, the gateway's sign-in and
 * invite flows, the embedded provider, the dev bootstrap's secret, the SDK script). server.ts
 * builds it once; handlers are declared statically (so the OpenAPI document needs no server).
 */
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import type { AuthHandlers } from '../gateway-auth/auth.routes.js';
import type { InvitePages } from '../gateway-auth/invite.pages.js';
import type { DevBootstrap } from '../apps/dev-bootstrap.routes.js';
import type { RequestContext } from './request-context.js';
import type { SdkScript } from './sdk-script.js';
import type { StoredOperations } from './stored-operations.js';
import type { MetricsHttp } from '../ops/metrics.routes.js';

export interface EndpointRuntime {
  services: Services;
  config: Config;
  storedOperations: StoredOperations;
  authHandlers: AuthHandlers;
  invitePages: InvitePages;
  devBootstrap: DevBootstrap;
  sdkScript: SdkScript;
  /** The embedded identity provider, bridged (null with an external issuer). */
  identityProvider: ((context: RequestContext) => Promise<Response>) | null;
  /** GraphQL over HTTP (Yoga), with the body the pipeline's one reader read. */
  graphql(context: RequestContext): Promise<Response>;
  /** /healthz's answer now. */
  health(): Response;
  /** GET /metrics's guard and answer (src/ops/metrics.routes.ts). */
  metrics?: MetricsHttp;
  /** The OpenAPI document, built from the registry (src/http/openapi.ts). */
  openApiDocument(): unknown;
}
