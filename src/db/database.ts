/**
 * Opens Gatehouse's database: PostgreSQL when a URL is given, otherwise embedded PGlite (a data
 * directory, or `memory://`). Both speak PostgreSQL, so one Prisma schema and one migration
 * history serve both.
 */
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { applyMigrations, type MigrationPaths, migrationsDigest, readMigrations } from './migrations.js';
import { MEMORY_DATA_DIR, openPGlite } from './pglite.js';
import { isPostgresUrl, postgresDatabase, redactUrl } from './postgres.js';
import type { LiveCopy } from './live-copy.js';
import type { RawStatements } from './sql-tx.js';
import type { Sql } from './sql.js';

export { Prisma, PrismaClient };
export type { Sql };
export { redactUrl };
export { DATABASE_DEFAULTS, isDatabaseBusy } from './busy.js';

/** The client handed to an interactive transaction's callback. */
export type Tx = Prisma.TransactionClient;

export interface TransactionOptions {
  /** How long to wait for the transaction to start, in ms. */
  maxWait?: number;
  /** How long the callback may run before the transaction is rolled back, in ms. */
  timeout?: number;
  isolationLevel?: Prisma.TransactionIsolationLevel;
}

/**
 * The handle of `Database.sqlTransaction`: the SQL layer bound to the transaction's connection.
 * It still answers Prisma's raw calls (`$queryRaw`, `$executeRaw`) while services move over.
 */
export type SqlTx = Sql & RawStatements;

/** `Database.query`: a statement as text, run by the SQL layer's fast path. Goes once no caller is left. */
export type LeanQuery = <T extends object>(text: string, values?: readonly unknown[]) => Promise<T[]>;

/** Defaults for every transaction of one Database (DATABASE_TX_MAX_WAIT_MS, DATABASE_TX_TIMEOUT_MS). */
export interface TransactionSettings {
  /** PostgreSQL: how long a transaction or query may wait for a pooled connection before failing as busy (503). PGlite queues transactions without a bound. */
  transactionMaxWaitMs?: number;
  /** How long a transaction may run before it is rolled back and fails as busy (503). */
  transactionTimeoutMs?: number;
}

export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one interactive transaction: committed when it resolves, rolled back when it
   * throws. On PGlite (one connection) transactions run one at a time, in arrival order.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * The typed SQL layer outside transactions (src/db/sql.ts): each statement a named prepared
   * statement straight through the driver, the hot reads' path (bench/README.md).
   */
  sql: Sql;
  /**
   * `sql` for the row store's one-statement writes, which run before a call's transaction and never
   * inside one: on PostgreSQL, pipelined connections of their own with a statement timeout (the
   * write lane, src/db/pg-lanes.ts); elsewhere `sql` itself.
   */
  sqlWrites: Sql;
  /**
   * Runs `fn` in one transaction on a driver connection, without Prisma's interactive-transaction
   * machinery (about 1 ms of CPU per transaction): `fn` gets the SQL layer bound to it. Same
   * commit, rollback, queueing and busy rules as `transaction`.
   */
  sqlTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /** A statement as text on the fast path of `sql`; for callers not yet moved to the SQL layer. */
  query: LeanQuery;
  /** Releases the client, the pool or the PGlite instance; an open PGlite keeps the process alive. */
  close(): Promise<void>;
  /** Where the data lives, for logs (no password). */
  describe(): string;
  /**
   * What makes this database itself and not another reached by the same name: PostgreSQL's
   * cluster identifier and database name; an embedded data directory's machine and path. Every
   * instance of one deployment gets the same value; no password or secret is in it.
   */
  identity(): Promise<string>;
  /** PGlite: the transactions waiting for their turn, by party (src/db/fair-queue.ts; diagnostics and tests). */
  waiting?(): Record<string, number>;
  /** Connections in use and the waits for one, so far (the /metrics gauges and counters, src/ops/metrics.ts). */
  usage(): DatabaseUsage;
  /**
   * PGlite on disk: copies the cluster into `target` (an empty directory) as a consistent image
   * while the server runs, holding statements back only briefly (src/db/live-copy.ts).
   */
  liveCopy?(target: string): Promise<LiveCopy>;
}

