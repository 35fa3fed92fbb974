/**
 * The live connection's heartbeat (src/sdk/live.ts, `keepAlive` of createClient): a server that
 * stops answering pings is taken for dead and the feeds reconnect ('offline' -> 'live'); one
 * that answers keeps its socket; `keepAlive: false` sends no pings. The server here is a minimal
 * graphql-transport-ws peer on `ws`, so it can be made silent, which the real one never is.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { type ClientOptions, createClient } from '../../src/sdk/client.js';
import { record } from './live-recorder.js';

interface FakeServer {
  url: string;
  /** Sockets accepted so far, and the close codes of those that ended. */
  connections: number;
  closes: number[];
  pings: number;
  subscribes: number;
  close(): Promise<void>;
}

/**
 * Acks every connection_init; answers each subscribe with an empty snapshot (`ready`), or with
 * the error `refuse(n)` names (n: the subscribe's number, from 1); answers pings only when
 * `pong(n)` says so (n: the socket's number, from 1).
 */
async function fakeServer(pong: (connection: number) => boolean, refuse: (subscribe: number) => string | null = () => null): Promise<FakeServer> {
  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: protocols => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false),
  });
  await new Promise<void>(resolve => wss.once('listening', () => resolve()));
  const server: FakeServer = {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections: 0,
    closes: [],
    pings: 0,
    subscribes: 0,
    close: () =>
      new Promise(resolve => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (socket: WebSocket) => {
    const n = ++server.connections;
    socket.on('close', code => server.closes.push(code));
    socket.on('message', data => {
      const message = JSON.parse(String(data)) as { type: string };
      if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
      if (message.type === 'subscribe') {
        const id = (message as { id?: string }).id;
        const code = refuse(++server.subscribes);
        if (code) {
          socket.send(JSON.stringify({ id, type: 'error', payload: [{ message: `refused: ${code}`, extensions: { code, status: 503 } }] }));
        } else {
          // An empty snapshot: the feed is live.
          socket.send(JSON.stringify({ id, type: 'next', payload: { data: { result: { op: 'ready', snapshot: true, row: null } } } }));
        }
      }
      if (message.type === 'ping') {
        server.pings++;
        if (pong(n)) socket.send(JSON.stringify({ type: 'pong' }));
      }
    });
  });
  return server;
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('live keep-alive', () => {
  let server: FakeServer | undefined;
  let closeClient: (() => void) | undefined;
  afterEach(async () => {
    closeClient?.();
    await server?.close();
  });

  function client(keepAlive: ClientOptions['keepAlive']) {
    const gatehouse = createClient({ gatewayUrl: server!.url, accessToken: 'gst_test', keepAlive });
    closeClient = () => gatehouse.close();
    return gatehouse;
  }

  it('a server that stops answering pings is dropped: the feed goes offline, then live on a new socket', async () => {
    // The first socket never pongs; the second does.
    server = await fakeServer(n => n > 1);
    const feed = record(client({ intervalMs: 40, timeoutMs: 60 }).resources.live());
    await feed.status('live');
    await feed.status('offline', 2000);
    await feed.status('live', 5000);
    expect(feed.statuses).toEqual(['connecting', 'live', 'offline', 'live']);
    expect(feed.errors).toEqual([]);
    expect(server.connections).toBe(2);
    // The client ended the silent socket (graphql-ws terminate(): 4499) rather than waiting on it.
    expect(server.closes).toEqual([4499]);
    // The second socket answers: it stays up over several intervals.
    await sleep(300);
    expect(feed.statuses.at(-1)).toBe('live');
    expect(server.connections).toBe(2);
  });

  it('a server that answers keeps the socket over many pings', async () => {
    server = await fakeServer(() => true);
    const feed = record(client({ intervalMs: 30, timeoutMs: 60 }).resources.live());
    await feed.status('live');
    await sleep(400);
    expect(server.pings).toBeGreaterThanOrEqual(4);
    expect(feed.statuses).toEqual(['connecting', 'live']);
    expect(server.connections).toBe(1);
    expect(server.closes).toEqual([]);
  });

  it('a subscribe refused as busy (503) is retried on the same socket until the snapshot arrives', async () => {
    server = await fakeServer(
      () => true,
      n => (n <= 2 ? 'busy' : null),
    );
    const gatehouse = createClient({ gatewayUrl: server.url, accessToken: 'gst_test', keepAlive: false });
    closeClient = () => gatehouse.close();
    const feed = record(gatehouse.resources.live());
    await feed.status('live');
    expect(server.subscribes).toBe(3);
    expect(server.connections).toBe(1);
    expect(feed.errors).toEqual([]);
    expect(feed.statuses).toEqual(['connecting', 'live']);
  });

  it('keepAlive: false sends no ping', async () => {
    server = await fakeServer(() => false);
    const feed = record(client(false).resources.live());
    await feed.status('live');
    await sleep(200);
    expect(server.pings).toBe(0);
    expect(feed.statuses).toEqual(['connecting', 'live']);
  });
});
