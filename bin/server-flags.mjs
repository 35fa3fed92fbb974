/**
 * The Node flags the server commands (`serve`, `idp`) run with; bin/gatehouse.mjs re-executes
 * itself with any that are missing, and bench/spawn-server.ts gives every benchmark child the same.
 *
 * - `--experimental-async-context-frame` on Node 22-23: AsyncLocalStorage (the request id on
 *   every log line) runs on promise hooks there, a cost on every await of every request; the
 *   async-context-frame implementation (Node 24's default) has none.
 * - `--v8-pool-size`: V8's worker threads (concurrent GC, background compilers, WebAssembly
 *   compilation) number 4 by default whatever the machine. On two cores they outnumber the cores
 *   and take them from the event loop: one fewer than the cores, at most Node's 4, measured 14-17%
 *   more reads per second and a restart 80 ms sooner on two cores (bench/README.md). Not set when
 *   the user set it (on the command line or in NODE_OPTIONS).
 *
 * And the environment they run with (`serverEnv`):
 * - `MALLOC_MMAP_THRESHOLD_` (glibc, Linux): glibc raises its mmap threshold to the size of each
 *   large block freed, up to 32 MiB, and large buffers of the embedded database's start then stay
 *   resident in malloc's arenas: the idle embedded server was 183 MB, or 205 in 4 starts of 16;
 *   with a fixed 4 MiB threshold 179 MB, 195-196 in 2 of 16 (PostgreSQL 106 against 110 MB). Blocks
 *   under 4 MiB, every request's, are served as before (bench/README.md). Not set when the user set it.
 */
import os from 'node:os';

export function serverNodeFlags(execArgv = process.execArgv, env = process.env) {
  const flags = [];
  if (Number(process.versions.node.split('.')[0]) < 24) flags.push('--experimental-async-context-frame');
  const userSet = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some(arg => arg.startsWith('--v8-pool-size'));
  if (!userSet) flags.push(`--v8-pool-size=${Math.min(4, Math.max(1, os.availableParallelism() - 1))}`);
  return flags;
}

/** Environment variables the server commands need and `env` lacks (to merge over it). */
export function serverEnv(env = process.env) {
  const wanted = {};
  if (process.platform === 'linux' && env.MALLOC_MMAP_THRESHOLD_ === undefined) wanted.MALLOC_MMAP_THRESHOLD_ = String(4 * 1024 * 1024);
  return wanted;
}
