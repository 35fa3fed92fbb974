/**
 * Runs `work` over `items`, at most `limit` at a time. For many small file operations: done one
 * after another, each waits its own turn of the event loop, which a busy server makes long.
 */
export async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>, limit = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
