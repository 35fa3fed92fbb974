/**
 * The REST contract as OpenAPI 3.1, generated from the route table (src/http/rest-routes.ts): each row's
 * body/query zod schemas are the request, its `response` schema the 200 body, its `errors` plus the
 * codes every route of its kind can answer the error responses (docs/api.md §8). The gateway's own
 * routes (/auth/*, /_invite, /healthz, this document, the provider's discovery pointer) come from
 * the auth layer's table (src/gateway-auth/auth.openapi.ts). Served at GET /openapi.json; built once per
 * process, since the tables never change after start.
 */
import { z } from 'zod';
import { ERROR_CATALOG } from '../core/error-catalog.js';
import { commonGatewayErrors, type GatewayRouteDoc, gatewayRouteDocs, type HostedVariant, type Shape } from '../gateway-auth/auth.openapi.js';
import { CSRF_HEADER } from './csrf.js';
import { HOSTED_PREFIX, REFRESH_COOKIE, SESSION_COOKIE } from './request-context.js';
import { type FileOperationDoc, fileRoutePaths } from '../files/files.openapi.js';
import { type Route, routes as routeTable } from './rest-routes.js';

/** Every code's one status, from the catalog (src/core/error-catalog.ts; docs/api.md §8.2 is generated from it). */
export const ERROR_STATUS: Record<string, number> = Object.fromEntries(Object.entries(ERROR_CATALOG).map(([code, { status }]) => [code, status]));

type RouteKind = 'app' | 'dashboard' | 'developer';
const kindOf = (route: Pick<Route, 'path' | 'credential'>): RouteKind =>
  route.credential === 'dashboard' ? 'dashboard' : route.path.startsWith('/dev/') ? 'developer' : 'app';
const changesState = (route: Pick<Route, 'method'>) => route.method !== 'GET';

/** Codes any route of a kind can answer: input, credentials, load, the unexpected (docs/api.md §1.1, §8.2). */
export function commonErrors(route: Pick<Route, 'method' | 'path' | 'credential'>): string[] {
  // headers_too_large: node's parser refuses a request line and headers past 16 KiB, whatever the route.
  const codes = ['invalid_argument', 'headers_too_large', 'internal', 'busy'];
  if (changesState(route)) codes.push('invalid_json', 'body_too_large');
  const kind = kindOf(route);
  // A session cookie sent along is resolved too: one that does not work is refused as anywhere else.
  if (kind === 'developer') codes.push('unauthenticated', 'invalid_token', 'wrong_credential', 'session_expired', 'provider_unavailable');
  if (kind === 'dashboard') codes.push('unauthenticated', 'session_expired', 'dashboard_session_required', 'introspection_unavailable');
  if (kind === 'app') {
    codes.push(
      'unauthenticated',
      'invalid_token',
      'token_expired',
      'session_expired',
      'deployment_gone',
      'app_unknown',
      'wrong_credential',
      'audience_mismatch',
      'env_not_deployed',
      'provider_unavailable',
    );
  }
  if (changesState(route) && kind !== 'developer') codes.push('csrf_required');
  return codes;
}

/** Every code one route documents, by HTTP status. */
export function errorsByStatus(route: Route): Map<number, string[]> {
  return codesByStatus([...commonErrors(route), ...route.errors], `REST route ${route.method} ${route.path}`);
}

/** `codes` grouped under their statuses (docs/api.md §8.2), statuses ascending. */
function codesByStatus(codes: Iterable<string>, where: string): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    if (status === undefined) throw new Error(`${where}: error code ${code} is not in the error catalog.`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12; a JSON Schema (the gateway table's inline shapes) as is. */
function jsonSchema(schema: Shape, io: 'input' | 'output'): JsonSchema {
  if (!(schema instanceof z.ZodType)) return schema;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map(m => m[1]);
/** The stored operation's name (`mutation CreateResource(…)`): unique, so a stable operationId. */
const operationName = (route: Route) => /\b(?:query|mutation)\s+(\w+)/.exec(route.operation)?.[1] ?? `${route.method} ${route.path}`;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  402: 'Payment required',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Body too large',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  431: 'Request line and headers too large',
  500: 'Internal error',
  502: 'Identity provider failure',
  503: 'Busy: retry after Retry-After seconds',
};

function security(route: Route) {
  const kind = kindOf(route);
  if (kind === 'developer') return [{ developerToken: [] }];
  const cookie = changesState(route) ? { sessionCookie: [], csrfHeader: [] } : { sessionCookie: [] };
  return kind === 'dashboard' ? [cookie] : [{ bearerToken: [] }, cookie];
}

/** A body whose fields are all optional may be left out (an empty body is `{}`). */
const requestBody = (schema: JsonSchema) => ({
  required: Array.isArray(schema.required) && schema.required.length > 0,
  content: { 'application/json': { schema } },
});

/** The §8.1 error body, narrowed to `codes`. */
const errorContent = (codes: string[]) => ({
  'application/json': {
    schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { enum: codes } } }] },
  },
});

