/**
 * Request input, guarded in one place:
 * - the one body reader: every route (REST, GraphQL, /auth, the embedded provider's forms) reads its
 *   body here, and the bytes actually read (chunked or not) count against one limit, MAX_BODY_BYTES;
 * - the refusal of NUL bytes in any string input: PostgreSQL text cannot hold U+0000 (error 22021),
 *   so a NUL in a body, a URL or a GraphQL operation is a 400 `invalid_argument` naming where it was.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, parse, visit } from 'graphql';
import { fail } from '../errors.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const describeBytes = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

export const bodyTooLarge = (limit: number) =>
  fail('body_too_large', `body: larger than ${describeBytes(limit)} (MAX_BODY_BYTES); send a smaller body.`);

/**
 * The pipeline's entrance, before any routing: refuses NUL bytes in the URL and a declared
 * oversized body at once.
 */
export function guardRequestLine(url: URL, contentLength: string | null, maxBodyBytes: number): void {
  if (/%00/i.test(url.pathname)) throw nulRefused('path');
  if (url.search) {
    for (const [name, value] of url.searchParams) {
      if (name.includes('\0') || value.includes('\0')) throw nulRefused(`query.${name.replaceAll('\0', '')}`);
    }
  }
  if (Number(contentLength ?? 0) > maxBodyBytes) throw bodyTooLarge(maxBodyBytes);
}

/**
 * The one body reader of the pipeline: reads the whole body, counting the bytes actually received
 * (chunked or not). Over the limit it stops reading and throws `body_too_large`; the rest of the
 * body is drained after the 413 (drainWithin).
 */
export async function readRequestBody(request: Request, limit: number): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw bodyTooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** How much of a body nobody read the server takes in, after answering early, before it closes the connection. */
export interface DrainLimits {
  maxBytes: number;
  maxMs: number;
}

export const DEFAULT_DRAIN_LIMITS: DrainLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 30_000 };

/**
 * A response sent before its body was read (a 413 on a declared or counted size, a 401, a 402, a
 * route that reads no body): the client may still be sending. Closing the connection now would
 * make the client's TCP stack reset it under the data in flight, and a client busy sending (a
 * browser, Node's fetch) would report a network error instead of the answer. So the rest is read
 * and discarded, like a web server's lingering close, and the connection is kept for the next
 * request once the body ends; past `maxBytes` more, or `maxMs` after the answer, it is closed.
 * Installed at the node:http edge, for every request.
 */
export function drainWithin(req: IncomingMessage, res: ServerResponse, limits: DrainLimits): void {
  // 'prefinish' (the response is complete, before node's own 'finish' handling): taking the body
  // over here keeps node from dumping it unseen, so every byte of it passes through the count.
  res.once('prefinish', () => {
    const socket = req.socket;
    if (req.complete || !socket || socket.destroyed) return;
    let drained = 0;
    const close = () => socket.destroy();
    const timer = setTimeout(close, limits.maxMs).unref();
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > limits.maxBytes) close();
    };
    // The socket outlives the request (keep-alive): whichever ends the drain takes both listeners off.
    const stop = () => {
      clearTimeout(timer);
      req.off('data', onData).off('end', stop);
      socket.off('close', stop);
    };
    // Whoever read part of it is done (a body over its limit), and may have paused it or left a
    // reader waiting on 'readable': the rest flows here, counted and not kept.
    req.removeAllListeners('data');
    req.removeAllListeners('readable');
    req.on('data', onData).resume();
    req.once('end', stop);
    socket.once('close', stop);
  });
}

/**
 * `Expect: 100-continue`: the client waits for a 100 before it sends the body. Node would send one
 * at once; here it goes out when something first reads the body, so an answer decided on the
 * headers (413 on a declared length, 401, 403, 404) goes out instead and the body is never sent.
 * Node then closes the connection after that answer (the client may send the body regardless).
 */
export function continueOnFirstRead(req: IncomingMessage, res: ServerResponse): void {
  const read = req._read;
  req._read = function (this: IncomingMessage, size: number) {
    req._read = read;
    if (!res.headersSent) res.writeContinue();
    return read.call(this, size);
  };
}

/**
 * The node:http body reader of the embedded identity provider (its own server, or bridged in
 * from the pipeline, which has already applied the limit).
 */
export function readNodeBody(req: IncomingMessage, limit = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(bodyTooLarge(limit));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        return done(bodyTooLarge(limit));
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = (error: Error) => done(error);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** A JSON object body (empty body = {}); no string in it may hold a NUL. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail('invalid_json', 'body: not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('invalid_json', 'body: must be a JSON object.');
  assertNoNul(value, 'body');
  return value as Record<string, unknown>;
}

/** An application/x-www-form-urlencoded body; no field may hold a NUL. */
export function parseForm(bytes: Uint8Array): Record<string, string> {
  const form = Object.fromEntries(new URLSearchParams(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')));
  assertNoNul(form, 'body');
  return form;
}

/**
 * A Host header names a host (a DNS name or an address) with an optional port. The request's URL
 * is built from it and the target, so anything else (a space, a slash) would make no URL, or move
 * the path the pipeline routes away from the target a proxy in front routed.
 */
const HOST_HEADER = /^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Whether a Host header is one the pipeline builds URLs from (absent: the URL's own host is used). */
export const usableHost = (host: string | null | undefined) => host == null || HOST_HEADER.test(host);

export const unusableTarget = () =>
  fail(
    'invalid_argument',
    "The request's Host header and target do not form a URL: send a host name (with an optional port) and a target path starting with /.",
  );

const nulRefused = (where: string) => fail('invalid_argument', `${where}: must not contain NUL bytes.`);

/** Throws `invalid_argument` naming the first string (or object key) in `value` that holds a NUL. */
export function assertNoNul(value: unknown, where: string): void {
  // Iterative: a deeply nested body must not overflow the stack.
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\0')) throw nulRefused(path);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}.${i}`]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item).reverse()) {
        if (key.includes('\0')) throw nulRefused(path);
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
}

// A \u0000 or \u{0} escape in the operation text; only then is the document parsed to look closer.
const NUL_ESCAPE = /\\u(?:0000|\{0+\})/i;

/** GraphQL request parameters: variables, operation name and the string literals of the document. */
export function assertNoNulInOperation(params: { query?: unknown; variables?: unknown; operationName?: unknown }): void {
  assertNoNul(params.variables, 'variables');
  assertNoNul(params.operationName, 'operationName');
  if (typeof params.query !== 'string') return;
  if (params.query.includes('\0')) throw nulRefused('query');
  if (!NUL_ESCAPE.test(params.query)) return;
  let document;
  try {
    document = parse(params.query);
  } catch {
    return; // A syntax error: GraphQL's own validation reports it.
  }
  visit(document, {
    [Kind.STRING]: node => {
      if (node.value.includes('\0')) throw fail('invalid_argument', 'query: string literals must not contain NUL bytes.');
    },
  });
}
