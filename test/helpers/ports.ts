/**
 * Loopback ports for tests that need a real socket. The OS always picks the port (listen on 0)
 * and the port is never closed and reused: a port freed and taken again can be grabbed by another
 * process in between (the suite runs files in parallel).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackFront {
  /** `http://127.0.0.1:<port>`, known before the server behind it is built. */
  url: string;
  port: number;
  /** Hands every request and WebSocket upgrade that arrives here to `target`'s listeners. */
  attach(target: Server): void;
  close(): Promise<void>;
}

/**
 * A listening loopback server for a server whose own URL must be known before it is built (an
 * issuer, PUBLIC_URL): build it with `url`, then `attach` its node:http server.
 */
export async function loopbackFront(): Promise<LoopbackFront> {
  let target: Server | null = null;
  const front = createServer((req, res) => {
    if (target) target.emit('request', req, res);
    else res.writeHead(503).end();
  });
  front.on('upgrade', (req, socket, head) => {
    if (target) target.emit('upgrade', req, socket, head);
    else socket.destroy();
  });
  const port = await listenOnLoopback(front);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    attach: server => {
      target = server;
    },
    async close() {
      front.closeAllConnections();
      await new Promise<void>(resolve => front.close(() => resolve()));
    },
  };
}

/** Listens on 127.0.0.1 on a port the OS picks; returns the port. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The `http://host:port` a child process prints once it listens (`Gatehouse listening on <url>`). */
export function listeningUrl(output: string, label = 'listening on'): string | null {
  const match = new RegExp(`${label} (https?://\\S+)`).exec(output);
  return match ? match[1].replace(/[.,;]$/, '') : null;
}
