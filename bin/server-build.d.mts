/** Types for server-build.mjs (plain JavaScript beside the bin). */
export const EXTERNAL: RegExp;
export function buildOptions(outdir: string): Record<string, unknown>;
export function serverBuild(root?: string): Promise<string | null>;
