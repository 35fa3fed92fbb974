/**
 * Isolated, fully migrated databases for tests.
 *
 * PGlite: initialising a data directory takes seconds, loading a tarball of one takes ~0.4 s. So
 * a migrated template is built once and kept as a tarball in the OS temp directory, named by a
 * hash of the migrations and the PGlite version: parallel test files and later runs reuse it, and
 * a changed migration simply yields a new file. Every test database is a fresh PGlite loaded from it.
 *
 * PostgreSQL: every test database is a `CREATE DATABASE gh_test_<random>`, migrated on open and
 * dropped on close, so parallel test files never see each other's rows.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, type OpenDatabaseOptions, openDatabase } from '../../src/db/database.js';
import { applyMigrations, readMigrationList } from '../../src/db/migrations.js';
import { defaultMigrationsDir } from '../../src/db/paths.js';
import { openScratchPGlite } from '../../src/db/pglite.js';

const TEMPLATE_PREFIX = 'gatehouse-pglite-template-';
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const PROBE_TIMEOUT_MS = 1_000;

let template: Promise<ArrayBuffer> | undefined;

/** Identifies the template's content: every migration file, and the PGlite build that wrote it. */
async function templateKey(): Promise<string> {
  const list = await readMigrationList(defaultMigrationsDir);
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; it sits above the resolved entry (dist/).
  const packageJson = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(await readFile(packageJson, 'utf8')) as { version: string };
  const hash = createHash('sha256').update(`pglite ${version}\n`);
  for (const dir of list.migrationDirectories) {
    const { content } = dir.migrationFile;
    hash.update(`${dir.path}\n${content.tag === 'ok' ? content.value : '<missing>'}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function buildTemplate(): Promise<Blob> {
  const pglite = await openScratchPGlite();
  try {
    await applyMigrations({ pglite });
    // Uncompressed: a gzip tarball is 9x smaller but adds ~100 ms to every load.
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

/** Writes atomically (a rename), so a parallel reader never sees half a tarball. */
async function storeTemplate(file: string, tarball: Blob): Promise<void> {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  await writeFile(partial, Buffer.from(await tarball.arrayBuffer()));
  await rename(partial, file);
  // Templates of older migration sets are 40 MB each: keep only the current one.
  const dir = path.dirname(file);
  for (const name of await readdir(dir)) {
    if (name.startsWith(TEMPLATE_PREFIX) && name.endsWith('.tar') && path.join(dir, name) !== file) {
      await rm(path.join(dir, name), { force: true });
    }
  }
}

async function loadTemplate(): Promise<ArrayBuffer> {
  const file = path.join(os.tmpdir(), `${TEMPLATE_PREFIX}${await templateKey()}.tar`);
  try {
    const bytes = await readFile(file);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const tarball = await buildTemplate();
  await storeTemplate(file, tarball);
  return tarball.arrayBuffer();
}

/**
 * The migrated template tarball, read once per test process. PGlite reads `loadDataDir` with one
 * arrayBuffer() call, which a Node Blob answers by assembling 40 MB from small chunks (~0.3 s of
 * CPU per test database, more than a copy); this Blob hands over the bytes held in memory. Sharing
 * them is safe: PGlite only reads the tarball, copying each file into its own in-memory file system.
 */
export async function pgliteTemplate(): Promise<Blob> {
  template ??= loadTemplate().catch(error => {
    template = undefined;
    throw error;
  });
  const bytes = await template;
  return Object.assign(new Blob(), { arrayBuffer: async () => bytes });
}

/** A fresh, migrated, in-memory PGlite database of its own. Close it in teardown. */
export async function createTestDatabase(): Promise<Database> {
  return openDatabase({ dataDir: 'memory://', loadDataDir: await pgliteTemplate(), migrate: false });
}

let probed: Promise<string | undefined> | undefined;

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * TEST_DATABASE_URL when set (used as is, so a wrong one fails loudly), otherwise the local test
 * server if it answers within a second; undefined when there is none (suites skip PostgreSQL).
 */
export function postgresTestUrl(): Promise<string | undefined> {
  probed ??= (async () => {
    // The fast tier (`npm run test:unit`) asks for PGlite only, explicitly: nothing to probe or skip.
    if (process.env.GATEHOUSE_TESTS_PGLITE_ONLY === '1') return undefined;
    const configured = process.env.TEST_DATABASE_URL;
    if (configured) return configured;
    if (await canConnect(DEFAULT_POSTGRES_URL)) return DEFAULT_POSTGRES_URL;
    // CI must run the PostgreSQL suites: there an unreachable server fails them instead of skipping.
    if (process.env.CI) throw new Error(`CI needs PostgreSQL at ${DEFAULT_POSTGRES_URL} (or TEST_DATABASE_URL): its suites cannot be skipped there.`);
    return undefined;
  })();
  return probed;
}

/** Why PostgreSQL suites are skipped, for `describe.skipIf(!url)` callers to print. */
export const POSTGRES_SKIP_REASON = `PostgreSQL not reachable at ${DEFAULT_POSTGRES_URL} and TEST_DATABASE_URL is not set: PostgreSQL tests skipped.`;

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface ScratchPostgresDatabase {
  url: string;
  /** Drops the database, ending any sessions still on it. */
  drop(): Promise<void>;
}

/** An empty PostgreSQL database (gh_test_<random>) on the test server; not migrated. */
export async function createPostgresScratchDatabase(): Promise<ScratchPostgresDatabase> {
  const adminUrl = await postgresTestUrl();
  if (!adminUrl) throw new Error(POSTGRES_SKIP_REASON);
  const name = `gh_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, client => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: withDatabaseName(adminUrl, name),
    // FORCE (PostgreSQL 13+) ends sessions pg's pool has not finished closing yet.
    drop: () => withAdminClient(adminUrl, client => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * A new, migrated PostgreSQL database of its own on the test server; closing the returned
 * Database drops it. Throws when no server is reachable: guard with postgresTestUrl().
 */
export async function createPostgresTestDatabase(
  settings: Pick<OpenDatabaseOptions, 'transactionMaxWaitMs' | 'transactionTimeoutMs' | 'poolSize'> = {},
): Promise<Database> {
  failOnOverlappingPgQueries();
  const scratch = await createPostgresScratchDatabase();
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: scratch.url, ...settings });
  } catch (error) {
    await scratch.drop();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    ...database,
    close: () =>
      (closed ??= (async () => {
        await database.close();
        await scratch.drop();
      })()),
  };
}

let watchingPg = false;

/**
 * pg 8 warns, once per process, when a query is sent on a client still running one (pg 9 will
 * refuse it). In a transaction that is Prisma sending an `include`'s relation queries at once on
 * its one client (src/apps/apps.service.ts `create`): the suite fails where it first happens, instead of a
 * server printing the warning on PostgreSQL.
 */
function failOnOverlappingPgQueries(): void {
  if (watchingPg) return;
  watchingPg = true;
  process.on('warning', warning => {
    if (warning.name === 'DeprecationWarning' && warning.message.includes('already executing a query'))
      throw new Error(`Overlapping queries on one pg client (a Prisma include inside a transaction?): ${warning.message}`);
  });
}

/**
 * Empties every table (keeping the migration history), for suites that share one database
 * across tests: ~10 ms against ~0.6 s for a new PGlite database.
 */
export async function resetDatabase(db: Database): Promise<void> {
  const tables = await db.prisma.$queryRaw<{ name: string }[]>`
    SELECT quote_ident(tablename) AS name FROM pg_tables
    WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`;
  if (tables.length === 0) return;
  await db.prisma.$executeRawUnsafe(`TRUNCATE ${tables.map(t => t.name).join(', ')} CASCADE`);
}
