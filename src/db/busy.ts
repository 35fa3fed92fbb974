/**
 * How long work may wait for the database, and how a wait that runs out is told apart from a
 * failure. A wait that runs out means "overloaded, try again shortly" (503 busy), never a 500.
 */

/** Defaults of DATABASE_POOL_SIZE, DATABASE_READ_CONNECTIONS, DATABASE_WRITE_CONNECTIONS, DATABASE_TX_MAX_WAIT_MS and DATABASE_TX_TIMEOUT_MS (README "Configuration"). */
export const DATABASE_DEFAULTS = {
  /** PostgreSQL's default max_connections is 100: 10 per process leaves room for several instances. */
  poolSize: 10,
  /** Pipelined connections for plain reads outside transactions, beside the pool (src/db/pg-lanes.ts). */
  readConnections: 2,
  /** Pipelined connections for the row store's one-statement writes, beside the pool and the reads' (src/db/pg-lanes.ts). */
  writeConnections: 4,
  /**
   * Requests on one hot row queue on its lock while holding a connection, so the last of a burst
   * waits for every earlier one: Prisma's 2 s default failed 60 concurrent invites on a busy machine.
   */
  transactionMaxWaitMs: 10_000,
  /** A service transaction is a few short statements; this only bounds one stuck on a lock. */
  transactionTimeoutMs: 10_000,
} as const;

// pg-pool's two, and pg's own Client's (the lanes' connections, src/db/pg-lanes.ts).
const POOL_TIMEOUTS = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout', 'timeout expired']);

/** Seconds a client should wait before retrying work refused because the database was saturated. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * True when `error` says the database had no capacity in time: Prisma's pool timeout (P2024),
 * a transaction that could not start within maxWait or outlived its timeout (P2028, then rolled
 * back; on PGlite a statement after that rollback), a driver-level transaction's statement timeout, or node-postgres' pool: its wait for a
 * free connection, or a new connection that did not connect in that time (a loaded server or
 * machine). All are safe to retry: the failed step changed nothing.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'P2024') return true;
  if (code === 'P2028') return /Unable to start a transaction in the given time|on an expired transaction/.test(error.message);
  // A driver-level transaction's statement that outlived its timeout (Database.sqlTransaction).
  if (code === '57014' && /statement timeout/.test(error.message)) return true;
  // node-postgres' messages when connectionTimeoutMillis passes with every pooled connection in use,
  // or while a new connection (pooled or the read lane's) is still connecting; PGlite's for a statement after the timeout rolled its
  // transaction back.
  return POOL_TIMEOUTS.has(error.message) || error.message === 'Transaction is closed';
}
