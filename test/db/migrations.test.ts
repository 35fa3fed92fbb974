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
import { openPGlite, openScratchPGlite } from '../../src/db/pglite.js';
import { createPostgresScratchDatabase, POSTGRES_SKIP_REASON, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/migrations] ${POSTGRES_SKIP_REASON}`);

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

/** The contract shared by both backends, given a way to open an empty database and query it. */
function migrationContract(open: () => Promise<{ target: MigrationTarget; query: (sql: string) => Promise<unknown[]>; close(): Promise<void> }>) {
  let db: Awaited<ReturnType<typeof open>>;
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
}

describe('checked-in migrations', () => {
  it('replay to exactly schema.prisma (no pending diff)', async () => {
    expect(await diffMigrationsToSchema()).toBe('');
  });
});

describe('migrations on PGlite', () => {
  migrationContract(async () => {
    const pglite = await openScratchPGlite();
    return {
      target: { pglite },
      query: async sql => (await pglite.query(sql)).rows,
      close: () => pglite.close(),
    };
  });

  it('detects drift between the live database and schema.prisma', async () => {
    const pglite = await openScratchPGlite();
    try {
      await applyMigrations({ pglite });
      await pglite.exec('ALTER TABLE developers ADD COLUMN nickname TEXT');
      expect(await diffDatabaseToSchema({ pglite })).toContain('DROP COLUMN "nickname"');
    } finally {
      await pglite.close();
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
    const first = await openDatabase({ dataDir });
    try {
      await first.prisma.developer.create({ data: { id: 'dev_1', email: 'first@example.test' } });
    } finally {
      await first.close();
    }

    const pglite = await openPGlite({ dataDir });
    try {
      expect(await applyMigrations({ pglite })).toEqual([]);
    } finally {
      await pglite.close();
    }

    const reopened = await openDatabase({ dataDir });
    try {
      expect(reopened.describe()).toContain(dataDir);
      expect(await reopened.prisma.developer.findUnique({ where: { id: 'dev_1' } })).toMatchObject({
        email: 'first@example.test',
      });
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
    const brokenDir = path.join(path.dirname(migrationsDir), 'broken-migrations');
    await cp(defaultMigrationsDir, brokenDir, { recursive: true });
    await mkdir(path.join(brokenDir, '99990101000000_broken'));
    await writeFile(
      path.join(brokenDir, '99990101000000_broken', 'migration.sql'),
      'CREATE TABLE "half_done" (id INT);\nSELECT * FROM "no_such_table";\n',
    );

    const pglite = await openScratchPGlite();
    try {
      await expect(applyMigrations({ pglite }, { migrationsDir: brokenDir })).rejects.toThrow(/no_such_table/);
      const { rows } = await pglite.query<RecordedMigration>(
        `SELECT migration_name, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations WHERE migration_name = '99990101000000_broken'`,
      );
      expect(rows).toEqual([expect.objectContaining({ finished_at: null, applied_steps_count: 0 })]);
      // PGlite runs a script as one implicit transaction, so the CREATE TABLE went with the failure.
      expect((await pglite.query(`SELECT to_regclass('half_done') AS t`)).rows).toEqual([{ t: null }]);
    } finally {
      await pglite.close();
    }
  });
});

describe('a process that ran the schema engine', () => {
  it('exits as soon as its own work is done (the engine leaves 10 s timers behind)', async () => {
    const dir = await tempDir('gatehouse-exit-');
    const script = path.join(dir, 'migrate.mts');
    const modules = (file: string) => pathToFileURL(path.join(packageRoot, 'src', 'db', file)).href;
    await writeFile(
      script,
      [
        `import { applyMigrations } from ${JSON.stringify(modules('migrations.ts'))};`,
        `import { openScratchPGlite } from ${JSON.stringify(modules('pglite.ts'))};`,
        'const pglite = await openScratchPGlite();',
        'await applyMigrations({ pglite });',
        'await pglite.close();',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the child's source text, interpolated there
        'console.log(`done ${Date.now()}`);',
      ].join('\n'),
    );
    try {
      const tsx = path.join(packageRoot, 'node_modules', '.bin', 'tsx');
      const { stdout } = await promisify(execFile)(tsx, [script], { cwd: packageRoot, timeout: 30_000 });
      const doneAt = Number(/done (\d+)/.exec(stdout)?.[1]);
      expect(Date.now() - doneAt).toBeLessThan(3_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
