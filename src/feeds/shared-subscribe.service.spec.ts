import { type ExecutionResult, buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { FeedQueue } from './feed-queue.service.js';
import { DIRECT_FRAMES, sharedSubscribe } from './shared-subscribe.service.js';

const schema = buildSchema('type Query { x: Int } type Subscription { ticks: Tick } type Tick { n: Int! }');
const document = parse('subscription { ticks { n } }');

/** One subscriber: its own feed, and the frames the socket layer would write for it. */
async function subscriber(direct = true) {
  const feed = new FeedQueue<{ ticks: { n: number | null } }>(() => {});
  const frames: string[] = [];
  const contextValue = direct ? { [DIRECT_FRAMES]: (json: string) => frames.push(json) } : {};
  const stream = (await sharedSubscribe({
    schema,
    document,
    contextValue,
    rootValue: { ticks: () => feed },
  })) as AsyncGenerator<ExecutionResult>;
  return { feed, frames, stream };
}

describe('sharedSubscribe with direct frames', () => {
  it('hands each event to the socket once serialised, the same string for every subscriber, then reports the end', async () => {
    const a = await subscriber();
    const b = await subscriber();
    const event = { ticks: { n: 1 } };
    a.feed.push(event);
    b.feed.push(event);
    expect(a.frames).toEqual(['{"data":{"ticks":{"n":1}}}']);
    expect(b.frames[0]).toBe(a.frames[0]);
    a.feed.end();
    await expect(a.stream.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('yields a result with errors through the iterator, and keeps order after it', async () => {
    const s = await subscriber();
    s.feed.push({ ticks: { n: 1 } });
    s.feed.push({ ticks: { n: null } }); // n is non-null: an error result
    s.feed.push({ ticks: { n: 3 } });
    expect(s.frames).toEqual(['{"data":{"ticks":{"n":1}}}']);
    expect((await s.stream.next()).value.errors).toHaveLength(1);
    expect((await s.stream.next()).value).toEqual({ data: { ticks: { n: 3 } } });
  });

  it("rejects the iterator with the feed's failure, and return() ends it", async () => {
    const s = await subscriber();
    const failure = new Error('slow consumer');
    s.feed.fail(failure);
    await expect(s.stream.next()).rejects.toBe(failure);
    const t = await subscriber();
    const pending = t.stream.next();
    await t.stream.return(undefined);
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
    t.feed.push({ ticks: { n: 1 } });
    expect(t.frames).toEqual([]);
  });

  it('without a direct sender, results come through the iterator as before', async () => {
    const s = await subscriber(false);
    s.feed.push({ ticks: { n: 2 } });
    expect((await s.stream.next()).value).toEqual({ data: { ticks: { n: 2 } } });
    expect(s.frames).toEqual([]);
  });
});
