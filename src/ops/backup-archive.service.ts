/**
 * Writes a backup's archive (backup-format.service.ts) from its staging folder in a worker thread,
 * and streams it as it grows. A cluster is a thousand small files: hashed and packed on the
 * server's event loop, every open, read and close waited for a turn of a loop the requests keep
 * busy, and a backup of a near-empty store took most of a minute under load. In the worker they are
 * plain synchronous calls, and the compression is the worker's too.
 */
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { type BackupManifest, CLUSTER_DIR, FILES_DIR, MANIFEST_FILE } from './backup-format.service.js';

/** What the worker is given (structured-cloned). */
interface PackJob {
  tarModule: string;
  staging: string;
  archiveFile: string;
  manifest: BackupManifest;
  clusterDir: string;
  manifestFile: string;
  clusterFiles: string[];
  filesDir: string;
  /** The blobs the manifest lists and the folders on their way: the only entries of files/ packed. */
  packedBlobs: string[];
  entries: string[];
}

type PackMessage = { manifest: BackupManifest } | { written: number } | { done: true };

/**
 * The worker, as CommonJS source (a worker of its own file would need the file built for each
 * way this module runs: from src in development and tests, from dist when installed). It hashes
 * the cluster's files into the manifest, writes the manifest, then the tar.gz with the manifest
 * first, reporting how many bytes are on disk as it goes.
 */
const PACK_WORKER = `
const { parentPort, workerData: job } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const tar = require(job.tarModule);
(async () => {
  // A megabyte at a time: a relation's file grows to a gigabyte.
  const buffer = Buffer.alloc(1 << 20);
  for (const name of job.clusterFiles) {
    const hash = createHash('sha256');
    const file = fs.openSync(path.join(job.staging, job.clusterDir, name), 'r');
    let size = 0;
    for (let read; (read = fs.readSync(file, buffer, 0, buffer.length, null)) > 0; size += read) hash.update(buffer.subarray(0, read));
    fs.closeSync(file);
    job.manifest.cluster[job.clusterDir + '/' + name] = { size, sha256: hash.digest('hex') };
  }
  fs.writeFileSync(path.join(job.staging, job.manifestFile), JSON.stringify(job.manifest, null, 2), { mode: 0o600 });
  const out = fs.openSync(job.archiveFile, 'w', 0o600);
  parentPort.postMessage({ manifest: job.manifest });
  const packed = new Set(job.packedBlobs);
  const archive = tar.c(
    {
      cwd: job.staging,
      gzip: { level: 1 },
      portable: true,
      // files/ is a link to the blob store; nothing in a cluster is a link.
      follow: true,
      filter: name => !name.startsWith(job.filesDir + '/') || packed.has(name.replace(/\\/$/, '')),
    },
    job.entries,
  );
  let written = 0;
  for await (const chunk of archive) {
    fs.writeSync(out, chunk);
    written += chunk.length;
    parentPort.postMessage({ written });
  }
  fs.closeSync(out);
  parentPort.postMessage({ done: true });
})();
`;

/**
 * Hashes the cluster in `staging` into `manifest`, and returns it once written with the archive
 * read from `archiveFile` as the worker writes it. The worker's failure fails the stream.
 */
export async function packArchive(options: {
  staging: string;
  archiveFile: string;
  manifest: BackupManifest;
  clusterFiles: string[];
  packedBlobs: string[];
  withFiles: boolean;
}): Promise<{ manifest: BackupManifest; archive: Readable }> {
  const job: PackJob = {
    tarModule: createRequire(import.meta.url).resolve('tar'),
    staging: options.staging,
    archiveFile: options.archiveFile,
    manifest: options.manifest,
    clusterDir: CLUSTER_DIR,
    manifestFile: MANIFEST_FILE,
    clusterFiles: options.clusterFiles,
    filesDir: FILES_DIR,
    packedBlobs: options.packedBlobs,
    entries: [MANIFEST_FILE, CLUSTER_DIR, ...(options.withFiles ? [FILES_DIR] : [])],
  };
  const worker = new Worker(PACK_WORKER, { eval: true, workerData: job });
  const progress = { written: 0, done: false, error: null as Error | null };
  let wake: () => void = () => {};
  const changed = () => new Promise<void>(resolve => (wake = resolve));
  let written: BackupManifest | null = null;
  worker.on('message', (message: PackMessage) => {
    if ('manifest' in message) written = message.manifest;
    else if ('written' in message) progress.written = message.written;
    else progress.done = true;
    wake();
  });
  worker.on('error', error => {
    progress.error = error;
    wake();
  });
  worker.on('exit', code => {
    if (!progress.done) progress.error ??= new Error(`backup: the archive's worker stopped (exit code ${code}) before the archive was written`);
    wake();
  });

  async function* tail(): AsyncGenerator<Buffer> {
    const file = await open(options.archiveFile, 'r');
    try {
      for (let position = 0; ; ) {
        if (progress.error) throw progress.error;
        if (position < progress.written) {
          const { bytesRead, buffer } = await file.read(Buffer.alloc(Math.min(1 << 20, progress.written - position)), 0, undefined, position);
          position += bytesRead;
          yield buffer.subarray(0, bytesRead);
        } else if (progress.done) return;
        else await changed();
      }
    } finally {
      await file.close();
      // A reader gone early (the client hung up): the worker has nothing left to write for.
      if (!progress.done) await worker.terminate();
    }
  }

  // The manifest first (the worker has opened the archive file by then): the caller's headers need it.
  while (!written && !progress.error) await changed();
  if (progress.error) throw progress.error;
  return { manifest: written!, archive: Readable.from(tail(), { objectMode: false }) };
}
