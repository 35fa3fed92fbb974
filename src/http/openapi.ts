/**
 * The REST contract as OpenAPI 3.1, derived from the route registry (src/http/routes.ts): each
 * documented endpoint's path, parameters, request body, answers, security and error codes. The
 * error codes of a route are what its pipeline can answer (credential, CSRF, input:
 * `pipelineErrors`) and what its handler declares, each under its status (docs/api.md §8). Served
 * at GET /openapi.json; built once per process, since the registry never changes after start.
 */
import { z } from 'zod';
import { ERROR_CATALOG } from '../core/error-catalog.js';
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

/** Every code's one status, from the catalog (src/core/error-catalog.ts; docs/api.md §8.2 is generated from it). */
export const ERROR_STATUS: Record<string, number> = Object.fromEntries(Object.entries(ERROR_CATALOG).map(([code, { status }]) => [code, status]));

/** Every code one method of an endpoint documents as the §8.1 JSON body: its pipeline's and its handler's. */
export function documentedErrors(endpoint: Endpoint, method: string): string[] {
  return [...new Set([...pipelineErrors(endpoint, method), ...endpoint.errors])];
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
  if (variant === 'hosted-only' || variant === 'site')
    return [{ url: '{appOrigin}', description: 'A hosted app origin only', variables: { appOrigin } }];
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
