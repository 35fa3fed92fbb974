/**
 * Serves the route table: match, validate, run the route's precompiled GraphQL operation with
 * the same context GraphQL requests get, and shape the result or error for REST.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type GraphQLSchema, parse, validate as validateDocument } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { z } from 'zod';
import { badRequest, parseInput } from '../errors.js';
import { readJson, sendJson } from '../lib/http.js';
import { sendRestError } from '../error-responses.js';
import type { Context } from '../graphql/builder.js';
import type { Route } from './routes.js';

interface CompiledRoute {
  route: Route;
  segments: string[];
  compiled: CompiledQuery;
}

export interface RouteMatch {
  entry: CompiledRoute;
  params: Record<string, string>;
}

function compile(schema: GraphQLSchema, route: Route): CompiledQuery {
  const document = parse(route.operation);
  const errors = validateDocument(schema, document);
  if (errors.length) throw new Error(`REST route ${route.method} ${route.path}: ${errors.map(e => e.message).join('; ')}`);
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(`REST route ${route.method} ${route.path} does not compile`);
  return compiled;
}

export function createRestShim(schema: GraphQLSchema, routes: Route[]) {
  // Literal segments before parameters, so /v1/resources/browse wins over /v1/resources/:id.
  const table = routes
    .map(route => ({ route, segments: route.path.split('/').filter(Boolean), compiled: compile(schema, route) }))
    .sort((a, b) => specificity(b.segments) - specificity(a.segments));

  function match(method: string, pathname: string): RouteMatch | 'method_not_allowed' | null {
    const parts = pathname.split('/').filter(Boolean);
    let pathMatched = false;
    for (const entry of table) {
      const params = matchSegments(entry.segments, parts);
      if (!params) continue;
      pathMatched = true;
      if (entry.route.method === method) return { entry, params };
    }
    return pathMatched ? 'method_not_allowed' : null;
  }

  async function handle(found: RouteMatch, req: IncomingMessage, res: ServerResponse, url: URL, context: Context) {
    try {
      const { route, compiled } = found.entry;
      const body = routeInput(route.body, await readJsonBody(req), 'body', route.body !== undefined);
      const query = routeInput(route.query, Object.fromEntries(url.searchParams), 'query', true);
      const variables = route.variables({ params: found.params, query, body });
      const result = await compiled.query(undefined, context, variables);
      if (result.errors?.length) return sendRestError(res, result.errors[0]);
      return send(res, 200, route.respond((result.data as { result: unknown }).result));
    } catch (error) {
      return sendRestError(res, error);
    }
  }

  return { match, handle };
}

const specificity = (segments: string[]) => segments.reduce((score, s, i) => score + (s.startsWith(':') ? 0 : 2 ** (10 - i)), segments.length * 4096);

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(':')) {
      try {
        params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
      } catch {
        return null;
      }
    } else if (pattern[i] !== parts[i]) return null;
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

/** Through the one body reader (MAX_BODY_BYTES, NUL refusal); path and query were checked at the entrance. */
function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return req.method === 'GET' || req.method === 'HEAD' ? Promise.resolve({}) : readJson(req);
}

/** JSON responses of the REST shims (the same helper the gateway uses). */
export const send = sendJson;
