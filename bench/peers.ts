/**
 * The peers `npm run bench -- --peers` measures beside Gatehouse: other servers doing the same work,
 * installed on demand into a cache directory outside the repository (they are not dependencies of
 * Gatehouse), at pinned versions, the way .ci/run installs Node 22. Their server scripts
 * (bench/peers/*.mjs) are copied next to their node_modules so they resolve the packages there.
 *
 * Cache: $GATEHOUSE_BENCH_CACHE or ~/.cache/gatehouse-bench, one directory per set of pins.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pinned: a peer's figures are comparable across runs only at the same versions. */
export const PEER_PACKAGES: Record<string, string> = {
  postgraphile: '5.1.5',
  pg: '8.23.0',
  graphql: '16.15.0',
  mercurius: '16.10.1',
  fastify: '5.12.8',
};

const SCRIPTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'peers');
const PINS = Object.entries(PEER_PACKAGES).map(([name, version]) => `${name}@${version}`);

let installed: Promise<string> | undefined;

/** The directory holding the peers' node_modules and their server scripts; installs them the first time. */
export function ensurePeers(log: (message: string) => void): Promise<string> {
  installed ??= (async () => {
    const cache = process.env.GATEHOUSE_BENCH_CACHE || path.join(os.homedir(), '.cache', 'gatehouse-bench');
    const dir = path.join(cache, `peers-${createHash('sha256').update(PINS.join(' ')).digest('hex').slice(0, 12)}`);
    const marker = path.join(dir, '.installed');
    const done = await readFile(marker, 'utf8').catch(() => '');
    if (done !== PINS.join(' ')) {
      log(`peers: installing ${PINS.join(' ')} into ${dir} (once per machine)`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'gatehouse-bench-peers', private: true, type: 'module' })}\n`);
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', dir, ...PINS]);
      await writeFile(marker, PINS.join(' '));
    }
    for (const file of await readdir(SCRIPTS_DIR)) if (file.endsWith('.mjs')) await copyFile(path.join(SCRIPTS_DIR, file), path.join(dir, file));
    return dir;
  })();
  return installed;
}

/** The path of a peer's server script (`postgraphile`, `mercurius`), ready to run with node. */
export async function peerScript(name: string, log: (message: string) => void): Promise<string> {
  return path.join(await ensurePeers(log), `${name}.mjs`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 2, 2] }); // npm's output to stderr: stdout is the report's
    child.once('error', reject);
    child.once('exit', code => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}
