/**
 * The one cache of this codebase: a bounded LRU whose entries expire (lru-cache), for lookups that
 * may be a little stale (hosts, origins, clients, deployments, validated tokens).
 *
 * Over lru-cache it adds only what every caller here needs: a cached `null` is an answer (lru-cache
 * stores no null, so values are boxed), `undefined` is never kept, and `getOrLoad` is
 * single-flight (concurrent misses of one key share one load, a map of the loads under way; lighter
 * than lru-cache's `fetch`, which builds an AbortController and a background-fetch record per
 * miss, and misses are the hot path of never-seen tokens); a load that fails is not cached, nor one
 * whose key was deleted or cleared meanwhile (its callers still get it). The clock is injectable
 * so tests can move it.
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
  private readonly lru: LRUCache<string, Box<V>>;
  /** Loads under way, by key: concurrent misses wait on the same one. */
  private readonly loading = new Map<string, Promise<V>>();

  constructor({ ttlMs, max = 10_000, now }: CacheOptions) {
    this.lru = new LRUCache<string, Box<V>>({
      max,
      ttl: ttlMs,
      // Date.now by default (fake timers move it); read on every check rather than debounced.
      perf: { now: now ?? (() => Date.now()) },
      ttlResolution: 0,
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
  getOrLoad(key: string, load: Load<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending) return pending;
    let started: Promise<V>;
    try {
      started = load();
    } catch (error) {
      return Promise.reject(error);
    }
    const loaded: Promise<V> = started.then(
      value => {
        // Stored only if this load is still the key's (no delete or clear came in between).
        if (this.loading.get(key) === loaded) {
          this.loading.delete(key);
          this.set(key, value);
        }
        return value;
      },
      error => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  delete(key: string): void {
    this.lru.delete(key);
    this.loading.delete(key);
  }

  clear(): void {
    this.lru.clear();
    this.loading.clear();
  }
}
