/**
 * `gatehouse backup <file>` and `gatehouse restore <file>`: the embedded deployment (its PGlite
 * DATA_DIR and its filesystem blobs) to one archive and back (src/ops/backup.ts, src/ops/restore.ts).
 * A backup is taken by the server holding DATA_DIR, over loopback with the secret it keeps there
 * (as `dev-token create` is); a restore goes into a stopped DATA_DIR.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Command } from '../command.js';
import { configFrom } from '../config.js';
import { CliError, EXIT_USAGE } from '../output.js';
import { type RunningServer, bootstrapSecret, runningServer } from './dev-token.js';

export const backup: Command = {
  name: 'backup',
  summary: 'Write a backup of the embedded database and its files while the server runs.',
  positionals: { min: 1, max: 1, usage: '<file>' },
  help: `Writes <file> (a .tar.gz): a consistent snapshot of the embedded database in DATA_DIR and
every stored file it names, taken by the running server that holds DATA_DIR (over loopback, with
the secret it keeps there; run it as the user that runs the server). The server holds its
statements back only while it copies what changed during the copy (the pause is printed).
Restore it with 'gatehouse restore <file>' into a stopped DATA_DIR.

With DATABASE_URL (PostgreSQL) use pg_dump, and back up the S3 bucket apart (README "Backups").
Prints the file; with --json, { file, bytes (as received), pauseMs }.`,
  async run({ positionals, env, out, io }) {
    const config = configFrom(env);
    if (config.databaseUrl) {
      throw new CliError(
        'backup_unavailable',
        'DATABASE_URL is set: back up PostgreSQL with pg_dump (README "Backups"), not gatehouse backup.',
        EXIT_USAGE,
      );
    }
    const { isMemoryDataDir } = await import('../../db/pglite.js');
    if (isMemoryDataDir(config.dataDir))
      throw new CliError('backup_unavailable', 'DATA_DIR is in memory: there is nothing on disk to back up.', EXIT_USAGE);
    const server = await runningServer(config.dataDir);
    if (!server) {
      throw new CliError(
        'no_server',
        `No server holds DATA_DIR ${config.dataDir}. Start it (gatehouse serve) and run this again; a stopped DATA_DIR can also be copied as it is (tar czf backup.tar.gz -C ${config.dataDir} .).`,
      );
    }
    const file = path.resolve(io.cwd, positionals[0]);
    const written = await downloadBackup({ ...server, dataDir: config.dataDir }, file);
    out.note(
      `gatehouse: backup of DATA_DIR ${config.dataDir} taken by the server at ${server.url} (pid ${server.pid}); statements paused ${written.pauseMs} ms.`,
    );
    out.result({ file, ...written }, file);
  },
};

/** Asks the server holding DATA_DIR for a backup and writes it to `file` (whole or not at all). */
export async function downloadBackup(server: RunningServer, file: string): Promise<{ bytes: number; pauseMs: number }> {
  const { BACKUP_PATH } = await import('../../apps/dev-bootstrap.routes.js');
  const { header, secret, who } = await bootstrapSecret(server);
  let response: Response;
  try {
    response = await fetch(`${server.url}${BACKUP_PATH}`, { method: 'POST', headers: { [header]: secret } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    throw new CliError('unreachable', `DATA_DIR ${server.dataDir} is held by ${who}, but it does not answer (${cause}).`);
  }
  if (!response.ok || !response.body) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
    throw new CliError(answer.error ?? `http_${response.status}`, answer.message ?? `${who} answered ${response.status}.`);
  }
  const partial = `${file}.partial`;
  let bytes = 0;
  const counted = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  counted.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  // The server sends it gzipped; one older than that, a plain tar, compressed here.
  const compressed = response.headers.get('content-type') === 'application/gzip';
  try {
    const target = createWriteStream(partial, { mode: 0o600 });
    await (compressed ? pipeline(counted, target) : pipeline(counted, createGzip(), target));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw new CliError('backup_failed', `The backup from ${who} broke off: ${(error as Error).message}. Nothing was written to ${file}.`);
  }
  return { bytes, pauseMs: Number(response.headers.get('x-gatehouse-backup-pause-ms') ?? 0) };
}

export const restore: Command = {
  name: 'restore',
  summary: 'Restore a backup into a stopped DATA_DIR (the database and its files).',
  positionals: { min: 1, max: 1, usage: '<file>' },
  options: { force: { type: 'boolean' } },
  help: `Options:
  --force   Replace what DATA_DIR (and FILES_DIR) hold; without it a non-empty DATA_DIR is refused.

Restores a 'gatehouse backup' archive (a file, not a pipe) into DATA_DIR (files into FILES_DIR, else DATA_DIR/files).
The archive is unpacked beside DATA_DIR and checked against its manifest (every file, its size, the
database's checksums) before anything in DATA_DIR changes; a damaged archive changes nothing.
A server holding DATA_DIR is refused: stop it first. Start the server afterwards as usual.
Prints DATA_DIR; with --json, { dataDir, createdAt, clusterFiles, blobs, blobsLeftOut }.`,
  async run({ positionals, values, env, out, io }) {
    const config = configFrom(env);
    if (config.databaseUrl)
      throw new CliError('backup_unavailable', 'DATABASE_URL is set: restore PostgreSQL with pg_restore (README "Backups").', EXIT_USAGE);
    const { isMemoryDataDir } = await import('../../db/pglite.js');
    if (isMemoryDataDir(config.dataDir))
      throw new CliError('backup_unavailable', 'DATA_DIR is in memory: set DATA_DIR to the directory to restore into.', EXIT_USAGE);
    const { RestoreError, restoreBackup } = await import('../../ops/restore.service.js');
    const backend = config.files.backend;
    try {
      const restored = await restoreBackup({
        archive: path.resolve(io.cwd, positionals[0]),
        dataDir: path.resolve(io.cwd, config.dataDir),
        filesRoot: backend.kind === 'fs' ? path.resolve(io.cwd, backend.root) : null,
        force: values.force === true,
      });
      if (restored.blobsLeftOut)
        out.note(`gatehouse: FILES_BACKEND=s3: the archive's ${restored.blobsLeftOut} files were not restored (restore the bucket apart).`);
      out.note(`gatehouse: restored the backup of ${restored.createdAt} (${restored.clusterFiles} database files, ${restored.blobs} stored files).`);
      out.result({ dataDir: config.dataDir, ...restored }, config.dataDir);
    } catch (error) {
      if (error instanceof RestoreError) throw new CliError(error.code, error.message);
      throw error;
    }
  },
};
