/** A graphql-ws subscriber for tests: collects messages and lets a test await the next ones. */
import { type Client as WsClient, createClient } from 'graphql-ws';
import WebSocket from 'ws';

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
