/** Types for server-flags.mjs (plain JavaScript beside the bin). */
export function serverNodeFlags(execArgv?: readonly string[], env?: NodeJS.ProcessEnv): string[];
export function serverEnv(env?: NodeJS.ProcessEnv): Record<string, string>;
