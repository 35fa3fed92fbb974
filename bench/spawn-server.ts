/**
 * Starts a benchmark server (bench/servers/*.ts) in a child process, so the load generator and
 * the server under test never share an event loop, and waits for the JSON line announcing it.
 * An IPC channel carries control messages (servers/control.ts) and ends the child if we die.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ControlMessage, ControlReply, LoopDelay } from './servers/control.js';
import { serverEnv, serverNodeFlags } from '../bin/server-flags.mjs';
import { buildOptions } from '../bin/server-build.mjs';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SERVERS_DIR = path.join(BENCH_DIR, 'servers');
const ROOT = path.resolve(BENCH_DIR, '..');
/** Seeding (pairs for every connection of every repeat) takes minutes on a busy machine. */
const START_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 20_000;
const ECHOED_STDERR_LINES = 12;
const DRAIN_MS = 1_000;

export interface SpawnOptions {
  args?: string[];
  /** Merged over the parent's environment; an undefined value removes the variable. */
  env?: Record<string, string | undefined>;
  /** A script to run instead of bench/servers/<name> (the peers' servers, bench/peers.ts), with plain node. */
  script?: string;
}

export interface RunningServer<T> {
  info: T & { url: string };
  pid: number;
  /** Starts a CPU profile in the child; `stopProfile` writes it to `file`. */
  startProfile(): Promise<void>;
  stopProfile(file: string): Promise<void>;
  /** Starts recording the child's event-loop delay; `stopLoopMonitor` returns it. */
  startLoopMonitor(): Promise<void>;
  stopLoopMonitor(): Promise<LoopDelay>;
  stop(): Promise<void>;
}

/** Children still running, with a promise of their exit. */
const live = new Map<ChildProcess, Promise<string>>();

let built: Promise<string> | null = null;

/**
 * The children, built once per run with the server build's options (bin/server-build.mjs: npm
 * packages bundled, no keepNames), so they run as `gatehouse serve` does rather than through tsx.
 * Inside the repository (dist/bench/<pid>), where the sources find the package root; removed at exit.
 */
function buildChildren(): Promise<string> {
  built ??= (async () => {
    const { build } = await import('esbuild');
    const parent = path.join(ROOT, 'dist', 'bench');
    // Builds left by runs that were killed before their exit handler ran.
    for (const pid of existsSync(parent) ? readdirSync(parent) : [])
      if (!isRunning(Number(pid))) rmSync(path.join(parent, pid), { recursive: true, force: true });
    const outdir = path.join(parent, String(process.pid));
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    const entryPoints = [
      ...readdirSync(SERVERS_DIR)
        .filter(file => file.endsWith('.ts') && !file.endsWith('.d.ts'))
        .map(file => path.join(SERVERS_DIR, file)),
      path.join(BENCH_DIR, 'feeds', 'fanout-server.ts'),
      path.join(BENCH_DIR, 'feeds', 'ws-broadcast-server.ts'),
      path.join(BENCH_DIR, 'feeds', 'rows-live-server.ts'),
    ];
    await build({ ...buildOptions(outdir), outbase: BENCH_DIR, entryPoints });
    return outdir;
  })();
  return built;
}

/**
 * How to run a bench child, `entry` relative to bench/ without its extension (`servers/control`,
 * `feeds/fanout-server`): its built script, or with BENCH_FROM_SOURCES=1 its source through tsx.
 */
export async function childScript(entry: string): Promise<{ script: string; nodeArgs: string[] }> {
  if (process.env.BENCH_FROM_SOURCES === '1') return { script: path.join(BENCH_DIR, `${entry}.ts`), nodeArgs: ['--import', 'tsx'] };
  return { script: path.join(await buildChildren(), `${entry}.mjs`), nodeArgs: [] };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `name` is a file in bench/servers, without its extension. BENCH_FROM_SOURCES=1 runs it through tsx instead of built. */
export async function spawnServer<T = object>(name: string, options: SpawnOptions = {}): Promise<RunningServer<T>> {
  const { script, nodeArgs } = options.script ? { script: options.script, nodeArgs: [] } : await childScript(`servers/${name}`);
  // The flags `gatehouse serve` runs with, for Gatehouse and its baselines alike: ratios compare code, not runtime settings.
  const child = spawn(process.execPath, [...serverNodeFlags([], {}), ...nodeArgs, script, ...(options.args ?? [])], {
    env: { ...process.env, ...serverEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<string>(resolve =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(signal ? `signal ${signal}` : `code ${code}`);
    }),
  );
  live.set(child, exited);

  let stderrTail = '';
  const echo = stderrEcho(name, child.pid!);
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-8_000);
    echo(chunk);
  });

  const info = await new Promise<T & { url: string }>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(
      () => settle(() => (child.kill('SIGKILL'), reject(new Error(`${name}: not ready within ${START_TIMEOUT_MS / 1000} s`)))),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout! }).on('line', line => {
      if (settled || !line.startsWith('{')) return void process.stderr.write(`  [${name}] ${line}\n`);
      settle(() => resolve(JSON.parse(line)));
    });
    exited.then(how => settle(() => reject(new Error(`${name} exited (${how}) before it was ready:\n${stderrTail.trim()}`))));
  });

  function ask<K extends ControlReply['type']>(message: ControlMessage, expect: K): Promise<Extract<ControlReply, { type: K }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: ControlReply) => {
        if (reply.type !== expect && reply.type !== 'control:error') return;
        child.off('message', onMessage);
        if (reply.type === 'control:error') reject(new Error(`${name}: ${reply.message}`));
        else resolve(reply as Extract<ControlReply, { type: K }>);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  }

  return {
    info,
    pid: child.pid!,
    startProfile: () => ask({ type: 'profile:start' }, 'profile:started').then(() => {}),
    stopProfile: file => ask({ type: 'profile:stop', file }, 'profile:written').then(() => {}),
    startLoopMonitor: () => ask({ type: 'loop:start' }, 'loop:started').then(() => {}),
    stopLoopMonitor: () => ask({ type: 'loop:stop' }, 'loop:stats').then(({ p99, max }) => ({ p99, max })),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Requests still in flight when the load stopped finish first: a server stopping under
      // them logs errors (e.g. transactions refused by a closing pool) that are not the run's.
      await new Promise(resolve => setTimeout(resolve, DRAIN_MS));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Shows a child's first stderr lines with its name; the rest (an error repeated under load
 * would flood the report) goes only to a log file in the temp directory.
 */
function stderrEcho(name: string, pid: number): (chunk: string) => void {
  const file = path.join(os.tmpdir(), `gh-bench-${name}-${pid}.log`);
  let shown = 0;
  return chunk => {
    appendFileSync(file, chunk);
    for (const line of chunk.split('\n')) {
      if (!line) continue;
      if (shown < ECHOED_STDERR_LINES) process.stderr.write(`  [${name}] ${line}\n`);
      else if (shown === ECHOED_STDERR_LINES) process.stderr.write(`  [${name}] ... more in ${file}\n`);
      shown++;
    }
  };
}

/** For the parent's SIGINT handler: stops every child still running, so its database can go. */
export async function stopAllServers(): Promise<void> {
  const timer = setTimeout(() => {
    for (const child of live.keys()) child.kill('SIGKILL');
  }, STOP_TIMEOUT_MS);
  for (const child of live.keys()) child.kill('SIGTERM');
  await Promise.all(live.values());
  clearTimeout(timer);
}
