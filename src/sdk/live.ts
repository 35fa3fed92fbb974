/**
 * Live feeds (docs/api.md §6) over graphql-ws: one socket per LiveConnection, opened on the first
 * subscribe and shared by every handle, closed when the last handle closes. The connection owns
 * reconnecting (graphql-ws' own retry is off): backoff with full jitter, every open handle
 * re-subscribed. A 4401 close (credential expired) refreshes once before reconnecting. A
 * keep-alive ping finds a socket that died silently (a sleeping laptop, a dropped NAT entry, a
 * proxy that stopped forwarding): no pong in time ends the socket, and the reconnect logic takes over.
 *
 * Every feed starts with a snapshot of its rows (the server's `snapshot` inserts, then `ready`),
 * then carries every change with no gap. A handle keeps the rows it has reported, so a fresh
 * snapshot after a reconnect is reconciled against them: the app receives only the difference
 * (inserts, updates, and deletes for rows that went away while it was offline), never a repeat.
 * Statuses: 'connecting' until the first snapshot is in, 'live', 'offline' while the connection
 * is lost and being retried (then 'live' once the new snapshot is reconciled), 'closed'.
 */
import { type Client, createClient } from 'graphql-ws';
import { GatehouseError, errorFrom } from './errors.js';

export type LiveStatus = 'connecting' | 'live' | 'offline' | 'closed';
export type LiveOp = 'insert' | 'update' | 'delete';

/** Beside each row: whether it comes from a snapshot (the first one, or one reconciled after a reconnect). */
export interface LiveEventInfo {
  snapshot: boolean;
}

export interface LiveHandle<T> {
  /** insert and update carry the row as it is now. */
  on(event: 'insert' | 'update', fn: (row: T, info: LiveEventInfo) => void): LiveHandle<T>;
  /** delete carries the row's identity only (`id`; membership rows also resourceId and userId; grants resourceId and roomId). */
  on(event: 'delete', fn: (row: Partial<T>, info: LiveEventInfo) => void): LiveHandle<T>;
  on(event: LiveOp, fn: (row: Partial<T>, info: LiveEventInfo) => void): LiveHandle<T>;
  /** Called at once with the current status, then on every change. */
  on(event: 'status', fn: (status: LiveStatus) => void): LiveHandle<T>;
  on(event: 'error', fn: (error: Error) => void): LiveHandle<T>;
  /** The rows as this feed knows them now (after 'live': the snapshot with every change applied). */
  rows(): T[];
  /**
   * Reads the feed's snapshot again and reports only what differs from the rows already reported
   * (inserts, updates, deletes, marked `snapshot: true`), as after a reconnect; changes meanwhile
   * wait and follow. For access that changed with no row changing (a room grant given or taken:
   * the rows it reveals or hides send no event). Not connected: the reconnect reads one anyway.
   */
  resync(): void;
  close(): void;
}

/** How a feed's rows are told apart: its key, and what a delete carries. Default: `id`. */
export interface LiveRowIdentity {
  key(row: Record<string, unknown>): string;
  identity(row: Record<string, unknown>): Record<string, unknown>;
}

/** Rows of the row store: `id`; a delete carries `{ id }`. */
export const BY_ID: LiveRowIdentity = { key: row => String(row.id), identity: row => ({ id: row.id }) };
/** Membership rows are told apart by `id`; a delete carries `{ id, resourceId, userId }` (§6). */
export const MEMBER_IDENTITY: LiveRowIdentity = {
  key: row => String(row.id),
  identity: row => ({ id: row.id, resourceId: row.resourceId, userId: row.userId }),
};
/** Grants are told apart by resource and room; a delete carries `{ resourceId, roomId }` (§10.4). */
export const GRANT_IDENTITY: LiveRowIdentity = {
  key: row => `${row.resourceId}:${row.roomId}`,
  identity: row => ({ resourceId: row.resourceId, roomId: row.roomId }),
};

