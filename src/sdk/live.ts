/**
 * Live feeds (docs/api.md §6) over graphql-ws: one socket per LiveConnection, opened on the first
 * subscribe and shared by every handle, closed when the last handle closes. The connection owns
 * reconnecting (graphql-ws' own retry is off): backoff with full jitter, every open handle
 * re-subscribed, and each handle's status going 'reconnecting' -> 'live' so the app re-fetches
 * what it may have missed. A 4401 close (credential expired) refreshes once before reconnecting.
 * A keep-alive ping finds a socket that died silently (a sleeping laptop, a dropped NAT entry, a
 * proxy that stopped forwarding): no pong in time ends the socket, and the reconnect logic takes over.
 */
import { type Client, createClient } from 'graphql-ws';
import { GatehouseError, errorFrom } from './errors.js';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';
export type LiveOp = 'insert' | 'update' | 'delete';

export interface LiveHandle<T> {
  on(event: LiveOp, fn: (row: T) => void): LiveHandle<T>;
  /** Called at once with the current status, then on every change. */
  on(event: 'status', fn: (status: LiveStatus) => void): LiveHandle<T>;
  on(event: 'error', fn: (error: Error) => void): LiveHandle<T>;
  close(): void;
}

export interface LiveConnection {
  subscribe<T>(query: string, variables?: Record<string, unknown>): LiveHandle<T>;
  /** Closes every handle and the socket (a later subscribe opens a new one). */
  close(): void;
}

export interface LiveConnectionOptions {
  /** `ws(s)://<gateway>/graphql`, or `/_osg/graphql` on a hosted app origin. */
  url: string;
  /** Asked at every (re)connect, so a refreshed credential is used: `{ authorization: 'Bearer …' }` or `{}` (cookie). */
  connectionParams: () => Promise<Record<string, unknown>>;
  /** The refresh-once rule: true when the credential was renewed, false to give up. */
  refresh: () => Promise<boolean>;
  /** A WebSocket class where there is no global one (older Node: `import WebSocket from 'ws'`). */
  webSocketImpl?: unknown;
  /** Reconnect delays: full jitter over min(maxMs, baseMs * 2^attempt). Default 500 ms and 30 s. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** The heartbeat: see LiveKeepAlive. Default 10 s between pings, 5 s for the pong; false turns it off. */
  keepAlive?: LiveKeepAlive | false;
}

/**
 * The live socket's heartbeat: a graphql-ws ping `intervalMs` after the socket opened and after
 * every pong; no pong within `timeoutMs` of a ping ends the socket as dead, and the feeds reconnect
 * (status 'reconnecting', then 'live').
 */
export interface LiveKeepAlive {
  intervalMs?: number;
  timeoutMs?: number;
}

export const DEFAULT_KEEP_ALIVE = { intervalMs: 10_000, timeoutMs: 5_000 } as const;

/** Close codes of the server (src/realtime/websocket.ts) and graphql-ws that reconnecting cannot fix. */
const TERMINAL_CLOSES: Record<number, { status: number; code: string; message: string }> = {
  4403: {
    status: 401,
    code: 'unauthenticated',
    message: 'The live connection was refused: the credential is missing, invalid, expired or of another app. Sign in again.',
  },
  4429: { status: 429, code: 'too_many_sockets', message: 'Too many live connections for this user: close another client first.' },
  4400: { status: 400, code: 'live_protocol_error', message: 'The server refused a live-feed message (graphql-ws 4400).' },
  4406: { status: 400, code: 'live_protocol_error', message: 'The server does not speak graphql-transport-ws (4406).' },
  4409: { status: 400, code: 'live_protocol_error', message: 'Duplicate subscription id (graphql-ws 4409).' },
};
const TOKEN_EXPIRED = 4401;
/** A connection that lived shorter than this after a refresh and expired again: refreshing does not help. */
const MIN_REFRESHED_LIFETIME_MS = 5_000;

type Listener = (value: unknown) => void;
type Listeners = { [K in LiveOp | 'status' | 'error']: Set<Listener> };

class Handle<T> implements LiveHandle<T> {
  status: LiveStatus = 'connecting';
  /** Stops this handle's graphql-ws subscription (the current socket's). */
  unsubscribe: (() => void) | null = null;
  private readonly listeners: Listeners = {
    insert: new Set(),
    update: new Set(),
    delete: new Set(),
    status: new Set(),
    error: new Set(),
  };

  constructor(
    readonly query: string,
    readonly variables: Record<string, unknown> | undefined,
    private readonly owner: Connection,
  ) {}

