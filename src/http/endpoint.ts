/**
 * One HTTP endpoint, declared once (in the style of better-auth's createAuthEndpoint): its method
 * and path, where it is served, the credential it resolves, its CSRF rule, its input, its answers,
 * the error codes its handler can throw, its documentation, and the handler. Each feature keeps its
 * declarations in its own `*.routes.ts`; src/http/routes.ts collects them; route-registry.ts
 * matches and runs them; openapi.ts documents them. What the pipeline does before the handler
 * (credential, CSRF, input) is decided here from the declaration, and so are the codes it can
 * answer: a route's documented errors are the pipeline's plus its handler's.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../core/error-catalog.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';
import type { RequestContext } from './request-context.js';
import type { EndpointRuntime } from './endpoint-runtime.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type JsonSchema = Record<string, unknown>;
/** A zod schema where the code has one (converted by the document builder), else JSON Schema. */
export type Shape = z.ZodType | JsonSchema;

/**
 * Which credential the pipeline resolves before the handler:
 * - `app`: an app's bearer token or session cookie (RequestContext.auth);
 * - `developer`: a developer token (resolved the same way; the resolvers check its kind);
 * - `dashboard`: the dashboard session cookie only, which the resolvers read themselves: no app
 *   credential is resolved, a bearer token counts as one for the CSRF rule;
 * - `none`: nothing (the gateway's own routes, which read their cookies themselves).
 */
export type CredentialKind = 'app' | 'developer' | 'dashboard' | 'none';

/**
 * - `by-method`: a state-changing method with a session cookie needs the CSRF header (REST);
 * - `header`: the CSRF header always (the gateway's state changes on a browser session);
 * - `none`: no rule in the pipeline (the handler applies its own, and declares csrf_required).
 */
export type CsrfRule = 'by-method' | 'header' | 'none';

/**
 * Where else a route is served beside the gateway's own host (docs/api.md §4.3): `prefixed` under
 * `/_osg` on a hosted app origin, `same-path` at the same path there, `no` only on the gateway's host,
 * `hosted-only` only on a hosted app origin, at its path (`/_osg/config.json`); `site`: on a hosted
 * app origin, the answer to a GET or HEAD no other route takes, outside `/_osg` and `/_invite` (the
 * published site: one such endpoint).
 */
export type HostedVariant = 'prefixed' | 'same-path' | 'no' | 'hosted-only' | 'site';

/**
 * How the request body reaches the handler: `json` through the one limited reader and the declared
 * zod schema (a route without one accepts only an empty body); `handler`: the handler reads it (its
 * declared `body` is documentation, its codes are the handler's); `stream`: raw bytes as they
 * arrive (file uploads, their bucket's limit); `none`: not read.
 */
export type BodyReading = 'json' | 'handler' | 'stream' | 'none';

export interface EndpointResponse {
  description: string;
  /** A JSON body. */
  json?: Shape;
  /** An HTML page. */
  html?: true;
  /** Another media type (raw bytes): media type -> schema. */
  content?: Record<string, JsonSchema>;
  /** Response headers, name -> what they carry. */
  headers?: Record<string, string>;
}

export interface EndpointParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export type Tag = 'resources' | 'rows' | 'files' | 'dashboard' | 'developer' | 'auth' | 'invites' | 'service' | 'identity provider';

export interface EndpointDocs {
  operationId: string;
  summary: string;
  description?: string;
  tag: Tag;
  /** The methods documented, when not every declared one (HEAD is always documented as GET). */
  methods?: readonly Method[];
  /** The OpenAPI path when it differs from the route's (a wildcard's name). */
  path?: string;
  /** Parameters beyond the path's and the query schema's (headers, cookies, an undeclared query). */
  parameters?: EndpointParameter[];
  /** OpenAPI security requirements, when the credential kind does not say them (`{}`: none needed). */
  security?: Record<string, string[]>[];
  /** The body's media type when not JSON, and whether it may be left out (default: a JSON body is required when it has a required field). */
  bodyMediaType?: 'application/json' | 'application/x-www-form-urlencoded' | '*/*';
  bodyRequired?: boolean;
}

