/**
 * Opening embedded PGlite databases. @electric-sql/pglite is imported on first open, so a process
 * on PostgreSQL never loads it (it is tens of MB of JavaScript and WebAssembly).
 */
import { randomBytes } from 'node:crypto';
import { access, cp, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { acquireDataDirLock } from './data-dir-lock.js';
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
}

export function isMemoryDataDir(dataDir: string): boolean {
  return dataDir.startsWith(MEMORY_DATA_DIR);
}

async function createPGlite(dataDir: string, options: OpenPGliteOptions): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create({
    dataDir,
    loadDataDir: options.loadDataDir,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers ?? PGLITE_SHARED_BUFFERS}`],
  });
}

/**
 * Opens PGlite. A data directory is locked for as long as the instance is open (see
 * data-dir-lock.ts): a second opener, in this process or another, gets DataDirInUseError.
 */
export async function openPGlite(options: OpenPGliteOptions = {}): Promise<PGlite> {
  const { dataDir = MEMORY_DATA_DIR, loadDataDir } = options;
  if (isMemoryDataDir(dataDir)) return createPGlite(dataDir, options);
  const location = path.resolve(dataDir);
  await mkdir(location, { recursive: true });
  const lock = await acquireDataDirLock(dataDir);
  let pglite: PGlite;
  try {
    if (!loadDataDir && !(await exists(path.join(location, PG_VERSION)))) {
      await seedFromTemplate(location, options);
    }
    pglite = await createPGlite(location, options);
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

async function pgliteVersion(): Promise<string> {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; it sits above the resolved entry (dist/).
  const file = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

/**
 * A pristine cluster made by this PGlite build, built once per machine (initdb, then a clean
 * shutdown) and never modified afterwards; null when it cannot be kept (an unwritable cache).
 */
async function clusterTemplate(cacheDir: string, options: OpenPGliteOptions): Promise<string | null> {
  const template = path.join(cacheDir, `pglite-${await pgliteVersion()}-cluster`);
  if (await exists(path.join(template, PG_VERSION))) return template;
  const partial = `${template}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await mkdir(partial, { recursive: true });
    const pglite = await createPGlite(partial, options);
    await pglite.close();
    await rename(partial, template);
  } catch (error) {
    await rm(partial, { recursive: true, force: true }).catch(() => {});
    // Another process put its template in place first: as good as ours.
    if (await exists(path.join(template, PG_VERSION))) return template;
    logger.debug({ err: (error as Error).message, cacheDir }, 'pglite: no cluster template, running initdb in place');
    return null;
  }
  return template;
}

/**
 * Makes a new data directory a copy of the template cluster: plain file copies instead of initdb.
 * PG_VERSION goes last, so an interrupted copy is not taken for a cluster; its leftovers are
 * replaced on the next attempt. Without a template PGlite runs initdb as before.
 */
async function seedFromTemplate(location: string, options: OpenPGliteOptions): Promise<void> {
  const cacheDir = options.templateCacheDir === undefined ? defaultTemplateCacheDir() : options.templateCacheDir;
  if (cacheDir === null) return;
  const template = await clusterTemplate(cacheDir, options);
  if (!template) return;
  const entries = (await readdir(template)).filter(name => name !== PG_VERSION);
  for (const name of entries) {
    const target = path.join(location, name);
    await rm(target, { recursive: true, force: true });
    await cp(path.join(template, name), target, { recursive: true, preserveTimestamps: true });
  }
  await cp(path.join(template, PG_VERSION), path.join(location, PG_VERSION));
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
