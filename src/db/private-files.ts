/**
 * The embedded database's files belong to the user who runs it: they hold every email, password
 * hash and row. PGlite writes the files of a new cluster world-readable and world-writable (its
 * initdb runs in memory and copies them out with mode 0666), so a cluster Gatehouse keeps (DATA_DIR,
 * the templates under GATEHOUSE_CACHE_DIR) is made private: directories 0700, files 0600. A data
 * directory that other users could already write is refused: it may not hold what we wrote.
 */
import { chmod, lstat, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
/** Group or others may write, or pass through (a directory's x bit). */
const OTHERS_WRITE = 0o022;
const OTHERS_TRAVERSE = 0o011;

export class DataDirNotPrivateError extends Error {
  readonly code = 'data_dir_not_private';
  constructor(
    readonly dataDir: string,
    readonly offender: { path: string; mode: number },
    readonly more: number,
  ) {
    const octal = (offender.mode & 0o777).toString(8).padStart(4, '0');
    const which = offender.path === path.resolve(dataDir) ? dataDir : `${dataDir}/${path.relative(path.resolve(dataDir), offender.path)}`;
    super(
      `DATA_DIR ${dataDir} is writable by other users of this machine: ${which} is mode ${octal}` +
        `${more ? ` (and ${more} more)` : ''}, so anyone here could have changed its data. ` +
        `If you trust its contents, make it private and start again: chmod -R go-rwx ${shellWord(dataDir)}`,
    );
    this.name = 'DataDirNotPrivateError';
  }
}

function shellWord(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Throws DataDirNotPrivateError when another user could write into `dir`: the directory itself,
 * or an entry under it that others can reach (every directory on the way lets them pass) and write.
 * A private directory (no group or other bits) is one stat: nothing under it is reachable.
 */
export async function refuseWritableByOthers(dir: string, label = dir): Promise<void> {
  const found: { path: string; mode: number }[] = [];
  const root = path.resolve(dir);
  const { mode } = await stat(root);
  if (mode & OTHERS_WRITE) found.push({ path: root, mode });
  if (mode & OTHERS_TRAVERSE) await collectWritable(root, found);
  if (found.length) throw new DataDirNotPrivateError(label, found[0], found.length - 1);
}

async function collectWritable(dir: string, found: { path: string; mode: number }[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(dir, entry.name);
    const { mode } = await lstat(file);
    if (mode & OTHERS_WRITE) found.push({ path: file, mode });
    if (entry.isDirectory() && mode & OTHERS_TRAVERSE) await collectWritable(file, found);
  }
}

/** Whether any entry under `dir` (itself included) carries a group or other write bit, reachable or not. */
export async function hasWritableByOthers(dir: string): Promise<boolean> {
  if ((await stat(dir)).mode & OTHERS_WRITE) return true;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    if ((await lstat(path.join(entry.parentPath, entry.name))).mode & OTHERS_WRITE) return true;
  }
  return false;
}

/** Directories 0700 and files 0600 under `dir` (itself included); symbolic links are left alone. */
export async function makePrivate(dir: string): Promise<void> {
  await chmodIfNeeded(dir, PRIVATE_DIR);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  await inBatches(entries, async entry => {
    if (entry.isSymbolicLink()) return;
    await chmodIfNeeded(path.join(entry.parentPath, entry.name), entry.isDirectory() ? PRIVATE_DIR : PRIVATE_FILE);
  });
}

async function chmodIfNeeded(file: string, mode: number): Promise<void> {
  if (((await lstat(file)).mode & 0o7777) !== mode) await chmod(file, mode);
}

/**
 * Flushes every file under `dir`, then every directory (their entries), to the disk: a cluster
 * copied or built outside PostgreSQL is durable before anything marks it complete.
 */
export async function syncTree(dir: string, { except = [] as string[] } = {}): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const skipped = new Set(except.map(name => path.join(dir, name)));
  const files = entries.filter(e => e.isFile()).map(e => path.join(e.parentPath, e.name));
  await inBatches(
    files.filter(file => !skipped.has(file)),
    file => syncPath(file),
  );
  const dirs = entries.filter(e => e.isDirectory()).map(e => path.join(e.parentPath, e.name));
  await inBatches([...dirs, dir], syncPath);
}

/** fsync of one file or directory (a directory's fsync makes its new entries durable). */
export async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Work over many small files at once: one at a time it is latency-bound. */
const WIDTH = 32;

async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(WIDTH, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