export interface EndpointCall<B = Record<string, unknown>, Q = Record<string, unknown>> {
  context: RequestContext;
  /** Path parameters, percent-decoded (a wildcard's value raw: the handler decodes its segments). */
  params: Record<string, string>;
  /** The resolved credential (undefined for `credential: 'none'`). */
  auth: ResolvedAuth | undefined;
  body: B;
  query: Q;
  runtime: EndpointRuntime;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of endpoints holds each with its own input types
export interface Endpoint<B = any, Q = any> {
  /** One method, several, or `ANY` (a mount the handler routes itself). */
  method: Method | readonly Method[] | 'ANY';
  /** A rou3 pattern: `:name` one segment, `**:name` the rest of the path. */
  path: string;
  hosted: HostedVariant;
  credential: CredentialKind;
  csrf: CsrfRule;
  bodyReading: BodyReading;
  body?: Shape;
  query?: z.ZodType<Record<string, unknown>>;
  /** The code a path parameter that is not percent-encoded UTF-8 answers (400). */
  paramError?: 'invalid_argument' | 'invalid_path';
  /** Success, redirect and page answers by status (errors with a code are `errors`). */
  responses: Record<number, EndpointResponse>;
  /** The codes the handler itself can answer as the §8.1 JSON body (the pipeline's are added: `pipelineErrors`). */
  errors: readonly ErrorCode[];
  /** Codes the handler answers as an HTML page at the code's status, not a JSON body (the invite pages). */
  pageErrors?: readonly ErrorCode[];
  /** null: served but not in the OpenAPI document (/graphql, the provider's own routes, the operator's bootstrap). */
  docs: EndpointDocs | null;
  handle(call: EndpointCall<B, Q>): Promise<Response>;
}

/** Declares an endpoint; the defaults are a JSON route with no body on a GET. */
export function defineEndpoint<B = Record<string, unknown>, Q = Record<string, unknown>>(
  endpoint: Omit<Endpoint<B, Q>, 'bodyReading' | 'csrf' | 'hosted' | 'responses'> &
    Partial<Pick<Endpoint<B, Q>, 'bodyReading' | 'csrf' | 'hosted' | 'responses'>>,
): Endpoint<B, Q> {
  const methods = methodsOf(endpoint);
  const stateChanging = methods.some(m => m !== 'GET' && m !== 'HEAD');
  return {
    hosted: 'no',
    csrf: 'none',
    responses: {},
    ...endpoint,
    bodyReading: endpoint.bodyReading ?? (stateChanging ? 'json' : 'none'),
  };
}

export const methodsOf = (endpoint: Pick<Endpoint, 'method'>): readonly Method[] =>
  endpoint.method === 'ANY' ? [] : typeof endpoint.method === 'string' ? [endpoint.method] : endpoint.method;

/** The methods the OpenAPI document lists for an endpoint: HEAD answers GET's headers, so it is not listed apart. */
export const documentedMethods = (endpoint: Pick<Endpoint, 'method' | 'docs'>): readonly Method[] =>
  endpoint.docs ? (endpoint.docs.methods ?? methodsOf(endpoint).filter(method => method !== 'HEAD')) : [];

const changesState = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * The codes the pipeline can answer on one method of an endpoint before or around its handler:
 * input (a NUL, oversized headers), the unexpected, the credential's refusals, CSRF, the body
 * (docs/api.md §1.1, §8.2).
 */
export function pipelineErrors(endpoint: Endpoint, method: string): ErrorCode[] {
  // headers_too_large: node's parser refuses a request line and headers past 16 KiB, whatever the route.
  const codes: ErrorCode[] = ['invalid_argument', 'headers_too_large', 'internal'];
  const { credential } = endpoint;
  // Resolving a caller reads the database, which may be saturated.
  if (credential !== 'none') codes.push('busy');
  if (endpoint.bodyReading === 'json') codes.push('invalid_json');
  // A declared oversized body is refused before routing, whatever the route, except a file upload's.
  if (changesState(method) && endpoint.bodyReading !== 'stream') codes.push('body_too_large');
  // A write whose database connection is lost before its commit is answered (src/db/outcome.ts).
  if (changesState(method)) codes.push('outcome_unknown');
  // A session cookie sent along is resolved too: one that does not work is refused as anywhere else.
  if (credential === 'developer') codes.push('unauthenticated', 'invalid_token', 'wrong_credential', 'session_expired', 'provider_unavailable');
  if (credential === 'dashboard') codes.push('unauthenticated', 'session_expired', 'dashboard_session_required', 'introspection_unavailable');
  if (credential === 'app') {
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
  if (csrfApplies(endpoint, method)) codes.push('csrf_required');
  return codes;
}

/** Whether the pipeline's CSRF rule can refuse this method of the endpoint. */
export function csrfApplies(endpoint: Pick<Endpoint, 'csrf' | 'credential'>, method: string): boolean {
  if (endpoint.csrf === 'header') return true;
  return endpoint.csrf === 'by-method' && changesState(method) && endpoint.credential !== 'developer';
}

/** OpenAPI security requirements of one method: the declared ones, else the credential kind's. */
export function securityOf(endpoint: Endpoint, method: string): Record<string, string[]>[] {
  if (endpoint.docs?.security) return endpoint.docs.security;
  const csrf = csrfApplies(endpoint, method);
  const cookie: Record<string, string[]> = csrf ? { sessionCookie: [], csrfHeader: [] } : { sessionCookie: [] };
  switch (endpoint.credential) {
    case 'developer':
      return [{ developerToken: [] }];
    case 'dashboard':
      return [cookie];
    case 'app':
      return [{ bearerToken: [] }, cookie];
    default:
      return csrf ? [{ csrfHeader: [] }] : [];
  }
}
