/**
 * Start-up leaves tens of megabytes of garbage (modules compiled, migrations checked, the schema
 * built and validated) in a heap V8 grew for it. V8's memory reducer hands it back to the system
 * after about 15 s of idleness; `reclaimStartupMemory` does the same once, right after start-up,
 * so a server that just started is as small as one that has idled (bench/startup.ts: PostgreSQL
 * 151 -> 112 MB, embedded 250 -> 194 MB, for ~80 ms of one GC).
 *
 * The collection is V8's "last resort" one: full GCs that compact and shrink the young
 * generation, which a regular major GC does not (26 ms, no RSS given back). V8's gc function is
 * enabled only while it is fetched into a throwaway context (the way Jest's leak detector gets
 * it): no module sees a global `gc`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let gc: GcFunction | undefined;

/** Collects all garbage and returns unused memory to the system; how long it took and what RSS it gave back. */
export function reclaimStartupMemory(): { ms: number; freedMB: number } {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as GcFunction;
    setFlagsFromString('--no-expose-gc');
  }
  const rss = process.memoryUsage.rss();
  const started = performance.now();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return { ms: Math.round(performance.now() - started), freedMB: Math.round((rss - process.memoryUsage.rss()) / 1048576) };
}