  on(event: LiveOp | 'status' | 'error', fn: (value: never) => void): LiveHandle<T> {
    const set = this.listeners[event];
    if (!set) throw new TypeError(`Unknown live event "${String(event)}": use insert, update, delete, status or error.`);
    set.add(fn as Listener);
    if (event === 'status') (fn as Listener)(this.status);
    return this;
  }

  close(): void {
    this.owner.release(this);
  }

  setStatus(status: LiveStatus): void {
    if (this.status === status || this.status === 'closed') return;
    this.status = status;
    this.emit('status', status);
  }

  emit(event: keyof Listeners, value: unknown): void {
    for (const fn of [...this.listeners[event]]) {
      try {
        fn(value);
      } catch (error) {
        // A throwing listener must not stop the feed or the other listeners.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

class Connection implements LiveConnection {
  private readonly handles = new Set<Handle<unknown>>();
  private client: Client | null = null;
  /** Bumped per socket: callbacks of a socket already given up are ignored. */
  private generation = 0;
  private live = false;
  private connectedAt = 0;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** The socket in use was opened right after a refresh (the refresh-once rule). */
  private refreshed = false;
  /** A 4401 is being handled (refreshing); a second one from the same socket is ignored. */
  private refreshing = false;

  constructor(private readonly options: LiveConnectionOptions) {}

  subscribe<T>(query: string, variables?: Record<string, unknown>): LiveHandle<T> {
    const handle = new Handle<T>(query, variables, this);
    this.handles.add(handle);
    if (this.client) {
      handle.status = this.live ? 'live' : 'connecting';
      this.attach(handle);
    } else if (!this.retryTimer && !this.refreshing) {
      this.open();
    }
    // Otherwise the connection is waiting to reconnect: this handle joins the next socket.
    return handle;
  }

  close(): void {
    for (const handle of [...this.handles]) this.release(handle);
    this.teardown();
  }

  release(handle: Handle<unknown>): void {
    if (!this.handles.delete(handle)) return;
    handle.unsubscribe?.();
    handle.unsubscribe = null;
    handle.setStatus('closed');
    if (this.handles.size === 0) this.teardown();
  }

  /** Closes the socket and forgets any pending reconnect; the next subscribe starts over. */
  private teardown(): void {
    this.generation++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.live = false;
    this.attempt = 0;
    this.refreshed = false;
    this.refreshing = false;
    const client = this.client;
    this.client = null;
    // dispose() rejects when the socket never opened; nothing is left to clean up then.
    if (client) Promise.resolve(client.dispose()).catch(() => {});
  }

  private open(): void {
    const generation = ++this.generation;
    this.live = false;
    const current = () => generation === this.generation;
    const keepAlive = this.options.keepAlive === false ? null : { ...DEFAULT_KEEP_ALIVE, ...this.options.keepAlive };
    let pongTimer: ReturnType<typeof setTimeout> | undefined;
    const client = createClient({
      url: this.options.url,
      connectionParams: this.options.connectionParams,
      webSocketImpl: this.options.webSocketImpl,
      // This connection decides when the socket opens, closes and reconnects.
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: () => {},
      keepAlive: keepAlive?.intervalMs ?? 0,
      on: {
        // graphql-ws only sends the pings; waiting for the pong is ours. terminate() closes at once
        // (code 4499) where a close handshake with a dead peer could hang, and that close reconnects.
        ping: received => {
          if (received || !keepAlive) return;
          clearTimeout(pongTimer);
          pongTimer = setTimeout(() => {
            if (current()) client.terminate();
          }, keepAlive.timeoutMs);
        },
        pong: received => {
          if (received) clearTimeout(pongTimer);
        },
        connected: () => {
          if (!current()) return;
          this.live = true;
          this.connectedAt = Date.now();
          this.attempt = 0;
          for (const handle of this.handles) if (handle.unsubscribe) handle.setStatus('live');
        },
        closed: event => {
          clearTimeout(pongTimer);
          if (current()) this.onClosed(event as { code?: number; reason?: string });
        },
      },
    });
    this.client = client;
    for (const handle of this.handles) this.attach(handle);
  }

  /** Sends `handle`'s subscription on the current socket (graphql-ws queues it until the ack). */
  private attach(handle: Handle<unknown>): void {
    const client = this.client!;
    const generation = this.generation;
    const current = () => generation === this.generation && this.handles.has(handle);
    handle.unsubscribe = client.subscribe<Record<string, unknown>>(
      { query: handle.query, variables: handle.variables },
      {
        next: result => {
          if (!current()) return;
          if (result.errors?.length) return this.onOperationError(handle, result.errors);
          deliver(handle, result.data);
        },
        error: error => {
          // A socket close reaches every subscription too; onClosed handles those once.
          if (!current() || !Array.isArray(error)) return;
          this.onOperationError(handle, error);
        },
        complete: () => {
          // The server ended the feed (e.g. membersLive after your own removal, §6).
          if (current()) this.release(handle);
        },
      },
    );
  }

  /** GraphQL errors of one subscription: refused (gate, limits), or failed mid-stream. */
  private onOperationError(handle: Handle<unknown>, errors: readonly unknown[]): void {
    const error = errorFrom(200, { errors }, null);
    if (error.code === 'token_expired') {
      // The socket's credential lapsed too (it will close with 4401): refresh and reconnect all.
      this.credentialExpired(this.live ? Date.now() - this.connectedAt : 0);
      return;
    }
    if (error.code === 'slow_consumer') {
      // The server dropped this feed; subscribing again resumes it, and the app re-fetches.
      handle.unsubscribe?.();
      handle.setStatus('reconnecting');
      this.attach(handle);
      if (this.live) handle.setStatus('live');
      return;
    }
    handle.emit('error', error);
    this.release(handle);
  }

  private onClosed(event: { code?: number; reason?: string }): void {
    const code = event?.code ?? 1006;
    const lived = this.live ? Date.now() - this.connectedAt : 0;
    this.live = false;
    if (code === TOKEN_EXPIRED) {
      this.credentialExpired(lived);
      return;
    }
    const terminal = TERMINAL_CLOSES[code];
    if (terminal) {
      const reason = event?.reason ? ` (${event.reason})` : '';
      this.fail(new GatehouseError({ ...terminal, message: `${terminal.message}${reason}` }));
    } else {
      this.reconnectLater();
    }
  }

  /**
   * The socket's credential expired (a 4401 close or a feed's `token_expired`, whichever comes
   * first). A socket opened with a just-refreshed credential that expires again within
   * MIN_REFRESHED_LIFETIME_MS ends the feeds: refreshing again would only loop.
   */
  private credentialExpired(lived: number): void {
    if (this.refreshing) return;
    if (this.refreshed && lived < MIN_REFRESHED_LIFETIME_MS) {
      this.fail(new GatehouseError({ status: 401, code: 'token_expired', message: 'The refreshed credential expired at once: sign in again.' }));
      return;
    }
    this.expired();
  }

  /** Refresh once, then reconnect at once; a refused refresh ends every feed. */
  private expired(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    this.dropSocket();
    const generation = this.generation;
    this.options.refresh().then(
      renewed => {
        if (generation !== this.generation) return;
        this.refreshing = false;
        if (!renewed) {
          return this.fail(
            new GatehouseError({ status: 401, code: 'session_expired', message: 'The session expired and could not be refreshed: sign in again.' }),
          );
        }
        this.refreshed = true;
        this.open();
      },
      () => {
        // The refresh did not get an answer (network): retry later, refreshing first again.
        if (generation !== this.generation) return;
        this.refreshing = false;
        this.reconnectLater(() => this.expired());
      },
    );
  }

  /** Gives up the current socket; every handle waits as 'reconnecting'. */
  private dropSocket(): void {
    this.generation++;
    this.live = false;
    const client = this.client;
    this.client = null;
    if (client) Promise.resolve(client.dispose()).catch(() => {});
    for (const handle of this.handles) {
      // Also stops subscriptions the old client still queues for a socket that may yet open.
      handle.unsubscribe?.();
      handle.unsubscribe = null;
      handle.setStatus('reconnecting');
    }
  }

  private reconnectLater(then: () => void = () => this.open()): void {
    this.dropSocket();
    this.refreshed = false;
    const { baseMs = 500, maxMs = 30_000 } = this.options.backoff ?? {};
    // Full jitter: clients cut off together (a server restart) do not come back together.
    const delay = Math.random() * Math.min(maxMs, baseMs * 2 ** this.attempt);
    this.attempt++;
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (generation === this.generation && this.handles.size) then();
    }, delay);
  }

  /** Ends every handle with `error` and closes the socket. */
  private fail(error: GatehouseError): void {
    for (const handle of [...this.handles]) {
      handle.emit('error', error);
      this.release(handle);
    }
    this.teardown();
  }
}

/** Hands a `{ op, row }` event (the subscription's one root field, whatever its alias) to its listeners. */
function deliver(handle: Handle<unknown>, data: Record<string, unknown> | null | undefined): void {
  if (!data) return;
  for (const value of Object.values(data)) {
    const event = value as { op?: unknown; row?: unknown } | null;
    if (event && (event.op === 'insert' || event.op === 'update' || event.op === 'delete')) handle.emit(event.op, event.row);
  }
}

export function createLiveConnection(options: LiveConnectionOptions): LiveConnection {
  return new Connection(options);
}
