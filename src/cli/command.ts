/** The shape every command module exports; main.ts parses the flags it declares and calls run. */
import type { ParseArgsConfig } from 'node:util';
import { type Output, type Streams, usageError } from './output.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/**
 * What a command reaches of its process besides the environment. main() fills it from `process`;
 * tests pass buffers, a directory and an emitter, so commands run in-process exactly as from the bin.
 */
export interface CliIO extends Streams {
  /** The directory relative paths are resolved against. */
  cwd: string;
  /** Where SIGINT and SIGTERM arrive, for the commands that run until stopped. */
  signals: { on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown };
  /** Ends the process at once (a second signal while stopping). */
  exit(code: number): void;
  /** All of standard input (`login --token-stdin`). */
  readStdin(): Promise<string>;
  /** Asks a person a question on the terminal and returns the answer; null when no one can answer (no TTY). */
  ask(question: string): Promise<string | null>;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    signals: process,
    exit: code => process.exit(code),
    readStdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      return text;
    },
    ask: async question => {
      if (!process.stdin.isTTY || !process.stderr.isTTY) return null;
      const { createInterface } = await import('node:readline/promises');
      const terminal = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await terminal.question(question);
      } finally {
        terminal.close();
      }
    },
  };
}

/** A yes/no question answered yes; false when the answer is anything else or no one can answer. */
export async function confirmed(io: Pick<CliIO, 'ask'>, question: string): Promise<boolean> {
  const answer = await io.ask(`${question} [y/N] `);
  return answer !== null && /^y(es)?$/i.test(answer.trim());
}

export interface CommandContext {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
  out: Output;
  io: CliIO;
}

export interface Command {
  /** Words that select it, e.g. 'apps create'. */
  name: string;
  summary: string;
  /** The help text after the usage line: arguments, flags, environment. */
  help: string;
  /** Positional arguments shown in the usage line, e.g. '<name>'; their count is enforced. */
  positionals?: { min: number; max: number; usage: string };
  options?: OptionSpec;
  run(context: CommandContext): Promise<void>;
}

/** The flag's value, or a usage error when a required one is missing or empty. */
export function requireString(values: CommandContext['values'], flag: string): string {
  const value = values[flag];
  if (typeof value !== 'string' || value.trim() === '') throw usageError(`--${flag} is required.`);
  return value.trim();
}
