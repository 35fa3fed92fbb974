/**
 * Bounds on live-feed sockets (README "Live feeds"); configured by WS_MAX_* (src/config.ts). The
 * per-principal bounds count per person: an agent's sockets, streams and subscriptions count
 * against its owner's (personOf in src/core/principals.rules.ts), so agents multiply none of them.
 */
export interface FeedLimits {
  /** Operations open at once on one socket; the next subscribe gets a `too_many_subscriptions` error. */
  maxSubscriptionsPerSocket: number;
  /** Sockets one person (with their agents) holds open on this process; the next is closed with 4429 after connection_init. */
  maxSocketsPerPrincipal: number;
  /** Sockets open on this process in all; the next upgrade is answered 503. */
  maxSockets: number;
  /** Operations one person (with their agents) holds open over all their sockets on this process; the next gets `too_many_subscriptions`. */
  maxSubscriptionsPerPerson: number;
}

/**
 * One event is serialised once per (document, variables) but written once per matching
 * subscription, so these bound the fan-out one change can cause (40,000 subscriptions on one
 * token once stalled the server for seconds).
 */
export const FEED_LIMIT_DEFAULTS: FeedLimits = {
  maxSubscriptionsPerSocket: 100,
  maxSocketsPerPrincipal: 20,
  maxSockets: 10_000,
  maxSubscriptionsPerPerson: 2000,
};

/** Places one person holds (sockets, SSE streams), up to `max`: taken on open, given back on close. */
export class PlacesPerPrincipal {
  private readonly held = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a place for `key`; false when it already holds `max`. */
  take(key: string): boolean {
    const open = this.held.get(key) ?? 0;
    if (open >= this.max) return false;
    this.held.set(key, open + 1);
    return true;
  }

  release(key: string): void {
    const left = (this.held.get(key) ?? 1) - 1;
    if (left > 0) this.held.set(key, left);
    else this.held.delete(key);
  }
}
