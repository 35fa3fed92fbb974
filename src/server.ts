/**
 * Assembles one Gatehouse process: database, services, GraphQL (Yoga + graphql-jit), the REST
 * shims and /healthz on one node:http server. Tests, the CLI and benchmarks all start it here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { resolveCaller } from './auth/resolve-caller.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import type { Context } from './graphql/builder.js';
import { maskError } from './graphql/errors.js';
import { schema } from './graphql/schema.js';
import { EventBus } from './realtime/event-bus.js';
import { routes } from './rest/routes.js';
import { createRestShim, send } from './rest/shim.js';
import { createServices, type Services } from './services/index.js';

export interface AppOptions {
  config: Config;
  /** An already-open database (tests); otherwise one is opened from the config. */
  database?: Database;
  /** Service clock override (tests). */
  now?: () => Date;
}

export interface App {
  services: Services;
  database: Database;
  server: Server;
  /** Handles one request without a listening socket (in-process tests). */
  fetch(request: Request): Promise<Response>;
  start(): Promise<{ url: string }>;
  stop(): Promise<void>;
}

const MAX_GRAPHQL_BODY_BYTES = 1024 * 1024;

export async function buildApp({ config, database, now }: AppOptions): Promise<App> {
  const db =
    database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: config.migrateOnStart }));
  const bus = new EventBus();
  const services = createServices({
    prisma: db.prisma,
    transaction: fn => db.transaction(fn),
    bus,
    config,
    now: now ?? (() => new Date()),
  });

  const contextFor = async (authorization: string | null | undefined): Promise<Context> => ({
    services,
    caller: await resolveCaller(services.tokens, authorization),
  });

  const yoga = createYoga<{ req: IncomingMessage; res: ServerResponse }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.nodeEnv !== 'production',
    landingPage: false,
    logging: config.logLevel === 'silent' ? false : config.logLevel === 'info' ? 'warn' : config.logLevel,
    maskedErrors: { maskError },
    context: ({ request }) => contextFor(request.headers.get('authorization')),
    plugins: [useGraphQlJit()],
  });

  const rest = createRestShim(schema, routes);
  let ready = false;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://gatehouse.local');
    if (url.pathname === '/graphql') {
      if (Number(req.headers['content-length'] ?? 0) > MAX_GRAPHQL_BODY_BYTES) {
        return send(res, 413, { errors: [{ message: 'Request body too large.', extensions: { code: 'body_too_large', status: 413 } }] });
      }
      return yoga(req, res);
    }
    if (url.pathname === '/healthz') {
      return send(res, ready ? 200 : 503, { ok: ready, database: db.kind });
    }
    const found = rest.match(req.method ?? 'GET', url.pathname);
    if (found === null) return send(res, 404, { error: 'not_found', message: `No route ${req.method} ${url.pathname}.` });
    if (found === 'method_not_allowed') {
      return send(res, 405, { error: 'method_not_allowed', message: `${req.method} is not supported on ${url.pathname}.` });
    }
    return rest.handle(found, req, res, url, await contextFor(req.headers.authorization));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(error => {
      console.error('[gatehouse] request failed', error);
      if (!res.headersSent) send(res, 500, { error: 'internal', message: 'Unexpected error. It has been logged.' });
    });
  });
  server.keepAliveTimeout = 65_000;

  return {
    services,
    database: db,
    server,
    async fetch(request: Request) {
      await ensureListening();
      const url = new URL(request.url);
      return fetch(new Request(`${baseUrl()}${url.pathname}${url.search}`, request));
    },
    async start() {
      await ensureListening(config.port, config.host);
      return { url: baseUrl() };
    },
    async stop() {
      ready = false;
      if (server.listening) {
        server.closeAllConnections();
        await new Promise<void>(resolve => server.close(() => resolve()));
      }
      if (!database) await db.close();
    },
  };

  function baseUrl() {
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  async function ensureListening(port = 0, host = '127.0.0.1') {
    if (server.listening) return;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    ready = true;
  }
}
