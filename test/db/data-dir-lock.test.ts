/** One process per embedded data directory: the lock names its holder and a dead holder's lock is taken over. */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, acquireDataDirLock, dataDirHolder } from '../../src/db/data-dir-lock.js';
import { openDatabase } from '../../src/db/database.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gatehouse-lock-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const dir = async (name: string) => mkdtemp(path.join(root, `${name}-`));
const exists = (file: string) =>
  readFile(file).then(
    () => true,
    () => false,
  );

/** A process that is alive until killed, and the pid of one that has exited. */
function sleeper() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  return { pid: child.pid!, stop: () => new Promise(resolve => (child.kill('SIGKILL'), child.on('exit', resolve))) };
}

const holderFile = (pid: number) =>
  JSON.stringify({ pid, host: hostname(), startedAt: new Date().toISOString(), command: 'serve', url: 'http://127.0.0.1:4000' });

describe('the data directory lock', () => {
  it('a second opener in this process is refused, naming the holder; released, it opens', async () => {
    const dataDir = await dir('same-process');
    const lock = await acquireDataDirLock(dataDir, 'serve');
    expect(JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, command: 'serve' });
    const refused = acquireDataDirLock(dataDir);
    await expect(refused).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(refused).rejects.toThrow(`DATA_DIR ${dataDir} is in use by gatehouse serve pid ${process.pid}`);
    await lock.release();
    expect(await exists(path.join(dataDir, LOCK_FILE))).toBe(false);
    await (await acquireDataDirLock(dataDir)).release();
  });

  it("another live process's lock is refused with its pid, what to do and its URL", async () => {
    const dataDir = await dir('live');
    const other = sleeper();
    try {
      await writeFile(path.join(dataDir, LOCK_FILE), holderFile(other.pid));
      const error = await acquireDataDirLock(dataDir).catch(e => e);
      expect(error).toBeInstanceOf(DataDirInUseError);
      expect(error.message).toContain(`in use by gatehouse serve pid ${other.pid}`);
      expect(error.message).toContain(`kill ${other.pid}`);
      expect(error.message).toContain('gatehouse dev-token create');
      expect(error.message).toContain('serving http://127.0.0.1:4000');
      expect(await dataDirHolder(dataDir)).toMatchObject({ pid: other.pid, url: 'http://127.0.0.1:4000' });
    } finally {
      await other.stop();
    }
    // Its process is gone (kill -9 leaves the file): the lock is stale and taken over.
    expect(await dataDirHolder(dataDir)).toBeNull();
    const lock = await acquireDataDirLock(dataDir);
    expect(JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('a damaged lock file or one from before the last boot is stale', async () => {
    const dataDir = await dir('stale');
    await writeFile(path.join(dataDir, LOCK_FILE), 'not json');
    await (await acquireDataDirLock(dataDir)).release();
    // pid 1 is alive, but this lock predates the boot: some other process has that pid now.
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: 1, host: hostname(), startedAt: '2000-01-01T00:00:00.000Z' }));
    await (await acquireDataDirLock(dataDir)).release();
  });

  it('openDatabase on a held DATA_DIR fails at once; closing the holder releases it', async () => {
    const dataDir = await dir('database');
    const first = await openDatabase({ dataDir, migrate: false });
    try {
      await expect(openDatabase({ dataDir, migrate: false })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await first.close();
    }
    expect(await exists(path.join(dataDir, LOCK_FILE))).toBe(false);
    await (await openDatabase({ dataDir, migrate: false })).close();
  }, 60_000);
});
