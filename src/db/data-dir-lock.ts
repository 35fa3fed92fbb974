/**
 * The embedded database's data directory belongs to one process: PGlite does not notice a second
 * opener, which then silently writes into a copy that is thrown away. `DATA_DIR/gatehouse.lock`
 * names the holder (pid, start time, the server's URL once it listens); a second opener fails at
 * once with that name. A lock whose process is gone (kill -9, a crash, a reboot) is taken over.
 */
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'gatehouse.lock';

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder took the lock. */
  startedAt: string;
  /** The command it runs, e.g. `serve`, for the message a second opener sees. */
  command?: string;
  /** Where the holder's server listens, once it does (a loopback URL the CLI can reach). */
  url?: string;
}

export class DataDirInUseError extends Error {
  readonly code = 'data_dir_in_use';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const what = [holder.command ? `gatehouse ${holder.command}` : 'gatehouse', `pid ${holder.pid}`].join(' ');
    const where = holder.host === hostname() ? '' : ` on host ${holder.host}`;
    const serving = holder.url ? `, serving ${holder.url}` : '';
    super(
      `DATA_DIR ${dataDir} is in use by ${what}${where} (started ${holder.startedAt}${serving}). ` +
        `Stop it (kill ${holder.pid}) or use a different DATA_DIR; to create a developer token while it runs, ` +
        'use `gatehouse dev-token create` (it talks to the running server).',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  readonly dataDir: string;
  readonly holder: LockHolder;
  /** Records more about the holder (the server's URL once it listens). */
  update(patch: Partial<Pick<LockHolder, 'url'>>): Promise<void>;
  release(): Promise<void>;
}

/** Locks held by this process, by absolute directory: a second open in-process is refused too. */
const held = new Map<string, DataDirLock>();

// A process that exits without closing its database (process.exit after a command) leaves no lock.
process.once('exit', () => {
  for (const lock of held.values()) {
    try {
      unlinkSync(lockPath(lock.dataDir));
    } catch {
      // Already gone.
    }
  }
});

const lockPath = (dataDir: string) => path.join(path.resolve(dataDir), LOCK_FILE);

/** The lock this process holds on `dataDir`, if any. */
export function heldLock(dataDir: string): DataDirLock | undefined {
  return held.get(path.resolve(dataDir));
}

/** Takes the directory's lock (the directory must exist), or throws DataDirInUseError naming the holder. */
export async function acquireDataDirLock(dataDir: string, command = commandOf(process.argv)): Promise<DataDirLock> {
  const absolute = path.resolve(dataDir);
  const file = lockPath(absolute);
  const mine = held.get(absolute);
  if (mine) throw new DataDirInUseError(dataDir, mine.holder);

  const holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), ...(command ? { command } : {}) };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusive(file, holder)) {
      const lock = makeLock(absolute, holder);
      held.set(absolute, lock);
      return lock;
    }
    const current = await readHolder(file);
    if (current === 'missing') continue;
    if (current !== 'unreadable' && isAlive(current)) throw new DataDirInUseError(dataDir, current);
    await takeOverStale(file, current);
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing hands. Is another gatehouse starting on DATA_DIR ${dataDir}?`);
}

/** The live process holding `dataDir`'s lock, or null when none does (no lock, or a stale one). */
export async function dataDirHolder(dataDir: string): Promise<LockHolder | null> {
  const current = await readHolder(lockPath(dataDir));
  return typeof current === 'object' && isAlive(current) ? current : null;
}

function makeLock(dataDir: string, initial: LockHolder): DataDirLock {
  let holder = initial;
  let released: Promise<void> | undefined;
  return {
    dataDir,
    get holder() {
      return holder;
    },
    async update(patch) {
      holder = { ...holder, ...patch };
      // Written whole and renamed over the lock, so a reader never sees half a file.
      const temporary = `${lockPath(dataDir)}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(temporary, JSON.stringify(holder), { mode: 0o600 });
      await rename(temporary, lockPath(dataDir));
    },
    release: () =>
      (released ??= (async () => {
        held.delete(dataDir);
        await unlink(lockPath(dataDir)).catch(ignoreMissing);
      })()),
  };
}

/** Creates the lock file with its full contents, failing if it exists (link() is atomic and exclusive). */
async function createExclusive(file: string, holder: LockHolder): Promise<boolean> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, JSON.stringify(holder), { mode: 0o600 });
  try {
    await link(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(ignoreMissing);
  }
}

async function readHolder(file: string): Promise<LockHolder | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const parsed = JSON.parse(text);
    if (Number.isInteger(parsed?.pid) && typeof parsed.startedAt === 'string') return { host: hostname(), ...parsed };
  } catch {
    // Not ours, or damaged: treated as stale.
  }
  return 'unreadable';
}

/**
 * Whether the lock's process still runs. A pid from before the last boot, or this process's own
 * pid on a lock it does not hold (a restarted container reuses pids), is a different process now.
 * A lock from another host cannot be checked, so it counts as held.
 */
function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  const bootedAt = Date.now() - uptime() * 1000;
  if (Date.parse(holder.startedAt) < bootedAt - 60_000) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves a stale lock aside. Between reading it and moving it another opener may have replaced it
 * with a fresh one; if what was moved is not what was judged stale, it goes back.
 */
async function takeOverStale(file: string, judged: LockHolder | 'unreadable'): Promise<void> {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readHolder(aside);
  const same =
    judged === 'unreadable' ? moved === 'unreadable' : typeof moved === 'object' && moved.pid === judged.pid && moved.startedAt === judged.startedAt;
  if (!same) await link(aside, file).catch(ignoreExists);
  await unlink(aside).catch(ignoreMissing);
}

/** `serve`, `dev-token create`…: the CLI words after the script, without flags' values. */
function commandOf(argv: string[]): string | undefined {
  if (!/gatehouse(\.mjs)?$/.test(argv[1] ?? '')) return undefined;
  const words = argv.slice(2).filter(word => /^[a-z][a-z-]*$/.test(word));
  return words.slice(0, 2).join(' ') || undefined;
}

function ignoreMissing(error: NodeJS.ErrnoException) {
  if (error.code !== 'ENOENT') throw error;
}

function ignoreExists(error: NodeJS.ErrnoException) {
  if (error.code !== 'EEXIST') throw error;
}
