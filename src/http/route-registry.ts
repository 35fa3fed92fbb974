/**
 * The one matcher (rou3) over every declared endpoint (src/http/routes.ts), and the pipeline steps
 * every route shares: match, decode the path parameters, resolve the declared credential, apply the
 * declared CSRF rule, read and validate the declared input, run the handler; errors answer as REST
 * errors, and "no route" (404) and "wrong method" (405) have one builder (`noRoute`).
 *
 * A request is matched by where it arrived: the gateway's own host serves every route at its path
 * (but the `hosted-only` ones); a hosted app origin serves the `prefixed` routes under /_osg and the
 * `same-path` and `hosted-only` ones as they are, and its published site answers any other GET or
 * HEAD outside /_osg and /_invite.
 */
import { addRoute, createRouter, findRoute, type RouterContext } from 'rou3';
import { fail, parseInput, shown } from '../errors.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';
import { parseJsonObject } from './body.js';
import { assertCsrf, csrfRequired, hasCsrfHeader, isStateChanging } from './csrf.js';
import { type Endpoint, methodsOf } from './endpoint.js';
import type { EndpointRuntime } from './endpoint-runtime.js';
import { restError } from './error-responses.js';
import { HOSTED_PREFIX, type RequestContext } from './request-context.js';
import { isStoredOperation } from './stored-operations.js';
import { isReservedPath } from '../hosting/sites.rules.js';

interface MountRouters {
  /** By method (`''`: an `ANY` endpoint). */
  endpoints: RouterContext<Endpoint>;
  /** Every pattern with the methods it takes, for 405. */
  patterns: RouterContext<string[]>;
}

export interface RegistryOptions {
  /** The embedded identity provider's mount path (it routes below it itself), when it runs here. */
  identityProviderMount?: string | null;
}

export function createRouteRegistry(endpoints: readonly Endpoint[], runtime: EndpointRuntime, options: RegistryOptions = {}) {
  const gatewayHost = mountRouters(endpoints, endpoint => (endpoint.hosted === 'hosted-only' || endpoint.hosted === 'site' ? null : endpoint.path));
  // The published site answers what no route takes on a hosted origin (src/hosting).
  const site = endpoints.find(endpoint => endpoint.hosted === 'site') ?? null;
  const hosted = mountRouters(endpoints, endpoint =>
    endpoint.hosted === 'prefixed'
      ? `${HOSTED_PREFIX}${endpoint.path}`
      : endpoint.hosted === 'same-path' || endpoint.hosted === 'hosted-only'
        ? endpoint.path
        : null,
  );
  const provider = options.identityProviderMount ?? null;
  if (provider !== null && runtime.identityProvider) {
    const bridge = identityProviderEndpoint(runtime.identityProvider, provider);
    if (provider) addRoute(gatewayHost.endpoints, '', provider, bridge);
    addRoute(gatewayHost.endpoints, '', `${provider}/**`, bridge);
  }

  /** The endpoint for a request and its raw path parameters; a 404 or 405 answer when there is none. */
  function match(context: RequestContext): { endpoint: Endpoint; params: Record<string, string> } | { refused: Response } {
    const routers = context.mount.host ? hosted : gatewayHost;
    const { method } = context;
    const raw = context.url.pathname;
    let found = findRoute(routers.endpoints, method, raw);
    let path = raw;
    if (!found && raw.includes('//')) {
      path = raw.replace(/\/{2,}/g, '/');
      const collapsed = findRoute(routers.endpoints, method, path);
      // Empty segments count for nothing in the REST shims' paths (`/v1//resources/`), as they
      // always have; in a wildcard (a file path) they are the value's own, for its handler to judge.
      if (collapsed && (isStoredOperation(collapsed.data) || collapsed.data.path.includes('**:'))) found = collapsed;
    }
    if (!found && site && context.mount.host && (method === 'GET' || method === 'HEAD') && !isReservedPath(raw)) {
      return { endpoint: site, params: { path: raw.slice(1) } };
    }
    if (!found) return { refused: noRoute(context, findRoute(routers.patterns, '', path)?.data ?? []) };
    const endpoint = found.data;
    const params = { ...found.params };
    const wildcard = wildcardOf(endpoint);
    if (wildcard) {
      // The router reads a path without its empty segments and its trailing slash; a file path keeps them.
      const fixed = endpoint.path.split('/').length - 2 + (context.mount.host && endpoint.hosted === 'prefixed' ? 1 : 0);
      const segments = raw.split('/').slice(1);
      if (segments.slice(0, fixed).includes('')) return { refused: noRoute(context) };
      params[wildcard] = segments.slice(fixed).join('/');
    }
    return { endpoint, params };
  }

  async function dispatch(context: RequestContext): Promise<Response> {
    const matched = match(context);
    if ('refused' in matched) return matched.refused;
    const { endpoint } = matched;
    context.route = endpoint.path;
    try {
      const params = decodeParams(matched.params, endpoint);
      const { method, url } = context;
      // The credential before the input: a refused token or a missing CSRF header is what to fix first.
      let auth: ResolvedAuth | undefined;
      if (endpoint.credential === 'dashboard') auth = dashboardAuth(context);
      else if (endpoint.credential !== 'none') auth = await context.auth();
      if (endpoint.csrf === 'header' && !hasCsrfHeader(context.headers)) throw csrfRequired();
      // REST's CSRF rule is by method (a state-changing method), GraphQL's by operation (a mutation).
      if (endpoint.csrf === 'by-method' && auth) assertCsrf(auth, isStateChanging(method));
      const body =
        endpoint.bodyReading === 'json'
          ? input(endpoint.body as Parameters<typeof input>[0], parseJsonObject(await context.body()), 'body', endpoint.body !== undefined)
          : {};
      const query = input(endpoint.query, url.search ? Object.fromEntries(url.searchParams) : {}, 'query', true);
      return await endpoint.handle({ context, params, auth, body, query, runtime });
    } catch (error) {
      return restError(error);
    }
  }

  /**
   * Whether a request is for a route that streams its body (a file upload), on either kind of host:
   * its size is its bucket's limit, not MAX_BODY_BYTES, so the entrance does not refuse it by its
   * declared length.
   */
  function streamsBody(method: string, path: string): boolean {
    const found = findRoute(gatewayHost.endpoints, method, path) ?? findRoute(hosted.endpoints, method, path);
    return found?.data.bodyReading === 'stream';
  }

  return { dispatch, streamsBody };
}