/** A database's connections now, and its waits for one since it opened. */
export interface DatabaseUsage {
  /** The most connections it opens (PGlite: its one). */
  max: number;
  /** Connections open, and of them idle. */
  open: number;
  idle: number;
  /** Callers waiting for a connection (PGlite: for their transaction's turn). */
  waiting: number;
  /** Waits that were not served at once, and their total time in seconds. */
  waits: number;
  waitSeconds: number;
}

export interface OpenDatabaseOptions extends TransactionSettings {
  /** A postgres:// or postgresql:// URL; without it the embedded database is used. */
  databaseUrl?: string;
  /** The PGlite data directory (created if missing) or `memory://`; the default is in-memory. */
  dataDir?: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** PGlite only: start from this `dumpDataDir()` tarball instead of an empty database. */
  loadDataDir?: Blob | File;
  /** PostgreSQL only: the most connections the pool opens (DATABASE_DEFAULTS.poolSize). */
  poolSize?: number;
  /** PostgreSQL only: pipelined connections for plain reads, beside the pool; 0 sends them to the pool (DATABASE_DEFAULTS.readConnections). */
  readConnections?: number;
  /** PostgreSQL only: pipelined connections for the one-statement writes (sqlWrites); 0 sends them to the pool (DATABASE_DEFAULTS.writeConnections). */
  writeConnections?: number;
  /** Migrations and schema to apply (default: the package's own). */
  migrationPaths?: MigrationPaths;
  /** PGlite: where cluster templates are kept (GATEHOUSE_CACHE_DIR; default: the user's cache). */
  templateCacheDir?: string;
  /** PGlite: told what preparing a new data directory is doing (it can take seconds). */
  onProgress?: (message: string) => void;
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl !== undefined) return openPostgres(options.databaseUrl, options);
  return openEmbedded(options);
}

async function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<Database> {
  if (!isPostgresUrl(databaseUrl)) {
    throw new Error(`databaseUrl must start with postgres:// or postgresql:// (got ${redactUrl(databaseUrl)})`);
  }
  // Migrations run on their own short-lived connection before the client exists, so the client
  // never sees a half-migrated schema.
  if (options.migrate ?? true) await applyMigrations({ databaseUrl }, options.migrationPaths);
  return postgresDatabase(databaseUrl, options);
}

async function openEmbedded(options: OpenDatabaseOptions): Promise<Database> {
  const dataDir = options.dataDir ?? MEMORY_DATA_DIR;
  // Loaded meanwhile: a process on PostgreSQL never needs PGlite's Prisma adapter.
  const embedded = import('./embedded.js');
  embedded.catch(() => {});
  const paths = options.migrationPaths;
  const migrate = options.migrate ?? true;
  // Read now, while PGlite starts, not after: a read issued once PGlite had started was answered
  // ~140 ms later on two cores, while V8 compiled its WebAssembly (bench/README.md, start-up).
  const list = migrate ? readMigrations(paths) : undefined;
  list?.catch(() => {});
  const pglite = await openPGlite({
    dataDir,
    loadDataDir: options.loadDataDir,
    onProgress: options.onProgress,
    templateCacheDir: options.templateCacheDir,
    // A new data directory starts migrated (a template made once per machine and set of migrations).
    migrated: list
      ? { key: () => migrationsDigest(paths, list), migrate: async p => void (await applyMigrations({ pglite: p }, paths, { list })) }
      : undefined,
  });
  try {
    // Migrations and the client must not share the single connection at the same time: the
    // client is only created once migrations are done.
    if (list) await applyMigrations({ pglite }, paths, { list });
    return (await embedded).embeddedDatabase(pglite, dataDir, options);
  } catch (error) {
    await pglite.close();
    throw error;
  }
}
