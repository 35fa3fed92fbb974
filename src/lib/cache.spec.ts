import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cache } from './cache.js';

afterEach(() => vi.useRealTimers());

describe('Cache', () => {
  it('keeps a value (null too) until its time is up, then loads again', async () => {
    vi.useFakeTimers();
    const cache = new Cache<string | null>({ ttlMs: 1000 });
    let loads = 0;
    const load = async () => (++loads, null);
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(loads).toBe(1);
    vi.advanceTimersByTime(1001);
    await cache.getOrLoad('k', load);
    expect(loads).toBe(2);
  });

  it('follows an injected clock', async () => {
    let t = 1_000;
    const cache = new Cache<number>({ ttlMs: 100, now: () => t });
    cache.set('k', 1);
    t = 1_099;
    expect(cache.get('k')).toBe(1);
    t = 1_101;
    expect(cache.get('k')).toBeUndefined();
  });

  it('does not keep undefined', async () => {
    const cache = new Cache<string | undefined>({ ttlMs: 1000 });
    let loads = 0;
    await cache.getOrLoad('k', async () => (++loads, undefined));
    await cache.getOrLoad('k', async () => (++loads, undefined));
    expect(loads).toBe(2);
  });

  it('concurrent misses of one key share one load', async () => {
    const cache = new Cache<number>({ ttlMs: 1000 });
    let loads = 0;
    let release!: (n: number) => void;
    const load = () => (++loads, new Promise<number>(resolve => (release = resolve)));
    const both = Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)]);
    await Promise.resolve();
    release(7);
    expect(await both).toEqual([7, 7]);
    expect(loads).toBe(1);
  });

  it('a failed load is not cached', async () => {
    const cache = new Cache<number>({ ttlMs: 1000 });
    await expect(cache.getOrLoad('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.getOrLoad('k', async () => 5)).toBe(5);
  });

  it('drops the least recently used entry past its limit', () => {
    const cache = new Cache<number>({ ttlMs: 1000, max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('a key deleted or cleared during its load: the waiting callers get the value, the cache keeps none', async () => {
    const cache = new Cache<number>({ ttlMs: 1000 });
    let release!: (n: number) => void;
    const waiting = cache.getOrLoad('k', () => new Promise<number>(resolve => (release = resolve)));
    cache.delete('k');
    release(1);
    expect(await waiting).toBe(1);
    expect(cache.get('k')).toBeUndefined();
    const again = cache.getOrLoad('k', () => new Promise<number>(resolve => (release = resolve)));
    cache.clear();
    release(2);
    expect(await again).toBe(2);
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.getOrLoad('k', async () => 3)).toBe(3);
    expect(cache.get('k')).toBe(3);
  });

  it('a load that throws before its promise is a rejection, not a throw', async () => {
    const cache = new Cache<number>({ ttlMs: 1000 });
    const loading = cache.getOrLoad('k', () => {
      throw new Error('sync');
    });
    await expect(loading).rejects.toThrow('sync');
  });
});
