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
import { type RequestScope, apiPathOf } from './auth/request-scope.js';
import { resolveCaller } from './auth/resolve-caller.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import type { Context } from './graphql/builder.js';
import { graphqlRefusal, maskError, sendGraphqlError, sendRestError } from './error-responses.js';
import { boundedParseCache, graphqlLimitPlugins } from './graphql/limits.js';
import { schema } from './graphql/schema.js';
import { EventBus } from './realtime/event-bus.js';
import { sharedSubscribe } from './realtime/shared-subscribe.js';
import { attachWebSocketFeeds } from './realtime/websocket.js';
import { routes } from './rest/routes.js';
import { createDevBootstrap } from './rest/dev-bootstrap.js';
import { createRestShim, send } from './rest/shim.js';
import { assertNoNulInOperation, guardRequest, readBody } from './lib/body.js';
import { injectFetch } from './lib/inject-fetch.js';
import { logger, requestIdFrom, setLogLevel, withRequestId, yogaLogger } from './lib/logger.js';
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

export async function buildApp({ config, database, now }: AppOptions): Promise<App> {
  setLogLevel(config.logLevel);
  const db =
    database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: config.migrateOnStart, ...config.database }));
  const bus = config.redisUrl ? EventBus.redis(config.redisUrl) : EventBus.inProcess();
  const services = createServices({
    prisma: db.prisma,
    transaction: fn => db.transaction(fn),
    bus,
    config,
    now: now ?? (() => new Date()),
  });

  // Gateway auth (src/auth/): bearer tokens and session cookies -> caller + credential kind (CSRF).
  const contextFor = async (req: IncomingMessage, scope: RequestScope): Promise<Context> => ({
    services,
    ...(await resolveCaller(services, req.headers, scope.audienceAppId)),
  });
  const gatewayAuth = await createGatewayAuth({ services, config });
  const corsPolicy = createCors({ services, config });
  // `gatehouse dev-token create` while this process holds DATA_DIR (loopback + a secret file).
  const devBootstrap = createDevBootstrap({ services, config });

  type ServerContext = { req?: IncomingMessage; res?: ServerResponse; scope?: RequestScope; caller?: Context['caller'] };

  const yoga = createYoga<ServerContext>({
    schema,
    // The gateway's /graphql, and /_osg/graphql on hosted app origins (the router admits it only there).
    graphqlEndpoint: '{/_osg}?/graphql',
    graphiql: config.nodeEnv !== 'production' && (request => ({ endpoint: new URL(request.url).pathname })),
    landingPage: false,
    // CORS is the gateway's policy (src/auth/cors.ts), not Yoga's reflect-any-origin default.
    cors: false,
    logging: yogaLogger,
    maskedErrors: { maskError },
    parserAndValidationCache: boundedParseCache(),
    // Sockets resolve their caller once, at connection time (src/realtime/websocket.ts).
    context: initial => ('caller' in initial ? { services, caller: initial.caller ?? null } : contextFor(initial.req!, initial.scope!)),
    plugins: [
      // NUL bytes in variables or string literals: 400 invalid_argument before anything parses them.
      useRefuseNul,
      // Cost limits first: a refused document is never validated in full nor compiled (src/graphql/limits.ts).
      ...graphqlLimitPlugins({ introspection: config.graphqlIntrospection, blockSuggestions: config.nodeEnv === 'production' }),
      useGraphQlJit({}, { enableIf: args => !isSubscription(args.document, args.operationName) }),
      // graphql-jit hands subscription resolvers the variables instead of their arguments, so
      // subscriptions run on graphql-js, sharing each event's result across subscribers.
      useSharedSubscribe,
      useCsrfForMutations(),
    ],
  });

  const rest = createRestShim(schema, routes);
  let ready = false;

  /**
   * The request pipeline, in order: input guards -> where the request arrived (mount) -> CORS ->
   * the request's scope (computed once, passed down) -> gateway routes (/auth, /_osg/auth,
   * /_invite, dashboard, /idp) -> GraphQL -> dev bootstrap and /healthz -> the REST route table.
   */
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://gatehouse.local');
    // Every response, whoever writes it (Yoga, oidc-provider, the shims): no MIME sniffing.
    res.setHeader('x-content-type-options', 'nosniff');
    // Request input, before any routing: the body limit, a declared oversized body, NUL in the URL.
    try {
      guardRequest(req, res, url, config.maxBodyBytes);
    } catch (error) {
      return refuse(res, error, url.pathname.endsWith('/graphql'));
    }
    const mount = await gatewayAuth.gateway.mountOf(req);
    // CORS headers (set before any handler writes); a cookie call from a registered Origin acts for its app.
    const cors = await corsPolicy.handle(req, res, url.pathname);
    if (cors.answered) return;
    const scope: RequestScope = { url, mount, audienceAppId: mount.host?.appId ?? cors.audienceAppId };
    if (await gatewayAuth.gateway.handle(req, res, scope)) return;
    const path = apiPathOf(scope);
    if (path === '/graphql') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // Yoga takes an already-read body from req.body, so the one limited reader counts it.
        try {
          (req as IncomingMessage & { body?: Uint8Array }).body = await readBody(req);
        } catch (error) {
          return refuse(res, error, true);
        }
      }
      return yoga(req, res, { scope });
    }
    if (devBootstrap.handles(path)) return devBootstrap.handle(req, res);
    if (path === '/healthz') return send(res, ready ? 200 : 503, { ok: ready, database: db.kind });
    const found = rest.match(req.method ?? 'GET', path);
    if (found === null) return send(res, 404, { error: 'not_found', message: `No route ${req.method} ${path}.` });
    if (found === 'method_not_allowed') return send(res, 405, { error: 'method_not_allowed', message: `${req.method} is not supported on ${path}.` });
    let context: Context;
    try {
      context = await contextFor(req, scope);
      assertCsrf(context, isStateChanging(req.method));
    } catch (error) {
      return sendRestError(res, error);
    }
    return rest.handle(found, req, res, url, context);
  }

  const server = createServer((req, res) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const started = performance.now();
    res.setHeader('x-request-id', requestId);
    // An access line per request at debug (path only: query strings can carry codes).
    res.once('finish', () =>
      logger.debug(
        { method: req.method, path: req.url?.split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - started) },
        'request',
      ),
    );
    withRequestId(requestId, () =>
      handle(req, res).catch(error => {
        if (!res.headersSent) sendRestError(res, error);
        else res.destroy();
      }),
    );
  });
  server.keepAliveTimeout = 65_000;
  const sockets = attachWebSocketFeeds({ server, yoga, services, path: '/graphql', mountOf: gatewayAuth.gateway.mountOf, limits: config.feeds });

  return {
    services,
    database: db,
    server,
    /**
     * The whole pipeline with no socket (light-my-request), as seen from loopback. Request/response
     * calls only: SSE streams through but WebSocket upgrades need a listening server (start()).
     */
    async fetch(request: Request) {
      // Built is ready for in-process calls (/healthz); stop() clears it, start() sets it again.
      if (!server.listening) ready = true;
      return injectFetch((req, res) => server.emit('request', req, res), request);
    },
    async start() {
      await ensureListening(config.port, config.host);
      await devBootstrap.publish(baseUrl());
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
      await devBootstrap.unpublish();
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

const useRefuseNul: Plugin = {
  onParams: ({ params }) => {
    try {
      assertNoNulInOperation(params);
    } catch (error) {
      throw graphqlRefusal(error);
    }
  },
};

const useSharedSubscribe: Plugin = {
  onSubscribe: ({ setSubscribeFn }) => setSubscribeFn(sharedSubscribe as Parameters<typeof setSubscribeFn>[0]),
};

function isSubscription(document: DocumentNode, operationName?: string | null): boolean {
  return document.definitions.some(
    d => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription' && (!operationName || d.name?.value === operationName),
  );
}

/** A refused request in its transport's error shape (GraphQL: `errors[].extensions`). */
function refuse(res: ServerResponse, error: unknown, graphql: boolean) {
  return graphql ? sendGraphqlError(res, error) : sendRestError(res, error);
}
