/**
 * What a stand-alone benchmark script (bench/rows.ts, bench/auth/session.ts) shares: choosing its
 * backend, cleaning up on Ctrl-C, the measured row record and the CPU-share columns.
 */
import { type Backend, type BackendName, prepareBackend } from './backends.js';
import type { CpuShares } from './cpu-usage.js';
import type { Measurement } from './load.js';
import type { LoopDelay } from './servers/control.js';
import { stopAllServers } from './spawn-server.js';

/** One measured row of a report. */
export interface BenchRow {
  label: string;
  what: string;
  result?: Measurement;
  loop?: LoopDelay;
  error?: string;
}

/**
 * The asked backend, or PostgreSQL falling back to PGlite when none was asked and PostgreSQL is
 * unreachable; an asked backend that cannot run ends the script (exit 0, "skipped").
 */
export async function chooseBackend(asked: BackendName | undefined, postgresUrl: string, log: (message: string) => void): Promise<Backend> {
  const prepared = await prepareBackend(asked ?? 'postgres', postgresUrl);
  if (!('skipped' in prepared)) return prepared;
  if (asked) {
    log(`skipped: ${prepared.skipped}`);
    process.exit(0);
  }
  log(`${prepared.skipped}: using PGlite`);
  return (await prepareBackend('pglite')) as Backend;
}

/** Ctrl-C stops the server children and drops the scratch database before exiting. */
export function cleanUpOnInterrupt(backend: () => Backend | undefined, log: (message: string) => void): void {
  process.on('SIGINT', () => {
    log('interrupted: stopping the server and removing the scratch database');
    void stopAllServers()
      .then(() => backend()?.drop())
      .finally(() => process.exit(130));
  });
}

/** The cpu columns: server, database, load generator, other (cores). */
export function cores(cpu: CpuShares | undefined): string[] {
  return cpu ? [cpu.server, cpu.database, cpu.loadGenerator, cpu.other].map(c => c.toFixed(2)) : ['', '', '', ''];
}
