/**
 * The REST contract as OpenAPI 3.1, derived from the route registry (src/http/routes.ts): each
 * documented endpoint's path, parameters, request body, answers, security and error codes. The
 * error codes of a route are what its pipeline can answer (credential, CSRF, input:
 * `pipelineErrors`) and what its handler declares, each under its status (docs/api.md §8). Served
 * at GET /openapi.json; built once per process, since the registry never changes after start.
 */
import { z } from 'zod';
import { CSRF_HEADER } from './csrf.js';
import {
  type Endpoint,
  type EndpointDocs,
  type HostedVariant,
  type JsonSchema,
  type Method,
  type Shape,
  documentedMethods,
  pipelineErrors,
  securityOf,
} from './endpoint.js';
import { HOSTED_PREFIX, REFRESH_COOKIE, SESSION_COOKIE } from './request-context.js';
import { endpoints as registry } from './routes.js';

/** docs/api.md §8.2: the status of every code a route can document. test/api/openapi.test.ts checks it against the doc. */
export const ERROR_STATUS: Record<string, number> = {
  invalid_argument: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  unknown_table: 400,
  table_not_in_scope: 400,
  invalid_operation: 400,
  unknown_column: 400,
  invalid_value: 400,
  missing_value: 400,
  column_not_writable: 400,
  virtual_room_id: 400,
  row_too_large: 400,
  invalid_filter: 400,
  invalid_order: 400,
  confirmation_required: 400,
  invalid_schema: 400,
  prod_not_allowed: 400,
  invalid_redirect_uri: 400,
  origin_reserved: 400,
  invalid_room: 400,
  default_room_immutable: 400,
  invalid_grant: 400,
  invalid_request: 400,
  unauthenticated: 401,
  account_deleted: 401,
  invalid_token: 401,
  token_expired: 401,
  session_expired: 401,
  deployment_gone: 401,
  app_unknown: 401,
  invalid_refresh_token: 401,
  wrong_credential: 403,
  reserved_type: 403,
  visibility_not_allowed: 403,
  members_only: 403,
  not_admin: 403,
  outranked: 403,
  grant_ceiling: 403,
  access_denied: 403,
  room_forbidden: 403,
  blocked: 403,
  agent_cannot_accept: 403,
  not_invitee: 403,
  owner_cannot_leave: 403,
  use_leave: 403,
  invite_link_inactive: 403,
  agents_cannot_block: 403,
  agents_cannot_create_agents: 403,
  agents_cannot_delete_accounts: 403,
  agents_cannot_edit_profiles: 403,
  csrf_required: 403,
  audience_mismatch: 403,
  dashboard_session_required: 403,
  owner_only: 403,
  reserved_resource: 403,
  subject_reserved: 403,
  row_not_found: 404,
  resource_not_found: 404,
  unknown_type: 404,
  static_not_found: 404,
  user_not_found: 404,
  app_not_found: 404,
  invite_link_not_found: 404,
  no_pending_invite: 404,
  no_pending_membership: 404,
  not_member: 404,
  room_not_found: 404,
  not_found: 404,
  consent_request_not_found: 404,
  flow_not_found: 404,
  already_member: 409,
  already_invited: 409,
  pending_request: 409,
  pending_limit: 409,
  invite_link_limit: 409,
  room_not_empty: 409,
  file_exists: 409,
  precondition_failed: 412,
  file_too_large: 413,
  range_not_satisfiable: 416,
  payment_required: 402,
  file_not_found: 404,
  unknown_bucket: 404,
  blob_missing: 404,
  developer_not_found: 404,
  invalid_path: 400,
  too_many_rows: 400,
  bucket_not_in_scope: 400,
  file_is_mounted: 409,
  room_limit: 409,
  unique_violation: 409,
  env_not_deployed: 409,
  schema_drops_data: 409,
  origin_taken: 409,
  conflict: 409,
  invite_link_used: 410,
  invite_link_expired: 410,
  consent_request_handled: 410,
  too_many_resources: 429,
  too_many_agents: 429,
  too_many_lookups: 429,
  handle_taken: 409,
  body_too_large: 413,
  headers_too_large: 431,
  unsupported_media_type: 415,
  internal: 500,
  introspection_unavailable: 500,
  provider_unavailable: 502,
  provider_error: 502,
  provider_admin_refused: 502,
  consent_request_invalid: 502,
  busy: 503,
  issuer_not_configured: 503,
  consent_unavailable: 503,
  identity_flows_unavailable: 503,
};

