/**
 * docs/api.md §4.5: every state-changing call authenticated by cookie carries `X-Service-Csrf: 1`.
 * A cross-site form or fetch cannot add a custom header without a CORS preflight, so the header
 * proves the request came from a page allowed to call us. Bearer calls need none.
 */
import type { Plugin } from 'graphql-yoga';
import { GraphQLError, getOperationAST } from 'graphql';
import { type AppError, fail } from '../errors.js';
import type { HeaderReader } from './responses.js';

export const CSRF_HEADER = 'x-service-csrf';

export interface CsrfFacts {
  credential?: 'bearer' | 'cookie' | null;
  csrf?: boolean;
}

export const hasCsrfHeader = (headers: HeaderReader) => headers.get(CSRF_HEADER) === '1';
export const isStateChanging = (method: string | undefined) => !['GET', 'HEAD', 'OPTIONS'].includes((method ?? 'GET').toUpperCase());

export const csrfRequired = () => fail('csrf_required', 'Cookie-authenticated requests that change state must send the header X-Service-Csrf: 1.');

/** The one rule, for REST (state-changing method) and GraphQL (mutation). */
export function assertCsrf(facts: CsrfFacts, stateChanging: boolean): void {
  if (stateChanging && facts.credential === 'cookie' && !facts.csrf) throw csrfRequired();
}

/** GraphQL: mutations obey the same rule (queries over POST are reads). */
export function useCsrfForMutations(): Plugin<CsrfFacts> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      try {
        assertCsrf(args.contextValue as CsrfFacts, operation?.operation === 'mutation');
      } catch (error) {
        const e = error as AppError;
        setResultAndStopExecution({ errors: [new GraphQLError(e.message, { extensions: { code: e.code, status: e.status } })] });
      }
    },
  };
}
