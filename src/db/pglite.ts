/** Opening embedded PGlite databases. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { acquireDataDirLock } from './data-dir-lock.js';

export const MEMORY_DATA_DIR = 'memory://';

export interface OpenPGliteOptions {
  /** A filesystem path (created if missing) or `memory://` for an in-memory database. */
  dataDir?: string;
  /** A tarball from `PGlite.dumpDataDir()` to start from instead of running initdb (~0.4 s vs ~2 s). */
  loadDataDir?: Blob | File;
}

export function isMemoryDataDir(dataDir: string): boolean {
  return dataDir.startsWith(MEMORY_DATA_DIR);
}

/**
 * Opens PGlite. A data directory is locked for as long as the instance is open (see
 * data-dir-lock.ts): a second opener, in this process or another, gets DataDirInUseError.
 */
export async function openPGlite({ dataDir = MEMORY_DATA_DIR, loadDataDir }: OpenPGliteOptions = {}): Promise<PGlite> {
  if (isMemoryDataDir(dataDir)) return PGlite.create({ dataDir, loadDataDir });
  const location = path.resolve(dataDir);
  await mkdir(location, { recursive: true });
  const lock = await acquireDataDirLock(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir: location, loadDataDir });
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
