/**
 * The checked-in migrations are the schema: replaying them yields exactly prisma/schema.prisma on
 * both backends, they apply once, and they are recorded where `prisma migrate deploy` looks.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { applyMigrations, createMigration, diffDatabaseToSchema, diffMigrationsToSchema, type MigrationTarget } from '../../src/db/migrations.js';
import { defaultMigrationsDir, defaultSchemaPath, packageRoot } from '../../src/db/paths.js';
import { openScratchPGlite } from '../../src/db/pglite.js';
import { createPostgresScratchDatabase, POSTGRES_SKIP_REASON, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/migrations] ${POSTGRES_SKIP_REASON}`);

// The child of the last case, started first so that it overlaps this file's own work (below).
const childRun = runEngineInChild();
// Awaited by the last case; a failure before then must not be an unhandled rejection.
childRun.catch(() => {});

/**
 * An empty cluster, made once: initdb costs seconds, loading this tarball a fraction of that. The
 * on-disk initdb path is covered end to end by test/cli (migrate and serve on a new DATA_DIR).
 */
const emptyCluster = await (async () => {
  const pglite = await openScratchPGlite();
  try {
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
})();

/**
 * A child process that migrates a new PGlite and prints when it is done; the shell that ran it
 * prints when it exited (the shell's clock, so a busy test process cannot delay the reading).
 * Started at load, so it runs beside this file's other cases. (It runs initdb itself: a PGlite
 * loaded from a tarball takes a second or two longer to exit, which would blur the measurement.)
 */
async function runEngineInChild(): Promise<{ doneAt: number; exitedAt: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-exit-'));
  const script = path.join(dir, 'migrate.mts');
  const modules = (file: string) => pathToFileURL(path.join(packageRoot, 'src', 'db', file)).href;
  await writeFile(
    script,
    [
      `import { applyMigrations } from ${JSON.stringify(modules('migrations.ts'))};`,
      `import { openScratchPGlite } from ${JSON.stringify(modules('pglite.ts'))};`,
      'const pglite = await openScratchPGlite();',
      // The engine path explicitly: an empty database would otherwise be migrated without it.
      "await applyMigrations({ pglite }, undefined, { engine: 'always' });",
      'await pglite.close();',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the child's source text, interpolated there
      'console.log(`done ${Date.now()}`);',
    ].join('\n'),
  );
  try {
    // node --import tsx: no tsx wrapper process between the child and the shell's clock.
    const { stdout } = await promisify(execFile)('bash', ['-c', '"$0" --import tsx "$1" && echo "exited $(date +%s%3N)"', process.execPath, script], {
      cwd: packageRoot,
      timeout: 60_000,
    });
    return { doneAt: Number(/done (\d+)/.exec(stdout)?.[1]), exitedAt: Number(/exited (\d+)/.exec(stdout)?.[1]) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function checkedInMigrationNames(): Promise<string[]> {
  const entries = await readdir(defaultMigrationsDir, { withFileTypes: true });
  return entries
    .filter(entry => entry.isDirectory())
    .map(entry => entry.name)
    .sort();
}

async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

interface RecordedMigration {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

interface MigratedDatabase {
  target: MigrationTarget;
  query: (sql: string) => Promise<unknown[]>;
  close(): Promise<void>;
}

/**
 * The contract shared by both backends, given a way to open an empty database and query it.
 * Returns the migrated database for the backend's own cases, which run after the contract's.
 */
function migrationContract(open: () => Promise<MigratedDatabase>): () => MigratedDatabase {
  let db: MigratedDatabase;
  let firstRun: string[];

  beforeAll(async () => {
    db = await open();
    firstRun = await applyMigrations(db.target);
  });
  afterAll(() => db?.close());

  it('applies every checked-in migration, in order', async () => {
    expect(firstRun).toEqual(await checkedInMigrationNames());
    expect(firstRun.length).toBeGreaterThan(0);
  });

  it('applies nothing the second time', async () => {
    expect(await applyMigrations(db.target)).toEqual([]);
  });

  it('records them in _prisma_migrations the standard way', async () => {
    const rows = (await db.query(
      'SELECT migration_name, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    )) as RecordedMigration[];
    expect(rows.map(row => row.migration_name)).toEqual(await checkedInMigrationNames());
    for (const row of rows) {
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('leaves a live schema identical to schema.prisma', async () => {
    expect(await diffDatabaseToSchema(db.target)).toBe('');
  });

  return () => db;
}

describe('checked-in migrations', () => {
  it('replay to exactly schema.prisma (no pending diff)', async () => {
    expect(await diffMigrationsToSchema()).toBe('');
  });
});

describe('migrations on PGlite', () => {
  const migrated = migrationContract(async () => {
    const pglite = await openScratchPGlite();
    return {
      target: { pglite },
      query: async sql => (await pglite.query(sql)).rows,
      close: () => pglite.close(),
    };
  });

  it('detects drift between the live database and schema.prisma', async () => {
    // On the contract's database (its cases have run): one migrated PGlite less to build.
    const { target, query } = migrated();
    await query('ALTER TABLE developers ADD COLUMN nickname TEXT');
    try {
      expect(await diffDatabaseToSchema(target)).toContain('DROP COLUMN "nickname"');
    } finally {
      await query('ALTER TABLE developers DROP COLUMN nickname');
    }
  });
});

describe.skipIf(!pgUrl)('migrations on PostgreSQL', () => {
  migrationContract(async () => {
    const scratch: ScratchPostgresDatabase = await createPostgresScratchDatabase();
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: scratch.url });
    await client.connect();
    return {
      target: { databaseUrl: scratch.url },
      query: async sql => (await client.query(sql)).rows,
      close: async () => {
        await client.end();
        await scratch.drop();
      },
    };
  });
});

describe('a file-backed PGlite data directory', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = path.join(await tempDir('gatehouse-data-'), 'nested', 'pgdata');
  });
  afterAll(() => rm(path.dirname(path.dirname(dataDir)), { recursive: true, force: true }));

  it('is created when missing, keeps its rows across reopen, and is not migrated twice', async () => {
    const first = await openDatabase({ dataDir, loadDataDir: emptyCluster });
    try {
      await first.prisma.developer.create({ data: { id: 'dev_1', email: 'first@example.test' } });
    } finally {
      await first.close();
    }

    // Reopening migrates again (a no-op): every migration stays recorded exactly once.
    const reopened = await openDatabase({ dataDir });
    try {
      expect(reopened.describe()).toContain(dataDir);
      expect(await reopened.prisma.developer.findUnique({ where: { id: 'dev_1' } })).toMatchObject({
        email: 'first@example.test',
      });
      const recorded = await reopened.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        'SELECT migration_name FROM _prisma_migrations ORDER BY migration_name, started_at',
      );
      expect(recorded.map(row => row.migration_name)).toEqual(await checkedInMigrationNames());
    } finally {
      await reopened.close();
    }
  });
});

describe('createMigration and a failing migration', () => {
  let migrationsDir: string;
  let schemaPath: string;

  beforeAll(async () => {
    const dir = await tempDir('gatehouse-migrations-');
    migrationsDir = path.join(dir, 'migrations');
    schemaPath = path.join(dir, 'schema.prisma');
    await cp(defaultMigrationsDir, migrationsDir, { recursive: true });
    await cp(defaultSchemaPath, schemaPath);
  });
  afterAll(() => rm(path.dirname(migrationsDir), { recursive: true, force: true }));

  it('writes nothing when schema.prisma has not changed', async () => {
    const result = await createMigration('nothing_new', { migrationsDir, schemaPath });
    expect(result).toMatchObject({ created: false });
    expect(await readdir(migrationsDir)).toEqual(await readdir(defaultMigrationsDir));
  });

  it('writes the difference when it has, after every existing migration', async () => {
    await writeFile(schemaPath, `${await readFile(schemaPath, 'utf8')}\nmodel Widget {\n  id String @id\n  @@map("widgets")\n}\n`);
    const result = await createMigration('add_widgets', { migrationsDir, schemaPath });
    if (!result.created) throw new Error(result.message);
    expect(result.name).toMatch(/^\d{14}_add_widgets$/);
    expect(result.name > (await checkedInMigrationNames()).at(-1)!).toBe(true);
    expect(await readFile(result.file, 'utf8')).toContain('CREATE TABLE "widgets"');
    expect(await diffMigrationsToSchema({ migrationsDir, schemaPath })).toBe('');
  });

  it('rejects names that are not snake_case', async () => {
    await expect(createMigration('Add-Widgets', { migrationsDir, schemaPath })).rejects.toThrow(/Invalid migration name/);
  });

  it('stops at a failing migration, records it as failed and keeps none of its statements', async () => {
    // A good migration, then a broken one: the engine's behaviour, without replaying the real ones.
    const brokenDir = path.join(path.dirname(migrationsDir), 'broken-migrations');
    const migration = async (name: string, sql: string) => {
      await mkdir(path.join(brokenDir, name), { recursive: true });
      await writeFile(path.join(brokenDir, name, 'migration.sql'), sql);
    };
    await migration('00000000000000_good', 'CREATE TABLE "good" (id INT);\n');
    await migration('99990101000000_broken', 'CREATE TABLE "half_done" (id INT);\nSELECT * FROM "no_such_table";\n');

    const pglite = await openScratchPGlite();
    try {
      await expect(applyMigrations({ pglite }, { migrationsDir: brokenDir })).rejects.toThrow(/no_such_table/);
      const { rows } = await pglite.query<RecordedMigration>(
        'SELECT migration_name, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      );
      expect(rows).toEqual([
        expect.objectContaining({ migration_name: '00000000000000_good', finished_at: expect.any(Date), applied_steps_count: 1 }),
        expect.objectContaining({ migration_name: '99990101000000_broken', finished_at: null, applied_steps_count: 0 }),
      ]);
      // PGlite runs a script as one implicit transaction, so the CREATE TABLE went with the failure.
      expect((await pglite.query(`SELECT to_regclass('half_done') AS t, to_regclass('good') AS g`)).rows).toEqual([{ t: null, g: 'good' }]);
    } finally {
      await pglite.close();
    }
  });
});

describe('a process that ran the schema engine', () => {
  it('exits as soon as its own work is done (the engine leaves 10 s timers behind)', async () => {
    const { doneAt, exitedAt } = await childRun;
    expect(exitedAt - doneAt).toBeLessThan(3_000);
  });
});
