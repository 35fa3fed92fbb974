/**
 * New embedded data directories are copies of a pristine cluster kept in a cache (src/db/pglite.ts)
 * instead of each running initdb; without a usable cache they still run initdb in place.
 */
import { access, cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
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

  describe('migrated', () => {
    let migratedCache: string;
    let runs = 0;
    const migrated = (key: string, sql = `CREATE TABLE IF NOT EXISTS schema_${key} (id INT)`) => ({
      key: async () => key,
      migrate: async (pglite: PGlite) => {
        runs++;
        await pglite.exec(sql);
      },
    });
    const tables = async (dataDir: string, key: string) => {
      const pglite = await openPGlite({ dataDir, templateCacheDir: migratedCache });
      try {
        return (await pglite.query<{ name: string }>(`SELECT to_regclass('schema_${key}')::text AS name`)).rows[0].name;
      } finally {
        await pglite.close();
      }
    };
    beforeAll(async () => {
      migratedCache = path.join(root, 'migrated-cache');
      // The pristine template the first case built (initdb takes seconds): these cases are about
      // the migrated ones made from it.
      if (await exists(cache)) await cp(cache, migratedCache, { recursive: true });
    });

    it('is made once per set of migrations: later new data directories start migrated; the three most recently used stay', async () => {
      await (await openPGlite({ dataDir: path.join(root, 'm-first'), templateCacheDir: migratedCache, migrated: migrated('k1') })).close();
      await (await openPGlite({ dataDir: path.join(root, 'm-second'), templateCacheDir: migratedCache, migrated: migrated('k1') })).close();
      expect(runs).toBe(1);
      expect(await tables(path.join(root, 'm-second'), 'k1')).toBe('schema_k1');
      for (const key of ['k2', 'k3', 'k4']) {
        await new Promise(resolve => setTimeout(resolve, 20));
        await (await openPGlite({ dataDir: path.join(root, `m-${key}`), templateCacheDir: migratedCache, migrated: migrated(key) })).close();
      }
      expect(runs).toBe(4);
      expect((await readdir(migratedCache)).sort()).toEqual([
        expect.stringMatching(/^pglite-.+-cluster$/),
        expect.stringMatching(/^pglite-.+-migrated-k2$/),
        expect.stringMatching(/^pglite-.+-migrated-k3$/),
        expect.stringMatching(/^pglite-.+-migrated-k4$/),
      ]);
      // The pristine template is still pristine.
      await (await openPGlite({ dataDir: path.join(root, 'm-plain'), templateCacheDir: migratedCache })).close();
      expect(await tables(path.join(root, 'm-plain'), 'k2')).toBeNull();
    }, 180_000);

    it('migrations that fail leave no template behind, and the data directory starts pristine', async () => {
      const dataDir = path.join(root, 'm-broken');
      await (await openPGlite({ dataDir, templateCacheDir: migratedCache, migrated: migrated('broken', 'CREATE TABLE (') })).close();
      expect((await readdir(migratedCache)).some(name => name.includes('migrated-broken'))).toBe(false);
      expect(await tables(dataDir, 'k2')).toBeNull();
    }, 180_000);
  });
});
