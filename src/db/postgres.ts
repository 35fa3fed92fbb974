import { createHash } from 'node:crypto';
/** PostgreSQL behind Prisma through node-postgres (@prisma/adapter-pg). */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { DATABASE_DEFAULTS, isDatabaseBusy } from './busy.js';
import type { Database, SqlTx, TransactionOptions, TransactionSettings, Tx } from './database.js';
import { rawStatements } from './sql-tx.js';
import { SQL_TYPE_PARSERS, sqlStateOf } from './sql-values.js';
import { type Executor, sqlOver, transactionSql } from './sql.js';
import { logger } from '../lib/logger.js';
import { runPrepared } from './pg-statements.js';
import { OutcomeUnknownError, refusedByServer } from './outcome.js';
import { type Lane, READ_LANE_APPLICATION, WRITE_LANE_APPLICATION, createLane, isPlainRead } from './pg-lanes.js';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Wraps an already migrated PostgreSQL database; the pool connects lazily. Waiting for a pooled
 * connection is bounded by the same maxWait as starting a transaction, so a saturated pool fails
 * a request as busy (503) instead of queueing it without end.
 */
export function postgresDatabase(
  databaseUrl: string,
  settings: TransactionSettings & { poolSize?: number; readConnections?: number; writeConnections?: number } = {},
): Database {
  const poolSize = settings.poolSize ?? DATABASE_DEFAULTS.poolSize;
  const readConnections = settings.readConnections ?? DATABASE_DEFAULTS.readConnections;
  const writeConnections = settings.writeConnections ?? DATABASE_DEFAULTS.writeConnections;
  const maxWait = settings.transactionMaxWaitMs ?? DATABASE_DEFAULTS.transactionMaxWaitMs;
  const timeout = settings.transactionTimeoutMs ?? DATABASE_DEFAULTS.transactionTimeoutMs;
  // pg's Pool.end() resolves before the sockets are gone: errors on connections that are already
  // being closed (e.g. a test dropping its database right after) are not worth reporting.
  let closing = false;
  // One pool for Prisma and the SQL layer, so the pool size bounds both.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: maxWait, idleTimeoutMillis: 30_000 });
  pool.on('error', error => {
    if (!closing) logger.error({ err: error.message }, 'idle PostgreSQL connection failed');
  });
  const waits = countWaits(pool);
  const adapter = new PrismaPg(pool, {
    // Named statements let PostgreSQL reuse its parse and plan (measured: 170 -> 46 us of
    // server CPU per query). The name is a digest of the SQL and its argument types, so the
    // set is bounded by the distinct queries the code sends. Not for PgBouncer transaction mode.
    statementNameGenerator: query =>
      `gh_${createHash('sha1')
        .update(query.sql)
        .update(JSON.stringify(query.argTypes ?? []))
        .digest('hex')
        .slice(0, 24)}`,
  });
  // 'minimal' skips capturing a call-site stack trace on every query.
  const prisma = new PrismaClient({ adapter, errorFormat: 'minimal', transactionOptions: { maxWait, timeout } });
  const laneOf = (kind: 'read' | 'write', size: number, statementTimeoutMs?: number): Lane | null =>
    size > 0
      ? createLane(databaseUrl, {
          application: kind === 'read' ? READ_LANE_APPLICATION : WRITE_LANE_APPLICATION,
          size,
          connectTimeoutMs: maxWait,
          statementTimeoutMs,
          writes: kind === 'write',
          onError: error => {
            if (!closing) logger.error({ err: error.message }, `PostgreSQL ${kind} connection failed`);
          },
        })
      : null;
  // Plain reads outside transactions share a few pipelined connections; the rest take the pool's.
  const reads = laneOf('read', readConnections);
  // The one-statement writes share others; a lock wait there ends as a transaction's would.
  const writes = laneOf('write', writeConnections, timeout);
  // Outside a transaction a statement is its own: one that may write leaves its outcome unknown when its answer is lost.
  const onPool = (text: string, values: readonly unknown[], { name, plainRead } = statementOf(text)) =>
    runPrepared(pool, name, text, values, SQL_TYPE_PARSERS, { ownTransaction: !plainRead });
  const fast: Executor = query => {
    const known = statementOf(query.sql);
    return (
      (reads && known.plainRead && reads.run(known.name, query.sql, query.parameters, SQL_TYPE_PARSERS)) || onPool(query.sql, query.parameters, known)
    );
  };
  const oneStatementWrites: Executor = query => {
    const known = statementOf(query.sql);
    return writes?.run(known.name, query.sql, query.parameters, SQL_TYPE_PARSERS) || onPool(query.sql, query.parameters, known);
  };
  return {
    prisma,
    kind: 'postgres',
    transaction: (fn, options) => prismaTransaction(prisma, fn, options),
    sql: sqlOver(fast),
    sqlWrites: sqlOver(oneStatementWrites),
    sqlTransaction: fn => sqlTransaction(pool, timeout, fn),
    // Raw text on the pool, as before the read lane.
    query: async <T extends object>(text: string, values: readonly unknown[] = []) => (await onPool(text, values)).rows as T[],
    close: async () => {
      closing = true;
      await prisma.$disconnect();
      await Promise.all([reads?.close(), writes?.close()]);
      if (!pool.ended) await pool.end();
    },
    describe: () => `PostgreSQL ${redactUrl(databaseUrl)}`,
    usage: () => {
      const lanes = [reads, writes].map(lane => lane?.usage() ?? { max: 0, open: 0, idle: 0 });
      const sum = (key: 'max' | 'open' | 'idle') => lanes.reduce((total, lane) => total + lane[key], 0);
      return {
        max: poolSize + sum('max'),
        open: pool.totalCount + sum('open'),
        idle: pool.idleCount + sum('idle'),
        waiting: pool.waitingCount,
        waits: waits.count,
        waitSeconds: waits.ms / 1000,
      };
    },
    identity: () => postgresIdentity(pool, databaseUrl),
  };
}

