/**
 * Migrations without the schema engine for the two common cases: a database whose recorded
 * migrations already match the checked-in files (every start after the first), and a brand-new
 * empty database. Loading the WASM schema engine costs seconds and tens of MB, so it is kept for
 * everything else (pending migrations on a live database, edited or failed ones, drift), where
 * its exact `prisma migrate deploy` behaviour matters.
 *
 * The direct path writes `_prisma_migrations` exactly as the engine does (same DDL, one row per
 * migration with the sha256 of migration.sql, applied_steps_count 1, ms timestamps), so the
 * result is a database `prisma migrate deploy` finds up to date.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { MigrationList } from './schema-engine.js';

/** What the engine's migration table looks like (prisma-engines, the postgres flavour), verbatim. */
export const MIGRATIONS_TABLE_DDL = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

/** The key of the engine's `pg_advisory_lock`: taking the same one excludes a concurrent deploy. */
const ENGINE_ADVISORY_LOCK = 72707369;

/** The schema the engine migrates through the driver adapters (their default). */
const SCHEMA = 'public';

/** A checked-in migration with its checksum as Prisma records it (sha256 of migration.sql, hex). */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/** The migrations of a list, or null when one is unreadable (the engine reports that). */
export function migrationFiles(list: MigrationList): MigrationFile[] | null {
  const files: MigrationFile[] = [];
  for (const dir of list.migrationDirectories) {
    if (dir.migrationFile.content.tag !== 'ok') return null;
    const sql = dir.migrationFile.content.value;
    files.push({ name: dir.path, sql, checksum: migrationChecksum(sql) });
  }
  return files;
}

/** One connection to the database being migrated; nobody else uses it meanwhile. */
export interface SqlSession {
  query<T extends object>(text: string, values?: unknown[]): Promise<T[]>;
  /** A multi-statement script in one simple-query round trip. */
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

export function pgliteSession(pglite: PGlite): SqlSession {
  return {
    query: async <T extends object>(text: string, values?: unknown[]) => (await pglite.query<T>(text, values)).rows,
    exec: async script => void (await pglite.exec(script)),
    close: async () => {},
  };
}

export async function postgresSession(connectionString: string): Promise<SqlSession> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  // An error on the idle connection surfaces as the next query's error instead of a crash.
  client.on('error', () => {});
  await client.connect();
  return {
    query: async <T extends object>(text: string, values?: unknown[]) => (await client.query<T>(text, values)).rows,
    exec: async script => void (await client.query(script)),
    close: () => client.end(),
  };
}

interface RecordedRow {
  migration_name: string;
  checksum: string;
  finished: boolean;
  rolled_back: boolean;
}

/** What the database holds, in one round trip. */
async function readState(session: SqlSession): Promise<{ schemaOk: boolean; hasTable: boolean; empty: boolean; rows: RecordedRow[] }> {
  const [state] = await session.query<{ schema_ok: boolean; has_table: boolean; empty: boolean }>(
    `SELECT current_schema() = $1 AS schema_ok,
            to_regclass($1 || '._prisma_migrations') IS NOT NULL AS has_table,
            NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1)
              AND NOT EXISTS (SELECT 1 FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = $1)
              AND NOT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1) AS empty`,
    [SCHEMA],
  );
  const rows = state.has_table
    ? await session.query<RecordedRow>(
        `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
           FROM _prisma_migrations`,
      )
    : [];
  return { schemaOk: state.schema_ok, hasTable: state.has_table, empty: state.empty, rows };
}

/**
 * Whether the recorded migrations are exactly the files: each applied once, finished, with the
 * same checksum, and nothing failed or unknown. Anything else is left to the engine.
 */
export function upToDate(files: MigrationFile[], rows: RecordedRow[]): boolean {
  const live = rows.filter(row => !row.rolled_back);
  if (live.length !== files.length) return false;
  const byName = new Map(live.map(row => [row.migration_name, row]));
  if (byName.size !== live.length) return false;
  return files.every(file => {
    const row = byName.get(file.name);
    return row?.finished === true && row.checksum === file.checksum;
  });
}

/**
 * Transaction control of its own, or statements PostgreSQL refuses inside a transaction block:
 * such a migration goes through the engine. (A function body's BEGIN ... END may match: that only
 * costs the engine.)
 */
const OUTSIDE_TRANSACTION = /(^|;)\s*(BEGIN|COMMIT|ROLLBACK|ABORT|END|START\s+TRANSACTION)\s*(;|$)|\bCONCURRENTLY\b|\bVACUUM\b/im;

/** The lock file names PostgreSQL (or is missing, which the engine accepts too). */
function lockfileOk(list: MigrationList): boolean {
  const content = list.lockfile.content;
  return content === null || /provider\s*=\s*"postgresql"/.test(content);
}

export type DirectResult = { status: 'up-to-date' } | { status: 'applied'; applied: string[] } | { status: 'needs-engine'; reason: string };

/**
 * Brings the database up to date without the engine when it can: nothing to do, or every
 * migration on an empty database in one transaction (under the engine's advisory lock, so a
 * concurrent deploy waits). Any failure rolls back to the empty database and hands over to the
 * engine, which then applies and records (or reports) the migrations exactly like before.
 */
export async function migrateDirect(session: SqlSession, list: MigrationList): Promise<DirectResult> {
  const files = migrationFiles(list);
  if (!files) return { status: 'needs-engine', reason: 'a migration directory has no readable migration.sql' };
  if (!lockfileOk(list)) return { status: 'needs-engine', reason: 'migration_lock.toml names another provider' };
  const state = await readState(session);
  if (state.hasTable && upToDate(files, state.rows)) return { status: 'up-to-date' };
  if (!state.schemaOk) return { status: 'needs-engine', reason: `the current schema is not ${SCHEMA}` };
  if (state.hasTable || !state.empty) return { status: 'needs-engine', reason: 'the database has a migration history or other objects' };
  if (files.length === 0) return { status: 'needs-engine', reason: 'no migrations' };
  if (files.some(file => OUTSIDE_TRANSACTION.test(stripComments(file.sql)))) {
    return { status: 'needs-engine', reason: 'a migration controls transactions itself' };
  }
  try {
    await session.exec('BEGIN');
    await session.query('SELECT pg_advisory_xact_lock($1)', [ENGINE_ADVISORY_LOCK]);
    // Checked again under the lock: a concurrent deploy may have migrated meanwhile.
    const locked = await readState(session);
    if (locked.hasTable || !locked.empty) {
      await session.exec('ROLLBACK');
      return locked.hasTable && upToDate(files, locked.rows) ? { status: 'up-to-date' } : { status: 'needs-engine', reason: 'migrated concurrently' };
    }
    await session.exec(MIGRATIONS_TABLE_DDL);
    for (const file of files) {
      const id = randomUUID();
      await session.query('INSERT INTO "_prisma_migrations" ("id","checksum","started_at","migration_name") VALUES ($1,$2,$3,$4)', [
        id,
        file.checksum,
        new Date(),
        file.name,
      ]);
      await session.exec(file.sql);
      await session.query('UPDATE "_prisma_migrations" SET "applied_steps_count" = ("applied_steps_count" + 1), "finished_at" = $1 WHERE "id" = $2', [
        new Date(),
        id,
      ]);
    }
    await session.exec('COMMIT');
    return { status: 'applied', applied: files.map(file => file.name) };
  } catch (error) {
    await session.exec('ROLLBACK').catch(() => {});
    return { status: 'needs-engine', reason: `the direct path failed: ${(error as Error).message}` };
  }
}

/** SQL without its comments, for the keyword check (a comment may well say "begin"). */
function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}
