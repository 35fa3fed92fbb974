/**
 * A TCP proxy in front of a loopback server, whose connection a test cuts and restores as a network
 * drops and comes back for one client: `cut()` resets every connection through it (HTTP keep-alive
 * and WebSockets alike) and resets each new one at once; `restore()` lets them through again. Other
 * clients of the server are not affected. The proxy's port stays taken throughout (a port freed and
 * taken again could be grabbed by another process in between).
 */
import { type Server, type Socket, connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttableProxy {
  /** `http://127.0.0.1:<port>`: the server, as long as the line is not cut. */
  url: string;
  /** Connections passed through so far (a reconnect shows here). */
  readonly connections: number;
  /** Resolves at the next connection reset because the line is cut (a client trying again). */
  nextRefused(): Promise<void>;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function cuttableProxy(target: string): Promise<CuttableProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let cut = false;
  let connections = 0;
  const refusedWaiters = new Set<() => void>();
  const server: Server = createServer(client => {
    client.on('error', () => {});
    if (cut) {
      client.resetAndDestroy();
      for (const resolve of refusedWaiters) resolve();
      refusedWaiters.clear();
      return;
    }
    connections++;
    const upstream = connect(Number(port), hostname);
    upstream.on('error', () => {});
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    nextRefused: () => new Promise(resolve => refusedWaiters.add(resolve)),
    cut() {
      cut = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      cut = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
