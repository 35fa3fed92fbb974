/**
 * graphql-ws on the GraphQL path of the same HTTP server. Sockets go through Yoga's envelop
 * (`getEnveloped`), so they share schema, context and plugins with HTTP requests. The caller is
 * resolved once, at connection init, from `connectionParams` or the upgrade request.
 */
import type { IncomingMessage, Server } from 'node:http';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Caller } from '../core/caller.rules.js';
import { personOf } from '../core/principals.rules.js';
import type { Mount } from '../http/request-context.js';
import { resolveCaller } from '../gateway-auth/resolve-caller.http.js';
import { graphqlRefusal } from '../http/error-responses.js';
import { fail, isAppError } from '../errors.js';
import { assertNoNulInOperation } from '../http/body.js';
import { endWithError } from '../http/node-edge.js';
import type { Services } from '../services.js';
import { FEED_LIMIT_DEFAULTS, type FeedLimits, PlacesPerPrincipal } from './feed-limits.rules.js';
import { DIRECT_FRAMES, type DirectFrames } from './shared-subscribe.service.js';

/** Close codes a client can act on (graphql-ws itself uses 4400-4499 for protocol errors). */
export const CLOSE_CODES = {
  /** The credential expired while connected: refresh it and reconnect. */
  tokenExpired: 4401,
  /** The client did not read fast enough; its send buffer passed MAX_BUFFERED_BYTES. */
  slowConsumer: 4413,
  /**
   * The principal already holds WS_MAX_SOCKETS_PER_PRINCIPAL sockets on this process: close one,
   * or multiplex subscriptions over fewer sockets. graphql-ws clients treat 4429 as final (no
   * retry loop); graphql-ws also sends it for a repeated connection_init, the reason tells them apart.
   */
  tooManySockets: 4429,
} as const;

/** `extensions.code` of the error a subscribe past WS_MAX_SUBSCRIPTIONS_PER_SOCKET gets. */
export const TOO_MANY_SUBSCRIPTIONS = 'too_many_subscriptions';

/** Per-connection send buffer bound: past it the connection is closed rather than grow memory. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

interface Options {
  server: Server;
  yoga: YogaServerInstance<any, any>;
  services: Services;
  path: string;
  /** The hosted app of a request's Host, when it is a registered app origin (src/gateway-auth/gateway-setup.http.ts). */
  /** Where the socket arrived, by its Host header (a hosted app origin or the gateway's own). */
  mountOf?: (host: string | undefined) => Mount | Promise<Mount>;
  /** Per-process socket and subscription caps (WS_MAX_*); defaults FEED_LIMIT_DEFAULTS. */
  limits?: Partial<FeedLimits>;
}

