/**
 * `gatehouse dev`'s local origin: a small reverse proxy that is the app's origin while you work.
 * `/_osg/*` and `/_invite/*` (HTTP and WebSocket) go to the gateway with this origin's Host, so the
 * gateway answers them as it answers a hosted origin (the origin is registered for the app:
 * sign-in, cookies on this host, invite links, `/_osg/config.json`); everything else is a local
 * directory served as a published site would be (no caching), or a dev server (`--proxy`).
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { answerFromSite } from '../hosting/site-pages.http.js';
import { type SiteFile, isReservedPath } from '../hosting/sites.rules.js';
import { writeNodeResponse } from '../http/responses.js';
import { contentTypeOf } from '../lib/content-types.js';

export interface DevServerOptions {
  /** The gateway's URL (http). */
  gateway: string;
  /** A directory to serve, or a dev server to front. */
  dir?: string;
  proxy?: string;
  spa?: boolean;
  port: number;
  host?: string;
}

export interface DevServer {
  /** `http://localhost:<port>`: the origin to register and open. */
  origin: string;
  close(): Promise<void>;
}

type LocalFile = SiteFile & { bytes: Uint8Array };

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const gateway = new URL(options.gateway);
  const proxy = options.proxy ? new URL(options.proxy) : null;
  const root = options.dir ? await realpath(options.dir) : null;
  let origin = '';

  /** A file of the directory by its site path, hashed as served; nothing outside the directory. */
  async function find(sitePath: string): Promise<LocalFile | null> {
    if (!root || sitePath.split('/').some(part => part === '..' || part.startsWith('.'))) return null;
    const full = path.join(root, sitePath);
    if (!full.startsWith(root + path.sep)) return null;
    const info = await stat(full).catch(() => null);
    if (!info?.isFile()) return null;
    const bytes = await readFile(full);
    return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, type: contentTypeOf(sitePath), bytes };
  }

  async function serveLocal(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET or HEAD only.\n');
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    const { response } = await answerFromSite<LocalFile>(
      { spa: options.spa === true, find, open: async (_path, file): Promise<Readable | Uint8Array> => file.bytes, caching: 'dev' },
      { method, path: url.pathname, headers: new Headers(req.headers as Record<string, string>), host: new URL(origin).host },
    );
    await writeNodeResponse(res, response);
  }

  /** Forwards a request as it came, but for its Host: the gateway's answer depends on it. */
  function forward(req: IncomingMessage, res: ServerResponse, target: URL, host: string) {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port || 80, method: req.method, path: req.url, headers: { ...req.headers, host } },
      answer => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', error => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`gatehouse dev: ${target.origin} did not answer (${(error as NodeJS.ErrnoException).code ?? error.message}).\n`);
    });
    req.pipe(upstream);
  }

  /** A WebSocket (live feeds, a dev server's reload): the upgrade request re-sent, then bytes both ways. */
  function tunnel(req: IncomingMessage, socket: Socket, head: Buffer, target: URL, host: string) {
    const upstream = connect(Number(target.port || 80), target.hostname, () => {
      const headers = Object.entries({ ...req.headers, host })
        .flatMap(([name, value]) => (Array.isArray(value) ? value.map(v => `${name}: ${v}`) : value === undefined ? [] : [`${name}: ${value}`]))
        .join('\r\n');
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', close);
    socket.on('error', close);
  }

  const route = (url: string | undefined) => {
    const pathname = new URL(url ?? '/', 'http://x').pathname;
    if (isReservedPath(pathname)) return { target: gateway, host: new URL(origin).host };
    return proxy ? { target: proxy, host: proxy.host } : null;
  };

  const server = createServer((req, res) => {
    const upstream = route(req.url);
    if (upstream) return forward(req, res, upstream.target, upstream.host);
    serveLocal(req, res).catch(error => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`gatehouse dev: ${(error as Error).message}\n`);
    });
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = route(req.url);
    if (upstream) tunnel(req, socket as Socket, head, upstream.target, upstream.host);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
