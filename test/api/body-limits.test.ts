/**
 * One body limit (MAX_BODY_BYTES, default 1 MiB) on every route, counted on the bytes actually read:
 * a chunked body without Content-Length is refused with 413 body_too_large like a declared one,
 * and the connection is closed rather than drained.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/lib/body.js';
import { captureLogs, setLogLevel } from '../../src/lib/logger.js';
import { type Seed, type TestContext, seed, startTestApp } from '../helpers/app.js';

let ctx: TestContext;
let s: Seed;

beforeAll(async () => {
  // Chunked uploads, kept-alive and closed connections: this needs a real socket.
  ctx = await startTestApp({ listen: true });
  s = await seed(ctx, ['alice']);
});
afterAll(() => ctx.close());

const LIMIT = DEFAULT_MAX_BODY_BYTES;

interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** Whether the server closed the connection (a kept-alive socket stays open). */
  closed: boolean;
}

/**
 * Streams `total` bytes as a chunked body (no Content-Length) over a keep-alive connection and
 * never ends it unless `end`, like a client that would go on sending forever.
 */
function sendChunked(
  path: string,
  options: { total: number; end?: boolean; headers?: Record<string, string>; contentLength?: number },
): Promise<RawResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(path, ctx.url);
  const chunk = Buffer.alloc(64 * 1024, ' ');
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        ...(options.contentLength === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(options.contentLength) }),
        ...options.headers,
      },
    });
    let responded = false;
    let socketClosed: Promise<boolean> = Promise.resolve(false);
    req.on('socket', socket => {
      socketClosed = new Promise(done => socket.once('close', () => done(true)));
    });
    // Writing after the server closed the connection is expected to fail (EPIPE / ECONNRESET).
    req.on('error', error => {
      if (!responded) reject(error);
    });
    req.on('response', res => {
      responded = true;
      const parts: Buffer[] = [];
      res.on('data', part => parts.push(part));
      res.on('end', async () => {
        const text = Buffer.concat(parts).toString('utf8');
        const closed = await Promise.race([socketClosed, new Promise<boolean>(done => setTimeout(() => done(false), 2000))]);
        agent.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null, closed });
      });
    });
    req.write('{"query":"{ __typename }"');
    let sent = 0;
    const pump = () => {
      while (!responded && sent < options.total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (options.end && !responded) req.end('}');
    };
    pump();
  });
}

describe('MAX_BODY_BYTES: one limit on the bytes actually read', () => {
  const over = LIMIT + 256 * 1024;

  it('refuses a chunked /graphql body past the limit with 413 and closes the connection', async () => {
    const res = await sendChunked('/graphql', { total: over, headers: { authorization: `Bearer ${s.users.alice.token}` } });
    expect(res.status).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'body_too_large', status: 413 } });
    expect(res.headers.connection).toBe('close');
    expect(res.closed).toBe(true);
  });

  it('refuses a chunked REST body past the limit with 413 and closes the connection', async () => {
    const res = await sendChunked('/v1/resources', { total: over, headers: { authorization: `Bearer ${s.users.alice.token}` } });
    expect(res).toMatchObject({ status: 413, body: { error: 'body_too_large', message: expect.stringContaining('1 MiB') }, closed: true });
    expect(res.headers.connection).toBe('close');
  });

  it('refuses a chunked /auth/token body past the limit with 413 and closes the connection', async () => {
    const res = await sendChunked('/auth/token', { total: over });
    expect(res).toMatchObject({ status: 413, body: { error: 'body_too_large' }, closed: true });
  });

  it('refuses a declared Content-Length past the limit before reading it, on any route', async () => {
    for (const path of ['/graphql', '/v1/resources', '/auth/token', '/healthz']) {
      const res = await sendChunked(path, { total: 64 * 1024, contentLength: LIMIT + 1 });
      expect(res.status, path).toBe(413);
      expect(res.closed, path).toBe(true);
    }
  });

  it('closes, rather than drains, a connection whose response did not wait for its body', async () => {
    // /healthz reads no body: it answers at once, and the endless upload must not keep the socket.
    const res = await sendChunked('/healthz', { total: 4 * LIMIT });
    expect(res.status).toBe(200);
    expect(res.closed).toBe(true);
  });

  it('still serves bodies just under the limit, chunked or not, and keeps the connection', async () => {
    const alice = s.users.alice;
    const pad = (json: string) => `${json.slice(0, -1) + ' '.repeat(LIMIT - json.length - 16)}}`;
    const rest = await alice.request('POST', '/v1/resources', pad(JSON.stringify({ type: 'team', name: 'Big' })));
    expect(rest).toMatchObject({ status: 200, body: { name: 'Big' } });
    const gql = await alice.request('POST', '/graphql', pad(JSON.stringify({ query: '{ me { id } }' })));
    expect(gql).toMatchObject({ status: 200, body: { data: { me: { id: alice.id } } } });
    const chunked = await sendChunked('/graphql', { total: LIMIT - 128 * 1024, end: true, headers: { authorization: `Bearer ${alice.token}` } });
    expect(chunked).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } }, closed: false });
  });

  it('keeps GET /graphql working', async () => {
    const res = await s.users.alice.get(`/graphql?query=${encodeURIComponent('{ me { id } }')}`);
    expect(res).toMatchObject({ status: 200, body: { data: { me: { id: s.users.alice.id } } } });
  });
});

describe('a client that goes away in the middle of its body', () => {
  it('is not an unexpected error: nothing is logged above debug, and the server goes on', async () => {
    const { port } = new URL(ctx.url);
    const abandon = (path: string, headers: string) =>
      new Promise<void>(resolve => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${headers}\r\n\r\n{"query":`);
          setTimeout(() => socket.resetAndDestroy(), 20);
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
    setLogLevel('info');
    const logs = captureLogs();
    try {
      for (const path of ['/graphql', '/v1/resources', '/auth/token', '/v1/resources/x/invite'])
        for (const framing of ['Content-Length: 1000', 'Transfer-Encoding: chunked'])
          await abandon(path, `${framing}\r\nAuthorization: Bearer ${s.users.alice.token}`);
      // The aborted reads settle after the sockets close.
      await new Promise(resolve => setTimeout(resolve, 200));
    } finally {
      logs.stop();
      setLogLevel('silent');
    }
    expect(logs.lines.filter(line => line.level > 20)).toEqual([]);
    expect((await s.users.alice.get('/v1/resources')).status).toBe(200);
  });
});
