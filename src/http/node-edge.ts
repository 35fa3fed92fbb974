/**
 * The server's two edges into one pipeline (src/server.ts). A fetch-style `Request` costs a
 * request's URL, headers, abort signal (an AbortController and three listeners) and body stream
 * before any handler runs, and its `Response` is copied back to node: ~10 of the ~140 us of server
 * CPU a small read took (bench/README.md). So the route table's requests (files aside) and POST
 * /graphql are served on node's own objects, and their `Request` is built only if a handler asks
 * for one; everything else goes through `@whatwg-node/server`'s adapter as before. Both run the same pipeline and
 * answer alike (test/api/node-edge.test.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type FetchAPI, normalizeNodeRequest, sendNodeResponse } from '@whatwg-node/server';
import { restError } from './error-responses.js';
import { type ErrorCode, statusOf } from '../core/error-catalog.js';
import { unusableTarget, usableHost } from './body.js';
import { type HeaderReader, JsonResponse } from './responses.js';

/** A request as the pipeline's front reads it; `request()` is the WHATWG Request, built on first use on the node edge. */
export interface Incoming {
  method: string;
  url: URL;
  headers: HeaderReader;
  request(): Request;
}

/** The adapter's request as the pipeline reads it; null when its Host header and target form no usable URL. */
export function fetchIncoming(request: Request): Incoming | null {
  const url = URL.parse(request.url);
  if (!url || !usableHost(request.headers.get('host'))) return null;
  return { method: request.method, url, headers: request.headers, request: () => request };
}

/** Node's parsed headers, read as a `Headers` built from them reads (the adapter builds it so): repeated values joined by ", ". */
export class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

/** A request on the node edge; its WHATWG Request is the adapter's own conversion (headers, and a signal aborted when the client goes away), made on first use. */
class NodeIncoming implements Incoming {
  readonly headers: NodeHeaders;
  #request: Request | undefined;

  constructor(
    readonly method: string,
    readonly url: URL,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly fetchAPI: FetchAPI,
  ) {
    this.headers = new NodeHeaders(req.headers);
  }

  request(): Request {
    this.#request ??= normalizeNodeRequest(this.req, this.fetchAPI, this.res);
    return this.#request;
  }
}

/**
 * The requests served on node's objects: the route table's paths, except files, which stream (their
 * bodies read through the pipeline's one reader), and POSTs to /graphql, here and under /_osg on
 * app origins. Only a choice of speed: whatever the path turns out to be, the
 * pipeline routes it, and builds the Request if its handler needs one.
 */
const ROUTE_TABLE = /^(?:\/_osg)?\/v1\/(?!files(?:\/|$))/;
const NODE_SERVED = new Map([
  ['GET', ROUTE_TABLE],
  ['POST', /^(?:\/_osg)?\/(?:graphql(?:\?|$)|v1\/(?!files(?:\/|$)))/],
  ['PATCH', ROUTE_TABLE],
  ['PUT', ROUTE_TABLE],
  ['DELETE', ROUTE_TABLE],
]);

interface EdgeOptions {
  /** The pipeline; it gathers in `edge.headers` what every response to the request carries. */
  respond(incoming: Incoming, edge: { req: IncomingMessage; res: ServerResponse; headers: Record<string, string> }): Promise<Response>;
  fetchAPI: FetchAPI;
  /** The adapter's listener, for everything else. */
  fallback(req: IncomingMessage, res: ServerResponse): unknown;
  /** false: every request through the adapter (the benchmark's baseline for this edge). */
  onNodeObjects?: boolean;
}

/** A JSON answer in one head and one write; anything else as the adapter writes it. The response's own fields win, as in `writeHead`. */
function write(response: Response, headers: Record<string, string>, req: IncomingMessage, res: ServerResponse) {
  if (!(response instanceof JsonResponse)) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return sendNodeResponse(response, res, req, true);
  }
  if (res.destroyed || res.writableEnded) return;
  // `headers` is this request's own object: the response's fields are added to it, not copied.
  res.writeHead(response.status, Object.assign(headers, response.fields));
  res.end(response.payload);
}

export function createNodeEdge({ respond, fetchAPI, fallback, onNodeObjects = true }: EdgeOptions) {
  function incomingOf(req: IncomingMessage, res: ServerResponse): Incoming | null {
    const target = req.url;
    const host = req.headers.host;
    const { method } = req;
    const served = onNodeObjects && method && NODE_SERVED.get(method);
    if (!served || !host || !target || !served.test(target) || !usableHost(host)) return null;
    const url = URL.parse(`${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host}${target}`);
    return url && new NodeIncoming(method, url, req, res, fetchAPI);
  }

  return {
    /** Serves one request from node:http, on node's objects or through the adapter. */
    serve(req: IncomingMessage, res: ServerResponse): void {
      // An absolute-form target (what a client sends a proxy) would be read as a path by the adapter.
      if (!req.url?.startsWith('/') && req.url !== '*') {
        write(restError(unusableTarget()), {}, req, res);
        return;
      }
      const incoming = incomingOf(req, res);
      if (!incoming) {
        fallback(req, res);
        return;
      }
      const headers: Record<string, string> = {};
      respond(incoming, { req, res, headers })
        .then(response => write(response, headers, req, res))
        .catch(() => res.destroy());
    },
  };
}

/** What node's parser refuses before a request exists, as the status node itself would send. */
const CLIENT_ERRORS: Record<string, { status: number; reason: string; code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: statusOf('headers_too_large'),
    reason: 'Request Header Fields Too Large',
    code: 'headers_too_large',
    message: 'The request line and headers are larger than the server reads (16 KiB): shorten the URL or the headers.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: statusOf('request_timeout'),
    reason: 'Request Timeout',
    code: 'request_timeout',
    message: 'The request did not arrive in full in time.',
  },
};

/**
 * Answers a request node's HTTP parser refused (an unknown method, a malformed line or header,
 * headers past the limit) with the status node would send and a JSON error body like every other
 * error's, instead of node's bare status line. Nothing is written on a connection whose response
 * has begun or that is gone.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  const started = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || started) return void socket.destroy();
  const known = CLIENT_ERRORS[error.code ?? ''];
  const { status, reason, code, message } = known ?? {
    status: 400,
    reason: 'Bad Request',
    code: 'invalid_argument',
    message: `The request is not valid HTTP/1.1 (${error.code === 'HPE_INVALID_METHOD' ? 'unknown method' : 'malformed request line or header'}).`,
  };
  endWithError(socket, status, reason, code, message);
}

/**
 * Writes a whole JSON error response on a raw socket and closes it: for answers given before a
 * request object exists (a refused parse, a refused WebSocket upgrade).
 */
export function endWithError(
  socket: import('node:stream').Duplex,
  status: number,
  reason: string,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  // A raw socket past node's HTTP parser has no error listener: a peer that resets before the
  // write would otherwise raise an uncaught ECONNRESET and end the process.
  socket.on('error', () => socket.destroy());
  const body = JSON.stringify({ error: code, message });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}
