/**
 * The embedded database: PGlite behind Prisma. PGlite is one PostgreSQL backend on one connection,
 * so interactive transactions cannot overlap; this module makes that invisible to callers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { CompiledQuery } from 'kysely';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { DATABASE_DEFAULTS } from './busy.js';
import type { Database, SqlTx, TransactionOptions, TransactionSettings, Tx } from './database.js';
import { giveTurn } from './event-loop-turns.js';
import { FairQueue } from './fair-queue.js';
import { copyClusterLive } from './live-copy.js';
import { isMemoryDataDir } from './pglite.js';
import { preparedQuery } from './pglite-statements.js';
import { rawStatements } from './sql-tx.js';
import { SQL_TYPE_PARSERS, driverValue } from './sql-values.js';
import { type Executor, sqlOver, transactionSql } from './sql.js';

/** Marks the async work of one `transaction()` callback while it runs. */
interface TransactionScope {
  open: boolean;
}

class OuterClientInTransactionError extends Error {
  constructor() {
    super(
      'db.prisma was used inside db.transaction(): on the embedded database that query waits for the ' +
        'transaction it is part of to end, which is a deadlock. Use the `tx` client passed to the callback.',
    );
    this.name = 'OuterClientInTransactionError';
  }
}

/**
 * The adapter PrismaClient uses, refusing queries on the outer client from inside a transaction
 * callback: PGlite would queue them behind the open transaction until it times out.
 */
function guardedAdapterFactory(pglite: PGlite, scopes: AsyncLocalStorage<TransactionScope>): SqlDriverAdapterFactory {
  // pglite-prisma-adapter is typed against an older @prisma/driver-adapter-utils; the shapes agree.
  const factory = new PrismaPGlite(pglite) as unknown as SqlDriverAdapterFactory;
  const refuseInsideTransaction = () => {
    if (scopes.getStore()?.open) throw new OuterClientInTransactionError();
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const adapter = await factory.connect();
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        queryRaw: async query => (refuseInsideTransaction(), await giveTurn(), adapter.queryRaw(query)),
        executeRaw: async query => (refuseInsideTransaction(), await giveTurn(), adapter.executeRaw(query)),
        executeScript: async script => (refuseInsideTransaction(), adapter.executeScript(script)),
        startTransaction: async isolationLevel => givingTurns(await adapter.startTransaction(isolationLevel)),
        getConnectionInfo: () => adapter.getConnectionInfo?.() ?? { supportsRelationJoins: true },
        dispose: () => adapter.dispose(),
      };
    },
  };
}

/** A transaction whose statements each first let the event loop turn when it is due (event-loop-turns.ts). */
function givingTurns<T extends Pick<SqlDriverAdapter, 'queryRaw' | 'executeRaw'>>(transaction: T): T {
  const { queryRaw, executeRaw } = transaction;
  transaction.queryRaw = async query => (await giveTurn(), queryRaw.call(transaction, query));
  transaction.executeRaw = async query => (await giveTurn(), executeRaw.call(transaction, query));
  return transaction;
}

/** Time for Prisma to roll back a timed-out transaction and free the connection. */
const ROLLBACK_GRACE_MS = 100;

/**
 * Wraps an open (and migrated) PGlite. Transactions queue for their turn before they reach Prisma,
 * so Prisma's maxWait clock starts when it is their turn rather than while an earlier transaction
 * holds the only connection (long queues would otherwise fail with "Unable to start a transaction
 * in the given time"). Turns are shared fairly between parties (fair-queue.ts: the request's
 * caller): one client's queued writes wait behind each other, not in front of everyone. Reads
 * outside transactions wait only for the transaction in progress (PGlite's own lock), and every
 * statement lets the event loop turn when it is due (event-loop-turns.ts).
 */
