/**
 * The IPC side of a bench server child (fanout-server.ts, rows-live-server.ts): its `ready`
 * message, requests answered by id, and `stop`.
 */
import type { ChildProcess } from 'node:child_process';

export function childIpc<Ready>(child: ChildProcess, name: string) {
  let nextId = 1;
  const pending = new Map<number, (reply: any) => void>();
  const ready = new Promise<Ready>((resolve, reject) => {
    child.on('message', (message: any) => {
      if (message.ready) resolve(message);
      else pending.get(message.id)?.(message);
    });
    child.once('exit', code => reject(new Error(`${name} exited (${code})`)));
  });
  const ask = (type: string) =>
    new Promise<any>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, reply => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      child.send({ type, id });
    });
  // The child exits on `stop` without answering.
  const stop = () =>
    new Promise(resolve => {
      child.once('exit', resolve);
      child.send({ type: 'stop', id: 0 });
      setTimeout(() => child.kill(), 5000).unref();
    });
  return { ready, ask, stop };
}
