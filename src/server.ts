/**
 * Assembles one Gatehouse process: database, services, GraphQL (Yoga + graphql-jit), the REST
 * shims and /healthz on one node:http server. Tests, the CLI and benchmarks all start it here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { type DocumentNode, Kind } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { createCors } from './auth/cors.js';
import { assertCsrf, isStateChanging, useCsrfForMutations } from './auth/csrf.js';
import { createGatewayAuth } from './auth/gateway-setup.js';
import { resolveCaller } from './auth/resolve-caller.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import type { Context } from './graphql/builder.js';
import { describeError, maskError } from './graphql/errors.js';
import { schema } from './graphql/schema.js';
import { EventBus } from './realtime/event-bus.js';
import { sharedSubscribe } from './realtime/shared-subscribe.js';
import { attachWebSocketFeeds } from './realtime/websocket.js';
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
  const bus = config.redisUrl ? EventBus.redis(config.redisUrl) : EventBus.inProcess();
  const services = createServices({
    prisma: db.prisma,
    transaction: fn => db.transaction(fn),
    bus,
    config,
    now: now ?? (() => new Date()),
  });

  // Gateway auth (src/auth/): bearer tokens and session cookies -> caller + credential kind (CSRF).
  const contextFor = async (req: IncomingMessage): Promise<Context> => ({ services, ...(await resolveCaller(services, req)) });
  const gatewayAuth = await createGatewayAuth({ services, config });
  const cors = createCors({ services, config });

  type ServerContext = { req?: IncomingMessage; res?: ServerResponse; caller?: Context['caller'] };

  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.nodeEnv !== 'production',
    landingPage: false,
    // CORS is the gateway's policy (src/auth/cors.ts), not Yoga's reflect-any-origin default.
    cors: false,
    logging: config.logLevel === 'silent' ? false : config.logLevel === 'info' ? 'warn' : config.logLevel,
    maskedErrors: { maskError },
    // Sockets resolve their caller once, at connection time (src/realtime/websocket.ts).
    context: initial => ('caller' in initial ? { services, caller: initial.caller ?? null } : contextFor(initial.req!)),
    plugins: [
      useGraphQlJit({}, { enableIf: args => !isSubscription(args.document, args.operationName) }),
      // graphql-jit hands subscription resolvers the variables instead of their arguments, so
      // subscriptions run on graphql-js, sharing each event's result across subscribers.
      useSharedSubscribe,
      useCsrfForMutations(),
    ],
  });

  const rest = createRestShim(schema, routes);
  let ready = false;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const requested = new URL(req.url ?? '/', 'http://gatehouse.local');
    // CORS headers (set before any handler writes) and the cookie audience for registered app origins.
    const crossOrigin = cors.handle(req, res, requested.pathname);
    if (crossOrigin && (await crossOrigin)) return;
    // Gateway auth: /auth/*, hosted app origins (/_osg/*, /_invite/*), /v1/me, /v1/dashboard, /idp.
    const url = await gatewayAuth.gateway.handle(req, res, requested);
    if (!url) return;
    if (url.pathname === '/graphql') {
      if (Number(req.headers['content-length'] ?? 0) > MAX_GRAPHQL_BODY_BYTES) {
        return send(res, 400, { errors: [{ message: 'body: larger than 1 MiB.', extensions: { code: 'body_too_large', status: 400 } }] });
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
    let context: Context;
    try {
      context = await contextFor(req);
      assertCsrf(context, isStateChanging(req.method));
    } catch (error) {
      const shape = describeError(error);
      return send(res, shape.status, { error: shape.code, message: shape.message });
    }
    return rest.handle(found, req, res, url, context);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(error => {
      console.error('[gatehouse] request failed', error);
      if (!res.headersSent) send(res, 500, { error: 'internal', message: 'Unexpected error. It has been logged.' });
    });
  });
  server.keepAliveTimeout = 65_000;
  const sockets = attachWebSocketFeeds({ server, yoga, services, path: '/graphql', hostedApp: gatewayAuth.gateway.hostedApp });

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
      await sockets.close();
      if (server.listening) {
        server.closeAllConnections();
        await new Promise<void>(resolve => server.close(() => resolve()));
      }
      await bus.close();
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
        gatewayAuth.onListening(server.address());
        resolve();
      });
    });
    ready = true;
  }
}

const useSharedSubscribe: Plugin = {
  onSubscribe: ({ setSubscribeFn }) => setSubscribeFn(sharedSubscribe as Parameters<typeof setSubscribeFn>[0]),
};

function isSubscription(document: DocumentNode, operationName?: string | null): boolean {
  return document.definitions.some(
    d => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription' && (!operationName || d.name?.value === operationName),
  );
}
