/** Drives load with autocannon (in this process) against a server running in a child process. */
import autocannon, { type Request, type Result } from 'autocannon';
import { type CpuShares, startCpuWindow } from './cpu-usage.js';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** Seconds of unmeasured load first (JIT, caches, pools); 0 for none. */
  warmup: number;
  /** The request sequence every connection cycles through. */
  requests?: Request[];
  /**
   * A sequence per connection instead: connections are numbered across the warmup and the
   * measured run, so each gets state of its own (e.g. its own pair of users).
   */
  requestsFor?: (connection: number) => Request[];
  /** The number of the first connection (a row measured again, --repeats, gets connections of its own). */
  firstConnection?: number;
  /** The server child, to report where CPU went during the measured run. */
  serverPid?: number;
  /** Runs after the warmup, right before the measured run (e.g. to start a profiler). */
  beforeMeasuring?: () => Promise<void>;
}

export interface Measurement {
  /** Successful (2xx) responses per second. */
  rps: number;
  /** Milliseconds, 2xx responses only (autocannon's resolution is 1 ms). */
  p50: number;
  p99: number;
  ok: number;
  /** Non-2xx responses plus connection errors and timeouts. */
  failed: number;
  /** Count by status code, to explain failures. */
  statusCodes: Record<string, number>;
  cpu?: CpuShares;
  /** Failures during the warmup (not in the figures, but worth knowing: e.g. cold pools). */
  warmup?: { failed: number; statusCodes: Record<string, number> };
}

export async function measure(options: LoadOptions): Promise<Measurement> {
  let nextConnection = options.firstConnection ?? 0;
  const run = (duration: number) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration,
      requests: options.requests,
      setupClient: options.requestsFor ? client => client.setRequests(options.requestsFor!(nextConnection++)) : undefined,
    });
  const warmup = options.warmup > 0 ? summarize(await run(options.warmup), undefined) : undefined;
  await options.beforeMeasuring?.();
  const endCpuWindow = options.serverPid ? startCpuWindow(options.serverPid) : undefined;
  const result = await run(options.duration);
  return {
    ...summarize(result, endCpuWindow?.()),
    ...(warmup?.failed ? { warmup: { failed: warmup.failed, statusCodes: warmup.statusCodes } } : {}),
  };
}

function summarize(result: Result, cpu: CpuShares | undefined): Measurement {
  const ok = result['2xx'];
  return {
    cpu,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    failed: result.non2xx + result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}
