/**
 * Assembles one Gatehouse process: database, services, and the request pipeline: one fetch-style
 * entry (@whatwg-node/server, graphql-yoga's own adapter) in front of the gateway routes, GraphQL
 * (Yoga + graphql-jit), the REST route table and /healthz, served by node:http and callable
 * in-process (`App.fetch`). Tests, the CLI and benchmarks all start it here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createServerAdapter } from '@whatwg-node/server';
import { type DocumentNode, Kind } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { createCors } from './http/cors.js';
import { useCsrfForMutations } from './http/csrf.js';
import { dashboardDeveloperOf, dashboardUserOf, mayActAsLinkedDeveloper } from './gateway-auth/dashboard-session.http.js';
import { createGatewayAuth } from './gateway-auth/gateway-setup.http.js';
import type { Mount, RequestContext } from './http/request-context.js';
import { type Incoming, answerClientError, createNodeEdge, fetchIncoming } from './http/node-edge.js';
import { type ResolvedAuth, resolveCaller } from './gateway-auth/resolve-caller.http.js';
import { type Config, databaseOptionsOf } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { type Party, withParty } from './db/fair-queue.js';
import type { Caller } from './core/caller.rules.js';
import { addressKey } from './http/client-ip.js';
import type { Context } from './graphql/builder.js';
import { graphqlErrorResponse, graphqlRefusal, maskError, restError, useCodedValidationErrors } from './http/error-responses.js';
import { type AppError, fail } from './errors.js';
import { boundedParseCache, graphqlLimitPlugins, rowBudgetCheck } from './graphql/limits.js';
import { schema } from './graphql/schema.js';
import { EventBus } from './bus/event-bus.js';
import { defaultRedisNamespace } from './bus/redis-bus.js';
import { sharedSubscribe } from './feeds/shared-subscribe.service.js';
import { useSseLimits } from './feeds/sse-limits.graphql.js';
import { attachWebSocketFeeds } from './feeds/websocket.routes.js';
import { GRAPHIQL_PAGE_HEADERS, graphiqlOptions } from './http/graphiql.js';
import { openApiDocument } from './http/openapi.js';
import { endpoints, storedOperationEndpoints } from './http/routes.js';
import { createRouteRegistry } from './http/route-registry.js';
import { createSdkScript } from './http/sdk-script.js';
import { createDevBootstrap } from './apps/dev-bootstrap.routes.js';
import { createGraphqlFastPath } from './http/graphql-fast-path.js';
import { healthAnswer } from './http/health.js';
import { type PipelineServerContext, createStoredOperations } from './http/stored-operations.js';
import {
  assertNoNulInOperation,
  continueOnFirstRead,
  drainWithin,
  guardRequestLine,
  readNodeBody,
  readRequestBody,
  unusableTarget,
} from './http/body.js';
import type { HeaderReader } from './http/responses.js';
import { logger, requestIdFrom, setLogLevel, withRequestId, yogaLogger } from './lib/logger.js';
import { createServices, type Services } from './services.js';
import { UNROUTED, createMetrics } from './ops/metrics.service.js';
import { createMetricsHttp } from './ops/metrics.routes.js';

export interface AppOptions {
  config: Config;
  /** An already-open database (tests), left open on stop; otherwise one is opened from the config. */
  database?: Database;
  /** The database being opened from the config (`gatehouse serve` starts it first); the app closes it on stop. */
  opening?: Promise<Database>;
  /** Service clock override (tests). */
  now?: () => Date;
  /** false: every /graphql request goes through Yoga (tests compare the two paths); onServed sees the fast path's answers. */
  graphqlFastPath?: false | { onServed?: () => void };
  /** false: every request through the fetch adapter, none on node's own objects (the node edge's same-run baseline). */
  nodeEdge?: boolean;
}

export interface App {
  services: Services;
  database: Database;
  server: Server;
  /**
   * Handles one request in-process, with no socket: the same pipeline a listening server runs,
   * as seen from loopback. SSE streams through; WebSocket upgrades need a listening server.
   */
  fetch(request: Request): Promise<Response>;
  /** Listens; `metricsUrl` when METRICS_PORT gives /metrics a listener of its own. */
  start(): Promise<{ url: string; metricsUrl?: string }>;
  stop(): Promise<void>;
}

