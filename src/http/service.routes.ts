/**
 * The server's own routes: readiness, the landing page, the OpenAPI document, the embedded
 * provider's discovery pointer (the provider routes below its mount itself), the client SDK as a
 * module script, and GraphQL over HTTP (Yoga; documented by its schema, not here).
 */
import { type Endpoint, type JsonSchema, defineEndpoint } from './endpoint.js';
import { landingPage } from './landing-page.js';
import { json } from './responses.js';
import { noRoute } from './route-registry.js';
import { SDK_SCRIPT_PATH } from './sdk-script.js';

export const serviceEndpoints: Endpoint[] = [
  defineEndpoint({
    // Any method: a load balancer's probe is answered whatever it sends.
    method: 'ANY',
    path: '/healthz',
    hosted: 'same-path',
    credential: 'none',
    responses: {
      200: { description: 'Serving: status ok, or degraded (the live-feed bus cannot reach Redis) with its reason', json: healthSchema(true) },
      503: { description: 'Not started yet (or stopping)', json: healthSchema(false) },
    },
    errors: [],
    docs: {
      operationId: 'healthz',
      methods: ['GET'],
      summary: 'Readiness',
      description: 'No credential. Also answered on hosted app origins.',
      tag: 'service',
      security: [],
    },
    handle: async ({ runtime }) => runtime.health(),
  }),
  defineEndpoint({
    method: ['GET', 'HEAD'],
    path: '/',
    hosted: 'no',
    credential: 'none',
    responses: {
      200: {
        description: 'The page (text/html), or its links (application/json)',
        json: {
          type: 'object',
          required: ['name', 'version', 'rest', 'openapi', 'graphql', 'graphiql', 'healthz', 'next'],
          properties: {
            name: { const: 'gatehouse' },
            version: { type: 'string' },
            rest: { type: 'string' },
            openapi: { type: 'string' },
            graphql: { type: 'string' },
            graphiql: { type: 'boolean' },
            healthz: { type: 'string' },
            next: { type: 'string', description: 'The next command to run' },
          },
          additionalProperties: false,
        },
      },
    },
    errors: [],
    docs: {
      operationId: 'landingPage',
      summary: 'What this server offers',
      description:
        'No credential. A small HTML page linking GraphQL (GraphiQL outside production), this document and /healthz, with the next command (`gatehouse dev-token create`); with `Accept: application/json`, the same as JSON. On the gateway host only.',
      tag: 'service',
      security: [],
    },
    handle: async ({ context, runtime }) => landingPage(context.headers, { graphiql: runtime.config.nodeEnv !== 'production' }),
  }),
  defineEndpoint({
    method: ['GET', 'HEAD'],
    path: '/openapi.json',
    hosted: 'no',
    credential: 'none',
    responses: { 200: { description: 'OpenAPI 3.1', json: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
    errors: [],
    docs: {
      operationId: 'openapi',
      summary: 'This document',
      description: 'Every route of the route registry (src/http/routes.ts), each declared once with its documentation. No credential.',
      tag: 'service',
      security: [],
    },
    handle: async ({ runtime }) => json(200, runtime.openApiDocument()),
  }),
  defineEndpoint({
    method: 'GET',
    path: '/idp/.well-known/openid-configuration',
    hosted: 'no',
    credential: 'none',
    responses: {
      200: {
        description: 'OpenID Connect Discovery 1.0',
        json: {
          type: 'object',
          required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'],
          properties: {
            issuer: { type: 'string', format: 'uri' },
            authorization_endpoint: { type: 'string', format: 'uri' },
            token_endpoint: { type: 'string', format: 'uri' },
            jwks_uri: { type: 'string', format: 'uri' },
          },
        },
      },
    },
    errors: ['not_found'],
    docs: {
      operationId: 'idpDiscovery',
      summary: "The embedded identity provider's OIDC discovery document",
      description:
        'The embedded OpenID provider (run when `OIDC_ISSUER` is unset; issuer `<PUBLIC_URL>/idp`) is standard OpenID Connect: this document lists its endpoints (authorization, token, userinfo, revocation, introspection, JWKS) and they are not repeated here. With an external provider (`OIDC_ISSUER`) there is no `/idp` (404 not_found): read `<OIDC_ISSUER>/.well-known/openid-configuration`.',
      tag: 'identity provider',
      security: [],
    },
    handle: ({ context, runtime }) => (runtime.identityProvider ? runtime.identityProvider(context) : Promise.resolve(noRoute(context))),
  }),
  // The SDK script, unversioned (a redirect to the version served) and versioned (src/http/sdk-script.ts);
  // /_osg/sdk/... on hosted origins.
  ...[SDK_SCRIPT_PATH, '/sdk/client@:version.js'].map(path =>
    defineEndpoint({
      method: ['GET', 'HEAD'],
      path,
      hosted: 'prefixed',
      credential: 'none',
      errors: ['sdk_version_unavailable'],
      docs: null,
      handle: async ({ context, runtime }) => runtime.sdkScript.handle(context),
    }),
  ),
  // The gateway's /graphql, and /_osg/graphql on hosted app origins; Yoga answers every method
  // (GET queries, POST, GraphiQL) and its own errors.
  defineEndpoint({
    method: 'ANY',
    path: '/graphql',
    hosted: 'prefixed',
    credential: 'none',
    bodyReading: 'handler',
    errors: [],
    docs: null,
    handle: ({ context, runtime }) => runtime.graphql(context),
  }),
];

function healthSchema(started: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['ok', 'status', 'database', 'bus'],
    properties: {
      ok: started ? { type: 'boolean', description: 'Everything is well (status ok)' } : { const: false },
      status: started ? { enum: ['ok', 'degraded'] } : { const: 'unavailable' },
      database: { type: 'string', enum: ['pglite', 'postgres'] },
      bus: {
        type: 'object',
        description: 'The live-feed event bus: in process (memory), or Redis; not ok while Redis is unreachable (feeds do not cross instances)',
        required: ['kind', 'ok'],
        properties: { kind: { enum: ['memory', 'redis'] }, ok: { type: 'boolean' }, reason: { type: 'string' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}
