/**
 * A WHATWG `Request` -> `Response` call into a node:http request listener with no socket
 * (light-my-request). The pipeline is fetch-style; the embedded identity provider (oidc-provider,
 * a Koa app) needs Node's request and response, so its routes are bridged in through this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { inject } from 'light-my-request';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

export interface InjectOptions {
  /** The peer address the listener sees (rate limits count per address). */
  remoteAddress?: string;
  /** The body, already read through the pipeline's limited reader; otherwise read from `request`. */
  body?: Uint8Array;
}

export async function injectFetch(listener: Listener, request: Request, options: InjectOptions = {}): Promise<Response> {
  const remoteAddress = options.remoteAddress ?? '127.0.0.1';
  const url = new URL(request.url);
  const headers: Record<string, string | string[]> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // What a client would send: Host from the URL (hosted app origins are told apart by it).
  headers.host ??= url.host;
  const payload = options.body?.byteLength
    ? Buffer.from(options.body)
    : !options.body && request.body
      ? Buffer.from(await request.arrayBuffer())
      : undefined;
  const injected = await inject(listener as Parameters<typeof inject>[0], {
    method: request.method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers,
    ...(payload ? { payload } : {}),
    remoteAddress,
    // Resolves at writeHead, so a streamed body (SSE) arrives as it is written.
    payloadAsStream: true,
    validate: false,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const out = new Headers();
  for (const [name, value] of Object.entries(injected.headers)) {
    if (value === undefined) continue;
    // Several Set-Cookie headers stay several (Headers.getSetCookie()).
    for (const one of Array.isArray(value) ? value : [value]) out.append(name, String(one));
  }
  const stream = injected.stream();
  const raw = injected.raw.res as ServerResponse;
  // The caller cancelling the body (an SSE client going away) closes the response, as a
  // disconnect would on a socket.
  stream.once('close', () => {
    if (!raw.writableFinished) raw.destroy();
  });
  const empty = NULL_BODY_STATUS.has(injected.statusCode) || request.method === 'HEAD';
  if (empty) stream.resume();
  return new Response(empty ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), {
    status: injected.statusCode,
    statusText: injected.statusMessage,
    headers: out,
  });
}
