/**
 * GET /metrics (README "Metrics"). Off the public port or behind a token in production:
 * - METRICS_PORT set: served only on a listener of its own (METRICS_HOST, loopback by default);
 *   the public port answers 404 there;
 * - METRICS_TOKEN set: `Authorization: Bearer <token>` is required wherever it is served
 *   (compared in constant time);
 * - neither: served on the public port to callers on this machine (loopback, not forwarded by a
 *   proxy) outside production; in production it is refused until one of the two is set.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import { fail } from '../errors.js';
import { claimedAddresses, isLoopbackAddress } from '../http/client-ip.js';
import { type Endpoint, defineEndpoint } from '../http/endpoint.js';
import { restError } from '../http/error-responses.js';
import type { RequestContext } from '../http/request-context.js';
import { NodeHeaders } from '../http/node-edge.js';
import type { HeaderReader } from '../http/responses.js';
import { type Metrics, metricsTokenMatches } from './metrics.service.js';

export const METRICS_PATH = '/metrics';

export function createMetricsHttp(config: Config, metrics: Metrics | null) {
  const { token, port, host } = config.metrics;

  /** The refusal for a scrape with these headers, or null to serve it. */
  function refusal(headers: HeaderReader, remoteAddress: string, onOwnListener: boolean) {
    if (!metrics || (port !== null && !onOwnListener)) {
      return fail(
        'not_found',
        metrics ? `No route GET ${METRICS_PATH} here: metrics are served on METRICS_PORT.` : `No route GET ${METRICS_PATH}: METRICS=0.`,
      );
    }
    if (token !== null) {
      return metricsTokenMatches(headers.get('authorization'), token)
        ? null
        : fail('metrics_unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN>.');
    }
    if (onOwnListener) return null;
    if (config.nodeEnv === 'production') {
      return fail('metrics_token_required', 'In production /metrics is served on METRICS_PORT or with METRICS_TOKEN; neither is set.');
    }
    if (!claimedAddresses(remoteAddress, headers).every(isLoopbackAddress)) {
      return fail('loopback_only', '/metrics without METRICS_TOKEN answers only requests made on this machine.');
    }
    return null;
  }

  async function answer(headers: HeaderReader, remoteAddress: string, onOwnListener: boolean): Promise<Response> {
    const refused = refusal(headers, remoteAddress, onOwnListener);
    if (refused) return restError(refused, refused.code === 'metrics_unauthorized' ? { 'www-authenticate': 'Bearer' } : {});
    return new Response(await metrics!.text(), { status: 200, headers: { 'content-type': metrics!.contentType, 'cache-control': 'no-store' } });
  }

  let listener: Server | null = null;

  return {
    /** GET /metrics on the public port. */
    handle: (context: RequestContext) => answer(context.headers, context.remoteAddress, false),

    /** Starts the METRICS_PORT listener, when one is configured; its URL. */
    async listen(): Promise<string | null> {
      if (port === null || !metrics || listener) return null;
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const path = new URL(req.url ?? '/', 'http://metrics.local').pathname;
        const answered =
          req.method === 'GET' && path === METRICS_PATH
            ? answer(new NodeHeaders(req.headers), req.socket.remoteAddress ?? '', true)
            : Promise.resolve(restError(fail('not_found', `Only GET ${METRICS_PATH} is served here.`)));
        answered
          .then(async response => {
            res.writeHead(response.status, Object.fromEntries(response.headers));
            res.end(Buffer.from(await response.arrayBuffer()));
          })
          .catch(() => res.destroy());
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      listener = server;
      const address = server.address() as AddressInfo;
      return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}${METRICS_PATH}`;
    },

    async close(): Promise<void> {
      const server = listener;
      listener = null;
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}

export type MetricsHttp = ReturnType<typeof createMetricsHttp>;

/** For operators' scrapers only, so not in the OpenAPI document. */
export const metricsEndpoints: Endpoint[] = [
  defineEndpoint({
    method: 'GET',
    path: METRICS_PATH,
    credential: 'none',
    errors: ['not_found', 'metrics_unauthorized', 'metrics_token_required', 'loopback_only'],
    docs: null,
    handle: ({ context, runtime }) =>
      runtime.metrics ? runtime.metrics.handle(context) : Promise.resolve(restError(fail('not_found', 'No metrics here.'))),
  }),
];
