/**
 * Opening embedded PGlite databases. @electric-sql/pglite is imported on first open, so a process
 * on PostgreSQL never loads it (it is tens of MB of JavaScript and WebAssembly).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { access, chmod, copyFile, mkdir, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { acquireDataDirLock } from './data-dir-lock.js';
import { hasWritableByOthers, makePrivate, refuseWritableByOthers, syncPath, syncTree } from './private-files.js';
import { logger } from '../lib/logger.js';

export const MEMORY_DATA_DIR = 'memory://';

/**
 * PostgreSQL's buffer pool inside PGlite. Its whole shared memory is zeroed (touched) at every
 * start, so the server's default of 128 MB was most of the idle RSS and ~0.5 s of each start; one
 * connection and data that stays in the OS page cache (NODEFS) need far less (bench/README.md,
 * "Start-up and memory").
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

export interface OpenPGliteOptions {
  /** A filesystem path (created if missing) or `memory://` for an in-memory database. */
  dataDir?: string;
  /** A tarball from `PGlite.dumpDataDir()` to start from instead of running initdb (~0.4 s vs ~2 s). */
  loadDataDir?: Blob | File;
  /** shared_buffers (default PGLITE_SHARED_BUFFERS). */
  sharedBuffers?: string;
  /**
   * Where a pristine cluster is kept to seed new data directories by copying files instead of
   * running initdb (seconds, and a memory peak near 1 GB); null: always initdb. Default:
   * GATEHOUSE_CACHE_DIR, else $XDG_CACHE_HOME/gatehouse or ~/.cache/gatehouse.
   */
  templateCacheDir?: string | null;
  /**
   * A new data directory starts as a copy of a cluster already migrated to these migrations
   * (`key` names them), made once per machine with `migrate`; without it, a pristine cluster.
   */
  migrated?: { key: () => Promise<string>; migrate: (pglite: PGlite) => Promise<void> };
  /** Told what a new data directory's preparation is doing, before each slow step (`gatehouse serve` prints it). */
  onProgress?: (message: string) => void;
}

export function isMemoryDataDir(dataDir: string): boolean {
  return dataDir.startsWith(MEMORY_DATA_DIR);
}

async function createPGlite(dataDir: string, options: OpenPGliteOptions): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const sharedBuffers = ['-c', `shared_buffers=${options.sharedBuffers ?? PGLITE_SHARED_BUFFERS}`];
  // In memory there is nothing to flush: PGlite's defaults (fsync off) stand.
  if (isMemoryDataDir(dataDir)) {
    return PGlite.create({ dataDir, loadDataDir: options.loadDataDir, startParams: [...PGlite.defaultStartParams, ...sharedBuffers] });
  }
  return PGlite.create({
    fs: await flushingNodeFs(dataDir),
    loadDataDir: options.loadDataDir,
    startParams: [...durableStartParams(PGlite.defaultStartParams), ...sharedBuffers],
  });
}

/**
 * A cluster on disk is durable: a commit is acknowledged once its WAL is on the disk. PGlite's
 * default start parameters turn fsync off (`-F`); without it PostgreSQL flushes the WAL at every
 * commit and data files at checkpoints. It flushes the WAL with `fsync` here: PGlite's
 * filesystem makes `fdatasync`, PostgreSQL's default on Linux, a no-op (bench/README.md,
 * "Embedded durability", has the write-rate cost).
 */
export function durableStartParams(defaults: readonly string[]): string[] {
  return [...defaults.filter(param => param !== '-F'), '-c', 'fsync=on', '-c', 'wal_sync_method=fsync'];
}

/**
 * PGlite's Node filesystem (Emscripten's NODEFS) with a working fsync: NODEFS has none, so every
 * fsync PostgreSQL makes would reach nothing. The flush goes to the file's real descriptor; a
 * failure is an errno PostgreSQL sees (and answers with a PANIC, as it must).
 */
async function flushingNodeFs(dataDir: string): Promise<NonNullable<PGliteOptions['fs']>> {
  const { NodeFS } = await import('@electric-sql/pglite/nodefs');
  class FlushingNodeFS extends NodeFS {
    override async init(pg: PGlite, emscriptenOptions: Parameters<InstanceType<typeof NodeFS>['init']>[1]) {
      const { emscriptenOpts } = await super.init(pg, emscriptenOptions);
      return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), flushThrough] } };
    }
  }
  return new FlushingNodeFS(dataDir);
}

interface EmscriptenNodeFs {
  NODEFS: {
    stream_ops: { fsync?: (stream: { nfd: number }) => void };
    tryFSOperation<T>(operation: () => T): T;
  };
}

function flushThrough(module: unknown): void {
  const { NODEFS } = module as EmscriptenNodeFs;
  NODEFS.stream_ops.fsync = stream => NODEFS.tryFSOperation(() => fs.fsyncSync(stream.nfd));
}

/**
 * Opens PGlite. A data directory is locked for as long as the instance is open (see
 * data-dir-lock.ts): a second opener, in this process or another, gets DataDirInUseError.
 */
