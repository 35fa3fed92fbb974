/**
 * Every HTTP endpoint of the server, collected from the features that declare them (each keeps its
 * own in its `*.routes.ts`). The one matcher (route-registry.ts), the OpenAPI document
 * (openapi.ts) and the docs check (test/docs) all read this list.
 */
import { appsEndpoints } from '../apps/apps.routes.js';
import { devBootstrapEndpoints } from '../apps/dev-bootstrap.routes.js';
import { billingEndpoints } from '../billing/billing.routes.js';
import { membershipEndpoints } from '../membership/membership.routes.js';
import { principalsEndpoints } from '../principals/principals.routes.js';
import { roomsEndpoints } from '../rooms/rooms.routes.js';
import { rowsEndpoints } from '../rows/rows.routes.js';
import { fileRouteEndpoints } from '../files/files.routes.js';
import { authEndpoints } from '../gateway-auth/auth.routes.js';
import { inviteEndpoints } from '../gateway-auth/invite.routes.js';
import { consoleEndpoints } from '../console/console.routes.js';
import { metricsEndpoints } from '../ops/metrics.routes.js';
import { hostingEndpoints } from '../hosting/hosting.routes.js';
import type { Endpoint } from './endpoint.js';
import { serviceEndpoints } from './service.routes.js';
import { isStoredOperation, type StoredOperationEndpoint } from './stored-operations.js';

export const endpoints: readonly Endpoint[] = [
  ...membershipEndpoints,
  ...roomsEndpoints,
  ...principalsEndpoints,
  ...rowsEndpoints,
  ...appsEndpoints,
  ...billingEndpoints,
  ...fileRouteEndpoints,
  ...authEndpoints,
  ...inviteEndpoints,
  ...serviceEndpoints,
  ...devBootstrapEndpoints,
  ...consoleEndpoints,
  ...metricsEndpoints,
  ...hostingEndpoints,
];

/** The endpoints that run a stored GraphQL operation (the REST shims over the schema). */
export const storedOperationEndpoints: readonly StoredOperationEndpoint[] = endpoints.filter(isStoredOperation);
