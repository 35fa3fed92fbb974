/** The `gatehouse` CLI run in this process (src/cli/main.ts), its output captured, as a test drives it. */
import { EventEmitter } from 'node:events';
import { main } from '../../src/cli/main.js';

export async function runCli(args: string[], env: Record<string, string>, cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, env, {
    stdout: { write: (text: string) => ((stdout += text), true) },
    stderr: { write: (text: string) => ((stderr += text), true) },
    cwd,
    signals: new EventEmitter(),
    exit: () => {
      throw new Error('exit');
    },
  });
  return { code, stdout, stderr };
}
