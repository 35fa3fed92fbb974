/** The slice of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each send of this request; returns the request to send (e.g. a body that changes). */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }

  /** One connection; `setRequests` replaces the sequence it cycles through. */
  export interface Client extends EventEmitter {
    setRequests(requests: Request[]): void;
  }

  export interface Options extends Request {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    requests?: Request[];
    setupClient?: (client: Client) => void;
  }

  export interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  }

  export interface Result {
    /** Seconds, measured. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds, 2xx responses only, integer resolution. */
    latency: Histogram;
    requests: Histogram & { sent: number };
  }

  export default function autocannon(options: Options): Promise<Result> & EventEmitter;
}