export function embeddedDatabase(pglite: PGlite, dataDir: string, settings: TransactionSettings = {}): Database {
  const scopes = new AsyncLocalStorage<TransactionScope>();
  const defaults = {
    maxWait: settings.transactionMaxWaitMs ?? DATABASE_DEFAULTS.transactionMaxWaitMs,
    timeout: settings.transactionTimeoutMs ?? DATABASE_DEFAULTS.transactionTimeoutMs,
  };
  const prisma = new PrismaClient({
    adapter: guardedAdapterFactory(pglite, scopes),
    // 'minimal' skips capturing a call-site stack trace on every query.
    errorFormat: 'minimal',
    transactionOptions: defaults,
  });
  const queue = new FairQueue();
  const memoryIdentity = randomUUID();
  const prepared = preparedQuery(pglite);
  // After any open transaction (PGlite's own locks), never inside one; prepared once per text.
  const fast: Executor = async query => {
    if (scopes.getStore()?.open) throw new OuterClientInTransactionError();
    await giveTurn();
    return prepared(query.sql, query.parameters);
  };
  const sql = sqlOver(fast);
  let closed: Promise<void> | undefined;

  async function transaction<T>(fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (scopes.getStore()?.open) {
      throw new Error('db.transaction() was called inside another one; pass its `tx` down instead of nesting.');
    }
    // One transaction at a time means every one already sees a serial history: an isolation
    // level adds nothing (and the adapter would issue it outside the transaction block).
    const { isolationLevel: _serialAnyway, ...prismaOptions } = options;
    const release = await queue.acquire();
    // Hand-over between queued transactions is promise-only; yield to I/O once per turn so a
    // burst of writes does not starve accepting connections and other requests.
    await new Promise<void>(resolve => setImmediate(resolve));
    // Prisma rolls back a transaction that outlives its timeout, but $transaction only settles
    // when the callback does: a slow callback must not hold up the queue past that point.
    const timer = setTimeout(release, (options.timeout ?? defaults.timeout) + ROLLBACK_GRACE_MS);
    const scope: TransactionScope = { open: true };
    try {
      return await scopes.run(scope, () => prisma.$transaction(fn, prismaOptions));
    } finally {
      scope.open = false;
      clearTimeout(timer);
      release();
    }
  }

  /** Database.sqlTransaction: PGlite's own transaction, in the same queue as Prisma's. */
  async function sqlTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    if (scopes.getStore()?.open) throw new Error('db.sqlTransaction() was called inside a transaction; pass its `tx` down instead of nesting.');
    const release = await queue.acquire();
    await new Promise<void>(resolve => setImmediate(resolve));
    const scope: TransactionScope = { open: true };
    try {
      return await scopes.run(scope, () =>
        pglite.transaction(connection => {
          const run = async (text: string, values: readonly unknown[]) => {
            await giveTurn();
            const { rows, affectedRows } = await connection.query(text, values.map(driverValue), { parsers: SQL_TYPE_PARSERS });
            return { rows, count: affectedRows ?? rows.length };
          };
          return fn(
            Object.assign(
              transactionSql(query => run(query.sql, query.parameters)),
              rawStatements(run),
            ),
          );
        }),
      );
    } finally {
      scope.open = false;
      release();
    }
  }

  return {
    prisma,
    kind: 'pglite',
    transaction,
    sql,
    // One connection: the writes' own lane is PostgreSQL's.
    sqlWrites: sql,
    sqlTransaction,
    query: async <T extends object>(text: string, values: readonly unknown[] = []) =>
      (await fast({ sql: text, parameters: values } as CompiledQuery)).rows as T[],
    close: () =>
      (closed ??= (async () => {
        await prisma.$disconnect();
        await pglite.close();
      })()),
    describe: () => (isMemoryDataDir(dataDir) ? 'PGlite in memory' : `PGlite at ${dataDir}`),
    waiting: () => queue.waiting(),
    usage: () => queue.usage(),
    // After the transaction in progress and before the next one (its turn in the queue), with
    // every statement outside transactions held back too (PGlite's own two locks).
    liveCopy: isMemoryDataDir(dataDir)
      ? undefined
      : target =>
          copyClusterLive(path.resolve(dataDir), target, async fn => {
            const release = await queue.acquire('system');
            try {
              return await pglite._runExclusiveTransaction(() => pglite.runExclusive(fn));
            } finally {
              release();
            }
          }),
    // One process holds a data directory (its copies share PostgreSQL's system identifier): the
    // machine and the path name it; an in-memory database is this process's alone.
    identity: async () => (isMemoryDataDir(dataDir) ? `pglite:memory:${memoryIdentity}` : `pglite:${hostname()}:${path.resolve(dataDir)}`),
  };
}