export async function openPGlite(options: OpenPGliteOptions = {}): Promise<PGlite> {
  const { dataDir = MEMORY_DATA_DIR, loadDataDir } = options;
  if (isMemoryDataDir(dataDir)) return createPGlite(dataDir, options);
  const location = path.resolve(dataDir);
  await mkdir(location, { recursive: true, mode: PRIVATE_DIR });
  // Before anything is written into it: a directory others could write may not hold what we wrote.
  await refuseWritableByOthers(location, dataDir);
  const wasPrivate = ((await stat(location)).mode & 0o077) === 0;
  // Nobody else can reach what is written in it from now on; what it already holds is made private below.
  if (!wasPrivate) await chmod(location, PRIVATE_DIR);
  const lock = await acquireDataDirLock(dataDir);
  let pglite: PGlite;
  try {
    const fresh = !(await exists(path.join(location, PG_VERSION)));
    if (!loadDataDir && fresh) await seedFromTemplate(location, options);
    pglite = await createPGlite(location, options);
    // A new cluster (PGlite writes initdb's files 0666) or one from before data directories were
    // private; afterwards PostgreSQL creates its files 0600 in a 0700 directory by itself.
    if (fresh || !wasPrivate) {
      try {
        await makePrivate(location);
      } catch (error) {
        await pglite.close();
        throw error;
      }
    }
  } catch (error) {
    await lock.release();
    throw error;
  }
  // Every owner of the instance (the database, `migrate`) closes it; the lock goes with it.
  const close = pglite.close.bind(pglite);
  pglite.close = async () => {
    try {
      await close();
    } finally {
      await lock.release();
    }
  };
  return pglite;
}

/** PGlite's (and PostgreSQL's) mark of an initialised cluster; copied last. */
const PG_VERSION = 'PG_VERSION';

const PRIVATE_DIR = 0o700;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function defaultTemplateCacheDir(): string {
  const env = process.env;
  if (env.GATEHOUSE_CACHE_DIR) return env.GATEHOUSE_CACHE_DIR;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'gatehouse');
}

