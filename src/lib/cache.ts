/**
 * The one cache of this codebase: a bounded LRU whose entries expire (lru-cache), for lookups that
 * may be a little stale (hosts, origins, clients, deployments, validated tokens).
 *
 * Over lru-cache it adds only what every caller here needs: a cached `null` is an answer (lru-cache
 * stores no null, so values are boxed), `undefined` is never kept, and `getOrLoad` is
 * single-flight (concurrent misses of one key share one load, lru-cache's `fetchMethod`); a load
 * that fails is not cached. The clock is injectable so tests can move it.
 */
import { LRUCache } from 'lru-cache';

export interface CacheOptions {
  ttlMs: number;
  /** At most this many entries; the least recently used goes first. */
  max?: number;
  /** The clock in ms (tests move it). */
  now?: () => number;
}

type Box<V> = { value: V };
type Load<V> = () => Promise<V>;

export class Cache<V> {
  private readonly lru: LRUCache<string, Box<V>, Load<V>>;

  constructor({ ttlMs, max = 10_000, now }: CacheOptions) {
    this.lru = new LRUCache<string, Box<V>, Load<V>>({
      max,
      ttl: ttlMs,
      // Date.now by default (fake timers move it); read on every check rather than debounced.
      perf: { now: now ?? (() => Date.now()) },
      ttlResolution: 0,
      fetchMethod: async (_key, _stale, { context }) => {
        const value = await context();
        return value === undefined ? undefined : { value };
      },
      // A forget() or clear() during a load must not fail the callers already waiting on it.
      ignoreFetchAbort: true,
    });
  }

  /** The live value, or undefined (a cached null is a cached answer). */
  get(key: string): V | undefined {
    return this.lru.get(key)?.value;
  }

  set(key: string, value: V): void {
    if (value !== undefined) this.lru.set(key, { value });
  }

  /** The live value, else `load()`'s, cached (a null too; an undefined or a failure is not). One load per key at a time. */
  async getOrLoad(key: string, load: Load<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit) return hit.value;
    const box = await this.lru.fetch(key, { context: load });
    return box === undefined ? (undefined as V) : box.value;
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }
}
