/**
 * `gatehouse restore <file>`: a backup archive (backup-format.ts) into a stopped DATA_DIR. The
 * directory is locked for the duration (a server cannot start on it meanwhile; one that holds it
 * is refused), the archive is unpacked beside it and checked entry by entry against its manifest
 * before anything in DATA_DIR changes, then moved into place, made private and flushed to disk.
 * The restored cluster starts as after a crash at the snapshot: PostgreSQL replays its WAL.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import { LOCK_FILE, acquireDataDirLock } from '../db/data-dir-lock.js';
import { NOT_CLUSTER } from '../db/live-copy.js';
import { makePrivate, syncTree } from '../db/private-files.js';
import { inParallel } from '../lib/in-parallel.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupManifest, CLUSTER_DIR, FILES_DIR, MANIFEST_FILE, sha256File } from './backup-format.service.js';

export class RestoreError extends Error {
  constructor(
    readonly code: 'backup_invalid' | 'data_dir_not_empty',
    message: string,
  ) {
    super(message);
    this.name = 'RestoreError';
  }
}

export interface RestoreOptions {
  archive: string;
  dataDir: string;
  /** The filesystem blob store's root (FILES_DIR, else DATA_DIR/files); null when files live in S3. */
  filesRoot: string | null;
  /** Replace what DATA_DIR (and the files root) hold; without it a non-empty one is refused. */
  force?: boolean;
}

export interface Restored {
  createdAt: string;
  clusterFiles: number;
  blobs: number;
  /** The archive's blobs, when files live in S3 (not restored: the bucket is backed up apart). */
  blobsLeftOut: number;
}

/** Restores `archive` into `dataDir`; throws RestoreError (or DataDirInUseError) and changes nothing on refusal. */
export async function restoreBackup({ archive, dataDir, filesRoot, force = false }: RestoreOptions): Promise<Restored> {
  const target = path.resolve(dataDir);
  await mkdir(target, { recursive: true, mode: 0o700 });
  const lock = await acquireDataDirLock(target, 'restore');
  const staging = path.join(target, '.restore', randomBytes(6).toString('hex'));
  try {
    const present = (await readdir(target)).filter(name => name !== LOCK_FILE && name !== '.restore');
    const filesPresent = filesRoot && !isInside(filesRoot, target) ? await readdir(filesRoot).catch(() => [] as string[]) : [];
    if ((present.length || filesPresent.length) && !force) {
      throw new RestoreError(
        'data_dir_not_empty',
        `DATA_DIR ${dataDir} is not empty (${[...present, ...filesPresent].slice(0, 3).join(', ')}…): restore into an empty directory, or pass --force to replace what it holds.`,
      );
    }
    const manifest = await unpackAndVerify(archive, staging);
    if (force) {
      await Promise.all(present.map(name => rm(path.join(target, name), { recursive: true, force: true })));
      if (filesRoot) await rm(filesRoot, { recursive: true, force: true });
    }
    for (const name of await readdir(path.join(staging, CLUSTER_DIR))) await rename(path.join(staging, CLUSTER_DIR, name), path.join(target, name));
    const blobs = Object.keys(manifest.files).length;
    if (filesRoot && blobs) await moveTree(path.join(staging, FILES_DIR), path.resolve(filesRoot));
    await rm(path.join(target, '.restore'), { recursive: true, force: true });
    await makePrivate(target);
    await syncTree(target, { except: [LOCK_FILE] });
    if (filesRoot && !isInside(filesRoot, target) && blobs) await syncTree(filesRoot);
    return {
      createdAt: manifest.createdAt,
      clusterFiles: Object.keys(manifest.cluster).length,
      blobs: filesRoot ? blobs : 0,
      blobsLeftOut: filesRoot ? 0 : blobs,
    };
  } finally {
    await rm(path.join(target, '.restore'), { recursive: true, force: true }).catch(() => {});
    await lock.release();
  }
}

const isInside = (child: string, parent: string) => !path.relative(parent, path.resolve(child)).startsWith('..');

/** Whether an archive entry is one a backup holds: the manifest, or a regular file or directory under the cluster or the files. */
function isBackupEntry(name: string, entry: { type?: string }): boolean {
  const type = entry.type ?? 'File';
  const top = name.split('/')[0];
  return (name === MANIFEST_FILE || top === CLUSTER_DIR || top === FILES_DIR) && (type === 'File' || type === 'Directory');
}

