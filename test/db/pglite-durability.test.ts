/**
 * The embedded database on disk is durable and private (src/db/pglite.ts, private-files.ts): a
 * commit is flushed to the disk (PGlite's defaults run with fsync off, and its filesystem has no
 * fsync), its files are the user's alone (PGlite writes a new cluster's files 0666), template
 * cache included, and a data directory other users could write is refused with the fix to run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { openPGlite } from '../../src/db/pglite.js';
import { DataDirNotPrivateError } from '../../src/db/private-files.js';

let root: string;
let cache: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-durable-'));
  cache = path.join(root, 'cache');
  // The first open builds the template (initdb: seconds, many more on a busy machine).
  await (await openPGlite({ dataDir: path.join(root, 'warm-up'), templateCacheDir: cache })).close();
}, 180_000);
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** `mode type` of every entry under `dir` (itself included), counted: `{ '600 f': 1112, '700 d': 27 }`. */
function modesUnder(dir: string): Record<string, number> {
  const lines = execFileSync('find', [dir, '-printf', '%m %y\\n'], { encoding: 'utf8' }).trim().split('\n');
  const counts: Record<string, number> = {};
  for (const line of lines) counts[line] = (counts[line] ?? 0) + 1;
  return counts;
}

describe('durability', () => {
  it('a data directory runs with fsync on, and a commit flushes its WAL to the disk', async () => {
    const pglite = await openPGlite({ dataDir: path.join(root, 'durable'), templateCacheDir: cache });
    try {
      const setting = async (name: string) => (await pglite.query<{ value: string }>(`SELECT current_setting('${name}') AS value`)).rows[0].value;
      expect(await setting('fsync')).toBe('on');
      expect(await setting('wal_sync_method')).toBe('fsync');
      expect(await setting('synchronous_commit')).toBe('on');
      await pglite.exec('CREATE TABLE t (id INT)');
      const flushes = vi.spyOn(fs, 'fsyncSync');
      await pglite.query('INSERT INTO t VALUES (1)');
      expect(flushes).toHaveBeenCalled();
    } finally {
      await pglite.close();
    }
  });
});

describe('file modes', () => {
  it('a new data directory and everything in it are private: directories 0700, files 0600', async () => {
    const dataDir = path.join(root, 'private');
    const pglite = await openPGlite({ dataDir, templateCacheDir: cache });
    try {
      await pglite.exec('CREATE TABLE secrets (email TEXT); INSERT INTO secrets VALUES ($$a@example.test$$); CHECKPOINT;');
    } finally {
      await pglite.close();
    }
    expect(Object.keys(modesUnder(dataDir)).sort()).toEqual(['600 f', '700 d']);
  });

  it('so is the template cache, and a data directory made without one (initdb in place)', async () => {
    expect(Object.keys(modesUnder(cache)).sort()).toEqual(['600 f', '700 d']);
    const uncached = path.join(root, 'uncached');
    await (await openPGlite({ dataDir: uncached, templateCacheDir: null })).close();
    expect(Object.keys(modesUnder(uncached)).sort()).toEqual(['600 f', '700 d']);
  }, 180_000);

  it('a template other users could write is not copied: it is built again', async () => {
    const [template] = (await readdir(cache)).filter(name => name.endsWith('-cluster'));
    const planted = path.join(cache, template, 'planted');
    await writeFile(planted, 'x', { mode: 0o666 });
    await chmod(planted, 0o666);
    const dataDir = path.join(root, 'after-planting');
    await (await openPGlite({ dataDir, templateCacheDir: cache })).close();
    expect(fs.existsSync(planted)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'planted'))).toBe(false);
    expect(Object.keys(modesUnder(cache)).sort()).toEqual(['600 f', '700 d']);
  }, 180_000);

  it('an existing data directory only others could read is made private on open', async () => {
    const dataDir = path.join(root, 'readable');
    await (await openPGlite({ dataDir, templateCacheDir: cache })).close();
    await chmod(dataDir, 0o755);
    await chmod(path.join(dataDir, 'PG_VERSION'), 0o644);
    await (await openPGlite({ dataDir, templateCacheDir: cache })).close();
    expect(Object.keys(modesUnder(dataDir)).sort()).toEqual(['600 f', '700 d']);
  });
});

describe('a data directory other users could write', () => {
  async function writableDataDir(name: string, arrange: (dir: string) => Promise<void>) {
    const dataDir = path.join(root, name);
    await (await openPGlite({ dataDir, templateCacheDir: cache })).close();
    await arrange(dataDir);
    return dataDir;
  }

  it.each([
    ['the directory itself is 0777', async (dir: string) => chmod(dir, 0o777), '', '0777'],
    [
      'a file under a directory others may pass through is 0666',
      async (dir: string) => {
        await chmod(dir, 0o755);
        await chmod(path.join(dir, 'base'), 0o755);
        await chmod(path.join(dir, 'pg_hba.conf'), 0o666);
      },
      '/pg_hba.conf',
      '0666',
    ],
  ])('is refused when %s, with the chmod that fixes it', async (name, arrange, where, mode) => {
    const dataDir = await writableDataDir(name.replaceAll(' ', '-'), arrange);
    const failure = await openPGlite({ dataDir, templateCacheDir: cache }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DataDirNotPrivateError);
    expect((failure as Error).message).toContain(
      `DATA_DIR ${dataDir} is writable by other users of this machine: ${dataDir}${where} is mode ${mode}`,
    );
    expect((failure as Error).message).toContain(`chmod -R go-rwx ${dataDir}`);
    // Nothing was written into it (no lock).
    expect(fs.existsSync(path.join(dataDir, 'gatehouse.lock'))).toBe(false);
    // The fix works.
    execFileSync('chmod', ['-R', 'go-rwx', dataDir]);
    await (await openPGlite({ dataDir, templateCacheDir: cache })).close();
  });

  it('a 0666 file others cannot reach (inside a private directory) is not refused', async () => {
    const dataDir = await writableDataDir('unreachable', async dir => chmod(path.join(dir, 'pg_hba.conf'), 0o666));
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    await (await openPGlite({ dataDir, templateCacheDir: cache })).close();
    expect((await stat(path.join(dataDir, 'pg_hba.conf'))).mode & 0o777).toBe(0o666);
  });

  it('gatehouse migrate says so and how to fix it, exit 1, without a stack', async () => {
    const dataDir = path.join(root, 'cli');
    await mkdir(dataDir, { mode: 0o777 });
    await chmod(dataDir, 0o777);
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation(chunk => ((stderr += String(chunk)), true));
    const code = await main(['migrate'], { DATA_DIR: dataDir, GATEHOUSE_CACHE_DIR: cache });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: DATA_DIR ${dataDir} is writable by other users of this machine: ${dataDir} is mode 0777, so anyone here could have changed its data. ` +
        `If you trust its contents, make it private and start again: chmod -R go-rwx ${dataDir}\n`,
    );
  });
});