export async function pgliteVersion(): Promise<string> {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; it sits above the resolved entry (dist/).
  const file = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

/**
 * The template cache, private to this user (0700). Null when it cannot be: another user's
 * directory, or one others may write (they could plant a template).
 */
async function privateCacheDir(cacheDir: string): Promise<string | null> {
  try {
    await mkdir(cacheDir, { recursive: true, mode: PRIVATE_DIR });
    const { mode, uid } = await stat(cacheDir);
    if (uid !== process.getuid?.() && process.getuid) throw new Error(`owned by uid ${uid}`);
    if (mode & 0o022) throw new Error(`writable by other users (mode ${(mode & 0o777).toString(8)})`);
    if (mode & 0o077) await chmod(cacheDir, PRIVATE_DIR);
    return cacheDir;
  } catch (error) {
    logger.warn({ err: (error as Error).message, cacheDir }, 'pglite: the template cache is not private to this user; not using it');
    return null;
  }
}

/**
 * A template in the cache, when it can be trusted: one that other users could write (made before
 * templates were private) is removed, to be built again.
 */
async function usableTemplate(template: string): Promise<boolean> {
  if (!(await exists(path.join(template, PG_VERSION)))) return false;
  if (!(await hasWritableByOthers(template))) return true;
  logger.info({ template }, 'pglite: rebuilding a cluster template other users could write');
  await rm(template, { recursive: true, force: true });
  return false;
}

/**
 * A pristine cluster made by this PGlite build, built once per machine (initdb, then a clean
 * shutdown) and never modified afterwards; null when it cannot be kept (an unwritable cache).
 */
async function clusterTemplate(cacheDir: string, options: OpenPGliteOptions): Promise<string | null> {
  const template = path.join(cacheDir, `pglite-${await pgliteVersion()}-cluster`);
  if (await usableTemplate(template)) return template;
  options.onProgress?.(`Initialising a PostgreSQL cluster for the embedded database (once per machine, kept in ${cacheDir}; 10-30 s)…`);
  return buildTemplate(template, async partial => {
    await mkdir(partial, { recursive: true, mode: PRIVATE_DIR });
    await (await createPGlite(partial, options)).close();
  });
}

/**
 * Fills a template in a directory of its own and renames it into place. Null when that fails,
 * unless another process put its template in place first (as good as ours).
 */
async function buildTemplate(template: string, fill: (partial: string) => Promise<void>): Promise<string | null> {
  const partial = `${template}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await fill(partial);
    // Private and on the disk before it is in place: every new data directory is a copy of it.
    await makePrivate(partial);
    await syncTree(partial);
    await rename(partial, template);
    await syncPath(path.dirname(template));
    return template;
  } catch (error) {
    await rm(partial, { recursive: true, force: true }).catch(() => {});
    if (await exists(path.join(template, PG_VERSION))) return template;
    logger.debug({ err: (error as Error).message, template }, 'pglite: no cluster template (initdb or migrations in place)');
    return null;
  }
}

/** Migrated templates kept per PGlite version, the most recently used. */
const KEPT_MIGRATED_TEMPLATES = 3;

/**
 * A cluster migrated with `migrated.migrate`, made once per set of migrations from the pristine
 * template (copy, open, migrate, clean shutdown) and never modified afterwards; all but the few
 * most recently used are removed. Null when it cannot be kept.
 */
async function migratedTemplate(
  cacheDir: string,
  pristine: string,
  migrated: NonNullable<OpenPGliteOptions['migrated']>,
  options: OpenPGliteOptions,
) {
  const prefix = `pglite-${await pgliteVersion()}-migrated-`;
  const template = path.join(cacheDir, `${prefix}${await migrated.key()}`);
  if (await usableTemplate(template)) {
    // Marks it as in use, for the clean-up below.
    await utimes(template, new Date(), new Date()).catch(() => {});
    return template;
  }
  options.onProgress?.('Applying the database migrations to it (once per set of migrations)…');
  const built = await buildTemplate(template, async partial => {
    await copyCluster(pristine, partial);
    const pglite = await createPGlite(partial, options);
    try {
      await migrated.migrate(pglite);
    } finally {
      await pglite.close();
    }
  });
  if (!built) return null;
  // The few most recently used stay (two checkouts of different versions on one machine each keep
  // theirs); older ones are not used again.
  // Best effort: another process may be removing the same ones.
  const others = (await readdir(cacheDir)).filter(name => name.startsWith(prefix) && !name.endsWith('.partial'));
  const used = await Promise.all(others.map(async name => ({ name, at: (await stat(path.join(cacheDir, name)).catch(() => null))?.mtimeMs ?? 0 })));
  for (const { name } of used.sort((a, b) => b.at - a.at).slice(KEPT_MIGRATED_TEMPLATES)) {
    await rm(path.join(cacheDir, name), { recursive: true, force: true }).catch(() => {});
  }
  return template;
}

/**
 * Makes a new data directory a copy of a template cluster (migrated when `options.migrated` is
 * given and that template can be had, else pristine): plain file copies instead of initdb and
 * migrations. Without a template PGlite runs initdb as before.
 */
async function seedFromTemplate(location: string, options: OpenPGliteOptions): Promise<void> {
  // undefined: the default place; null: no cache.
  const configured = options.templateCacheDir === undefined ? defaultTemplateCacheDir() : options.templateCacheDir;
  const cacheDir = configured === null ? null : await privateCacheDir(configured);
  const inPlace = () => options.onProgress?.(`Initialising the embedded database in ${options.dataDir} (no cluster template to copy; 10-30 s)…`);
  if (cacheDir === null) return inPlace();
  const pristine = await clusterTemplate(cacheDir, options);
  if (!pristine) return inPlace();
  const migrated = options.migrated ? await migratedTemplate(cacheDir, pristine, options.migrated, options) : null;
  options.onProgress?.(`Creating the embedded database in ${options.dataDir} (a copy of the prepared cluster)…`);
  // A migrated template removed while it was copied (another version's clean-up): start pristine.
  if (
    migrated &&
    (await copyCluster(migrated, location).then(
      () => true,
      () => false,
    ))
  )
    return;
  await copyCluster(pristine, location);
}

/** Files copied at once: a cluster is ~1,000 small files, and one at a time the copy is latency-bound (~3x slower). */
const COPY_WIDTH = 32;

/**
 * Copies a cluster over whatever an interrupted copy left at `to`. PG_VERSION goes last, once the
 * rest is on the disk, so an interrupted copy (or one a power loss cut short) is not taken for a
 * cluster.
 */
async function copyCluster(from: string, to: string): Promise<void> {
  // Only the cluster's own entries are replaced: `to` also holds the data-dir lock.
  for (const name of await readdir(from)) await rm(path.join(to, name), { recursive: true, force: true });
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const relative = (entry: (typeof entries)[number]) => path.relative(from, path.join(entry.parentPath, entry.name));
  for (const dir of [
    '',
    ...entries
      .filter(entry => entry.isDirectory())
      .map(relative)
      .sort(),
  ])
    await mkdir(path.join(to, dir), { recursive: true, mode: PRIVATE_DIR });
  const files = entries.filter(entry => entry.isFile() && !(entry.parentPath === from && entry.name === PG_VERSION)).map(relative);
  let next = 0;
  await Promise.all(
    Array.from({ length: COPY_WIDTH }, async () => {
      while (next < files.length) {
        const file = files[next++];
        await copyFile(path.join(from, file), path.join(to, file));
      }
    }),
  );
  await syncTree(to);
  await copyFile(path.join(from, PG_VERSION), path.join(to, PG_VERSION));
  await syncPath(path.join(to, PG_VERSION));
  await syncPath(to);
}

let emptyTarball: Blob | undefined;

/**
 * A new empty in-memory database, quickly: initdb runs once per process (~2 s) and later scratch
 * databases load a tarball of that pristine one (~0.4 s). For shadow databases and tests.
 */
export async function openScratchPGlite(): Promise<PGlite> {
  if (emptyTarball) return openPGlite({ loadDataDir: emptyTarball });
  const pristine = await openPGlite();
  try {
    emptyTarball ??= await pristine.dumpDataDir('none');
  } catch (error) {
    await pristine.close();
    throw error;
  }
  return pristine;
}
