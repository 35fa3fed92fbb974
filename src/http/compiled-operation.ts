/**
 * A GraphQL operation compiled once with graphql-jit and run on the schema's own resolvers: the
 * REST shims' stored operations and /graphql's repeated queries (graphql-fast-path.ts).
 */
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Context } from '../graphql/builder.js';

/** Runs the operation with a request's context and variables. */
export type CompiledOperation = (context: Context, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;

/** The compiled operation, or the reasons it does not compile. */
export function compileOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string): CompiledOperation | { errors: string[] } {
  const compiled = compileQuery(schema, document, operationName);
  if (!isCompiledQuery(compiled)) return { errors: compiled.errors?.map(error => error.message) ?? ['does not compile'] };
  return (context, variables) => compiled.query(undefined, context, variables);
}
