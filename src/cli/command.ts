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
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), signals: process, exit: code => process.exit(code) };
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
