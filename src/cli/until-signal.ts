/** Long-running commands (serve, idp): wait for SIGINT or SIGTERM, then stop; a second signal exits at once. */
import type { CliIO } from './command.js';
import { CliError, type Output } from './output.js';

export async function runUntilSignal(out: Output, io: Pick<CliIO, 'signals' | 'exit'>, stop: () => Promise<void>): Promise<void> {
  let stopping = false;
  const signal = await new Promise<NodeJS.Signals>(resolve => {
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      io.signals.on(name, () => {
        // A second signal while stopping means "now": do not wait for the database to close.
        if (stopping) io.exit(130);
        stopping = true;
        resolve(name);
      });
    }
  });
  out.note(`Received ${signal}, shutting down.`);
  await stop();
}

/** Turns a busy port into a clear error instead of a stack trace. */
export function addressInUse(error: unknown, where: string, variable: string): Error {
  return (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
    ? new CliError('address_in_use', `${where} is already in use. Set ${variable} to another port.`)
    : (error as Error);
}
