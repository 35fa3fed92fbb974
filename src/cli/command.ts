/** The shape every command module exports; main.ts parses the flags it declares and calls run. */
import type { ParseArgsConfig } from 'node:util';
import { type Output, usageError } from './output.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
  out: Output;
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
