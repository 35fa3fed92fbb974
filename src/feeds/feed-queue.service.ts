/**
 * One subscriber's feed: a bounded queue that is also an async iterator. The bus pushes into it
 * synchronously; GraphQL pulls from it. A consumer that falls `limit` events behind is failed
 * rather than buffered without bound (SSE and WebSocket alike). A consumer that can take events
 * synchronously (the socket fan-out, src/feeds/shared-subscribe.service.ts) attaches a sink instead:
 * values then skip the buffer and the promise per event, and the iterator only reports the end.
 */
import { fail } from '../errors.js';

export const FEED_BUFFER_LIMIT = 1000;

export class FeedQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private failure: unknown = null;
  private ended = false;
  private sink: ((value: T) => void) | null = null;

  constructor(
    private readonly onClose: () => void,
    private limit = FEED_BUFFER_LIMIT,
  ) {}

  push(value: T): void {
    if (this.ended || this.failure) return;
    if (this.sink) {
      this.sink(value);
    } else if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value, done: false });
    } else if (this.buffer.length >= this.limit) {
      this.fail(fail('slow_consumer', `This feed fell more than ${this.limit} events behind and was closed; re-fetch and subscribe again.`));
    } else {
      this.buffer.push(value);
    }
  }

  /**
   * A feed's snapshot (src/feeds/snapshot-feed.service.ts): queued whatever its size, which its reader
   * bounds; the backlog allowed behind it grows by as much, so live changes after it are judged
   * against the same `limit`.
   */
  pushSnapshot(values: readonly T[]): void {
    if (this.ended || this.failure) return;
    this.limit += values.length;
    for (const value of values) {
      if (this.ended || this.failure) return;
      if (this.sink) this.sink(value);
      else if (this.waiter) {
        const { resolve } = this.waiter;
        this.waiter = null;
        resolve({ value, done: false });
      } else this.buffer.push(value);
    }
  }

  /**
   * From now on every value goes to `sink`, synchronously, in order (what is buffered first);
   * next() then settles only when the feed ends or fails.
   */
  drainTo(sink: (value: T) => void): void {
    this.sink = sink;
    for (const value of this.buffer.splice(0)) sink(value);
  }

  /** Delivers what is buffered, then ends. */
  end(): void {
    this.ended = true;
    this.onClose();
    if (this.waiter && this.buffer.length === 0) {
      this.waiter.resolve({ value: undefined, done: true });
      this.waiter = null;
    }
  }

  /** Ends the feed with an error (after nothing more is delivered). */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = error;
    this.buffer.length = 0;
    this.onClose();
    if (this.waiter) {
      this.waiter.reject(error);
      this.waiter = null;
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length) return Promise.resolve({ value: this.buffer.shift()!, done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.buffer.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
