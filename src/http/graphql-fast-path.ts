/**
 * /graphql's fast path for the common request: a JSON POST of a query document, answered as JSON.
 * Each distinct document goes through Yoga's parse and validation plugins (the GraphQL limits among
 * them) once and is compiled once with graphql-jit; a repeated query then costs only its
 * execution, without Yoga's per-request machinery (measured in bench/README.md). Everything else
 * (mutations, subscriptions, GET, other media types, persisted-query extensions, a document the
 * plugins refuse, NUL bytes) is left to Yoga, which answers it as before: the answers of both paths
 * are compared in test/api/graphql-fast-path.test.ts.
 */
import { type DocumentNode, type GraphQLSchema, getOperationAST } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { RequestContext } from './request-context.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';
import { maskError } from './error-responses.js';
import type { Context } from '../graphql/builder.js';
import { PARSE_CACHE_MAX_CHARS, type RowBudgetCheck } from '../graphql/limits.js';
import { assertNoNulInOperation } from './body.js';
import { JsonResponse } from './responses.js';
import { type CompiledOperation, compileOperation } from './compiled-operation.js';
import type { PipelineServerContext } from './stored-operations.js';

export interface GraphqlFastPathOptions {
  // biome-ignore lint/suspicious/noExplicitAny: the Yoga instance's user context is the resolvers' Context
  yoga: YogaServerInstance<PipelineServerContext, any>;
  schema: GraphQLSchema;
  contextFor(request: RequestContext, auth: ResolvedAuth): Context | Promise<Context>;
  /** The row budget, checked per request (it depends on the variables). */
  rowBudget: RowBudgetCheck;
  /** Called for each request this path answered (tests). */
  onServed?: () => void;
}

interface CompiledQuery {
  run: CompiledOperation;
  document: DocumentNode;
}

interface QueryParams {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

/** The response media type Yoga would pick for this Accept header, when it is plain JSON; else null. */
function jsonMediaType(accept: string | null): string | null {
  if (accept === null) return 'application/json';
  // Yoga takes the first listed type it serves (quality values aside).
  const first = accept.split(',', 1)[0].split(';', 1)[0].trim().toLowerCase();
  if (first === 'application/json' || first === '*/*' || first === 'application/*') return 'application/json';
  return first === 'application/graphql-response+json' ? first : null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request's GraphQL parameters when they are the plain shape this path serves; else null. */
function queryParams(bytes: Uint8Array): QueryParams | null {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return null;
  }
  if (!isPlainObject(body) || typeof body.query !== 'string' || body.extensions !== undefined) return null;
  const { query, variables, operationName } = body;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (Object.keys(body).some(key => key !== 'query' && key !== 'variables' && key !== 'operationName')) return null;
  return { query, variables: variables ?? {}, operationName: operationName ?? undefined };
}

export function createGraphqlFastPath({ yoga, schema, contextFor, rowBudget, onServed }: GraphqlFastPathOptions) {
  const plugins = yoga.getEnveloped({});
  // Per document text and operation name: the compiled query, or the mark of one left to Yoga
  // (parsed once more there: a refused document costs its parse twice). Bounded by total text like
  // Yoga's own parse cache.
  const compiled = new LRUCache<string, CompiledQuery | { leftToYoga: true }>({
    max: 1024,
    maxSize: PARSE_CACHE_MAX_CHARS,
    sizeCalculation: (_value, key) => Math.max(1, key.length),
  });
  const LEFT_TO_YOGA = { leftToYoga: true } as const;

  function compiledQuery(query: string, operationName: string | undefined): CompiledQuery | null {
    const key = `${operationName ?? ''}\n${query}`;
    let entry = compiled.get(key);
    if (!entry) {
      entry = LEFT_TO_YOGA;
      try {
        const document = plugins.parse(query);
        const valid = plugins.validate(plugins.schema, document).length === 0;
        if (valid && getOperationAST(document, operationName)?.operation === 'query') {
          const run = compileOperation(schema, document, operationName);
          if (typeof run === 'function') entry = { run, document };
        }
      } catch {
        // Refused by a plugin (a limit) or unparsable: Yoga gives the answer.
      }
      compiled.set(key, entry);
    }
    return 'run' in entry ? entry : null;
  }

  /** The answer to a request this path serves, or undefined to hand it to Yoga. */
  async function handle(context: RequestContext): Promise<Response | undefined> {
    const { method, headers } = context;
    if (method !== 'POST' || !/^application\/json\s*(;|$)/i.test(headers.get('content-type') ?? '')) return undefined;
    const mediaType = jsonMediaType(headers.get('accept'));
    if (!mediaType) return undefined;
    const params = queryParams(await context.body());
    if (!params) return undefined;
    try {
      assertNoNulInOperation(params);
    } catch {
      return undefined;
    }
    const query = compiledQuery(params.query, params.operationName);
    // Over the row budget: Yoga gives the refusal.
    if (!query || rowBudget(query.document, params.operationName, params.variables)) return undefined;
    let auth: ResolvedAuth;
    try {
      auth = await context.auth();
    } catch {
      // A credential that does not work: Yoga answers it (the same memoized refusal).
      return undefined;
    }
    const resolvers = contextFor(context, auth);
    const result = await query.run(resolvers instanceof Promise ? await resolvers : resolvers, params.variables);
    const body = result.errors?.length ? { ...result, errors: result.errors.map(maskError) } : result;
    onServed?.();
    // Written in one head and one write on the node edge (src/http/node-edge.ts).
    const payload = JSON.stringify(body);
    return new JsonResponse(200, payload, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': String(Buffer.byteLength(payload)) });
  }

  return { handle };
}
