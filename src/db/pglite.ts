/** Opening embedded PGlite databases. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

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

export async function openPGlite({ dataDir = MEMORY_DATA_DIR, loadDataDir }: OpenPGliteOptions = {}): Promise<PGlite> {
  const location = isMemoryDataDir(dataDir) ? dataDir : path.resolve(dataDir);
  if (!isMemoryDataDir(location)) await mkdir(location, { recursive: true });
  return PGlite.create({ dataDir: location, loadDataDir });
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
