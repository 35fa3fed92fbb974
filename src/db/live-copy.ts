/**
 * A consistent copy of the embedded database's data directory while the server runs
 * (`gatehouse backup`, src/ops/backup.ts), with a short pause whatever the database's size.
 *
 * PGlite is PostgreSQL in single-user mode on this process's thread: no background writer or
 * checkpointer, so while no statement runs nothing writes to the cluster's files. A copy taken in
 * such a moment is the image a crash at that moment would leave, which PostgreSQL recovers by
 * replaying its WAL (every commit is flushed to the WAL before it is acknowledged:
 * durableStartParams in pglite.ts). The copy is made in two passes: the whole directory while the
 * database keeps running (a fuzzy copy), then, with every statement held back, only the files
 * changed or added since that pass began (their mtime or ctime, which a rename moves too) and the
 * removal of those that are gone. The pause is the second pass: the files written meanwhile
 * (the current WAL segment, a few tables), not the whole cluster.
 */
import { copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { inParallel } from '../lib/in-parallel.js';

/** Runs `fn` while no statement of the database runs (Database.exclusively). */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/** Entries of DATA_DIR that are not the cluster's: ours (the lock, the bootstrap secret, files, backups). */
export const NOT_CLUSTER = new Set(['gatehouse.lock', 'bootstrap.secret', 'files', '.backups', '.restore']);

/** Files changed up to this long before the first pass began are copied again (clock granularity). */
const MARGIN_MS = 2000;

interface Listed {
  size: number;
  changedMs: number;
}

/**
 * Every file under `dir` (relative paths), with size and last change, skipping NOT_CLUSTER at the
 * top; `directories` gets every directory (PostgreSQL needs its empty ones: pg_tblspc, pg_notify…).
 */
async function listTree(dir: string, directories = new Set<string>()): Promise<Map<string, Listed>> {
  const listed = new Map<string, Listed>();
  const walk = async (rel: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      // A directory PostgreSQL removed meanwhile (first pass only).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await Promise.all(
      entries.map(async entry => {
        if (!rel && (NOT_CLUSTER.has(entry.name) || entry.name.startsWith('.'))) return;
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          directories.add(name);
          return walk(name);
        }
        if (!entry.isFile()) return;
        const info = await lstat(path.join(dir, name)).catch(() => null);
        if (info) listed.set(name, { size: info.size, changedMs: Math.max(info.mtimeMs, info.ctimeMs) });
      }),
    );
  };
  await walk('');
  return listed;
}

async function copyOne(source: string, target: string, name: string): Promise<boolean> {
  await mkdir(path.dirname(path.join(target, name)), { recursive: true, mode: 0o700 });
  try {
    await copyFile(path.join(source, name), path.join(target, name));
    return true;
  } catch (error) {
    // Removed by PostgreSQL between the listing and the copy: only in the fuzzy pass.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export interface LiveCopy {
  /** How long statements were held back (the second pass), in ms. */
  pauseMs: number;
  /** Files copied again in the pause. */
  recopied: number;
  /** Files in the copy. */
  files: number;
}

/** Copies the cluster in `source` to `target` (an empty directory) consistently; see the module comment. */
export async function copyClusterLive(source: string, target: string, exclusively: Exclusive): Promise<LiveCopy> {
  const firstPassAt = Date.now();
  const first = await listTree(source);
  const copied = new Set<string>();
  await inParallel([...first.keys()], async name => {
    if (await copyOne(source, target, name)) copied.add(name);
  });
  return exclusively(async () => {
    const started = performance.now();
    const directories = new Set<string>();
    const now = await listTree(source, directories);
    for (const name of directories) await mkdir(path.join(target, name), { recursive: true, mode: 0o700 });
    const changed = [...now].filter(
      ([name, info]) => !copied.has(name) || info.size !== first.get(name)?.size || info.changedMs >= firstPassAt - MARGIN_MS,
    );
    await inParallel(changed, async ([name]) => {
      if (!(await copyOne(source, target, name))) throw new Error(`live copy: ${name} vanished while the database was paused`);
    });
    const gone = [...copied].filter(name => !now.has(name));
    await inParallel(gone, name => rm(path.join(target, name), { force: true }));
    return { pauseMs: Math.round(performance.now() - started), recopied: changed.length, files: now.size };
  });
}