export function attachWebSocketFeeds({ server, yoga, services, path, mountOf, limits: configured }: Options) {
  const limits: FeedLimits = { ...FEED_LIMIT_DEFAULTS, ...configured };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });
  const frames = frameBytes();
  const callers = new WeakMap<WebSocket, Caller>();
  const expiries = new WeakMap<WebSocket, NodeJS.Timeout>();
  // Open sockets per person (an agent's count against its owner) on this process; a socket is
  // counted from its accepted connection_init to its close.
  const socketsByPerson = new PlacesPerPrincipal(limits.maxSocketsPerPrincipal);
  const countedAs = new WeakMap<WebSocket, string>();
  // Each person's open sockets' graphql-ws contexts: their operations, which graphql-ws keeps exact
  // (an id is added before onSubscribe and dropped on complete or close), summed per person.
  const operationsByPerson = new Map<string, Set<{ subscriptions: Record<string, unknown> }>>();
  const operationsOf = (person: string) => {
    let open = 0;
    for (const socket of operationsByPerson.get(person) ?? []) open += Object.keys(socket.subscriptions).length;
    return open;
  };

  // The app each socket's credential must belong to (its hosted origin's), set at the upgrade.
  const audiences = new WeakMap<WebSocket, string | null>();

  /** `path` on the gateway's host; `/_osg${path}` on a hosted app origin, whose app the socket is then bound to. */
  async function mountFor(request: IncomingMessage): Promise<Mount | null> {
    const pathname = new URL(request.url ?? '/', 'http://gatehouse.local').pathname;
    const mount: Mount = mountOf ? await mountOf(request.headers.host) : { prefix: '', host: null };
    return pathname === `${mount.prefix}${path}` ? mount : null;
  }

  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    // Node leaves an upgraded socket without an error listener, and ws adds its own only at the
    // handshake: a peer resetting meanwhile must not raise an uncaught error.
    socket.on('error', () => socket.destroy());
    mountFor(request).then(
      mount => {
        if (!mount) {
          const message = `No WebSocket endpoint here: live feeds are at ${path} (graphql-transport-ws), /_osg${path} on an app's origin.`;
          return endWithError(socket, 404, 'Not Found', 'not_found', message);
        }
        // Refused before the handshake: a full process spends nothing more on the socket.
        if (wss.clients.size >= limits.maxSockets) {
          const message = `This server holds its maximum of ${limits.maxSockets} live-feed sockets: retry in a few seconds.`;
          return endWithError(socket, 503, 'Service Unavailable', 'busy', message, { 'Retry-After': '5' });
        }
        wss.handleUpgrade(request, socket, head, ws => {
          audiences.set(ws, mount.host?.appId ?? null);
          wss.emit('connection', ws, request);
        });
      },
      () => socket.destroy(),
    );
  });

  wss.on('connection', (socket: WebSocket) => guardBackpressure(socket));

  const disposable = useServer(
    {
      onConnect: async ctx => {
        const caller = await socketCaller(
          services,
          ctx.extra.request,
          (ctx.connectionParams ?? {}) as Record<string, unknown>,
          audiences.get(ctx.extra.socket) ?? null,
        );
        // false closes the socket with graphql-ws' 4403 Forbidden.
        if (caller?.type !== 'principal') return false;
        const socket = ctx.extra.socket;
        // Closed while the credential was checked: its close hook already ran, so it must not be counted.
        if (socket.readyState !== socket.OPEN) return false;
        const key = personOf(caller.principal);
        if (!socketsByPerson.take(key)) {
          // The first close wins: graphql-ws' own 4403 for `false` is then ignored by ws.
          socket.close(
            CLOSE_CODES.tooManySockets,
            `Too many connections: at most ${limits.maxSocketsPerPrincipal} sockets per user (an agent's count as its owner's)`,
          );
          return false;
        }
        countedAs.set(socket, key);
        operationsByPerson.set(key, (operationsByPerson.get(key) ?? new Set()).add(ctx));
        callers.set(socket, caller);
        if (caller.expiresAt) {
          const ms = caller.expiresAt - services.deps.now().getTime();
          expiries.set(
            socket,
            setTimeout(
              () => socket.close(CLOSE_CODES.tokenExpired, 'Token expired: refresh it and reconnect'),
              Math.min(Math.max(ms, 0), 2 ** 31 - 1),
            ),
          );
        }
        return true;
      },
      onClose: ctx => {
        clearTimeout(expiries.get(ctx.extra.socket));
        const key = countedAs.get(ctx.extra.socket);
        if (key === undefined) return;
        countedAs.delete(ctx.extra.socket);
        socketsByPerson.release(key);
        const held = operationsByPerson.get(key);
        held?.delete(ctx);
        if (held?.size === 0) operationsByPerson.delete(key);
      },
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, id, payload) => {
        // graphql-ws registers the id before this hook and drops it on complete or close, so
        // this count includes the new operation. Refused before any parsing or context work.
        if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptionsPerSocket) {
          const message = `Too many subscriptions: at most ${limits.maxSubscriptionsPerSocket} per socket. Complete one, or open another socket.`;
          return [graphqlRefusal(fail(TOO_MANY_SUBSCRIPTIONS, message))];
        }
        const person = countedAs.get(ctx.extra.socket);
        if (person !== undefined && operationsOf(person) > limits.maxSubscriptionsPerPerson) {
          const message = `Too many subscriptions: at most ${limits.maxSubscriptionsPerPerson} per user over all their sockets (an agent's count as its owner's). Complete one first.`;
          return [graphqlRefusal(fail(TOO_MANY_SUBSCRIPTIONS, message))];
        }
        // The same NUL refusal as HTTP (Yoga's onParams does not run for sockets).
        try {
          assertNoNulInOperation(payload);
        } catch (error) {
          return [graphqlRefusal(error)];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          caller: callers.get(ctx.extra.socket) ?? null,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
        });
        const contextValue = await contextFactory();
        // Feed events skip graphql-ws' per-subscriber execute and stringify: the shared payload
        // (src/feeds/shared-subscribe.service.ts) is written with this subscription's id spliced in.
        const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
        const socket = ctx.extra.socket;
        (contextValue as { [DIRECT_FRAMES]?: DirectFrames })[DIRECT_FRAMES] = json => {
          // Completed by the client, or the socket closed: graphql-ws has dropped the id.
          if (id in ctx.subscriptions && socket.readyState === socket.OPEN) sendTextFrame(socket, frames.frame(head, json));
        };
        const args = {
          schema,
          operationName: payload.operationName,
          document: parse(payload.query),
          variableValues: payload.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    wss,
  );

  return {
    wss,
    /** Open sockets and the operations they carry now (/metrics). */
    live() {
      let subscriptions = 0;
      for (const person of operationsByPerson.keys()) subscriptions += operationsOf(person);
      return { sockets: wss.clients.size, subscriptions };
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await disposable.dispose();
      await new Promise<void>(resolve => wss.close(() => resolve()));
    },
  };
}

