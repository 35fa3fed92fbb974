/**
 * Starting without the schema engine (src/db/migration-state.ts): an up-to-date database is
 * recognised from its recorded checksums, an empty one is migrated directly, and the result is
 * exactly what the engine (`prisma migrate deploy`) writes and accepts. Anything else still goes
 * through the engine.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS_TABLE_DDL, migrationChecksum, upToDate } from '../../src/db/migration-state.js';
import { migrate } from '../../src/db/migrations.js';
import { defaultMigrationsDir } from '../../src/db/paths.js';
import { openScratchPGlite } from '../../src/db/pglite.js';
import { createPostgresScratchDatabase, POSTGRES_SKIP_REASON, postgresTestUrl } from '../helpers/db.js';

// Whether the schema engine's module was loaded at all, and how often it ran.
const engine = vi.hoisted(() => ({ loaded: false, runs: 0 }));
vi.mock('../../src/db/schema-engine.js', async importOriginal => {
  engine.loaded = true;
  const original = await importOriginal<typeof import('../../src/db/schema-engine.js')>();
  return {
    ...original,
    withSchemaEngine: ((...args: Parameters<typeof original.withSchemaEngine>) => {
      engine.runs++;
      return original.withSchemaEngine(...args);
    }) as typeof original.withSchemaEngine,
  };
});

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/migration-state] ${POSTGRES_SKIP_REASON}`);

interface Row {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

const ROWS = 'SELECT * FROM _prisma_migrations ORDER BY migration_name';
// The table as PostgreSQL describes it: columns, types, nullability, defaults, indexes.
const TABLE_SHAPE = `
  SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
    FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`;
const TABLE_INDEXES = `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = '_prisma_migrations' ORDER BY indexname`;
// Everything the migrations created, to compare two databases.
const SCHEMA_SHAPE = `
  SELECT table_name, column_name, data_type, is_nullable, column_default
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`;
const CONSTRAINTS = `
  SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY rel, conname`;

async function checkedIn(): Promise<{ name: string; checksum: string }[]> {
  const names = (await readdir(defaultMigrationsDir, { withFileTypes: true }))
    .filter(entry => entry.isDirectory())
    .map(entry => entry.name)
    .sort();
  return Promise.all(
    names.map(async name => ({ name, checksum: migrationChecksum(await readFile(path.join(defaultMigrationsDir, name, 'migration.sql'), 'utf8')) })),
  );
}

const query = async <T extends object>(pglite: PGlite, sql: string) => (await pglite.query<T>(sql)).rows;

describe('migrations without the schema engine (PGlite)', () => {
  let direct: PGlite;
  let viaEngine: PGlite;
  const dirs: string[] = [];

  beforeAll(async () => {
    [direct, viaEngine] = await Promise.all([openScratchPGlite(), openScratchPGlite()]);
  });
  afterAll(async () => {
    await Promise.all([direct?.close(), viaEngine?.close()]);
    await Promise.all(dirs.map(dir => rm(dir, { recursive: true, force: true })));
  });

  async function copyOfMigrations(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-migration-state-'));
    dirs.push(dir);
    await cp(defaultMigrationsDir, dir, { recursive: true });
    return dir;
  }

  // First in this file: nothing before it has loaded the engine.
  it('migrates an empty database directly, then finds it up to date, without loading the engine', async () => {
    expect(await migrate({ pglite: direct })).toEqual({ applied: (await checkedIn()).map(m => m.name), via: 'direct' });
    expect(await migrate({ pglite: direct })).toEqual({ applied: [], via: 'up-to-date' });
    expect(engine).toEqual({ loaded: false, runs: 0 });
  });

  it('records every migration as the engine does: its table, checksums, one step each', async () => {
    const rows = await query<Row>(direct, ROWS);
    expect(rows.map(row => ({ name: row.migration_name, checksum: row.checksum }))).toEqual(await checkedIn());
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row).toMatchObject({ logs: null, rolled_back_at: null, applied_steps_count: 1 });
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }
  });

  it('matches a database migrated by the engine (the pre-checksum path), which it finds up to date', async () => {
    expect((await migrate({ pglite: viaEngine }, undefined, { engine: 'always' })).via).toBe('engine');
    expect(engine.runs).toBe(1);
    expect(await migrate({ pglite: viaEngine })).toEqual({ applied: [], via: 'up-to-date' });
    expect(engine.runs).toBe(1);

    for (const sql of [TABLE_SHAPE, TABLE_INDEXES, SCHEMA_SHAPE, CONSTRAINTS]) {
      expect(await query(direct, sql)).toEqual(await query(viaEngine, sql));
    }
    const comparable = (rows: Row[]) =>
      rows.map(({ migration_name, checksum, logs, rolled_back_at, applied_steps_count }) => ({
        migration_name,
        checksum,
        logs,
        rolled_back_at,
        applied_steps_count,
      }));
    expect(comparable(await query<Row>(direct, ROWS))).toEqual(comparable(await query<Row>(viaEngine, ROWS)));
  });

  it('leaves a database `prisma migrate deploy` (the engine) accepts as up to date', async () => {
    const runs = engine.runs;
    expect(await migrate({ pglite: direct }, undefined, { engine: 'always' })).toEqual({ applied: [], via: 'engine' });
    expect(engine.runs).toBe(runs + 1);
  });

  it('applies an added migration through the engine', async () => {
    const migrationsDir = await copyOfMigrations();
    const name = '99990101000000_add_widgets';
    const sql = 'CREATE TABLE "widgets" ("id" TEXT NOT NULL, CONSTRAINT "widgets_pkey" PRIMARY KEY ("id"));\n';
    await mkdir(path.join(migrationsDir, name));
    await writeFile(path.join(migrationsDir, name, 'migration.sql'), sql);

    const runs = engine.runs;
    expect(await migrate({ pglite: direct }, { migrationsDir })).toEqual({ applied: [name], via: 'engine' });
    expect(engine.runs).toBe(runs + 1);
    const [row] = await query<Row>(direct, `SELECT * FROM _prisma_migrations WHERE migration_name = '${name}'`);
    expect(row).toMatchObject({ checksum: migrationChecksum(sql), applied_steps_count: 1, finished_at: expect.any(Date) });
    expect(await query(direct, `SELECT to_regclass('widgets')::text AS t`)).toEqual([{ t: 'widgets' }]);
    // And now that set is the recorded state.
    expect(await migrate({ pglite: direct }, { migrationsDir })).toEqual({ applied: [], via: 'up-to-date' });
  });

  it('hands a migration edited after it was applied to the engine instead of calling it up to date', async () => {
    const migrationsDir = await copyOfMigrations();
    const [first] = await checkedIn();
    const file = path.join(migrationsDir, first.name, 'migration.sql');
    await writeFile(file, `${await readFile(file, 'utf8')}\n-- edited\n`);
    const runs = engine.runs;
    expect((await migrate({ pglite: viaEngine }, { migrationsDir })).via).toBe('engine');
    expect(engine.runs).toBe(runs + 1);
  });

  it('rolls a failing direct migration back and lets the engine record the failure', async () => {
    const migrationsDir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-migration-state-'));
    dirs.push(migrationsDir);
    for (const [name, sql] of [
      ['00000000000000_good', 'CREATE TABLE "good" (id INT);\n'],
      ['99990101000000_broken', 'CREATE TABLE "half_done" (id INT);\nSELECT * FROM "no_such_table";\n'],
    ]) {
      await mkdir(path.join(migrationsDir, name));
      await writeFile(path.join(migrationsDir, name, 'migration.sql'), sql);
    }
    const pglite = await openScratchPGlite();
    try {
      await expect(migrate({ pglite }, { migrationsDir })).rejects.toThrow(/no_such_table/);
      const rows = await query<Row>(pglite, ROWS);
      expect(rows.map(row => [row.migration_name, row.finished_at === null])).toEqual([
        ['00000000000000_good', false],
        ['99990101000000_broken', true],
      ]);
      // A failed row is never "up to date": the engine reports it again (P3009).
      await expect(migrate({ pglite }, { migrationsDir })).rejects.toThrow();
    } finally {
      await pglite.close();
    }
  });
});

describe('upToDate', () => {
  const files = [
    { name: 'a', sql: '', checksum: 'x' },
    { name: 'b', sql: '', checksum: 'y' },
  ];
  const row = (migration_name: string, checksum: string, finished = true, rolled_back = false) => ({
    migration_name,
    checksum,
    finished,
    rolled_back,
  });

  it('needs every file recorded once, finished, with its checksum, and nothing else', () => {
    expect(upToDate(files, [row('a', 'x'), row('b', 'y')])).toBe(true);
    // A rolled-back attempt before the successful one does not count.
    expect(upToDate(files, [row('a', 'x'), row('b', 'y', false, true), row('b', 'y')])).toBe(true);
    expect(upToDate(files, [row('a', 'x')])).toBe(false);
    expect(upToDate(files, [row('a', 'x'), row('b', 'z')])).toBe(false);
    expect(upToDate(files, [row('a', 'x'), row('b', 'y', false)])).toBe(false);
    expect(upToDate(files, [row('a', 'x'), row('b', 'y'), row('c', 'w')])).toBe(false);
    expect(upToDate(files, [row('a', 'x'), row('a', 'x'), row('b', 'y')])).toBe(false);
  });

  it('uses the engine table definition verbatim', () => {
    expect(MIGRATIONS_TABLE_DDL).toContain('applied_steps_count     INTEGER NOT NULL DEFAULT 0');
  });
});

describe.skipIf(!pgUrl)('migrations without the schema engine (PostgreSQL)', () => {
  it('migrates an empty database once when two servers start at the same time', async () => {
    const scratch = await createPostgresScratchDatabase();
    try {
      const results = await Promise.all([migrate({ databaseUrl: scratch.url }), migrate({ databaseUrl: scratch.url })]);
      const vias = results.map(result => result.via).sort();
      // One applies under the engine's advisory lock; the other waits and finds the result.
      expect(vias).toEqual(['direct', 'up-to-date']);
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<Row>(ROWS);
        expect(rows.map(r => ({ name: r.migration_name, checksum: r.checksum }))).toEqual(await checkedIn());
      } finally {
        await client.end();
      }
      expect(await migrate({ databaseUrl: scratch.url }, undefined, { engine: 'always' })).toEqual({ applied: [], via: 'engine' });
    } finally {
      await scratch.drop();
    }
  });
});
