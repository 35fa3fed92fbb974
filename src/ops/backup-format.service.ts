/**
 * The backup archive of an embedded deployment (`gatehouse backup` / `gatehouse restore`): a tar
 * (gzipped by the CLI) of
 *   gatehouse-backup.json  the manifest below, first;
 *   pgdata/...             the PGlite cluster (DATA_DIR without Gatehouse's own entries);
 *   files/...              the filesystem blob store's blobs (by key).
 * The manifest lists every file with its size, and the cluster's files with their SHA-256:
 * restore refuses an archive that does not match it entry for entry (gzip's CRC covers the rest).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export const MANIFEST_FILE = 'gatehouse-backup.json';
export const CLUSTER_DIR = 'pgdata';
export const FILES_DIR = 'files';
export const BACKUP_FORMAT = 'gatehouse-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  /** ISO time of the database snapshot. */
  createdAt: string;
  gatehouseVersion: string;
  pgliteVersion: string;
  /** How long the server held statements back for the snapshot, in ms. */
  pauseMs: number;
  /** The cluster's files, `pgdata/<path>`. */
  cluster: Record<string, { size: number; sha256: string }>;
  /** `fs`: the blobs are in the archive (`files/<key>`); `s3`: they stay in the bucket (README "Backups"). */
  filesBackend: 'fs' | 's3';
  files: Record<string, { size: number }>;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  // Large reads: a WAL segment in a few turns of the event loop rather than hundreds.
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