export type RouteRegistry = ReturnType<typeof createRouteRegistry>;

/** Adds every endpoint served on one kind of host (`pathOf` null: not served there) to its routers. */
function mountRouters(endpoints: readonly Endpoint[], pathOf: (endpoint: Endpoint) => string | null): MountRouters {
  const routers: MountRouters = { endpoints: createRouter<Endpoint>(), patterns: createRouter<string[]>() };
  const methodsAt = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    const path = pathOf(endpoint);
    if (path === null) continue;
    const methods = endpoint.method === 'ANY' ? [''] : methodsOf(endpoint);
    for (const method of methods) {
      const key = `${method || 'ANY'} ${path}`;
      if (seen.has(key)) throw new Error(`Route ${key} is declared twice.`);
      seen.add(key);
      addRoute(routers.endpoints, method, path, endpoint);
    }
    methodsAt.set(path, [...(methodsAt.get(path) ?? []), ...methods.filter(Boolean)]);
  }
  for (const [path, methods] of methodsAt) addRoute(routers.patterns, '', path, methods);
  return routers;
}

/**
 * The one "no route" answer: 405 when the path is a route that does not take this method, else
 * 404. On a hosted app origin, a path outside the API says where the gateway's routes live there.
 */
export function noRoute(context: Pick<RequestContext, 'method' | 'url' | 'mount'>, allowed: readonly string[] = []): Response {
  const { method } = context;
  const path = context.url.pathname;
  const inApi = path.startsWith(`${HOSTED_PREFIX}/v1/`) || path === `${HOSTED_PREFIX}/graphql`;
  const shown = context.mount.host && inApi ? path.slice(HOSTED_PREFIX.length) : path;
  if (allowed.length) {
    return restError(fail('method_not_allowed', `${method} is not supported on ${shown}: use ${allowed.join(', ')}.`), { allow: allowed.join(', ') });
  }
  if (context.mount.host && !inApi) {
    return restError(fail('not_found', `No gateway route ${method} ${path} on this app origin (gateway routes live under ${HOSTED_PREFIX}).`));
  }
  return restError(fail('not_found', `No route ${method} ${shown}.`));
}

/**
 * The route's parameters, decoded. A segment that is not percent-encoded UTF-8 (`%zz`, a lone
 * surrogate's bytes) still addresses this route: it is a bad argument, not a missing route. A
 * wildcard (`**:path`) is left raw: its handler decodes its segments.
 */
function decodeParams(raw: Record<string, string>, endpoint: Endpoint): Record<string, string> {
  const params: Record<string, string> = {};
  const wildcard = wildcardOf(endpoint);
  for (const name in raw) {
    const value = raw[name];
    // Without a '%' there is nothing to decode (decodeURIComponent would answer the same string).
    if (name === wildcard || !value.includes('%')) {
      params[name] = value;
      continue;
    }
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw fail(endpoint.paramError ?? 'invalid_argument', `path.${name}: not valid percent-encoded UTF-8 (${shown(value, 40)}).`);
    }
  }
  return params;
}

/** The name of an endpoint's trailing wildcard (`**:path`), read from its path once. */
const wildcards = new WeakMap<Endpoint, string | null>();
function wildcardOf(endpoint: Endpoint): string | null {
  let name = wildcards.get(endpoint);
  if (name === undefined) {
    name = /\*\*:(\w+)$/.exec(endpoint.path)?.[1] ?? null;
    wildcards.set(endpoint, name);
  }
  return name;
}

function input(
  schema: Parameters<typeof parseInput<Record<string, unknown>>>[0] | undefined,
  value: Record<string, unknown>,
  where: 'body' | 'query',
  allowed: boolean,
): Record<string, unknown> {
  if (!schema) {
    if (!allowed && Object.keys(value).length) throw fail('invalid_argument', `${where}: this route takes no ${where} fields.`);
    return value;
  }
  return parseInput(schema, value, where);
}

/**
 * A dashboard route resolves no app credential (its resolver asks ctx.dashboardUser()): a cookie
 * state change still needs the CSRF header, a bearer token is refused there as one.
 */
function dashboardAuth(context: RequestContext): ResolvedAuth {
  return { caller: null, credential: context.headers.get('authorization') ? 'bearer' : 'cookie', csrf: hasCsrfHeader(context.headers) };
}

/** The embedded provider's own routes, below its mount: it routes and answers them itself. */
function identityProviderEndpoint(bridge: (context: RequestContext) => Promise<Response>, mount: string): Endpoint {
  return {
    method: 'ANY',
    path: `${mount}/**`,
    hosted: 'no',
    credential: 'none',
    csrf: 'none',
    bodyReading: 'handler',
    responses: {},
    errors: [],
    docs: null,
    handle: ({ context }) => bridge(context),
  };
}
