/** A bounded map whose entries expire: lookups that may be a little stale (hosts, origins, clients, deployments). */
export class TtlCache<V> {
  private readonly map = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly limit = 10_000,
    /** The clock (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  /** The live value, or undefined (a cached null is a cached answer). */
  get(key: string): V | undefined {
    const hit = this.map.get(key);
    return hit && hit.until > this.now() ? hit.value : undefined;
  }

  set(key: string, value: V): void {
    // Oldest first: Map keeps insertion order.
    if (this.map.size >= this.limit && !this.map.has(key)) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, { value, until: this.now() + this.ttlMs });
  }

  /** The live value, else `load()`'s, cached (a null too; an undefined is not kept). A hit is one resolved promise. */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    return load().then(value => {
      if (value !== undefined) this.set(key, value);
      return value;
    });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
