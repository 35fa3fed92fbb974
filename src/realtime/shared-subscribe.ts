/**
 * Subscription execution that shares work across subscribers. graphql-js executes the
 * selection set once per event per subscriber; with thousands of subscribers on one roster
 * that dominates fan-out. Feed payloads are pure projections of the event (src/graphql/feeds.ts
 * resolves nothing from the context), so subscribers with the same document and variables get
 * the same result: it is computed for the first and reused for the rest.
 */
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, createSourceEventStream, execute } from 'graphql';

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 1;
const resultsByEvent = new WeakMap<object, Map<string, ExecutionResult | Promise<ExecutionResult>>>();

function keyOf(args: ExecutionArgs): string {
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  return `${id}:${args.operationName ?? ''}:${JSON.stringify(args.variableValues ?? {})}`;
}

function resultFor(event: unknown, key: string, args: ExecutionArgs) {
  // Events are objects shared by every listener of a topic; anything else is executed as is.
  if (typeof event !== 'object' || event === null) return execute({ ...args, rootValue: event });
  let results = resultsByEvent.get(event);
  if (!results) resultsByEvent.set(event, (results = new Map()));
  let result = results.get(key);
  if (!result) results.set(key, (result = execute({ ...args, rootValue: event })));
  return result;
}

export async function sharedSubscribe(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const key = keyOf(args);
  const events = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  // A plain iterator, not an async generator: a generator's return() waits for its pending next(),
  // i.e. for the topic's next event, so a completed or cancelled subscription on a quiet topic
  // would keep its bus listener (and memory) until then. Here return() reaches the feed at once.
  const relay: AsyncGenerator<ExecutionResult> = {
    async next() {
      const step = await events.next();
      return step.done ? { value: undefined, done: true } : { value: await resultFor(step.value, key, args), done: false };
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