/**
 * A bearer credential in connectionParams (`authorization` or `token`) or on the upgrade request;
 * otherwise the session cookie, accepted only from a page on one of the app's origins (or the
 * gateway's own), because browsers send cookies on cross-site WebSocket handshakes.
 */
async function socketCaller(
  services: Services,
  request: IncomingMessage,
  params: Record<string, unknown>,
  audienceAppId: string | null,
): Promise<Caller | null> {
  const bearer = typeof params.authorization === 'string' ? params.authorization : typeof params.token === 'string' ? `Bearer ${params.token}` : null;
  // connectionParams stand in for the handshake's Authorization header (browsers cannot set it).
  const headers = headersOfNode(request);
  if (bearer) headers.set('authorization', bearer);
  let resolved;
  try {
    resolved = await resolveCaller(services, headers, audienceAppId);
  } catch (error) {
    // A refused credential (another app's token, env not deployed) is a 4403 like a bad one.
    if (isAppError(error) && error.status < 500) return null;
    throw error;
  }
  const { caller, credential } = resolved;
  if (!caller || credential !== 'cookie') return caller;
  if (caller.type !== 'principal') return null;
  const origin = request.headers.origin;
  const { origins } = await services.apps.deployment(caller.deployment.id);
  const allowed = new Set([...origins, new URL(services.deps.config.publicUrl).origin]);
  return origin && allowed.has(origin) ? caller : null;
}

/** A `next` message, framed once: `wire` is the whole WebSocket text frame, `payload` its message. */
export interface TextFrame {
  wire: Buffer;
  payload: Buffer;
}

/** An unmasked, final text frame (RFC 6455 §5.2), as a server sends it. */
export function textFrame(message: string): TextFrame {
  const payload = Buffer.from(message);
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x81, length])
      : length < 65536
        ? Buffer.from([0x81, 126, length >> 8, length & 255])
        : Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
  if (length >= 65536) head.writeUIntBE(length, 4, 6);
  const wire = Buffer.concat([head, payload]);
  return { wire, payload: wire.subarray(head.length) };
}

