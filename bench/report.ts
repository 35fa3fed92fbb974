/** The printed result: one table per backend, ratios against that backend's DB floor, targets. */
import os from 'node:os';
import type { Measurement } from './load.js';
import type { LoopDelay } from './servers/control.js';

/** A row's goal: a fraction of the DB floor's req/s, or an absolute rate. */
export type Target = { ratio: number } | { rate: number };

export interface RowResult {
  id: string;
  label: string;
  /** Shared rows do not touch the database and are measured once per run. */
  shared?: boolean;
  target?: Target;
  /** The row the ratio is taken against (the DB floor, row b, unless said). */
  baseline?: string;
  /** A peer's row doing the same work: the `vs peer` column is this row's rate over the peer's. */
  peer?: string;
  /** Units of work per request (rows of a 100-row insert): ratios compare units per second. */
  perRequest?: number;
  result?: Measurement;
  /** The server's event-loop delay during the measured run. */
  loop?: LoopDelay;
  error?: string;
}

export interface Section {
  title: string;
  skipped?: string;
  rows: RowResult[];
  /** Whether targets are judged here (the targets are for PostgreSQL). */
  judged: boolean;
}

export interface RunSettings {
  connections: number;
  duration: number;
  warmup: number;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatReport(settings: RunSettings, sections: Section[]): string {
  const cpus = os.cpus();
  const out = [
    `Machine: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${os
      .loadavg()
      .map(n => n.toFixed(2))
      .join(' ')} at the end.`,
    `Gatehouse benchmark: ${settings.connections} connections, ${settings.duration} s measured per row after ${settings.warmup} s of warmup.`,
    'req/s = 2xx responses per second (membership: successful transitions per second); p50/p99 = latency of 2xx responses in ms (1 ms resolution).',
    "vs floor = req/s divided by the same backend's DB floor (row b) measured in this run; the write rows by the floor insert (row b'), the 100-row inserts in rows/s by the one-row insert's (the floor's, b''', by b').",
    "vs peer = req/s (rows/s) over the peer doing the same work in the same run (--peers: PostGraphile v5 + RLS, Mercurius + graphql-jit; always: the list's, the floor list; the 100-row insert's, the floor 100-row insert).",
    "ms cpu/req = milliseconds of the server child's CPU per 2xx response.",
    "loop p99/max = the server's event-loop delay in ms during the measured run (how long a ready socket or timer can wait).",
    'cpu = cores used during the measured run by the server child, PostgreSQL, the load generator and everything else on the machine.',
  ];
  for (const section of sections) {
    out.push('', section.title);
    if (section.skipped) {
      out.push(`  skipped: ${section.skipped}`);
      continue;
    }
    out.push(...formatSection(section));
  }
  return `${out.join('\n')}\n`;
}

function formatSection(section: Section): string[] {
  const rate = (id: string) => {
    const row = section.rows.find(r => r.id === id);
    return row?.result ? row.result.rps * (row.perRequest ?? 1) : undefined;
  };
  const header = [
    '',
    'req/s',
    'p50',
    'p99',
    'vs floor',
    'target',
    '',
    'vs peer',
    'failed',
    'loop p99',
    'max',
    'cpu: server',
    'db',
    'loadgen',
    'other',
    'ms cpu/req',
  ];
  const notes: string[] = [];
  const lines = section.rows.map(row => {
    const label = row.shared ? `${row.label} [shared]` : row.label;
    if (!row.result) {
      notes.push(`  ${row.label}: ${row.error ?? 'not measured'}`);
      return [label, 'error', ...header.slice(2).map(() => '')];
    }
    const { rps, p50, p99, failed, statusCodes, cpu } = row.result;
    const base = rate(row.baseline ?? 'floor');
    const ratio = base ? (rps * (row.perRequest ?? 1)) / base : undefined;
    const peer = row.peer ? rate(row.peer) : undefined;
    const vsPeer = row.peer ? (peer ? `${((rps * (row.perRequest ?? 1)) / peer).toFixed(2)}x` : '-') : '';
    const [goal, verdict] = judge(row.target, rps, ratio, section.judged);
    if (failed > 0) notes.push(`  ${row.label}: ${failed} failed (${describeFailures(failed, statusCodes)})`);
    if (row.result.warmup) {
      notes.push(
        `  ${row.label}: ${row.result.warmup.failed} failed during the warmup (${describeFailures(row.result.warmup.failed, row.result.warmup.statusCodes)})`,
      );
    }
    const cores = cpu ? [cpu.server, cpu.database, cpu.loadGenerator, cpu.other].map(c => c.toFixed(2)) : ['', '', '', ''];
    // Server CPU per request: cores x 1,000 ms / requests per second.
    const cpuPerRequest = cpu && rps > 0 ? ((cpu.server * 1000) / rps).toFixed(2) : '';
    const loop = row.loop ? [int(row.loop.p99), int(row.loop.max)] : ['', ''];
    return [
      label,
      int(rps),
      String(p50),
      String(p99),
      ratio === undefined ? '-' : ratio.toFixed(2),
      goal,
      verdict,
      vsPeer,
      failed ? int(failed) : '',
      ...loop,
      ...cores,
      cpuPerRequest,
    ];
  });
  return [...table([header, ...lines]), ...(notes.length ? ['  notes:', ...notes] : [])];
}

function judge(target: Target | undefined, rps: number, ratio: number | undefined, judged: boolean): [string, string] {
  if (!target) return ['', ''];
  const goal = 'ratio' in target ? `>= ${target.ratio.toFixed(2)}` : `>= ${target.rate}/s`;
  if (!judged) return [`(${goal})`, 'n/a'];
  if ('ratio' in target) {
    if (ratio === undefined) return [goal, 'no floor'];
    return [goal, ratio >= target.ratio ? 'PASS' : 'FAIL'];
  }
  return [goal, rps >= target.rate ? 'PASS' : 'FAIL'];
}

/** Non-2xx statuses by count; the rest of `failed` are connection errors and timeouts (autocannon: 10 s). */
function describeFailures(failed: number, codes: Record<string, number>): string {
  const statuses = Object.entries(codes).filter(([code]) => !code.startsWith('2'));
  const other = failed - statuses.reduce((sum, [, count]) => sum + count, 0);
  const parts = statuses.map(([code, count]) => `status ${code} x${count}`);
  if (other > 0) parts.push(`${other} connection errors or timeouts`);
  return parts.join(', ');
}

/** Left-aligned first column, right-aligned numbers. */
function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => r[i].length)));
  return rows.map(r => `  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd());
}
