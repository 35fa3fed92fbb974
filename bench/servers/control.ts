/**
 * What the parent can ask a server child over the IPC channel while load runs: a CPU profile of
 * the measured run only (not start-up, migrations or seeding, which `node --cpu-prof` would
 * include), and the event-loop delay over the same window.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

export type ControlMessage =
  | { type: 'profile:start'; intervalUs?: number }
  | { type: 'profile:stop'; file: string }
  | { type: 'loop:start' }
  | { type: 'loop:stop' };

/** Milliseconds. */
export interface LoopDelay {
  p99: number;
  max: number;
}

export type ControlReply =
  | { type: 'profile:started' }
  | { type: 'profile:written'; file: string }
  | { type: 'loop:started' }
  | ({ type: 'loop:stats' } & LoopDelay)
  | { type: 'control:error'; message: string };

export function enableControl(): void {
  if (!process.send) return;
  let session: Session | undefined;
  let loop: IntervalHistogram | undefined;
  const reply = (message: ControlReply) => process.send!(message);

  process.on('message', (message: ControlMessage) => {
    handle(message).catch(error => reply({ type: 'control:error', message: String(error) }));
  });

  async function handle(message: ControlMessage) {
    switch (message.type) {
      case 'profile:start':
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: message.intervalUs ?? 200 });
        await session.post('Profiler.start');
        return reply({ type: 'profile:started' });
      case 'profile:stop': {
        if (!session) throw new Error('profile:stop without profile:start');
        const { profile } = await session.post('Profiler.stop');
        session.disconnect();
        session = undefined;
        await writeFile(message.file, JSON.stringify(profile));
        return reply({ type: 'profile:written', file: message.file });
      }
      case 'loop:start':
        loop?.disable();
        loop = monitorEventLoopDelay({ resolution: 10 });
        loop.enable();
        return reply({ type: 'loop:started' });
      case 'loop:stop': {
        if (!loop) throw new Error('loop:stop without loop:start');
        loop.disable();
        const stats = { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
        loop = undefined;
        return reply({ type: 'loop:stats', ...stats });
      }
    }
  }
}
