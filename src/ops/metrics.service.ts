/**
 * /metrics in the Prometheus text format (prom-client), README "Metrics". The hot path costs one
 * Map lookup and a few increments per request: the request's labels are the route's
 * declared pattern (never the raw path), its method and its status, so their number is bounded by
 * the route table. Everything else is read when Prometheus scrapes: live sockets and
 * subscriptions, the database's connections and waits, metering's refusals.
 */
import { Counter, Gauge, Histogram, type Metric, Registry, collectDefaultMetrics } from 'prom-client';
import { meteringRefusals } from '../billing/metering.service.js';
import { insertBatches } from '../rows/row-fast-insert-batch.service.js';
import { writeBatches } from '../rows/row-fast-write-batch.service.js';
import type { EventBus } from '../bus/event-bus.js';
import type { Database } from '../db/database.js';
import { timingSafeEqual, createHash } from 'node:crypto';

export interface MetricsSources {
  database: Database;
  bus: EventBus;
  /** Live-feed sockets and their subscriptions, and SSE streams, now. */
  feeds(): { sockets: number; subscriptions: number; sseStreams: number };
}

/** The route label of a request that reached no route, or was answered before routing. */
export const UNROUTED = { notFound: '(no route)', refused: '(refused before routing)', preflight: '(CORS preflight)' } as const;

/** Methods as node's parser admits them; anything else is `other` (one label value, not one per method). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics({ database, bus, feeds }: MetricsSources) {
  const registry = new Registry();
  const registers = [registry];
  // Process CPU, memory, event-loop delay, GC: prom-client's defaults, sampled at scrape time.
  collectDefaultMetrics({ register: registry, prefix: 'gatehouse_' });

  const requests = new RequestDurations();
  registry.registerMetric(requests as unknown as Metric);

  const busLag = new Histogram({
    name: 'gatehouse_bus_delivery_lag_seconds',
    help: 'Time from an event being published on the event bus to its delivery in this process (over Redis, across instances).',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  bus.observeLag(seconds => busLag.observe(seconds));

  const live = () => feeds();
  new Gauge({
    name: 'gatehouse_websocket_sockets',
    help: 'Open live-feed WebSocket connections.',
    registers,
    collect() {
      this.set(live().sockets);
    },
  });
  new Gauge({
    name: 'gatehouse_subscriptions',
    help: 'Live subscriptions, by transport (websocket: operations on open sockets; sse: event streams).',
    labelNames: ['transport'] as const,
    registers,
    collect() {
      const now = live();
      this.set({ transport: 'websocket' }, now.subscriptions);
      this.set({ transport: 'sse' }, now.sseStreams);
    },
  });

  new Gauge({
    name: 'gatehouse_db_connections',
    help: 'Database connections by state (PGlite: its one connection; busy while a transaction holds it).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const usage = database.usage();
      this.set({ state: 'max' }, usage.max);
      this.set({ state: 'open' }, usage.open);
      this.set({ state: 'idle' }, usage.idle);
    },
  });
  new Gauge({
    name: 'gatehouse_db_waiting',
    help: 'Callers waiting for a database connection now (PGlite: transactions waiting for their turn).',
    registers,
    collect() {
      this.set(database.usage().waiting);
    },
  });
  cumulative('gatehouse_db_waits_total', 'Checkouts that waited for a database connection (PGlite: for their turn).', () => database.usage().waits);
  cumulative('gatehouse_db_wait_seconds_total', 'Time spent waiting for a database connection, in seconds.', () => database.usage().waitSeconds);

  // Several calls' one-statement row writes sent together (src/rows/row-turn-batch.service.ts).
  for (const [names, what, counts] of [
    [['row_insert_batches', 'row_inserts_batched'], 'row inserts', insertBatches],
    [['row_write_batches', 'row_writes_batched'], 'row updates, deletes or upserts', writeBatches],
  ] as const) {
    cumulative(`gatehouse_${names[0]}_total`, `Statements that carried several calls' ${what} together (this process).`, () => counts.statements);
    cumulative(`gatehouse_${names[1]}_total`, `Calls (${what}) sent in such a statement (this process).`, () => counts.calls);
    cumulative(
      `gatehouse_${names[0]}_refused_total`,
      'Such statements the database refused (a lock held, a bad value), whose calls were then sent alone (this process).',
      () => counts.refused,
    );
  }

  const refusalsSeen: Record<string, number> = {};
  new Counter({
    name: 'gatehouse_metering_refusals_total',
    help: 'Metered operations refused with 402 payment_required, by reason (this process, since it started).',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      for (const [reason, count] of Object.entries(meteringRefusals)) {
        this.inc({ reason }, Math.max(0, count - (refusalsSeen[reason] ?? 0)));
        refusalsSeen[reason] = count;
      }
    },
  });

  /** A counter that follows a running total read at scrape time. */
  function cumulative(name: string, help: string, read: () => number) {
    let seen = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const now = read();
        if (now > seen) this.inc(now - seen);
        seen = now;
      },
    });
  }

  return {
    registry,
    contentType: registry.contentType,
    /** One request answered: its route pattern (or an UNROUTED label), method, status and time. */
    requestDone(route: string, method: string, status: number, seconds: number): void {
      requests.observe(route, method, status, seconds);
    },
    text: () => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** One label set's counts: per bucket (not cumulative), then the sum and count. */
interface Series {
  labels: { route: string; method: string; status: string };
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request histogram as plain counts, read by the registry at scrape time in prom-client's
 * histogram shape (the same text its Histogram writes). prom-client's Histogram re-validates and
 * re-hashes the labels and allocates on every observation; here a request costs a Map lookup, a
 * bucket search and three additions.
 */
class RequestDurations {
  readonly name = 'gatehouse_http_request_duration_seconds';
  readonly help = 'HTTP requests by route pattern, method and status: time to the response head (its _count is the request rate).';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** By route, method and status as the request gave them (no key string built per request); several can share a label set (the `other` method). */
  readonly #byRequest = new Map<string, Map<string, Map<number, Series>>>();
  /** By label set, in order of first observation. */
  readonly #series = new Map<string, Series>();

  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.#byRequest.get(route);
    if (!byMethod) this.#byRequest.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = this.#seriesOf({ route, method: METHODS.has(method) ? method : 'other', status: String(status) });
      byStatus.set(status, series);
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
    series.buckets[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  #seriesOf(labels: Series['labels']): Series {
    const key = `${labels.status} ${labels.method} ${labels.route}`;
    let series = this.#series.get(key);
    if (!series) {
      // The last slot counts what is past every bound (only in +Inf).
      series = { labels, buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    return series;
  }

  get() {
    const name = this.name;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, buckets, sum, count } of this.#series.values()) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += buckets[i];
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${name}_bucket` });
      values.push({ labels: { ...labels }, value: sum, metricName: `${name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${name}_count` });
    }
    return { name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#byRequest.clear();
    this.#series.clear();
  }
}

/** Compares a presented bearer token with METRICS_TOKEN in constant time (digests of equal length). */
export function metricsTokenMatches(presented: string | null, token: string): boolean {
  if (!presented?.startsWith('Bearer ')) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented.slice('Bearer '.length).trim()), digest(token));
}
