/** Test helpers for src/sdk/live.ts: record what a live handle reports, and watch the server's sockets. */
import type { Server } from 'node:http';
import type { LiveHandle, LiveOp, LiveStatus } from '../../src/sdk/live.js';

/** Resolves when `ready()` holds, checked now and on every `subscribe`d change; rejects after `ms`. */
function until(subscribe: (check: () => void) => () => void, ready: () => boolean, what: string, ms: number): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = subscribe(() => {
      if (!ready()) return;
      stop();
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no ${what} within ${ms} ms`));
    }, ms);
  });
}

export interface Recording<T> {
  /** Every row event, with whether it came from a snapshot (a delete's row is its identity only). */
  events: { op: LiveOp; row: T; snapshot: boolean }[];
  statuses: LiveStatus[];
  errors: (Error & { code?: string; status?: number })[];
  /** Resolves once an event matching `match` has arrived (at or after index `from`). */
  event(
    match: (e: { op: LiveOp; row: T; snapshot: boolean }) => boolean,
    from?: number,
    ms?: number,
  ): Promise<{ op: LiveOp; row: T; snapshot: boolean }>;
  /** Resolves once the latest status is `status`. */
  status(status: LiveStatus, ms?: number): Promise<void>;
  /** Resolves once an error has arrived. */
  error(ms?: number): Promise<Error & { code?: string; status?: number }>;
}

export function record<T>(handle: LiveHandle<T>): Recording<T> {
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const watch = (check: () => void) => {
    waiters.add(check);
    return () => waiters.delete(check);
  };
  const rec: Recording<T> = {
    events: [],
    statuses: [],
    errors: [],
    async event(match, from = 0, ms = 5000) {
      const found = () => rec.events.slice(from).find(match);
      await until(watch, () => !!found(), 'matching live event', ms);
      return found()!;
    },
    async status(status, ms = 5000) {
      await until(watch, () => rec.statuses.at(-1) === status, `status "${status}" (saw ${rec.statuses.join(' -> ')})`, ms);
    },
    async error(ms = 5000) {
      await until(watch, () => rec.errors.length > 0, 'live error', ms);
      return rec.errors[0];
    },
  };
  for (const op of ['insert', 'update', 'delete'] as const) {
    handle.on(op, (row, info) => {
      rec.events.push({ op, row: row as T, snapshot: info.snapshot });
      changed();
    });
  }
  handle.on('status', status => {
    rec.statuses.push(status);
    changed();
  });
  handle.on('error', error => {
    rec.errors.push(error);
    changed();
  });
  return rec;
}

export interface SocketWatch {
  /** WebSocket upgrades the server has seen. */
  readonly opened: number;
  /** Upgraded sockets not yet closed. */
  readonly open: number;
  until(ready: (w: SocketWatch) => boolean, what: string, ms?: number): Promise<void>;
}

/** Counts the WebSocket upgrades `server` receives and the sockets still open (observes only). */
export function watchSockets(server: Server): SocketWatch {
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let opened = 0;
  let open = 0;
  server.on('upgrade', (_request, socket) => {
    opened++;
    open++;
    socket.once('close', () => {
      open--;
      changed();
    });
    changed();
  });
  const watch: SocketWatch = {
    get opened() {
      return opened;
    },
    get open() {
      return open;
    },
    until: (ready, what, ms = 5000) =>
      until(
        check => {
          waiters.add(check);
          return () => waiters.delete(check);
        },
        () => ready(watch),
        what,
        ms,
      ),
  };
  return watch;
}
