/**
 * A TCP proxy in front of PostgreSQL that can lose a statement's answer: armed with a marker, it
 * forwards the first client chunk holding it (a statement's text or a parameter value), drops
 * everything the server answers on that connection from then on, and closes both ends once the
 * server had time to run and commit it. The client sees its connection end with the statement sent
 * and unanswered, as on a network failure after the commit. `drop: true` loses the chunk instead:
 * the server never sees it, and the client cannot tell the two apart.
 */
import net from 'node:net';

export interface CutProxy {
  /** `url` with its host and port the proxy's. */
  url: string;
  /** Resolves once the connection carrying `marker` is cut. */
  cutAfter(marker: string, options?: { drop?: boolean; settleMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export async function cutProxy(url: string): Promise<CutProxy> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  let armed: { marker: Buffer; drop: boolean; settleMs: number; cut: () => void } | null = null;
  const server = net.createServer(client => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    let answering = true;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.on('data', chunk => {
      const cut = armed && chunk.includes(armed.marker) ? armed : null;
      if (!cut) {
        upstream.write(chunk);
        return;
      }
      armed = null;
      answering = false;
      if (!cut.drop) upstream.write(chunk);
      setTimeout(() => {
        client.destroy();
        upstream.destroy();
        cut.cut();
      }, cut.settleMs);
    });
    upstream.on('data', chunk => {
      if (answering) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    cutAfter: (marker, { drop = false, settleMs = 300 } = {}) =>
      new Promise(cut => {
        armed = { marker: Buffer.from(marker), drop, settleMs, cut };
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
