/**
 * One kind of endpoint: a REST route that runs a stored GraphQL operation on the same schema and
 * resolvers as /graphql (docs/api.md §7.2). `storedOperation` declares one (the operation, how path,
 * query and body become its variables, how its result becomes the documented body);
 * `createStoredOperations` runs them. Each stored operation goes through Yoga's parse and
 * validation plugins (the GraphQL limits among them) once and is compiled once with graphql-jit; a
 * request pays only for its execution, without a per-request envelop (measured in
 * bench/README.md). The operations are parsed at start; validation and compilation (about 0.1 s
 * for the whole table) wait for a route's first request or `compileAll`, which the server runs
 * once it listens, so they are not on the way to healthy. REST checks CSRF by method, which
 * covers every mutation: a route whose operation is a mutation must use a state-changing method.
 */
import { type DocumentNode, type GraphQLSchema, getOperationAST } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { z } from 'zod';
import type { ErrorCode } from '../core/error-catalog.js';
import { isStateChanging } from './csrf.js';
import type { RequestContext } from './request-context.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';
import { restError } from './error-responses.js';
import type { Context } from '../graphql/builder.js';
import type { TypedDocumentString } from '../graphql-client/generated/graphql.js';
import { json } from './responses.js';
import { type CompiledOperation, compileOperation } from './compiled-operation.js';
import { type Endpoint, type Tag, defineEndpoint } from './endpoint.js';

export type StoredOperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** A stored-operation endpoint: an endpoint that also carries its operation text. */
export interface StoredOperationEndpoint extends Endpoint {
  method: StoredOperationMethod;
  /** The GraphQL operation text (with its fragments), compiled once. */
  operation: string;
  /** The documented 200 body (docs/api.md §2.1, §2.2). */
  response: z.ZodType;
  body?: z.ZodType<Record<string, unknown>>;
}

/** The server context Yoga's context factory receives: the pipeline's per-request context. */
export interface PipelineServerContext {
  requestContext: RequestContext;
  /** Set by a REST route that resolved its credential its own way (the dashboard routes). */
  auth?: ResolvedAuth;
}

/**
 * One typed row: `body`/`query` schemas type the input `variables` receives (the pipeline validates
 * with these same schemas first), the operation types what `variables` must return and what
 * `respond` is given, and `response` is checked against what `respond` returns.
 */
export function storedOperation<
  R extends { result: unknown },
  V,
  B extends Record<string, unknown> = Record<string, never>,
  Q extends Record<string, unknown> = Record<string, never>,
  O = unknown,
>(row: {
  method: StoredOperationMethod;
  path: string;
  operation: TypedDocumentString<R, V>;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  variables: (input: { params: Record<string, string>; query: Q; body: B }) => V;
  respond: (result: R['result']) => O;
  /** Checked against what `respond` returns: the documented shape cannot drift from the answer. */
  response: z.ZodType<NoInfer<O>>;
  /** The codes its resolvers can answer (the pipeline's are added from the credential kind). */
  errors: readonly ErrorCode[];
  /**
   * `app` (default): an app's bearer token or session. `developer`: a developer token (/dev/*).
   * `dashboard`: a dashboard surface (docs/api.md §4.2); only the dashboard session cookie counts
   * (the resolvers call ctx.dashboardUser()), and state changes always need the CSRF header.
   */
  credential?: 'app' | 'developer' | 'dashboard';
}): StoredOperationEndpoint {
  const operation = row.operation.toString();
  // graphql() answers {} for a text codegen has not seen: fail at load, not on the first request.
  if (typeof operation !== 'string' || !operation.includes('result:')) {
    throw new Error(`REST route ${row.method} ${row.path}: its operation is not in the generated documents; run \`npm run codegen\`.`);
  }
  const name = /\b(?:query|mutation)\s+(\w+)/.exec(operation)?.[1] ?? `${row.method} ${row.path}`;
  const credential = row.credential ?? 'app';
  const tag: Tag =
    credential === 'developer' ? 'developer' : credential === 'dashboard' ? 'dashboard' : row.path.startsWith('/v1/db/') ? 'rows' : 'resources';
  const endpoint: StoredOperationEndpoint = {
    ...defineEndpoint({
      method: row.method,
      path: row.path,
      // The API is served under /_osg/v1 on hosted origins too.
      hosted: row.path.startsWith('/v1/') ? 'prefixed' : 'no',
      credential,
      csrf: 'by-method',
      body: row.body,
      query: row.query as z.ZodType<Record<string, unknown>> | undefined,
      responses: { 200: { description: 'Success', json: row.response } },
      errors: row.errors,
      docs: {
        operationId: name,
        summary: `${row.method} ${row.path}`,
        description: `Runs the GraphQL operation \`${name}\` (docs/api.md §7.2).`,
        tag,
      },
      async handle({ context, params, auth, body, query, runtime }) {
        const variables = row.variables({ params, query: query as Q, body: body as B }) as Record<string, unknown>;
        const result = await runtime.storedOperations.execute(endpoint, context, auth!, variables);
        if (result.errors?.length) return restError(result.errors[0]);
        return json(200, row.respond((result.data as { result: R['result'] }).result));
      },
    }),
    method: row.method,
    operation,
    response: row.response,
    body: row.body as z.ZodType<Record<string, unknown>> | undefined,
  };
  return endpoint;
}

export const isStoredOperation = (endpoint: Endpoint): endpoint is StoredOperationEndpoint => 'operation' in endpoint;

export interface StoredOperationOptions {
  // biome-ignore lint/suspicious/noExplicitAny: the Yoga instance's user context is the resolvers' Context
  yoga: YogaServerInstance<PipelineServerContext, any>;
  schema: GraphQLSchema;
  /** The resolvers' context for a request and its resolved caller, as /graphql builds it. */
  contextFor(request: RequestContext, auth: ResolvedAuth): Context;
}

export function createStoredOperations({ yoga, schema, contextFor }: StoredOperationOptions, endpoints: readonly StoredOperationEndpoint[]) {
  // One that does not parse, pass the plugins or compile is a programming error: at start it
  // refuses to start; at compilation, its requests fail (500) and the log names the route. Every
  // route validates and compiles in the tests (test/api/graphql-limits.test.ts).
  const startup = yoga.getEnveloped({});
  const table = new Map(
    endpoints.map(endpoint => {
      const where = `REST route ${endpoint.method} ${endpoint.path}`;
      const document = startup.parse(endpoint.operation) as DocumentNode;
      if (getOperationAST(document)?.operation === 'mutation' && !isStateChanging(endpoint.method)) {
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
      return [endpoint, run] as const;
    }),
  );

  async function execute(endpoint: StoredOperationEndpoint, context: RequestContext, auth: ResolvedAuth, variables: Record<string, unknown>) {
    const run = table.get(endpoint);
    if (!run) throw new Error(`REST route ${endpoint.method} ${endpoint.path} is not in the registry.`);
    return run()(contextFor(context, auth), variables);
  }

  /**
   * Validates and compiles every route not compiled yet, one per turn of the event loop so that
   * requests (a health check) are answered meanwhile; rejects with the first route that fails.
   */
  async function compileAll(): Promise<void> {
    for (const run of table.values()) {
      run();
      await new Promise(resolve => setImmediate(resolve));
    }
  }

  return { execute, compileAll };
}

export type StoredOperations = ReturnType<typeof createStoredOperations>;
