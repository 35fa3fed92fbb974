/**
 * The rows of the performance issue that are not request/second rows, each measured by its own
 * stand-alone benchmark with its own same-run baseline: live-feed fan-out (feeds/fanout.ts), a
 * provider token seen for the first time (auth/session.ts), start-up time and idle memory
 * (startup.ts), file throughput per storage backend (storage.ts), the notes-app workload (workload.ts). `npm run bench` runs them as children with `--json` and prints the rows they report.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface ExtraOptions {
  backend: string;
  duration: number;
  /** `npm run bench -- --peers`: the extras that have a peer measure it too. */
  peers?: boolean;
}

export interface Extra {
  id: string;
  title: string;
  script: string;
  args: (options: ExtraOptions) => string[];
}

export const EXTRAS: Extra[] = [
  {
    id: 'feeds',
    title: 'Live feeds: one roster change fanned out to N graphql-ws subscribers (bench/feeds/fanout.ts)',
    script: 'feeds/fanout.ts',
    args: ({ peers }) => ['--subscribers', '1000,5000', '--rounds', '5', ...(peers ? ['--peers'] : [])],
  },
  {
    id: 'auth',
    title: 'Gateway auth: cached credentials and first-seen provider tokens on the rest-get read (bench/auth/session.ts)',
    script: 'auth/session.ts',
    args: ({ backend, duration }) => [...(backend === 'both' ? [] : ['--backend', backend]), '--duration', String(Math.min(duration, 6))],
  },
  {
    id: 'storage',
    title: 'Files: a 50 MB file up and down through the streaming routes, per storage backend, and peak memory (bench/storage.ts)',
    script: 'storage.ts',
    args: () => ['--mb', '50', '--runs', '3'],
  },
  {
    id: 'workload',
    title: 'The notes app: 200 users in 50 notebooks with live queries, 60 s at a fixed arrival rate, per store (bench/workload.ts)',
    script: 'workload.ts',
    args: ({ backend }) => (backend === 'both' ? [] : ['--stores', backend]),
  },
  {
    id: 'startup',
    title: 'Start to healthy and idle RSS (bench/startup.ts)',
    script: 'startup.ts',
    args: () => [],
  },
];

export interface ExtraResult {
  extra: Extra;
  rows?: Record<string, unknown>[];
  error?: string;
}

/** Runs one stand-alone benchmark with --json; its progress goes to stderr, its last JSON line holds the rows. */
export function runExtra(extra: Extra, options: ExtraOptions): Promise<ExtraResult> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, extra.script), ...extra.args(options), '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', chunk => (stdout += chunk));
    child.once('exit', code => {
      const line = stdout
        .trim()
        .split('\n')
        .reverse()
        .find(l => l.startsWith('{'));
      try {
        const parsed = line ? JSON.parse(line) : undefined;
        if (!Array.isArray(parsed?.rows)) throw new Error(`no JSON rows (exit code ${code})`);
        resolve({ extra, rows: parsed.rows });
      } catch (error) {
        resolve({ extra, error: (error as Error).message });
      }
    });
  });
}

/** One table per benchmark, its columns the keys its rows report. */
export function formatExtras(results: ExtraResult[]): string {
  const out: string[] = [];
  for (const { extra, rows, error } of results) {
    out.push('', extra.title);
    if (error || !rows) {
      out.push(`  failed: ${error}`);
      continue;
    }
    // Nested values (per-run samples, targets) stay in the child's own output and JSON.
    const columns = [...new Set(rows.flatMap(row => Object.keys(row).filter(key => typeof row[key] !== 'object' || row[key] === null)))];
    const cell = (value: unknown) =>
      typeof value === 'number' ? (Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2)) : value == null ? '' : String(value);
    const table = [columns, ...rows.map(row => columns.map(c => cell(row[c])))];
    const widths = columns.map((_, i) => Math.max(...table.map(r => r[i].length)));
    for (const r of table) out.push(`  ${r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ')}`);
  }
  return `${out.join('\n')}\n`;
}
