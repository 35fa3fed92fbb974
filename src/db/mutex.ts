/** A first-come, first-served async lock. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves once every earlier holder has released; the returned release is idempotent. */
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>(resolve => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => released);
    await previous;
    return release;
  }

  /** Runs `fn` once every earlier caller has finished; a failure does not poison the lock. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