/**
 * `not_resource_member` is 403 on membership routes and 409 on a room grant to a non-member
 * (docs/api.md §8.2, §10.3): one code, two statuses, documented under both.
 */
const DUAL_STATUS: Record<string, number[]> = { not_resource_member: [403, 409] };

/** Every code one method of an endpoint documents as the §8.1 JSON body: its pipeline's and its handler's. */
export function documentedErrors(endpoint: Endpoint, method: string): string[] {
  return [...new Set([...pipelineErrors(endpoint, method), ...endpoint.errors])];
}

/** `codes` grouped under their statuses (docs/api.md §8.2), statuses ascending. */
function codesByStatus(codes: Iterable<string>, where: string): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const statuses = DUAL_STATUS[code] ?? [ERROR_STATUS[code]];
    if (statuses[0] === undefined) throw new Error(`${where}: error code ${code} has no status in ERROR_STATUS.`);
    for (const status of statuses) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** A zod schema as JSON Schema 2020-12; a JSON Schema (inline shapes) as is. */
function jsonSchema(schema: Shape, io: 'input' | 'output'): JsonSchema {
  if (!(schema instanceof z.ZodType)) return schema;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The OpenAPI path of a route pattern: `:name` and `**:name` are `{name}`. */
export const openApiPath = (path: string) => path.replace(/(?:\*\*)?:(\w+)/g, '{$1}');
const pathParams = (path: string) => [...path.matchAll(/(?:\*\*)?:(\w+)/g)].map(m => m[1]);

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

/** The §8.1 error body, narrowed to `codes`. */
const errorSchema = (codes: string[]) => ({
  allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { enum: codes } } }],
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

/** Path parameters (the declared ones where documented, else a string), the query schema's, then the other declared ones. */
function parametersOf(endpoint: Endpoint, docs: EndpointDocs): unknown[] {
  const declared = docs.parameters ?? [];
  const parameters: unknown[] = pathParams(endpoint.path).map(
    name => declared.find(p => p.in === 'path' && p.name === name) ?? { name, in: 'path', required: true, schema: { type: 'string' } },
  );
  if (endpoint.query) {
    const query = jsonSchema(endpoint.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  return [...parameters, ...declared.filter(p => p.in !== 'path')];
}

/** One method of an endpoint: its own answers, merged per status with its error codes. */
function operation(endpoint: Endpoint, method: Method, docs: EndpointDocs) {
  const where = `route ${method} ${endpoint.path}`;
  const json = codesByStatus(documentedErrors(endpoint, method), where);
  const page = codesByStatus(endpoint.pageErrors ?? [], where);
  const statuses = [...new Set([...Object.keys(endpoint.responses).map(Number), ...json.keys(), ...page.keys()])].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    const own = endpoint.responses[status];
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
    if (body && codes) content['application/json'] = { schema: { oneOf: [body, errorSchema(codes)] } };
    else if (body) content['application/json'] = { schema: body };
    else if (codes) content['application/json'] = { schema: errorSchema(codes) };
    if (own?.html || pages) content['text/html'] = { schema: { type: 'string' } };
    for (const [media, schema] of Object.entries(own?.content ?? {})) content[media] = { schema };
    responses[status] = {
      description: description.join('. '),
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  const parameters = parametersOf(endpoint, docs);
  let requestBody: unknown;
  if (endpoint.body && method !== 'GET') {
    const schema = jsonSchema(endpoint.body, 'input');
    const required = docs.bodyRequired ?? (Array.isArray(schema.required) && schema.required.length > 0);
    requestBody = { required, content: { [docs.bodyMediaType ?? 'application/json']: { schema } } };
  }
  return {
    operationId: docs.operationId,
    summary: docs.summary,
    ...(docs.description ? { description: docs.description } : {}),
    tags: [docs.tag],
    ...(parameters.length ? { parameters } : {}),
    // Routes without a body accept only an empty one (docs/api.md §1.2).
    ...(requestBody ? { requestBody } : {}),
    responses,
    security: securityOf(endpoint, method),
  };
}

export function buildOpenApiDocument(endpoints: readonly Endpoint[] = registry) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const { docs } = endpoint;
    if (!docs) continue;
    const path = docs.path ?? openApiPath(endpoint.path);
    const servers = hostedServers(endpoint.hosted);
    paths[path] ??= servers ? { servers } : {};
    for (const method of documentedMethods(endpoint)) paths[path][method.toLowerCase()] = operation(endpoint, method, docs);
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
