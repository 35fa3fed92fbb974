/**
 * Serves the route table: match, validate, then run the route's stored GraphQL operation on the
 * same schema and resolvers as /graphql. Each stored operation goes through Yoga's parse and
 * validation plugins (the GraphQL limits among them) once and is compiled once with graphql-jit;
 * a request pays only for its execution, without a per-request envelop (measured in
 * bench/README.md). The operations are parsed at start; validation and compilation (about 0.1 s
 * for the whole table) wait for a route's first request or `compileAll`, which the server runs
 * once it listens, so they are not on the way to healthy. REST checks CSRF by method, which
 * covers every mutation: a route whose operation is a mutation must use a state-changing method.
 * Errors are shaped for REST.
 */
import { type DocumentNode, type GraphQLSchema, getOperationAST } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { z } from 'zod';
import { assertCsrf, hasCsrfHeader, isStateChanging } from './csrf.js';
import type { RequestContext } from './request-context.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';
import { badRequest, parseInput, shown } from '../errors.js';
import { restError } from './error-responses.js';
import type { Context } from '../graphql/builder.js';
import { parseJsonObject } from './body.js';
import { json } from './responses.js';
import { type CompiledOperation, compileOperation } from './compiled-operation.js';
import type { Route } from './rest-routes.js';

interface TableEntry {
  route: Route;
  /** The compiled operation, compiled on first use. */
  run: () => CompiledOperation;
  segments: string[];
}

export interface RouteMatch {
  entry: TableEntry;
  params: Record<string, string>;
}

/** The server context Yoga's context factory receives: the pipeline's per-request context. */
export interface PipelineServerContext {
  requestContext: RequestContext;
  /** Set by a REST route that resolved its credential its own way (the dashboard routes). */
  auth?: ResolvedAuth;
}

export interface RestShimOptions {
  // biome-ignore lint/suspicious/noExplicitAny: the Yoga instance's user context is the resolvers' Context
  yoga: YogaServerInstance<PipelineServerContext, any>;
  schema: GraphQLSchema;
  /** The resolvers' context for a request, as /graphql builds it. */
  contextFor(request: RequestContext, auth: ResolvedAuth): Promise<Context>;
}

export function createRestShim({ yoga, schema, contextFor }: RestShimOptions, routes: Route[]) {
  // One that does not parse, pass the plugins or compile is a programming error: at start it
  // refuses to start; at compilation, its requests fail (500) and the log names the route. Every
  // route validates and compiles in the tests (test/api/graphql-limits.test.ts).
  const startup = yoga.getEnveloped({});
  const table = routes
    .map(route => {
      const where = `REST route ${route.method} ${route.path}`;
      const document = startup.parse(route.operation) as DocumentNode;
      if (getOperationAST(document)?.operation === 'mutation' && !isStateChanging(route.method)) {
        throw new Error(`${where}: a mutation needs a state-changing method (REST checks CSRF by method).`);
      }
      let compiled: CompiledOperation | undefined;
      const run = () => {
        if (compiled) return compiled;
        const errors = startup.validate(startup.schema, document);
        if (errors.length) throw new Error(`${where}: ${errors.map((e: Error) => e.message).join('; ')}`);
        const result = compileOperation(schema, document);
        if (typeof result !== 'function') throw new Error(`${where}: ${result.errors.join('; ')}`);
        return (compiled = result);
      };
      return { route, run, segments: route.path.split('/').filter(Boolean) };
    })
    // Literal segments before parameters, so /v1/resources/browse wins over /v1/resources/:id.
    .sort((a, b) => specificity(b.segments) - specificity(a.segments));

  // Candidates by segment count: a request is compared only with routes of its own length.
  const byLength = new Map<number, TableEntry[]>();
  for (const entry of table) byLength.set(entry.segments.length, [...(byLength.get(entry.segments.length) ?? []), entry]);

  function match(method: string, pathname: string): RouteMatch | 'method_not_allowed' | null {
    const parts = pathname.split('/').filter(Boolean);
    let pathMatched = false;
    for (const entry of byLength.get(parts.length) ?? []) {
      if (!literalsMatch(entry.segments, parts)) continue;
      pathMatched = true;
      if (entry.route.method === method) return { entry, params: paramsOf(entry.segments, parts) };
    }
    return pathMatched ? 'method_not_allowed' : null;
  }

  async function handle(found: RouteMatch, context: RequestContext): Promise<Response> {
    try {
      const { route } = found.entry;
      const { method, url } = context;
      // The credential before the input: a refused token or a missing CSRF header is what to fix first.
      const auth: ResolvedAuth = route.credential === 'dashboard' ? dashboardAuth(context) : await context.auth();
      // REST's CSRF rule is by method (a state-changing method), GraphQL's by operation (a mutation).
      assertCsrf(auth, isStateChanging(method));
      const readsBody = method !== 'GET' && method !== 'HEAD';
      const body = routeInput(route.body, readsBody ? parseJsonObject(await context.body()) : {}, 'body', route.body !== undefined);
      const query = routeInput(route.query, url.search ? Object.fromEntries(url.searchParams) : {}, 'query', true);
      const variableValues = route.variables({ params: found.params, query, body });
      const result = await found.entry.run()(await contextFor(context, auth), variableValues);
      if (result.errors?.length) return restError(result.errors[0]);
      return json(200, route.respond((result.data as { result: unknown }).result));
    } catch (error) {
      return restError(error);
    }
  }

  /**
   * Validates and compiles every route not compiled yet, one per turn of the event loop so that
   * requests (a health check) are answered meanwhile; rejects with the first route that fails.
   */
  async function compileAll(): Promise<void> {
    for (const entry of table) {
      entry.run();
      await new Promise(resolve => setImmediate(resolve));
    }
  }

  return { match, handle, compileAll };
}

/**
 * A dashboard route resolves no app credential (its resolver asks ctx.dashboardUser()): a cookie
 * state change still needs the CSRF header, a bearer token is refused there as one.
 */
function dashboardAuth(context: RequestContext): ResolvedAuth {
  return { caller: null, credential: context.headers.get('authorization') ? 'bearer' : 'cookie', csrf: hasCsrfHeader(context.headers) };
}

const specificity = (segments: string[]) => segments.reduce((score, s, i) => score + (s.startsWith(':') ? 0 : 2 ** (10 - i)), segments.length * 4096);

const literalsMatch = (pattern: string[], parts: string[]) => pattern.every((segment, i) => segment.startsWith(':') || segment === parts[i]);

/**
 * The route's parameters, decoded. A segment that is not percent-encoded UTF-8 (`%zz`, a lone
 * surrogate's bytes) still addresses this route: it is a bad argument, not a missing route.
 */
function paramsOf(pattern: string[], parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (!pattern[i].startsWith(':')) continue;
    const name = pattern[i].slice(1);
    try {
      params[name] = decodeURIComponent(parts[i]);
    } catch {
      throw badRequest('invalid_argument', `path.${name}: not valid percent-encoded UTF-8 (${shown(parts[i], 40)}).`);
    }
  }
  return params;
}

function routeInput(
  schema: z.ZodType<Record<string, unknown>> | undefined,
  value: Record<string, unknown>,
  where: 'body' | 'query',
  allowed: boolean,
) {
  if (!schema) {
    if (!allowed && Object.keys(value).length) throw badRequest('invalid_argument', `${where}: this route takes no ${where} fields.`);
    return value;
  }
  return parseInput(schema, value, where);
}
