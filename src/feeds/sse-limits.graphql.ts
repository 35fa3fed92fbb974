/**
 * Bounds on subscriptions served as server-sent events (POST /graphql with Accept:
 * text/event-stream), which the socket caps (src/feeds/websocket.routes.ts) do not see: without them
 * one token could hold any number of streams, each a subscription every change is written to.
 * An SSE stream is a connection carrying one subscription, so it is counted as sockets are:
 * WS_MAX_SOCKETS_PER_PRINCIPAL streams per person (an agent's count against its owner) and
 * WS_MAX_SOCKETS in all, per process, on counters of their own. A stream is counted from the moment its subscription is live until it
 * ends (the client went away, the feed completed or failed).
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Caller } from '../core/caller.rules.js';
import { personOf } from '../core/principals.rules.js';
import { graphqlRefusal } from '../http/error-responses.js';
import { type AppError, fail } from '../errors.js';
import { type FeedLimits, PlacesPerPrincipal } from './feed-limits.rules.js';

interface SseContext {
  /** Present on HTTP requests only: sockets' contexts carry the caller alone. */
  requestContext?: unknown;
  caller?: Caller | null;
}

export function useSseLimits(limits: Pick<FeedLimits, 'maxSocketsPerPrincipal' | 'maxSockets'>): Plugin & { streams(): number } {
  const byPrincipal = new PlacesPerPrincipal(limits.maxSocketsPerPrincipal);
  let total = 0;

  /** One stream counted, or the refusal when a bound is reached. */
  function admit(key: string): AppError | null {
    if (!byPrincipal.take(key)) {
      return fail(
        'too_many_sockets',
        `Too many live streams: at most ${limits.maxSocketsPerPrincipal} SSE subscriptions per user (an agent's count as its owner's) on this server. Close one, or carry several subscriptions on one WebSocket.`,
      );
    }
    if (total >= limits.maxSockets) {
      byPrincipal.release(key);
      return fail('busy', `This server holds its maximum of ${limits.maxSockets} SSE streams: retry in a few seconds.`, { retryAfter: 5 });
    }
    total++;
    return null;
  }

  function release(key: string) {
    byPrincipal.release(key);
    total--;
  }

  return {
    /** Live SSE streams now (/metrics). */
    streams: () => total,
    onSubscribe({ context }) {
      const { requestContext, caller } = context as SseContext;
      // Sockets are bounded where they connect; an anonymous stream is refused by its resolver.
      if (requestContext === undefined || caller?.type !== 'principal') return;
      const key = personOf(caller.principal);
      return {
        onSubscribeResult({ result, setResult }) {
          // Only a live stream holds a place: a refused subscribe is an ordinary result.
          if (!isAsyncIterable(result)) return;
          const refusal = admit(key);
          if (refusal) {
            void result[Symbol.asyncIterator]().return?.();
            setResult({ errors: [graphqlRefusal(refusal)] });
            return;
          }
          let released = false;
          return {
            onEnd() {
              if (released) return;
              released = true;
              release(key);
            },
          };
        },
      };
    },
  };
}