/**
 * Reads the whole archive once without writing anything, then unpacks into `staging` only the entries
 * a backup holds and checks them against the manifest. The first pass is what refuses a truncated or
 * foreign archive: node-tar rejects an extraction at its first error while writes it has started go
 * on, so a damaged archive that reached the unpacking could leave files behind after the clean-up.
 */
async function unpackAndVerify(archive: string, staging: string): Promise<BackupManifest> {
  const info = await stat(archive).catch(() => null);
  if (!info) throw new RestoreError('backup_invalid', `${archive} does not exist or cannot be read.`);
  // It is read twice (see above): a pipe would be empty the second time.
  if (!info.isFile()) throw new RestoreError('backup_invalid', `${archive} is not a regular file: save the archive to a file and restore that.`);
  const unreadable = (error: Error) => new RestoreError('backup_invalid', `${archive} is not a readable backup archive: ${error.message}`);
  const strays: string[] = [];
  await tar
    .t({
      file: archive,
      strict: true,
      onReadEntry: entry => {
        if (!isBackupEntry(entry.path, entry)) strays.push(entry.path);
        entry.resume();
      },
    })
    .catch(error => {
      throw unreadable(error);
    });
  if (strays.length) throw new RestoreError('backup_invalid', `${archive} holds entries a backup does not: ${strays.slice(0, 3).join(', ')}`);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  // Paths stay inside `staging` (node-tar refuses `..` and absolute paths); links are not ours.
  await tar
    .x({ file: archive, cwd: staging, strict: true, filter: (name, entry) => isBackupEntry(name, 'type' in entry ? entry : {}) })
    .catch(error => {
      throw unreadable(error);
    });
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(staging, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new RestoreError('backup_invalid', `${archive} has no readable ${MANIFEST_FILE}: it is not a Gatehouse backup.`);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION) {
    throw new RestoreError(
      'backup_invalid',
      `${archive} is not a Gatehouse backup of version ${BACKUP_VERSION} (format ${manifest.format}, version ${manifest.version}).`,
    );
  }
  const expected = new Map<string, { size: number; sha256?: string }>([
    ...Object.entries(manifest.cluster ?? {}),
    ...Object.entries(manifest.files ?? {}),
  ]);
  if (!Object.keys(manifest.cluster ?? {}).some(name => name === `${CLUSTER_DIR}/PG_VERSION`)) {
    throw new RestoreError('backup_invalid', `${archive} holds no database cluster (${CLUSTER_DIR}/PG_VERSION).`);
  }
  const found = (await listFiles(staging)).filter(name => name !== MANIFEST_FILE);
  for (const name of found) if (!expected.has(name)) throw new RestoreError('backup_invalid', `${archive}: ${name} is not in the manifest.`);
  await inParallel([...expected], async ([name, want]) => {
    const file = path.join(staging, name);
    const info = await lstat(file).catch(() => null);
    if (!info?.isFile()) throw new RestoreError('backup_invalid', `${archive}: ${name} is in the manifest but not in the archive.`);
    if (info.size !== want.size)
      throw new RestoreError('backup_invalid', `${archive}: ${name} has ${info.size} bytes, the manifest says ${want.size}.`);
    if (want.sha256 && (await sha256File(file)) !== want.sha256)
      throw new RestoreError('backup_invalid', `${archive}: ${name} does not match its SHA-256 in the manifest.`);
  });
  // The cluster must not carry Gatehouse's own entries (a lock would name a process long gone).
  for (const name of await readdir(path.join(staging, CLUSTER_DIR))) {
    if (NOT_CLUSTER.has(name)) throw new RestoreError('backup_invalid', `${archive}: ${CLUSTER_DIR}/${name} does not belong in a cluster.`);
  }
  return manifest;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter(e => !e.isDirectory()).map(e => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** Moves every file of `from` into `to` (rename, or copy across filesystems). */
async function moveTree(from: string, to: string): Promise<void> {
  for (const name of await listFiles(from)) {
    const destination = path.join(to, name);
    await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
    try {
      await rename(path.join(from, name), destination);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(path.join(from, name), destination);
    }
  }
}