const SHARED_HEADS = 64;

/**
 * The frame of `head + payload + '}'`, shared by every subscriber of one event whose subscription
 * has the same id (most clients number from 1): an event reaches its subscribers in one
 * synchronous loop with the same payload string, so one encoding serves them all instead of a
 * string and a copy per socket. Holds the current payload's frames only, and a few of them.
 */
function frameBytes() {
  let payload: string | null = null;
  const byHead = new Map<string, TextFrame>();
  return {
    frame(head: string, json: string): TextFrame {
      if (json !== payload) {
        payload = json;
        byHead.clear();
      }
      let frame = byHead.get(head);
      if (!frame) {
        frame = textFrame(`${head}${json}}`);
        // Ids unique per socket (uuids) share nothing: keep a few, not one per subscriber.
        if (byHead.size < SHARED_HEADS) byHead.set(head, frame);
      }
      return frame;
    },
  };
}

/** The parts of ws' WebSocket that `sendTextFrame` relies on (ws 8: lib/websocket.js, lib/sender.js). */
interface WsInternals {
  _socket?: { write(chunk: Buffer): boolean; cork(): void; uncork(): void; destroyed: boolean } | null;
  _sender?: { _state?: unknown; _queue?: unknown } | null;
}

/**
 * Writes a framed message to the socket's TCP stream in one buffer. ws' own send frames every
 * call anew and writes header and payload as two buffers under cork; for one event to 5,000
 * sockets that was a fifth of the fan-out (bench/README.md). Only where ws itself would write at
 * once: its sender idle with nothing queued (it queues only while compressing, which is off on
 * this server, or reading a Blob, which Gatehouse never sends). Anything else, including a ws
 * whose internals differ, goes through `send`, as does a socket past its buffer bound (the
 * backpressure guard closes it there).
 */
export function sendTextFrame(socket: WebSocket, frame: TextFrame): void {
  const { _socket: tcp, _sender: sender } = socket as unknown as WsInternals;
  const idle = sender?._state === 0 && Array.isArray(sender._queue) && sender._queue.length === 0;
  if (tcp && !tcp.destroyed && idle && socket.bufferedAmount <= MAX_BUFFERED_BYTES) {
    corkUntilNextTick(tcp);
    tcp.write(frame.wire);
  } else socket.send(frame.payload, TEXT_FRAME);
}

const corked = new WeakSet<object>();

/**
 * One change fans out to many subscriptions of the same socket in one synchronous run (up to
 * 100 per socket): corked, their frames leave in one write at the next tick instead of a system
 * call each.
 */
function corkUntilNextTick(tcp: NonNullable<WsInternals['_socket']>): void {
  if (corked.has(tcp)) return;
  corked.add(tcp);
  tcp.cork();
  process.nextTick(() => {
    corked.delete(tcp);
    tcp.uncork();
  });
}

/** A Buffer sent through ws goes as a text frame, as graphql-ws clients expect. */
const TEXT_FRAME = { binary: false } as const;

/** Wraps send so a consumer that stops reading is cut off instead of buffering without bound. */
export function guardBackpressure(socket: WebSocket, limit = MAX_BUFFERED_BYTES) {
  const send = socket.send.bind(socket);
  let cutOff = false;
  socket.send = ((data: any, ...rest: any[]) => {
    if (cutOff) return;
    if (socket.bufferedAmount > limit) {
      cutOff = true;
      socket.close(CLOSE_CODES.slowConsumer, 'Slow consumer: send buffer limit exceeded');
      // The close frame queues behind the unread data; do not wait for a reader that is gone.
      setTimeout(() => socket.terminate(), 1000).unref();
      return;
    }
    return (send as any)(data, ...rest);
  }) as WebSocket['send'];
}

/** A node:http request's headers as WHATWG Headers (what resolveCaller reads). */
function headersOfNode(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
