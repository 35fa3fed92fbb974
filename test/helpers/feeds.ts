/** A graphql-ws subscriber for tests: collects messages and lets a test await the next ones. */
import { type Client as WsClient, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { EventBus } from '../../src/bus/event-bus.js';

export interface Subscription<T = any> {
  /** Resolves with the next message (data or error), waiting up to `ms`. */
  next(ms?: number): Promise<{ data?: T; errors?: any[] }>;
  /** Resolves true when no message arrives within `ms`. */
  quiet(ms?: number): Promise<boolean>;
  /** Resolves when the server completes the subscription. */
  completed: Promise<void>;
  client: WsClient;
  closeEvent: Promise<{ code: number; reason: string }>;
  dispose(): Promise<void>;
}

export function wsUrl(httpUrl: string) {
  return `${httpUrl.replace(/^http/, 'ws')}/graphql`;
}

export function subscribe<T = any>(httpUrl: string, token: string | null, query: string, variables: Record<string, unknown> = {}): Subscription<T> {
  let resolveClose!: (e: { code: number; reason: string }) => void;
  const closeEvent = new Promise<{ code: number; reason: string }>(r => (resolveClose = r));
  const client = createClient({
    url: wsUrl(httpUrl),
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: false,
    on: { closed: (event: any) => resolveClose({ code: event?.code, reason: String(event?.reason ?? '') }) },
  });
  const queue: { data?: T; errors?: any[] }[] = [];
  const waiters: ((m: { data?: T; errors?: any[] }) => void)[] = [];
  const push = (message: { data?: T; errors?: any[] }) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  };
  let complete!: () => void;
  const completed = new Promise<void>(r => (complete = r));
  client.subscribe<T>(
    { query, variables },
    {
      next: value => push(value as any),
      error: error => push({ errors: Array.isArray(error) ? error : [error] }),
      complete: () => complete(),
    },
  );
  return {
    client,
    completed,
    closeEvent,
    next(ms = 5000) {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message within ${ms} ms`)), ms);
        waiters.push(m => {
          clearTimeout(timer);
          resolve(m);
        });
      });
    },
    async quiet(ms = 300) {
      if (queue.length) return false;
      return new Promise(resolve => {
        const waiter = () => resolve(false);
        waiters.push(waiter);
        setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          resolve(true);
        }, ms);
      });
    },
    async dispose() {
      await client.dispose();
    },
  };
}

export const MEMBERS_LIVE = `subscription($id: ID!) { membersLive(resourceId: $id) { op row { id resourceId userId role state } } }`;
export const RESOURCES_LIVE = `subscription { resourcesLive { op row { id resourceId userId role state } } }`;

// ---- waiting for a subscription to attach --------------------------------------------------
// graphql-ws does not acknowledge a subscribe. A feed listens to its bus topic before its gate
// check and first event (src/feeds/feeds.service.ts), so "the topic has a listener" is the moment a
// change is sure to reach it. The test wraps the bus's listen() to count active listeners per topic.

interface Watch {
  active: Map<string, number>;
  /** Listens so far, on any topic. */
  listens: number;
  waiters: Set<() => void>;
}

const watches = new WeakMap<EventBus, Watch>();

/** Counts the active listeners per topic of `bus`; call before any subscription is made (startTestApp does). */
export function watchBus(bus: EventBus): void {
  if (watches.has(bus)) return;
  const watch: Watch = { active: new Map(), listens: 0, waiters: new Set() };
  watches.set(bus, watch);
  const bump = (topic: string, by: number) => {
    watch.active.set(topic, (watch.active.get(topic) ?? 0) + by);
    for (const waiter of watch.waiters) waiter();
  };
  const listen = bus.listen.bind(bus);
  bus.listen = (topic, listener) => {
    const unlisten = listen(topic, listener);
    watch.listens++;
    bump(topic, 1);
    let done = false;
    return () => {
      if (!done) bump(topic, -1);
      done = true;
      unlisten();
    };
  };
}

/**
 * Resolves once `bus` has at least `count` active listeners on `topic` (`member:<resourceId>`,
 * `principal:<userId>`): the subscription is attached and the next change reaches it.
 */
export function feedAttached(bus: EventBus, topic: string, count = 1, ms = 5000): Promise<void> {
  return waitFor(bus, () => (watches.get(bus)!.active.get(topic) ?? 0) >= count, `a subscription attached to ${topic}`, ms);
}

/** Resolves at the next feed that starts listening on `bus`, whatever its topic (call it before subscribing). */
export function nextFeedAttached(bus: EventBus, ms = 5000): Promise<void> {
  const before = watches.get(bus)?.listens ?? 0;
  return waitFor(bus, () => watches.get(bus)!.listens > before, 'a subscription attached', ms);
}

function waitFor(bus: EventBus, ready: () => boolean, what: string, ms: number): Promise<void> {
  const watch = watches.get(bus);
  if (!watch) throw new Error('call watchBus(bus) before subscribing');
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!ready()) return;
      watch.waiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      watch.waiters.delete(check);
      reject(new Error(`no ${what} within ${ms} ms`));
    }, ms);
    watch.waiters.add(check);
  });
}

/**
 * Reads a feed's snapshot (docs/api.md §6): every message up to and including `ready`, answering
 * the snapshot's rows. `ready` also says the feed is live: every later change reaches it.
 */
export async function snapshotOf<T = any>(feed: Subscription, ms = 5000): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const message = await feed.next(ms);
    if (message.errors) throw new Error(`the feed failed: ${JSON.stringify(message.errors)}`);
    const event = Object.values(message.data ?? {})[0] as { op: string; row: T; snapshot?: boolean };
    if (event.op === 'ready') return rows;
    if (event.op !== 'insert' || event.snapshot === false) throw new Error(`not a snapshot event: ${JSON.stringify(event)}`);
    rows.push(event.row);
  }
}