export interface LiveConnection {
  subscribe<T>(query: string, variables?: Record<string, unknown>, identity?: LiveRowIdentity): LiveHandle<T>;
  /**
   * While the connection is lost and waiting out its backoff ('offline'), tries again now: call it
   * when the app learns the network is back (a browser's `online` event). Otherwise does nothing.
   */
  reconnect(): void;
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
 * (status 'offline', then 'live').
 */
export interface LiveKeepAlive {
  intervalMs?: number;
  timeoutMs?: number;
}

export const DEFAULT_KEEP_ALIVE = { intervalMs: 10_000, timeoutMs: 5_000 } as const;

/** Close codes of the server (src/feeds/websocket.routes.ts) and graphql-ws that reconnecting cannot fix. */
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
/** Feed errors that subscribing again can fix: a feed fallen behind, a server without capacity (503), a feed stopped on a server fault. */
const RESUBSCRIBE = new Set(['slow_consumer', 'busy', 'feed_failed']);
/** A connection that lived shorter than this after a refresh and expired again: refreshing does not help. */
const MIN_REFRESHED_LIFETIME_MS = 5_000;

type Listener = (value: unknown, info?: LiveEventInfo) => void;
type Listeners = { [K in LiveOp | 'status' | 'error']: Set<Listener> };

class Handle<T> implements LiveHandle<T> {
  status: LiveStatus = 'connecting';
  /** Stops this handle's graphql-ws subscription (the current socket's). */
  unsubscribe: (() => void) | null = null;
  /** The rows reported to the app, by key. */
  private known = new Map<string, Record<string, unknown>>();
  /** A snapshot being received (until its `ready`); null while live. */
  private incoming: Map<string, Record<string, unknown>> | null = null;
  /** Subscribes refused as retryable since the last snapshot: the backoff's exponent. */
  retries = 0;
  /** Bumped per subscription sent: events of one this handle has since replaced are ignored. */
  subscriptions = 0;
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
    private readonly identity: LiveRowIdentity,
  ) {}

  on(event: LiveOp | 'status' | 'error', fn: (value: never, info: never) => void): LiveHandle<T> {
    const set = this.listeners[event];
    if (!set) throw new TypeError(`Unknown live event "${String(event)}": use insert, update, delete, status or error.`);
    set.add(fn as Listener);
    if (event === 'status') (fn as Listener)(this.status);
    return this;
  }

  rows(): T[] {
    return [...this.known.values()] as T[];
  }

  resync(): void {
    this.owner.resync(this);
  }

  close(): void {
    this.owner.release(this);
  }

  /** A subscription was (re)sent: a fresh snapshot is coming. */
  expectSnapshot(): void {
    this.incoming = new Map();
  }

