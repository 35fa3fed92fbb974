/**
 * Subscription execution that shares work across subscribers. graphql-js executes the
 * selection set once per event per subscriber; with thousands of subscribers on one roster
 * that dominates fan-out. Feed payloads are pure projections of the event (src/feeds/feeds.graphql.ts
 * resolves nothing from the context), so subscribers with the same document and variables get
 * the same result: it is computed for the first and reused for the rest, and so is its JSON.
 *
 * Who receives an event is still decided per subscriber, before any of this: each subscription
 * has its own feed (src/feeds/feeds.service.ts) whose gate and filters ran for its own caller, and
 * only events that feed lets through reach the shared result. The sharing is only of the bytes.
 *
 * A socket transport can take results without the per-event promise chain: when the context
 * carries a `DIRECT_FRAMES` sender (src/feeds/websocket.routes.ts), each event's pre-serialised
 * payload is handed to it synchronously, from the bus's dispatch, and the iterator returned to
 * graphql-ws only reports the end or the failure of the feed.
 */
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, createSourceEventStream, execute } from 'graphql';
import type { FeedQueue } from './feed-queue.service.js';

/** Context key of a `(payloadJson) => void` that writes one `next` frame for this subscription. */
export const DIRECT_FRAMES = Symbol('directFrames');
export type DirectFrames = (payloadJson: string) => void;

interface Shared {
  result: ExecutionResult | Promise<ExecutionResult>;
  /** `JSON.stringify` of the result, once it is known to carry no errors. */
  json?: string;
}

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 1;
const resultsByEvent = new WeakMap<object, Map<string, Shared>>();

function keyOf(args: ExecutionArgs): string {
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  return `${id}:${args.operationName ?? ''}:${JSON.stringify(args.variableValues ?? {})}`;
}

function sharedFor(event: unknown, key: string, args: ExecutionArgs): Shared {
  // Events are objects shared by every listener of a topic; anything else is executed as is.
  if (typeof event !== 'object' || event === null) return { result: execute({ ...args, rootValue: event }) };
  let results = resultsByEvent.get(event);
  if (!results) resultsByEvent.set(event, (results = new Map()));
  let shared = results.get(key);
  if (!shared) results.set(key, (shared = { result: execute({ ...args, rootValue: event }) }));
  return shared;
}

/** The serialised payload when the result is ready and error-free (errors take Yoga's masking path). */
function jsonOf(shared: Shared): string | null {
  if (shared.json !== undefined) return shared.json;
  const { result } = shared;
  if (result instanceof Promise || result.errors?.length) return null;
  return (shared.json = JSON.stringify(result));
}

const isDrainable = (events: object): events is FeedQueue<unknown> => typeof (events as FeedQueue<unknown>).drainTo === 'function';

export async function sharedSubscribe(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const key = keyOf(args);
  const events = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const direct = (args.contextValue as { [DIRECT_FRAMES]?: DirectFrames } | undefined)?.[DIRECT_FRAMES];
  if (direct && isDrainable(events)) return directRelay(events, key, args, direct);
  // A plain iterator, not an async generator: a generator's return() waits for its pending next(),
  // i.e. for the topic's next event, so a completed or cancelled subscription on a quiet topic
  // would keep its bus listener (and memory) until then. Here return() reaches the feed at once.
  const relay: AsyncGenerator<ExecutionResult> = {
    async next() {
      const step = await events.next();
      return step.done ? { value: undefined, done: true } : { value: await sharedFor(step.value, key, args).result, done: false };
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(error) {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return relay;
}

/**
 * Events go straight from the feed to `send` as pre-serialised payloads. A result that is not
 * ready or carries errors, and everything after it (order is kept), is yielded instead, so it
 * passes the envelop plugins (masking) and graphql-ws' own serialisation like any other.
 */
function directRelay(events: FeedQueue<unknown>, key: string, args: ExecutionArgs, send: DirectFrames): AsyncGenerator<ExecutionResult> {
  const backlog: Shared['result'][] = [];
  let sending = true;
  let ended: { failed: boolean; error?: unknown } | null = null;
  let wake: (() => void) | null = null;
  const rouse = () => {
    wake?.();
    wake = null;
  };
  events.drainTo(event => {
    try {
      const shared = sharedFor(event, key, args);
      const json = sending ? jsonOf(shared) : null;
      if (json !== null) return send(json);
      sending = false;
      backlog.push(shared.result);
      rouse();
    } catch (error) {
      // Never let one subscriber's failure stop the bus's loop over the others.
      events.fail(error);
    }
  });
  // With a sink attached the feed's next() settles only at its end (done) or failure (rejects).
  events.next().then(
    () => {
      ended = { failed: false };
      rouse();
    },
    error => {
      ended = { failed: true, error };
      rouse();
    },
  );
  const relay: AsyncGenerator<ExecutionResult> = {
    async next() {
      for (;;) {
        if (backlog.length) return { value: await backlog.shift()!, done: false };
        if (ended) {
          if (ended.failed) throw ended.error;
          return { value: undefined, done: true };
        }
        await new Promise<void>(resolve => (wake = resolve));
      }
    },
    async return() {
      backlog.length = 0;
      await events.return();
      ended ??= { failed: false };
      rouse();
      return { value: undefined, done: true };
    },
    async throw(error) {
      await this.return(undefined);
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return relay;
}
