/**
 * One body limit (MAX_BODY_BYTES, default 1 MiB) on every route, counted on the bytes actually read:
 * a chunked body without Content-Length is refused with 413 body_too_large like a declared one.
 * An answer sent before its body was read lets the client finish sending and read it: the rest is
 * read and discarded (DRAIN_MAX_BYTES, DRAIN_MAX_SECONDS) and the connection serves the next
 * request; past either bound it is closed. `Expect: 100-continue` is answered when the body is read.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/http/body.js';
import { captureLogs, setLogLevel } from '../../src/lib/logger.js';
import { type Seed, type TestContext, seed, startTestApp } from '../helpers/app.js';
import { filesSeed } from './files.fixture.js';

let ctx: TestContext;
let s: Seed;
/** The same server with tight drain bounds: 2 MiB, 1 second. */
let tight: TestContext;
let tightSeed: Seed;

beforeAll(async () => {
  // Chunked uploads, kept-alive and closed connections: this needs a real socket.
  ctx = await startTestApp({ listen: true });
  // With the file fixtures' buckets: `docs` takes files up to 1 MiB.
  s = await filesSeed(ctx, ['alice']);
  tight = await startTestApp({ listen: true, env: { DRAIN_MAX_BYTES: String(2 * 1024 * 1024), DRAIN_MAX_SECONDS: '1' } });
  tightSeed = await seed(tight, ['alice']);
});
afterAll(async () => {
  await ctx.close();
  await tight.close();
});

const LIMIT = DEFAULT_MAX_BODY_BYTES;
const MiB = 1024 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * One HTTP/1.1 connection driven by hand: what a client writes, when, and when it reads, so a test
 * can be the client that sends its whole body before it looks at the answer (as browsers do).
 */
class Connection {
  private received = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  /** Write errors (EPIPE, ECONNRESET): the server closed the connection under the body. */
  readonly errors: string[] = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', chunk => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake?.();
    });
    socket.on('error', error => this.errors.push((error as NodeJS.ErrnoException).code ?? String(error)));
    this.closed = new Promise(resolve => socket.once('close', () => resolve()));
    this.closed.then(() => this.wake?.());
  }

  static open(app: TestContext): Promise<Connection> {
    const { port } = new URL(app.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  /** The request line and headers (a Host and `token`'s credential added). */
  head(method: string, path: string, token: string | undefined, headers: Record<string, string | number>): void {
    const lines = Object.entries({ host: '127.0.0.1', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }).map(
      ([k, v]) => `${k}: ${v}`,
    );
    this.socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  }

  /**
   * Writes `total` bytes of body (chunk-framed with `chunked`), pausing on backpressure as a
   * network would, without reading anything meanwhile when `readAfter`. Resolves once all is
   * written, or false when the server closed the connection under it.
   */
  async body(total: number, options: { chunked?: boolean; readAfter?: boolean; end?: boolean } = {}): Promise<boolean> {
    if (options.readAfter) this.socket.pause();
    const piece = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    try {
      while (sent < total && !this.socket.destroyed) {
        const part = piece.subarray(0, Math.min(piece.length, total - sent));
        const framed = options.chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
        sent += part.length;
        if (!this.socket.write(framed))
          await new Promise<void>(resolve => {
            const done = () => {
              this.socket.off('drain', done);
              this.socket.off('close', done);
              resolve();
            };
            this.socket.once('drain', done).once('close', done);
          });
      }
      if (options.chunked && options.end !== false && !this.socket.destroyed) this.socket.write('0\r\n\r\n');
    } finally {
      if (options.readAfter) this.socket.resume();
    }
    return !this.socket.destroyed && this.errors.length === 0;
  }

  /** The next answer on the connection (a `100 Continue` is an answer too); null once it closed without one. */
  async answer(): Promise<Answer | null> {
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.socket.destroyed) return null;
      await new Promise<void>(resolve => (this.wake = resolve));
    }
  }

  /** Raw bytes (a whole body at once). */
  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(): Answer | null {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.received.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map(line => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    if (this.received.length < end + 4 + length) return null;
    const text = this.received.subarray(end + 4, end + 4 + length).toString('utf8');
    this.received = this.received.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body: text ? JSON.parse(text) : null };
  }
}

/** A request on `connection` that the server can answer, proving the connection still serves. */
async function stillServes(connection: Connection, token: string | undefined): Promise<Answer | null> {
  connection.head('GET', '/v1/resources', token, {});
  return connection.answer();
}

