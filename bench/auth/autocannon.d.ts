/** The parts of autocannon's API the cache-miss rows use beyond bench/autocannon.d.ts. */
declare module 'autocannon' {
  export interface Request {
    /** Called for every request a connection sends; returns the request to send. */
    setupRequest?: (request: Request) => Request;
  }

  export interface Options {
    /** Requests in total (spread over the connections) instead of a duration. */
    amount?: number;
    /** Milliseconds between samples; an `amount` run ends on one of these ticks (default 1000). */
    sampleInt?: number;
  }
}