/**
 * Counts the checkouts that found no idle connection and how long they waited (Database.usage):
 * Prisma, the SQL layer and pool.query all check out through `pool.connect`, in its callback or
 * its promise form. A checkout served at once costs one comparison.
 */
function countWaits(pool: pg.Pool): { count: number; ms: number } {
  const waits = { count: 0, ms: 0 };
  const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => unknown;
  const measured = (callback?: (...args: unknown[]) => void) => {
    if (pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10)) return connect(callback);
    const started = performance.now();
    const done = () => {
      waits.count++;
      waits.ms += performance.now() - started;
    };
    if (callback) {
      return connect((...args: unknown[]) => {
        done();
        callback(...args);
      });
    }
    return (connect() as Promise<unknown>).finally(done);
  };
  (pool as unknown as { connect: typeof measured }).connect = measured;
  return waits;
}

/**
 * The cluster's system identifier (random, made by initdb) and the database's name: the same for
 * every URL that reaches it, different for a look-alike URL on another machine. Where the server
 * does not show it, the URL's host, port and database.
 */
async function postgresIdentity(pool: pg.Pool, databaseUrl: string): Promise<string> {
  try {
    const { rows } = await pool.query<{ cluster: string; database: string }>(
      'SELECT system_identifier::text AS cluster, current_database() AS database FROM pg_control_system()',
    );
    return `postgres:${rows[0].cluster}/${rows[0].database}`;
  } catch (error) {
    logger.debug({ err: (error as Error).message }, 'pg_control_system() unavailable: the database is known by its URL');
    const url = new URL(databaseUrl);
    const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
    return `postgres:${url.hostname || url.searchParams.get('host') || 'localhost'}:${url.port || 5432}/${database}`;
  }
}

/** COMMIT, whose lost answer leaves the transaction's outcome unknown (OutcomeUnknownError). */
async function commit(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('COMMIT');
  } catch (error) {
    throw refusedByServer(error) ? error : new OutcomeUnknownError(error as Error);
  }
}

/**
 * Prisma's interactive transaction. Once the callback has finished, only COMMIT is left: a lost
 * connection then leaves the outcome unknown (OutcomeUnknownError). Prisma's own errors (a timeout
 * that rolled it back, the server's refusal) keep their meaning.
 */
async function prismaTransaction<T>(prisma: PrismaClient, fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  let finished = false;
  try {
    return await prisma.$transaction(async tx => {
      const result = await fn(tx);
      finished = true;
      return result;
    }, options);
  } catch (error) {
    throw finished && lostConnection(error) ? new OutcomeUnknownError(error as Error) : error;
  }
}

/** A connection's loss, as pg reports it through Prisma: a plain error with no SQLSTATE, or Prisma's P1017 (the server closed it). */
function lostConnection(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === 'P1017';
  return error instanceof Error && sqlStateOf(error) === undefined && !isDatabaseBusy(error);
}

/** Distinct statement texts given a name; past it, statements run unnamed (parsed each time). */
const MAX_NAMED_STATEMENTS = 512;

/** What a statement's text decides, worked out once per text: its name, and whether the read lane may carry it. */
interface KnownStatement {
  name: string;
  plainRead: boolean;
}
const knownStatements = new Map<string, KnownStatement>();

/** Named (prepared) statements by the digest of their text, as for Prisma's queries above. */
function statementOf(text: string): KnownStatement {
  let known = knownStatements.get(text);
  if (!known) {
    if (knownStatements.size >= MAX_NAMED_STATEMENTS) return { name: '', plainRead: isPlainRead(text) };
    known = { name: `gh_l_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, plainRead: isPlainRead(text) };
    knownStatements.set(text, known);
  }
  return known;
}

/**
 * Database.sqlTransaction: BEGIN, the callback's statements, COMMIT on one pooled connection. The
 * wait for a connection is the pool's (maxWait); each statement is bounded by the transaction
 * timeout (a lock wait past it fails as busy, and the transaction rolls back).
 *
 * BEGIN and the timeout travel with the first statement, in its socket write (runPrepared's
 * prelude): no round trip of their own. A callback that sends no statement opens no transaction,
 * so there is nothing to commit or roll back.
 */
async function sqlTransaction<T>(pool: pg.Pool, timeoutMs: number, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client's lost connection is emitted as 'error': heard here, pg fails the
  // transaction's statements itself, and the connection is closed rather than reused.
  let unusable = false;
  const onLost = () => {
    unusable = true;
  };
  client.on('error', onLost);
  // pg's client sends its queries in the order they are asked for, so the first asked carries the
  // prelude even when the callback runs statements concurrently.
  let begun = false;
  try {
    const begin = ['BEGIN', `SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`];
    const run = (text: string, values: readonly unknown[]) => {
      const prelude = begun ? [] : begin;
      begun = true;
      return runPrepared(client, statementOf(text).name, text, values, SQL_TYPE_PARSERS, { prelude });
    };
    const tx = Object.assign(
      transactionSql(query => run(query.sql, query.parameters)),
      rawStatements(run),
    );
    const result = await fn(tx);
    if (begun) await commit(client);
    return result;
  } catch (error) {
    if (begun) {
      await client.query('ROLLBACK').catch(() => {
        unusable = true;
      });
    }
    throw error;
  } finally {
    client.removeListener('error', onLost);
    // A connection lost, or that could not roll back, is closed rather than handed to the next caller.
    client.release(unusable);
  }
}