describe('MAX_BODY_BYTES: one limit on the bytes actually read', () => {
  const over = LIMIT + 256 * 1024;
  const json = { 'content-type': 'application/json' };

  it.each([
    ['/graphql', (answer: Answer) => expect(answer.body.errors[0]).toMatchObject({ extensions: { code: 'body_too_large', status: 413 } })],
    ['/v1/resources', (answer: Answer) => expect(answer.body).toMatchObject({ error: 'body_too_large', message: expect.stringContaining('1 MiB') })],
    ['/auth/token', (answer: Answer) => expect(answer.body).toMatchObject({ error: 'body_too_large' })],
  ])('refuses a chunked %s body past the limit with 413, and the connection goes on serving', async (path, check) => {
    const connection = await Connection.open(ctx);
    connection.head('POST', path, s.users.alice.token, { ...json, 'transfer-encoding': 'chunked' });
    expect(await connection.body(over, { chunked: true })).toBe(true);
    const answer = (await connection.answer())!;
    expect(answer.status).toBe(413);
    check(answer);
    expect(answer.headers.connection).not.toBe('close');
    expect((await stillServes(connection, s.users.alice.token))?.status).toBe(200);
    connection.close();
  });

  it('refuses a declared Content-Length past the limit before reading it, on any route', async () => {
    for (const path of ['/graphql', '/v1/resources', '/auth/token', '/healthz']) {
      const connection = await Connection.open(ctx);
      connection.head('POST', path, s.users.alice.token, { ...json, 'content-length': LIMIT + 1 });
      const answer = await connection.answer();
      expect(answer?.status, path).toBe(413);
      // The answer came before the body: the client sends it, and the connection serves on.
      expect(await connection.body(LIMIT + 1)).toBe(true);
      expect((await stillServes(connection, s.users.alice.token))?.status, path).toBe(200);
      connection.close();
    }
  });

  it('issue 24 item 22: a client that sends its whole body before reading gets the 413, not a reset', async () => {
    // 40 MiB: more than loopback buffers hold unread, so a server that closed under the body
    // would reset the connection (EPIPE here; a network error in a browser or Node's fetch).
    const connection = await Connection.open(ctx);
    connection.head('POST', '/v1/resources', s.users.alice.token, { ...json, 'content-length': 40 * MiB });
    expect(await connection.body(40 * MiB, { readAfter: true })).toBe(true);
    expect(connection.errors).toEqual([]);
    expect(await connection.answer()).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
    connection.close();
  });

  it('drains at most DRAIN_MAX_BYTES more, then closes the connection', async () => {
    const connection = await Connection.open(tight);
    connection.head('POST', '/v1/resources', tightSeed.users.alice.token, { ...json, 'content-length': 64 * MiB });
    expect(await connection.answer()).toMatchObject({ status: 413 });
    expect(await connection.body(64 * MiB)).toBe(false);
    await connection.closed;
  });

  it('closes the connection of a client that stops sending, DRAIN_MAX_SECONDS after the answer', async () => {
    const connection = await Connection.open(tight);
    connection.head('POST', '/healthz', undefined, { ...json, 'content-length': 1000 });
    // /healthz reads no body: it answers at once, and a client that never sends must not keep the socket.
    expect(await connection.answer()).toMatchObject({ status: 200 });
    await connection.closed;
  });

  it('still serves bodies just under the limit, chunked or not, and keeps the connection', async () => {
    const alice = s.users.alice;
    const pad = (text: string) => `${text.slice(0, -1) + ' '.repeat(LIMIT - text.length - 16)}}`;
    const rest = await alice.request('POST', '/v1/resources', pad(JSON.stringify({ type: 'team', name: 'Big' })));
    expect(rest).toMatchObject({ status: 200, body: { name: 'Big' } });
    const gql = await alice.request('POST', '/graphql', pad(JSON.stringify({ query: '{ me { id } }' })));
    expect(gql).toMatchObject({ status: 200, body: { data: { me: { id: alice.id } } } });
    const connection = await Connection.open(ctx);
    const query = JSON.stringify({ query: '{ __typename }' });
    const body = `${query.slice(0, -1)}${' '.repeat(LIMIT - 128 * 1024)}}`;
    connection.head('POST', '/graphql', alice.token, { ...json, 'content-length': Buffer.byteLength(body) });
    connection.write(body);
    expect(await connection.answer()).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect((await stillServes(connection, alice.token))?.status).toBe(200);
    connection.close();
  });

  it('drains many early-answered bodies on one kept-alive connection without piling listeners on its socket', async () => {
    const accepted = new Promise<Socket>(resolve => ctx.app.server.once('connection', resolve));
    const connection = await Connection.open(ctx);
    const socket = await accepted;
    const before = socket.listenerCount('close');
    for (let i = 0; i < 15; i++) {
      // A token that cannot be one: answered 401 on the headers, before any of the body is read;
      // the body follows the answer, so the drain takes it and the connection serves the next request.
      connection.head('POST', '/v1/resources', 'not-a-token', { ...json, 'content-length': 64 });
      expect(await connection.answer()).toMatchObject({ status: 401 });
      connection.write(' '.repeat(64));
    }
    expect((await stillServes(connection, s.users.alice.token))?.status).toBe(200);
    expect(socket.listenerCount('close')).toBeLessThanOrEqual(before + 1);
    connection.close();
  });

  it('keeps GET /graphql working', async () => {
    const res = await s.users.alice.get(`/graphql?query=${encodeURIComponent('{ me { id } }')}`);
    expect(res).toMatchObject({ status: 200, body: { data: { me: { id: s.users.alice.id } } } });
  });
});

describe('Expect: 100-continue', () => {
  const json = { 'content-type': 'application/json', expect: '100-continue' };

  it('a body over the limit is refused before any of it is sent: 413 and no 100 Continue', async () => {
    for (const [path, code] of [
      ['/v1/resources', 'body_too_large'],
      ['/v1/files/me/docs/big.bin', 'file_too_large'],
    ]) {
      const connection = await Connection.open(ctx);
      connection.head(path.startsWith('/v1/files') ? 'PUT' : 'POST', path, s.users.alice.token, { ...json, 'content-length': 5 * MiB });
      const answer = await connection.answer();
      expect(answer?.status, path).not.toBe(100);
      expect(answer?.body.error, path).toBe(code);
      connection.close();
    }
  });

  it('a body the route reads gets its 100 Continue, then the answer', async () => {
    const connection = await Connection.open(ctx);
    const body = JSON.stringify({ type: 'team', name: 'Continued' });
    connection.head('POST', '/v1/resources', s.users.alice.token, { ...json, 'content-length': Buffer.byteLength(body) });
    expect((await connection.answer())?.status).toBe(100);
    connection.write(body);
    expect(await connection.answer()).toMatchObject({ status: 200, body: { name: 'Continued' } });
    connection.close();
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
