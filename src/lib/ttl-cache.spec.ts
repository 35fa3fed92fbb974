import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache.js';

afterEach(() => vi.useRealTimers());

describe('TtlCache', () => {
  it('keeps a value (null too) until its time is up, then loads again', async () => {
    vi.useFakeTimers();
    const cache = new TtlCache<string | null>(1000);
    let loads = 0;
    const load = async () => (++loads, null);
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(loads).toBe(1);
    vi.advanceTimersByTime(1001);
    await cache.getOrLoad('k', load);
    expect(loads).toBe(2);
  });

  it('does not keep undefined', async () => {
    const cache = new TtlCache<string | undefined>(1000);
    let loads = 0;
    await cache.getOrLoad('k', async () => (++loads, undefined));
    await cache.getOrLoad('k', async () => (++loads, undefined));
    expect(loads).toBe(2);
  });

  it('drops the oldest entry past its limit', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });
});