/**
 * Where a route is also served (docs/api.md §4.3): under `/_osg` on a hosted app origin, or at the
 * same path there. Listed once per path as path-level `servers`, rather than as duplicate paths.
 */
function hostedServers(variant: HostedVariant) {
  if (variant === 'no') return undefined;
  const appOrigin = { default: 'https://app.example', description: "A registered app origin (the app's own host)" };
  return [
    { url: '/', description: "The gateway's own host" },
    variant === 'prefixed'
      ? {
          url: `{appOrigin}${HOSTED_PREFIX}`,
          description: "A hosted app origin: the same route under /_osg, for that app only (another app's session or token: 403 audience_mismatch)",
          variables: { appOrigin },
        }
      : { url: '{appOrigin}', description: 'A hosted app origin: the same path', variables: { appOrigin } },
  ];
}

function operation(route: Route) {
  const parameters: unknown[] = pathParams(route.path).map(name => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  if (route.query) {
    const query = jsonSchema(route.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  const responses: Record<string, unknown> = {
    200: { description: 'Success', content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } },
  };
  Object.assign(responses, errorResponses(errorsByStatus(route)));
  const kind = kindOf(route);
  return {
    operationId: operationName(route),
    summary: `${route.method} ${route.path}`,
    description: `Runs the GraphQL operation \`${operationName(route)}\` (docs/api.md §7.2).`,
    tags: [kind === 'developer' ? 'developer' : kind === 'dashboard' ? 'dashboard' : route.path.startsWith('/v1/db/') ? 'rows' : 'resources'],
    ...(parameters.length ? { parameters } : {}),
    // Routes without a body accept only an empty one (docs/api.md §1.2).
    ...(route.body ? { requestBody: requestBody(jsonSchema(route.body, 'input')) } : {}),
    responses,
    security: security(route),
  };
}

/** The error responses of an operation: each status with its codes as the §8.1 body. */
function errorResponses(byStatus: Map<number, string[]>): Record<number, unknown> {
  const responses: Record<number, unknown> = {};
  for (const [status, codes] of byStatus) {
    responses[status] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}`,
      ...(status === 503 ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
      content: errorContent(codes),
    };
  }
  return responses;
}

/**
 * Every code a streaming file route documents: what any app route can answer (its body is bytes,
 * so no invalid_json or body_too_large: the bucket's file_too_large), CSRF on state changes, and its own.
 */
export function fileErrorsByStatus(method: string, path: string, doc: FileOperationDoc): Map<number, string[]> {
  const codes = [...commonErrors({ method: 'GET', path }), ...(method === 'GET' ? [] : ['csrf_required']), ...doc.errors];
  return codesByStatus(codes, `file route ${method} ${path}`);
}

/** Every code a gateway route documents: as a JSON error body (`json`) and as an HTML page (`page`), by status. */
export function gatewayErrorsByStatus(route: GatewayRouteDoc) {
  const where = `gateway route ${route.method} ${route.path}`;
  return {
    json: codesByStatus([...commonGatewayErrors(route), ...route.errors], where),
    page: codesByStatus(route.pageErrors ?? [], where),
  };
}

/** One gateway route (src/gateway-auth/auth.openapi.ts): its own answers, merged per status with its error codes. */
function gatewayOperation(route: GatewayRouteDoc) {
  const { json, page } = gatewayErrorsByStatus(route);
  const statuses = [...new Set([...Object.keys(route.responses).map(Number), ...json.keys(), ...page.keys()])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    const own = route.responses[status];
    const codes = json.get(status);
    const pages = page.get(status);
    const description = [
      own?.description,
      codes && `${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}`,
      pages && `A page (HTML) saying why: ${pages.join(', ')}`,
    ].filter(Boolean);
    const headers: Record<string, unknown> = {};
    for (const [name, what] of Object.entries(own?.headers ?? {})) headers[name] = { description: what, schema: { type: 'string' } };
    if (codes?.includes('busy')) headers['Retry-After'] = { schema: { type: 'integer' } };
    const content: Record<string, unknown> = {};
    const body = own?.json && jsonSchema(own.json, 'output');
    if (body && codes) content['application/json'] = { schema: { oneOf: [body, errorContent(codes)['application/json'].schema] } };
    else if (body) content['application/json'] = { schema: body };
    else if (codes) Object.assign(content, errorContent(codes));
    if (own?.html || pages) content['text/html'] = { schema: { type: 'string' } };
    responses[status] = {
      description: description.join('. '),
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    ...(route.parameters?.length ? { parameters: route.parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            content: { [route.body.mediaType]: { schema: jsonSchema(route.body.schema, 'input') } },
          },
        }
      : {}),
    responses,
    security: route.security,
  };
}

export function buildOpenApiDocument(routes: Route[] = routeTable, gatewayRoutes: readonly GatewayRouteDoc[] = gatewayRouteDocs) {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, op: unknown, hosted: HostedVariant) => {
    const servers = hostedServers(hosted);
    paths[path] ??= servers ? { servers } : {};
    paths[path][method.toLowerCase()] = op;
  };
  // App routes are served under /_osg/v1 on hosted origins; developer and dashboard routes are not.
  for (const route of routes) add(openApiPath(route.path), route.method, operation(route), kindOf(route) === 'app' ? 'prefixed' : 'no');
  for (const route of gatewayRoutes) add(route.path, route.method, gatewayOperation(route), route.hosted);
  for (const [path, methods] of Object.entries(fileRoutePaths())) {
    for (const [method, { errors: _errors, ...op }] of Object.entries(methods)) {
      const responses = { ...op.responses, ...errorResponses(fileErrorsByStatus(method.toUpperCase(), path, methods[method])) };
      add(path, method, { ...op, responses }, 'prefixed');
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse REST API',
      version: '1',
      description:
        "The REST shims over the GraphQL schema (docs/api.md §2–§4, §11) and the gateway's own routes: sign-in (`/auth/*`), invite pages (`/_invite/{code}`), `/healthz`, this document, and a pointer to the embedded identity provider's OIDC discovery document (§4). On a hosted app origin the `/v1` and `/auth` routes also live under `/_osg` (each such path lists that origin in its `servers`). Errors are `{ error, message }` (docs/api.md §8.1).",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string', description: 'A stable code (docs/api.md §8.2)' },
            message: { type: 'string', description: 'What to do about it' },
            requestId: { type: 'string', description: 'On 500 internal: the id the server logged' },
          },
          additionalProperties: true,
        },
      },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A test-session (gst_…), agent (gha_…) or provider access token (docs/api.md §1.1)',
        },
        developerToken: { type: 'http', scheme: 'bearer', description: 'A developer token (ghd_…), for /dev/* only' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by POST /auth/token (docs/api.md §4.5)' },
        refreshCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: REFRESH_COOKIE,
          description: 'Set by POST /auth/token on Path=/auth (/_osg/auth on a hosted origin); sent only to the /auth routes',
        },
        csrfHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Csrf',
          description: `Send \`${CSRF_HEADER}: 1\` with the session cookie on every state change (403 csrf_required otherwise)`,
        },
      },
    },
    tags: [
      { name: 'resources', description: 'Resources, membership, rooms, agents and blocks (docs/api.md §2, §5, §10)' },
      { name: 'rows', description: 'The row store (docs/api.md §11)' },
      { name: 'files', description: 'Files in buckets, streamed (docs/api.md §13)' },
      { name: 'dashboard', description: 'Dashboard session cookie only (docs/api.md §4.2)' },
      { name: 'developer', description: 'Developer token only (docs/api.md §3)' },
      { name: 'auth', description: 'Sign-in, session cookies and consent (docs/api.md §4.1, §4.5–§4.7)' },
      { name: 'invites', description: 'Invite-link pages (docs/api.md §4.3)' },
      { name: 'service', description: 'Readiness and this document (docs/api.md §4.4)' },
      { name: 'identity provider', description: 'The embedded OpenID provider: a pointer to its discovery document (docs/api.md §4.4)' },
    ],
  };
}

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;
/** The document as served (GET /openapi.json): generated on first use, then reused. */
export function openApiDocument() {
  cached ??= buildOpenApiDocument();
  return cached;
}
