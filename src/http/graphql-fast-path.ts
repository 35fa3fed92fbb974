/**
 * /graphql's fast path, a Yoga plugin: a repeated query runs compiled, without Yoga's per-request
 * envelop work (parse and validation lookups, the context factory, the execute hooks). Yoga has
 * already read the request (body, media types, parameters) and its other plugins have checked it
 * (NUL bytes, parameter shape, method) before this runs; its result goes back through Yoga, which
 * picks the media type and status and writes the answer. Each distinct document goes through
 * Yoga's parse and validation plugins (the GraphQL limits among them) once and is compiled once
 * with graphql-jit. Anything else (mutations, subscriptions, a document the plugins refuse, a
 * request over the row budget, a credential that does not work) takes Yoga's own path: the answers
 * of both are compared in test/api/graphql-fast-path.test.ts.
 */
import { type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema, getOperationAST } from 'graphql';
import type { GraphQLParams, Plugin, YogaServerInstance } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { RequestContext } from './request-context.js';
import type { ResolvedAuth } from '../gateway-auth/resolve-caller.http.js';
import type { Context } from '../graphql/builder.js';
import { PARSE_CACHE_MAX_CHARS, type RowBudgetCheck } from '../graphql/limits.js';
import { type CompiledOperation, compileOperation } from './compiled-operation.js';
import type { PipelineServerContext } from './stored-operations.js';

export interface GraphqlFastPathOptions {
  schema: GraphQLSchema;
  contextFor(request: RequestContext, auth: ResolvedAuth): Promise<Context>;
  /** The row budget, checked per request (it depends on the variables). */
  rowBudget: RowBudgetCheck;
  /** The masking Yoga applies to execution errors (its `maskedErrors`): the compiled path skips Yoga's execute hooks. */
  maskError(error: unknown): GraphQLError;
  /** Called for each request this path answered (tests). */
  onServed?: () => void;
}

interface CompiledQuery {
  run: CompiledOperation;
  document: DocumentNode;
}

// biome-ignore lint/suspicious/noExplicitAny: the Yoga instance's user context is the resolvers' Context
type Enveloped = ReturnType<YogaServerInstance<PipelineServerContext, any>['getEnveloped']>;

export function useGraphqlFastPath({ schema, contextFor, rowBudget, maskError, onServed }: GraphqlFastPathOptions): Plugin<PipelineServerContext> {
  // Yoga's parse and validation with its plugins (the limits), known once Yoga is built.
  let enveloped: (() => Enveloped) | undefined;
  let plugins: Enveloped | undefined;
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
        plugins ??= (enveloped as () => Enveloped)();
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

  /** The compiled query's result, or undefined to leave the request to Yoga. */
  async function run(params: GraphQLParams, requestContext: RequestContext, given: ResolvedAuth | undefined): Promise<ExecutionResult | undefined> {
    if (typeof params.query !== 'string') return undefined;
    const operationName = params.operationName ?? undefined;
    const variables = params.variables ?? {};
    const query = compiledQuery(params.query, operationName);
    // Over the row budget: Yoga gives the refusal.
    if (!query || rowBudget(query.document, operationName, variables)) return undefined;
    let auth: ResolvedAuth;
    try {
      auth = given ?? (await requestContext.auth());
    } catch {
      // A credential that does not work: Yoga answers it (the same memoized refusal).
      return undefined;
    }
    const result = await query.run(await contextFor(requestContext, auth), variables);
    onServed?.();
    return result.errors?.length ? { ...result, errors: result.errors.map(maskError) } : result;
  }

  return {
    onYogaInit({ yoga }) {
      enveloped = () => yoga.getEnveloped({}) as Enveloped;
    },
    // Persisted-query extensions and methods other than POST stay on Yoga's path. The handler runs
    // after every plugin's onParams (Yoga's parameter checks among them).
    onParams({ params, request, context, paramsHandler, setParamsHandler }) {
      const { requestContext, auth } = context as Partial<PipelineServerContext>;
      if (request.method !== 'POST' || params.extensions !== undefined || !requestContext) return;
      setParamsHandler(async payload => (await run(payload.params, requestContext, auth)) ?? paramsHandler(payload));
    },
  };
}
