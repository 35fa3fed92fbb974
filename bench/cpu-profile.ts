/** Summarises a V8 CPU profile (.cpuprofile): self time by function and by package or source area. */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  name: string;
  ms: number;
  /** Share of the non-idle time. */
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  functions: SelfTime[];
  areas: SelfTime[];
}

const IDLE = '(idle)';

export function summarizeProfile(profile: CpuProfile, root = process.cwd()): ProfileSummary {
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const profiling = profilerNodes(profile.nodes);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (!profiling.has(id)) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    totalUs += us;
    if (functionName === IDLE) {
      idleUs += us;
      continue;
    }
    const where = shortUrl(url, root);
    const name = where ? `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}` : functionName;
    functions.set(name, (functions.get(name) ?? 0) + us);
    const area = url.startsWith('wasm://') ? `${wasmOwner(id, byId, parents, root)} (wasm)` : areaOf(url, functionName, root);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const ranked = (map: Map<string, number>) =>
    [...map].map(([name, us]) => ({ name, ms: us / 1000, share: busyUs ? us / busyUs : 0 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: totalUs / 1000, idleMs: idleUs / 1000, functions: ranked(functions), areas: ranked(areas) };
}

export function formatProfileSummary(summary: ProfileSummary, top: number): string {
  const busy = summary.totalMs - summary.idleMs;
  const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)}%`;
  const rows = (list: SelfTime[]) => list.slice(0, top).map(t => `  ${pct(t.share)}  ${t.ms.toFixed(0).padStart(7)} ms  ${t.name}`);
  return [
    `profiled ${(summary.totalMs / 1000).toFixed(1)} s: busy ${busy.toFixed(0)} ms (${pct(busy / summary.totalMs).trim()}), idle ${summary.idleMs.toFixed(0)} ms`,
    '',
    'self time by area (share of busy time):',
    ...rows(summary.areas),
    '',
    `top ${top} functions by self time:`,
    ...rows(summary.functions),
  ].join('\n');
}

/** WebAssembly frames have no package: name the nearest JavaScript caller's (PGlite, Prisma's query compiler). */
function wasmOwner(id: number, byId: Map<number, ProfileNode>, parents: Map<number, number>, root: string): string {
  for (let at = parents.get(id); at !== undefined; at = parents.get(at)) {
    const { url, functionName } = byId.get(at)!.callFrame;
    if (url && !url.startsWith('wasm://')) return areaOf(url, functionName, root);
  }
  return 'unknown';
}

/** The profiler's own work (stopping it, serialising the profile), which is not the server's. */
function profilerNodes(nodes: ProfileNode[]): Set<number> {
  const byId = new Map(nodes.map(node => [node.id, node]));
  const out = new Set<number>();
  const mark = (id: number) => {
    out.add(id);
    for (const child of byId.get(id)?.children ?? []) mark(child);
  };
  for (const node of nodes) if (node.callFrame.url.endsWith('/bench/servers/control.ts')) mark(node.id);
  return out;
}

function shortUrl(url: string, root: string): string {
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** node_modules/<package>, src/<dir>, node internals, or V8's own buckets ((garbage collector), (program)). */
function areaOf(url: string, functionName: string, root: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const path = shortUrl(url, root);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const source = /^(src\/[^/]+|bench)\//.exec(path);
  return source ? source[1] : path;
}
