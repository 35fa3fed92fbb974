/**
 * Every HTTP endpoint of the server, collected from the features that declare them (each keeps its
 * own in its `*.routes.ts`). The one matcher (route-registry.ts), the OpenAPI document
 * (openapi.ts) and the docs check (test/docs) all read this list.
 */
import { devBootstrapEndpoints } from '../apps/dev-bootstrap.routes.js';
import { fileRouteEndpoints } from '../files/files.routes.js';
import { authEndpoints } from '../gateway-auth/auth.routes.js';
import { inviteEndpoints } from '../gateway-auth/invite.routes.js';
import type { Endpoint } from './endpoint.js';
import { restEndpoints } from './rest-routes.js';
import { serviceEndpoints } from './service.routes.js';
import { isStoredOperation, type StoredOperationEndpoint } from './stored-operations.js';

export const endpoints: readonly Endpoint[] = [
  ...restEndpoints,
  ...fileRouteEndpoints,
  ...authEndpoints,
  ...inviteEndpoints,
  ...serviceEndpoints,
  ...devBootstrapEndpoints,
];

/** The endpoints that run a stored GraphQL operation (the REST shims over the schema). */
export const storedOperationEndpoints: readonly StoredOperationEndpoint[] = endpoints.filter(isStoredOperation);
