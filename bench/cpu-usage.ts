/**
 * Where the machine's CPU went during a measurement (Linux /proc): the server child, PostgreSQL
 * backends, this process (the load generator), and everything else. On a 2-core machine that
 * others share, "other" says whether a row's figure can be trusted.
 */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export interface CpuShares {
  /** Cores used on average over the window. */
  server: number;
  database: number;
  loadGenerator: number;
  other: number;
}

interface Snapshot {
  at: number;
  busy: number;
  server: number;
  /** Each postgres process's ticks: a backend that ends during the window (a pool's connection closed) must not cancel the others' use. */
  database: Map<string, number>;
  self: number;
}

/** Starts a window; the returned function ends it. Undefined where /proc is missing. */
export function startCpuWindow(serverPid: number): (() => CpuShares) | undefined {
  let first: Snapshot;
  try {
    first = snapshot(serverPid);
  } catch {
    return undefined;
  }
  return () => {
    const last = snapshot(serverPid);
    const seconds = (last.at - first.at) / 1000;
    const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
    const server = cores(last.server - first.server);
    const database = cores(ticksSince(first.database, last.database));
    const loadGenerator = cores(last.self - first.self);
    return { server, database, loadGenerator, other: Math.max(0, cores(last.busy - first.busy) - server - database - loadGenerator) };
  };
}

function snapshot(serverPid: number): Snapshot {
  // cpu  user nice system idle iowait irq softirq steal ...
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const busy = fields.reduce((a, b) => a + b, 0) - fields[3] - fields[4];
  return { at: Date.now(), busy, server: processTicks(String(serverPid)), database: postgresTicks(), self: processTicks(String(process.pid)) };
}

/** Each running `postgres` process's CPU ticks so far, by pid. */
export function postgresTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') ticks.set(pid, processTicks(pid));
    } catch {
      // The process ended while we looked.
    }
  }
  return ticks;
}

/**
 * PostgreSQL's CPU from `before` (postgresTicks) to now, in ms: the processes alive at both
 * readings, plus those started since (one that ended meanwhile is not counted).
 */
export const postgresMsSince = (before: Map<string, number>): number => (ticksSince(before, postgresTicks()) * 1000) / TICKS_PER_SECOND;

/** The ticks the processes of `after` used since `before` (one absent from `before` started since). */
function ticksSince(before: Map<string, number>, after: Map<string, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks;
}

/** utime + stime of one process. */
function processTicks(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may contain spaces: fields are counted after its closing parenthesis.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]);
}

/** Cores busy with other processes over `ms`, before any load: a noisy neighbour warning. */
export async function busyElsewhere(ms = 1_000): Promise<number | undefined> {
  const end = startCpuWindow(process.pid);
  if (!end) return undefined;
  await new Promise(resolve => setTimeout(resolve, ms));
  const shares = end();
  return shares.other + shares.database;
}
