/**
 * What every benchmark server child shares: listen on a free port, announce itself to the parent
 * as one JSON line on stdout, and shut down cleanly on SIGTERM/SIGINT or when the parent goes
 * away (PGlite must close its data directory).
 */
import type { Server, ServerResponse } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { enableControl } from './control.js';

export async function listen(server: Server): Promise<string> {
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A port free right now, for servers that must know theirs before they listen. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise(resolve => probe.close(resolve));
  return port;
}

/** The parent waits for this line: `{ "url": ..., ...details }`. */
export function announce(info: { url: string } & Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

export function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    close()
      .catch(error => console.error('[bench server] shutdown failed:', error))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  // The parent went away without stopping us: do not linger with a database open.
  process.on('disconnect', shutdown);
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>(resolve => server.close(() => resolve()));
}

/** Runs a child's main function; a failure before `announce` is reported and exits non-zero. */
export function main(fn: () => Promise<void>): void {
  enableControl();
  fn().catch(error => {
    console.error('[bench server] failed to start:', error);
    process.exit(1);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}