/** What the node:http edge (or `App.fetch`) hands the pipeline beside the Request. */
interface EdgeContext {
  req?: IncomingMessage;
  res?: ServerResponse;
  remoteAddress?: string;
  /** On the node edge: the headers every response to this request carries, written with its head. */
  headers?: Record<string, string>;
}

export async function buildApp({ config, database, opening, now, graphqlFastPath = {}, nodeEdge = true }: AppOptions): Promise<App> {
  setLogLevel(config.logLevel);
  const db = database ?? (await (opening ?? openDatabase(databaseOptionsOf(config))));
  // Over Redis, one namespace per deployment (REDIS_NAMESPACE, else derived from its database).
  const bus = config.redisUrl
    ? await EventBus.redis(config.redisUrl, { namespace: config.redisNamespace ?? defaultRedisNamespace(await db.identity()) })
    : EventBus.inProcess();
  const services = createServices({
    prisma: db.prisma,
    transaction: (fn, options) => db.transaction(fn, options),
    sql: db.sql,
    sqlWrites: db.sqlWrites,
    sqlTransaction: fn => db.sqlTransaction(fn),
    query: db.query,
    bus,
    config,
    now: now ?? (() => new Date()),
  });

  const gatewayAuth = await createGatewayAuth({ services, config });
  const corsPolicy = createCors({ services, config });
  // `gatehouse dev-token create` while this process holds DATA_DIR (loopback + a secret file).
  const devBootstrap = createDevBootstrap({ services, config, database: db });
  const sdkScript = createSdkScript();
  const sseLimits = useSseLimits(config.feeds);
  // Read at scrape time; the sockets exist once the server does (below).
  let liveSockets: () => { sockets: number; subscriptions: number } = () => ({ sockets: 0, subscriptions: 0 });
  const metrics = config.metrics.enabled
    ? createMetrics({ database: db, bus, feeds: () => ({ ...liveSockets(), sseStreams: sseLimits.streams() }) })
    : null;
  const metricsHttp = createMetricsHttp(config, metrics);

  /** The resolvers' context for a request whose caller is resolved (RequestContext.auth, once per request). */
  const contextWith = (request: RequestContext, auth: ResolvedAuth): Context => ({
    services,
    ...auth,
    dashboardUser: () => dashboardUserOf(services, config, request.headers),
  });
  /**
   * /graphql's context: a console session of a person who linked a developer acts as that developer
   * (docs/api.md §4.2). Only there: the REST routes (/dev/*, stored operations) keep their own credentials.
   * Built at once (no promise) when the caller is already resolved and is no such session.
   */
  const graphqlContextFor = (request: RequestContext, auth?: ResolvedAuth): Context | Promise<Context> => {
    if (auth && !mayActAsLinkedDeveloper(request, auth)) return contextWith(request, auth);
    return (async () => {
      const context = contextWith(request, auth ?? (await request.auth()));
      const developer = await dashboardDeveloperOf(services, config, request, context);
      return developer ? { ...context, caller: developer } : context;
    })();
  };

  // One row budget for Yoga's plugins and the fast path (src/graphql/row-budget.ts).
  const rowBudget = rowBudgetCheck(schema);
  const yoga = createYoga<PipelineServerContext>({
    schema,
    // The gateway's /graphql, and /_osg/graphql on hosted app origins (the router admits it only there).
    graphqlEndpoint: '{/_osg}?/graphql',
    // GraphiQL outside production, its assets inlined from @graphql-yoga/render-graphiql (no CDN:
    // works offline). The CSRF header is preset so a cookie session can run mutations; a bearer
    // token goes in the Headers tab (README "GraphQL playground").
    graphiql: config.nodeEnv !== 'production' && (request => graphiqlOptions(new URL(request.url).pathname)),
    // Loaded on the first page view: its inlined assets are megabytes a production process never needs.
    renderGraphiQL: async options => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    landingPage: false,
    // CORS is the gateway's policy (src/http/cors.ts), not Yoga's reflect-any-origin default.
    cors: false,
    logging: yogaLogger,
    maskedErrors: { maskError },
    parserAndValidationCache: boundedParseCache(),
    // The pipeline's one body reader has already read the body under MAX_BODY_BYTES: Yoga's own
    // limit would pipe it through a second counting stream (about half of a small query's CPU).
    maxRequestBodySize: false,
    // Sockets resolve their caller once, at connection time (src/feeds/websocket.routes.ts).
    context: initial =>
      'caller' in initial
        ? { services, caller: (initial.caller as Context['caller']) ?? null }
        : graphqlContextFor(initial.requestContext, initial.auth),
    plugins: [
      // NUL bytes in variables or string literals: 400 invalid_argument before anything parses them.
      useRefuseNul,
      // Cost limits first: a refused document is never validated in full nor compiled (src/graphql/limits.ts).
      ...graphqlLimitPlugins({ rowBudget, introspection: config.graphqlIntrospection, blockSuggestions: config.nodeEnv === 'production' }),
      // graphql-js' validation errors carry a status like every other error (docs/api.md §8.2).
      useCodedValidationErrors,
      useGraphQlJit({}, { enableIf: args => !isSubscription(args.document, args.operationName) }),
      // graphql-jit hands subscription resolvers the variables instead of their arguments, so
      // subscriptions run on graphql-js, sharing each event's result across subscribers.
      useSharedSubscribe,
      // SSE streams per principal and in all, as sockets are bounded (src/feeds/sse-limits.graphql.ts).
      sseLimits,
      useCsrfForMutations(),
    ],
  });

  const storedOperations = createStoredOperations({ yoga, schema, contextFor: contextWith }, storedOperationEndpoints);
  const fastPath = graphqlFastPath ? createGraphqlFastPath({ yoga, schema, contextFor: graphqlContextFor, rowBudget, ...graphqlFastPath }) : null;
  let ready = false;
  // Every endpoint, matched by one router (src/http/route-registry.ts); handlers reach the per-process state here.
  const registry = createRouteRegistry(
    endpoints,
    {
      services,
      config,
      storedOperations,
      authHandlers: gatewayAuth.authHandlers,
      invitePages: gatewayAuth.invitePages,
      devBootstrap,
      sdkScript,
      identityProvider: gatewayAuth.identityProvider,
      graphql,
      health: () => healthAnswer(ready, db.kind, bus.health()),
      openApiDocument,
      metrics: metricsHttp,
    },
    { identityProviderMount: gatewayAuth.identityProviderMount },
  );
  const contextParts = { services, maxBodyBytes: config.maxBodyBytes };

  /**
   * The pipeline, in order: input guards -> where the request arrived (mount) -> CORS -> the
   * request context (computed once, passed down) -> the route registry (one matcher, then the
   * route's declared credential, CSRF rule and input, then its handler).
   */
  async function pipeline(incoming: Incoming, requestId: string, edge: EdgeContext, trace: { route: string }): Promise<Response> {
    const remoteAddress = edge.req?.socket.remoteAddress ?? edge.remoteAddress ?? '127.0.0.1';
    const { url, headers } = incoming;
    const graphqlPath = url.pathname.endsWith('/graphql');
    // Request input, before any routing: NUL in the URL, a declared oversized body (a file upload's
    // limit is its bucket's, checked by the files routes on the bytes they read).
    const length = headers.get('content-length');
    const streamed = length !== null && Number(length) > config.maxBodyBytes && registry.streamsBody(incoming.method, url.pathname);
    try {
      guardRequestLine(url, streamed ? null : length, config.maxBodyBytes);
    } catch (error) {
      return graphqlPath ? graphqlErrorResponse(error) : restError(error);
    }
    const host = (headers.get('host') ?? url.host).toLowerCase();
    // Both are decided at once for the gateway's own host and a request without a foreign Origin.
    const mountOf = gatewayAuth.mountOf(host);
    const mount = mountOf instanceof Promise ? await mountOf : mountOf;
    const decided = corsPolicy.decide(incoming, host, url.pathname);
    const cors = decided instanceof Promise ? await decided : decided;
    if (cors.preflight) {
      trace.route = UNROUTED.preflight;
      return cors.preflight;
    }
    const context = new PipelineContext(incoming, edge, requestId, remoteAddress, mount, mount.host?.appId ?? cors.audienceAppId, contextParts);
    let response: Response;
    if (cors.refusal) response = graphqlPath ? graphqlErrorResponse(cors.refusal) : restError(cors.refusal);
    // On the embedded database, the request's turns are its caller's (its address until the caller is known).
    else response = await (db.kind === 'pglite' ? withParty(context.party, () => registry.dispatch(context)) : registry.dispatch(context));
    trace.route = context.route ?? UNROUTED.notFound;
    // Every response of a CORS path carries the decision (errors and 404s too).
    return withHeaders(response, cors.headers, edge);
  }

  /** Yoga takes the body the one limited reader already read, so MAX_BODY_BYTES counts it once. */
  async function graphql(context: RequestContext): Promise<Response> {
    // The fast path reads the method, headers and body only: the WHATWG Request (built on first
    // use on the node edge) is made for Yoga alone.
    let forYoga: Request;
    if (context.method === 'GET' || context.method === 'HEAD') forYoga = context.request;
    else {
      try {
        const answered = await fastPath?.handle(context);
        if (answered) return answered;
        const { request } = context;
        forYoga = new yoga.fetchAPI.Request(request.url, {
          method: request.method,
          headers: request.headers,
          body: (await context.body()) as BodyInit,
          signal: request.signal,
        });
      } catch (error) {
        return graphqlErrorResponse(error);
      }
    }
    const response = await yoga.handleRequest(forYoga, { requestContext: context });
    // Yoga answers a body type it cannot parse (415) and an Accept it cannot serve (406) with no body.
    // (The status first: reading a Response's body builds its stream.)
    if ((response.status === 406 || response.status === 415) && response.body === null) {
      return graphqlErrorResponse(emptyGraphqlRefusal(response.status, context.request.headers));
    }
    // The only HTML Yoga answers with is the GraphiQL page (outside production).
    return response.headers.get('content-type')?.startsWith('text/html') ? withHeaders(response, GRAPHIQL_PAGE_HEADERS, {}) : response;
  }

  /** Request id, logging context, the headers every response carries, and the last-resort error answer. */
  function respond(incoming: Incoming, edge: EdgeContext): Promise<Response> {
    const requestId = requestIdFrom(incoming.headers.get('x-request-id') ?? undefined);
    const started = performance.now();
    return withRequestId(requestId, async () => {
      const trace = { route: UNROUTED.refused as string };
      const answered = await pipeline(incoming, requestId, edge, trace).catch(error => restError(error));
      // Every response, whoever built it (Yoga, the provider, the shims): its id, no MIME sniffing.
      const response = withHeaders(answered, { 'x-request-id': requestId, 'x-content-type-options': 'nosniff' }, edge);
      metrics?.requestDone(trace.route, incoming.method, response.status, (performance.now() - started) / 1000);
      // An access line per request at debug (path only: query strings can carry codes).
      if (logger.isLevelEnabled('debug')) {
        logger.debug(
          { method: incoming.method, path: incoming.url.pathname, status: response.status, ms: Math.round(performance.now() - started) },
          'request',
        );
      }
      return response;
    });
  }

  // Everything a fetch-style handler serves (Yoga, the gateway, files, the provider) comes through
  // the adapter; the route table's reads are served on node's own objects (src/http/node-edge.ts).
  const adapter = createServerAdapter<EdgeContext>((request, edge) => {
    const incoming = fetchIncoming(request);
    return incoming ? respond(incoming, edge) : restError(unusableTarget());
  });
  const edge = createNodeEdge({ respond, fetchAPI: yoga.fetchAPI, fallback: adapter.requestListener, onNodeObjects: nodeEdge });

  /**
   * Adds headers to a response: on a socket through the node response (the adapter's one-call head
   * stays one call), in-process on the Response itself (copied once if its headers are immutable).
   */
  function withHeaders(response: Response, headers: Record<string, string>, edge: EdgeContext): Response {
    if (edge.headers) {
      Object.assign(edge.headers, headers);
      return response;
    }
    const entries = Object.entries(headers);
    if (!entries.length) return response;
    if (edge.res) {
      for (const [name, value] of entries) edge.res.setHeader(name, value);
      return response;
    }
    let out = response;
    try {
      for (const [name, value] of entries) out.headers.set(name, value);
    } catch {
      out = new yoga.fetchAPI.Response(response.body, response);
      for (const [name, value] of entries) out.headers.set(name, value);
    }
    return out;
  }

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    // A response sent before its body arrived drains the rest, within bounds (src/http/body.ts).
    drainWithin(req, res, config.drain);
    edge.serve(req, res);
  };
  const server = createServer(serve);
  // Expect: 100-continue: the 100 goes out when the body is first read, not before the answer is known.
  server.on('checkContinue', (req, res) => {
    continueOnFirstRead(req, res);
    serve(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  const upkeep = scheduleUpkeep(services);
  // The row indexes deployments made before this release lack, built once started (stop waits for the one under way).
  let indexBuild: { stopping: boolean; done: Promise<unknown> } | null = null;
  const sockets = attachWebSocketFeeds({ server, yoga, services, path: '/graphql', mountOf: gatewayAuth.mountOf, limits: config.feeds });
  liveSockets = sockets.live;

  return {
    services,
    database: db,
    server,
    async fetch(request: Request) {
      // Built is ready for in-process calls (/healthz); stop() clears it, start() sets it again.
      if (!server.listening) ready = true;
      return cancelStreamOnAbort(await adapter.fetch(request, { remoteAddress: '127.0.0.1' }), request.signal);
    },
    async start() {
      await ensureListening(config.port, config.host);
      // Wallet leases a stopped process left open: their charges reach the balances now.
      await services.metering.closeWalletLeases(true);
      // Off the way to healthy: the REST operations compile now rather than on their first requests.
      storedOperations.compileAll().catch(error => logger.error({ err: error }, 'a REST route does not compile'));
      upkeep.start();
      if (!indexBuild) {
        const build = { stopping: false, done: Promise.resolve() as Promise<unknown> };
        build.done = services.apps
          .buildMissingIndexes(() => !build.stopping)
          .then(built => built && logger.info({ built }, 'built the row indexes that deployments made before this release lacked'))
          .catch(error => logger.error({ err: error }, 'building the row indexes deployments lack failed; reads stay correct, without them'));
        indexBuild = build;
      }
      const metricsUrl = await metricsHttp.listen();
      if (metricsUrl) logger.info({ url: metricsUrl }, 'metrics listening');
      await devBootstrap.publish(baseUrl());
      return { url: baseUrl(), ...(metricsUrl ? { metricsUrl } : {}) };
    },
    async stop() {
      ready = false;
      upkeep.stop();
      if (indexBuild) {
        indexBuild.stopping = true;
        await indexBuild.done;
        indexBuild = null;
      }
      await metricsHttp.close();
      await sockets.close();
      if (server.listening) {
        server.closeAllConnections();
        await new Promise<void>(resolve => server.close(() => resolve()));
      }
      // Site bytes sent since the last flush are charged before the process goes.
      await services.hosting.flushTransfer().catch(error => logger.warn({ err: error }, 'site transfer charge failed at stop'));
      // No request is running now: this process's wallet leases close, their charges in the balances.
      services.metering.stopLeaseSweep();
      await services.metering.closeWalletLeases().catch(error => logger.error({ err: error }, 'closing wallet leases at stop failed'));
      await bus.close();
      await services.files.blobs.close();
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

/**
 * The per-request context, computed once: where it arrived, for which app, and lazily its body,
 * its caller and its WHATWG Request. A class rather than an object of closures: it is made for
 * every request.
 */
class PipelineContext implements RequestContext {
  readonly method: string;
  readonly headers: HeaderReader;
  readonly url: URL;
  #body: Promise<Uint8Array> | undefined;
  #auth: Promise<ResolvedAuth> | undefined;
  #party: Party | undefined;
  route: string | undefined = undefined;

  constructor(
    private readonly incoming: Incoming,
    private readonly edge: EdgeContext,
    readonly requestId: string,
    readonly remoteAddress: string,
    readonly mount: Mount,
    readonly audienceAppId: string | null,
    private readonly parts: { services: Services; maxBodyBytes: number },
  ) {
    this.method = incoming.method;
    this.headers = incoming.headers;
    this.url = incoming.url;
  }

  /** Whose turns on the embedded database this request takes (src/db/fair-queue.ts). */
  get party(): Party {
    this.#party ??= { key: `address:${addressKey(this.remoteAddress)}` };
    return this.#party;
  }

  get request(): Request {
    return this.incoming.request();
  }

  // On a socket straight from node's request stream: the fetch Request's body stream would wrap
  // it in a stream pipeline (and an AbortController) for the same bytes.
  body(): Promise<Uint8Array> {
    const { req } = this.edge;
    const limit = this.parts.maxBodyBytes;
    this.#body ??= req ? readNodeBody(req, limit) : readRequestBody(this.incoming.request(), limit);
    return this.#body;
  }

  // A reader that stops early (a file over its limit) leaves the rest to drainWithin: the
  // connection stays open for the answer rather than being destroyed with the request stream.
  bodyStream(): AsyncIterable<Uint8Array> {
    const { req } = this.edge;
    if (req) return req.iterator({ destroyOnReturn: false });
    return (this.incoming.request().body as AsyncIterable<Uint8Array> | null) ?? emptyBody();
  }

  auth(): Promise<ResolvedAuth> {
    this.#auth ??= resolveCaller(this.parts.services, this.headers, this.audienceAppId).then(auth => {
      if (auth.caller && this.#party) this.#party.key = partyOf(auth.caller);
      return auth;
    });
    return this.#auth;
  }
}

/**
 * Hourly upkeep of a listening server: the day's at-rest storage charges (once per holder per day,
 * whichever instance gets there first) and the sweep of blobs no file names (a crash between a
 * blob write and its commit). Failures are logged and retried the next hour.
 */
function scheduleUpkeep(services: Services) {
  let timer: NodeJS.Timeout | null = null;
  let first: NodeJS.Timeout | null = null;
  const run = async () => {
    try {
      const settled = await services.metering.settleStorage();
      const swept = await services.files.sweep();
      if (settled.holders || swept.deleted) logger.info({ settled: settled.holders, swept: swept.deleted }, 'upkeep');
    } catch (error) {
      logger.warn({ err: error }, 'upkeep failed; retrying in an hour');
    }
  };
  return {
    start() {
      if (timer) return;
      timer = setInterval(run, 60 * 60 * 1000).unref();
      first = setTimeout(run, 60 * 1000).unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      timer = first = null;
    },
  };
}

/** A person with their agents (an agent counts against its owner), or a developer. */
function partyOf(caller: Caller): string {
  return caller.type === 'principal' ? `person:${caller.principal.ownerId ?? caller.principal.id}` : `developer:${caller.developerId}`;
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}

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

/** The coded error for an answer Yoga gave without a body: what /graphql reads (415) or can answer with (406). */
function emptyGraphqlRefusal(status: 406 | 415, headers: Headers): AppError {
  const header = (name: string) => headers.get(name)?.split(';')[0].trim().slice(0, 100) || null;
  if (status === 415) {
    const sent = header('content-type');
    return fail(
      'unsupported_media_type',
      `POST /graphql takes a JSON body {"query", "variables"} with Content-Type: application/json; it got ${sent ? `Content-Type ${sent}` : 'no Content-Type'}.`,
    );
  }
  return fail(
    'not_acceptable',
    `/graphql answers application/json or application/graphql-response+json (text/event-stream for subscriptions); the Accept header asked for ${header('accept')}.`,
  );
}

/**
 * An in-process caller's abort ends a streamed answer (SSE) as a closed connection does on a
 * socket: Yoga ends a subscription only when its response stream is cancelled, and in-process no
 * connection closes, so an aborted stream would keep its feed listening (and its SSE place) for
 * the life of the app. The body is read through a reader of ours that the abort cancels.
 */
function cancelStreamOnAbort(response: Response, signal: AbortSignal | undefined): Response {
  if (!signal || signal.aborted || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const reader = response.body.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          signal.removeEventListener('abort', onAbort);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      signal.removeEventListener('abort', onAbort);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
