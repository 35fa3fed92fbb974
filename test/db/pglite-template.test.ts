/**
 * New embedded data directories are copies of a pristine cluster kept in a cache (src/db/pglite.ts)
 * instead of each running initdb; without a usable cache they still run initdb in place.
 */
import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPGlite, PGLITE_SHARED_BUFFERS } from '../../src/db/pglite.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('a new PGlite data directory', () => {
  let root: string;
  let cache: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-template-'));
    cache = path.join(root, 'cache');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function roundTrip(dataDir: string, templateCacheDir: string | null) {
    const pglite = await openPGlite({ dataDir, templateCacheDir });
    try {
      await pglite.exec('CREATE TABLE t (id INT); INSERT INTO t VALUES (1);');
      const { rows } = await pglite.query<{ setting: string }>(`SELECT current_setting('shared_buffers') AS setting`);
      expect(rows[0].setting.toUpperCase()).toBe(PGLITE_SHARED_BUFFERS.toUpperCase());
    } finally {
      await pglite.close();
    }
    const reopened = await openPGlite({ dataDir, templateCacheDir });
    try {
      expect((await reopened.query('SELECT id FROM t')).rows).toEqual([{ id: 1 }]);
    } finally {
      await reopened.close();
    }
  }

  it('builds the template once, then starts as a copy of it', async () => {
    await roundTrip(path.join(root, 'first'), cache);
    const templates = await readdir(cache);
    expect(templates).toEqual([expect.stringMatching(/^pglite-.+-cluster$/)]);
    expect(await exists(path.join(cache, templates[0], 'PG_VERSION'))).toBe(true);
    // The template stays pristine: the first database's table is not in it.
    await roundTrip(path.join(root, 'second'), cache);
    // initdb takes seconds, many more on a busy machine.
  }, 180_000);

  it('two processes making the template at once both start, and one template remains', async () => {
    const racingCache = path.join(root, 'racing-cache');
    // Two opens in one process race exactly like two processes: each builds in its own partial directory.
    await Promise.all([roundTrip(path.join(root, 'race-a'), racingCache), roundTrip(path.join(root, 'race-b'), racingCache)]);
    expect(await readdir(racingCache)).toEqual([expect.stringMatching(/^pglite-.+-cluster$/)]);
  }, 180_000);

  it('replaces what an interrupted copy left behind (no PG_VERSION yet)', async () => {
    const dataDir = path.join(root, 'interrupted');
    await mkdir(path.join(dataDir, 'base'), { recursive: true });
    await writeFile(path.join(dataDir, 'base', 'half-copied'), 'x');
    await roundTrip(dataDir, cache);
    expect(await exists(path.join(dataDir, 'base', 'half-copied'))).toBe(false);
  });

  it('runs initdb in place when the cache cannot be written', async () => {
    const notADirectory = path.join(root, 'a-file');
    await writeFile(notADirectory, '');
    await roundTrip(path.join(root, 'uncached'), path.join(notADirectory, 'cache'));
  }, 180_000);
});
