/**
 * A backup of an embedded deployment taken by the server that holds it (POST /dev/bootstrap/backup,
 * which `gatehouse backup` calls): the embedded database cannot be opened by a second process, so
 * only its holder can read it consistently.
 *
 * Consistency between the database and the blobs: a blob is written and made durable before the
 * row naming it commits, and a key is never overwritten (src/storage/blob-store.ts). So every blob
 * the snapshot names is on disk when the snapshot is taken; deletes are held from before the
 * snapshot until the archive is written, so it is still there when it is read. Blobs written
 * after the snapshot may be in the archive too: no row of the snapshot names them, and the
 * restored server's upkeep sweeps them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Database } from '../db/database.js';
import { packageRoot } from '../db/paths.js';
import { pgliteVersion } from '../db/pglite.js';
import { fail } from '../errors.js';
import { logger } from '../lib/logger.js';
import type { BlobStore } from '../storage/index.js';
import { packArchive } from './backup-archive.service.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupManifest, CLUSTER_DIR, FILES_DIR } from './backup-format.service.js';

export interface BackupSources {
  database: Database;
  blobs: BlobStore;
  /** DATA_DIR (the cluster). */
  dataDir: string;
  /** The filesystem blob store's root; null when files live in S3. */
  filesRoot: string | null;
}

const gatehouseVersion = () => (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * One backup at a time per process. The one before may still be cleaning up after its client has
 * read everything (the archive stream closes a moment later): a second one waits for that briefly,
 * and is refused only while another is really being written.
 */
let running: Promise<void> | null = null;
const WAIT_FOR_PREVIOUS_MS = 5_000;

/**
 * Takes the snapshot and returns the archive as a stream (tar.gz) with its manifest. The
 * staging copy and the delete hold last until the stream ends or fails.
 */
export async function createBackup(sources: BackupSources): Promise<{ manifest: BackupManifest; archive: Readable }> {
  const { database, blobs, dataDir, filesRoot } = sources;
  if (!database.liveCopy)
    throw fail('bootstrap_unavailable', 'Backups are of an embedded DATA_DIR on disk; with PostgreSQL use pg_dump (README "Backups").');
  if (running) await Promise.race([running, new Promise(resolve => setTimeout(resolve, WAIT_FOR_PREVIOUS_MS).unref())]);
  if (running) throw fail('backup_in_progress', 'A backup of this server is being written: wait for it to finish.');
  let finished!: () => void;
  running = new Promise(resolve => {
    finished = resolve;
  });
  const staging = path.join(path.resolve(dataDir), '.backups', `${Date.now()}-${randomBytes(4).toString('hex')}`);
  const releaseDeletes = blobs.holdDeletes?.() ?? (async () => {});
  const cleanUp = async () => {
    await releaseDeletes().catch(error => logger.warn({ err: error }, 'backup: deferred blob deletes failed (the sweep retries them)'));
    await rm(staging, { recursive: true, force: true }).catch(() => {});
    running = null;
    finished();
  };
  try {
    // Left by a backup that crashed the process: nothing else uses the folder.
    await rm(path.dirname(staging), { recursive: true, force: true });
    await mkdir(path.join(staging, CLUSTER_DIR), { recursive: true, mode: 0o700 });
    const createdAt = new Date().toISOString();
    const copy = await database.liveCopy(path.join(staging, CLUSTER_DIR));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt,
      gatehouseVersion: gatehouseVersion(),
      pgliteVersion: await pgliteVersion(),
      pauseMs: copy.pauseMs,
      cluster: {},
      filesBackend: filesRoot ? 'fs' : 's3',
      files: {},
    };
    // After the snapshot: every blob it names is listed (deletes are held).
    if (filesRoot) {
      for await (const blob of blobs.list()) manifest.files[`${FILES_DIR}/${blob.key}`] = { size: blob.size };
      await symlink(path.resolve(filesRoot), path.join(staging, FILES_DIR), 'dir');
    }
    const clusterFiles = (await listFiles(path.join(staging, CLUSTER_DIR))).sort();
    logger.info(
      { pauseMs: copy.pauseMs, recopied: copy.recopied, clusterFiles: copy.files, blobs: Object.keys(manifest.files).length },
      'backup: snapshot taken',
    );

    // The listed blobs and the folders on their way: nothing else of the store is read (an
    // upload's temporary file in files/.tmp, a blob written since).
    const packedBlobs = new Set(Object.keys(manifest.files));
    for (const name of Object.keys(manifest.files)) {
      for (let at = path.posix.dirname(name); at !== '.' && !packedBlobs.has(at); at = path.posix.dirname(at)) packedBlobs.add(at);
    }
    const { manifest: hashed, archive } = await packArchive({
      staging,
      // Beside the entries packed, not among them.
      archiveFile: path.join(staging, 'archive.tar.gz'),
      manifest,
      clusterFiles,
      packedBlobs: [...packedBlobs],
      withFiles: filesRoot !== null,
    });
    archive.on('close', () => void cleanUp());
    return { manifest: hashed, archive };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter(e => e.isFile()).map(e => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}
