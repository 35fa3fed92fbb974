/**
 * What a peer server child shares with bench/servers/lifecycle.ts, in plain JavaScript: peers run
 * from the cache directory their packages were installed into (bench/peers.ts), outside the
 * repository, so they import nothing of it. Announces `{ url }` on stdout, answers the parent's
 * event-loop requests over IPC (bench/servers/control.ts), and stops on SIGTERM or when the parent goes.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export function announce(info) {
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

export function onShutdown(close) {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    Promise.resolve()
      .then(close)
      .catch(error => console.error('[peer] shutdown failed:', error))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('disconnect', shutdown);
}

export function enableControl() {
  if (!process.send) return;
  let loop;
  process.on('message', message => {
    if (message.type === 'loop:start') {
      loop?.disable();
      loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      process.send({ type: 'loop:started' });
    } else if (message.type === 'loop:stop') {
      loop?.disable();
      process.send({ type: 'loop:stats', p99: (loop?.percentile(99) ?? 0) / 1e6, max: (loop?.max ?? 0) / 1e6 });
      loop = undefined;
    } else {
      process.send({ type: 'control:error', message: `a peer does not do ${message.type}` });
    }
  });
}

export function main(fn) {
  enableControl();
  fn().catch(error => {
    console.error('[peer] failed to start:', error);
    process.exit(1);
  });
}