  /** One server event: a snapshot row, the snapshot's end, or a change. */
  receive(event: { op: string; row: Record<string, unknown> | null }): void {
    if (event.op === 'ready') {
      this.reconcile();
      return;
    }
    const row = event.row;
    if (!row || (event.op !== 'insert' && event.op !== 'update' && event.op !== 'delete')) return;
    const key = this.identity.key(row);
    // Until `ready` every event is the snapshot's (the server holds changes until after it).
    if (this.incoming) {
      this.incoming.set(key, row);
      return;
    }
    if (event.op === 'delete') {
      // A delete may repeat for a row already out of sight (docs/api.md §6): only known rows go.
      // It carries the identity; the data columns a typed document selects come back null.
      if (this.known.delete(key)) this.emit('delete', Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)), { snapshot: false });
      return;
    }
    const op = this.known.has(key) ? 'update' : 'insert';
    this.known.set(key, row);
    this.emit(op, row, { snapshot: false });
  }

  /** The snapshot is in: report what differs from the rows already reported, then go live. */
  private reconcile(): void {
    const snapshot = this.incoming ?? new Map();
    this.incoming = null;
    const before = this.known;
    this.known = snapshot;
    for (const [key, row] of snapshot) {
      const old = before.get(key);
      if (!old) this.emit('insert', row, { snapshot: true });
      else if (JSON.stringify(old) !== JSON.stringify(row)) this.emit('update', row, { snapshot: true });
    }
    for (const [key, row] of before) if (!snapshot.has(key)) this.emit('delete', this.identity.identity(row), { snapshot: true });
    this.retries = 0;
    this.setStatus('live');
  }

  setStatus(status: LiveStatus): void {
    if (this.status === status || this.status === 'closed') return;
    this.status = status;
    this.emit('status', status);
  }

  emit(event: keyof Listeners, value: unknown, info?: LiveEventInfo): void {
    for (const fn of [...this.listeners[event]]) {
      try {
        fn(value, info);
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
  /** What the pending retry will do (open a socket, or refresh first). */
  private retry: (() => void) | null = null;
  /** The socket in use was opened right after a refresh (the refresh-once rule). */
  private refreshed = false;
  /** A 4401 is being handled (refreshing); a second one from the same socket is ignored. */
  private refreshing = false;

  constructor(private readonly options: LiveConnectionOptions) {}

  subscribe<T>(query: string, variables?: Record<string, unknown>, identity: LiveRowIdentity = BY_ID): LiveHandle<T> {
    const handle = new Handle<T>(query, variables, this, identity);
    this.handles.add(handle);
    if (this.client) {
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

  /** Retries now when waiting to (after a lost or refused socket): the app knows the network is back. */
  reconnect(): void {
    const retry = this.retry;
    if (!this.retryTimer || !retry) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retry = null;
    retry();
  }

  /** Sends `handle`'s subscription again on the open socket; otherwise the (re)connect sends it anyway. */
  resync(handle: Handle<unknown>): void {
    if (!this.handles.has(handle) || !this.client || !this.live) return;
    handle.unsubscribe?.();
    handle.unsubscribe = null;
    this.attach(handle);
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
    this.retry = null;
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
          // Each handle goes 'live' when its snapshot is in (its `ready`), not when the socket opens.
          this.live = true;
          this.connectedAt = Date.now();
          this.attempt = 0;
        },
        closed: event => {
          clearTimeout(pongTimer);
          if (current()) this.onClosed(event as { code?: number; reason?: string });
        },
        // A socket that fails to open (refused, reset, no answer) reports only an error in Node's
        // WebSocket, no close: take it as the abnormal close (1006) it is, or the feeds would wait
        // for a close that never comes. Where a close follows too, it belongs to a given-up socket.
        error: () => {
          clearTimeout(pongTimer);
          if (current()) this.onClosed({ code: 1006 });
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
    // An unsubscribed operation still completes (graphql-ws calls its sink's complete): only the
    // handle's latest subscription on the latest socket speaks for it.
    const subscription = ++handle.subscriptions;
    const current = () => generation === this.generation && this.handles.has(handle) && subscription === handle.subscriptions;
    handle.expectSnapshot();
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
    if (RESUBSCRIBE.has(error.code)) {
      // The server dropped this feed, or had no capacity to start it (a reconnect storm's snapshot
      // reads): subscribing again, after a jittered backoff, brings a fresh snapshot reconciled on 'ready'.
      handle.unsubscribe?.();
      handle.unsubscribe = null;
      handle.setStatus('connecting');
      const { baseMs = 500, maxMs = 30_000 } = this.options.backoff ?? {};
      const delay = error.code === 'slow_consumer' ? 0 : Math.random() * Math.min(maxMs, baseMs * 2 ** handle.retries++);
      const generation = this.generation;
      setTimeout(() => {
        if (generation === this.generation && this.handles.has(handle) && !handle.unsubscribe) this.attach(handle);
      }, delay);
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

  /** Gives up the current socket; every handle waits as 'offline'. */
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
      handle.setStatus('offline');
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
    this.retry = () => {
      if (generation === this.generation && this.handles.size) then();
    };
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      const retry = this.retry;
      this.retry = null;
      retry?.();
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

/** Hands a `{ op, row }` event (the subscription's one root field, whatever its alias) to its handle. */
function deliver(handle: Handle<unknown>, data: Record<string, unknown> | null | undefined): void {
  if (!data) return;
  for (const value of Object.values(data)) {
    const event = value as { op?: unknown; row?: unknown } | null;
    if (event && typeof event.op === 'string') handle.receive({ op: event.op, row: (event.row ?? null) as Record<string, unknown> | null });
  }
}

export function createLiveConnection(options: LiveConnectionOptions): LiveConnection {
  return new Connection(options);
}
