/**
 * The typed SQL layer: every hand-written statement is a Kysely query over the tables of
 * prisma/schema.prisma (src/generated/kysely, made by `npm run generate`), run by one of three
 * executors on the drivers the database already has:
 *
 * - `Database.sql`, outside transactions: the fast path. Named prepared statements, parsed and
 *   described once per connection (src/db/pg-statements.ts, src/db/pglite-statements.ts).
 * - `Database.sqlTransaction(fn)`: one transaction on a driver connection, with the database's
 *   queueing, timeout and busy rules; `fn` gets a Kysely bound to that connection.
 * - `sqlOf(tx)`: a Kysely over a Prisma interactive transaction (or client), for SQL that shares a
 *   transaction with Prisma's model API.
 *
 * All three read values the same way (src/db/sql-values.ts): timestamps as Dates, int8 as bigint,
 * as Prisma does.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type KyselyProps,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  SingleConnectionProvider,
  Transaction,
} from 'kysely';
import type { DB } from '../generated/kysely/types.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { StatementResult } from './sql-values.js';

export type { DB };
export type { Selectable, Insertable, Updateable, RawBuilder } from 'kysely';
export { sql } from 'kysely';

/** The SQL layer: a Kysely over Gatehouse's tables. */
export type Sql = Kysely<DB>;

/** Runs one compiled statement (text with $n placeholders, and its parameters) on a driver. */
export type Executor = (query: CompiledQuery) => Promise<StatementResult>;

class ExecutorConnection implements DatabaseConnection {
  constructor(private readonly run: Executor) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, count } = await this.run(query);
    return { rows: rows as R[], numAffectedRows: BigInt(count) };
  }

  // biome-ignore lint/correctness/useYield: refuses before the first row
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The SQL layer does not stream rows: page with LIMIT.');
  }
}

const NO_KYSELY_TRANSACTIONS =
  "Kysely's own transactions are not used: Database.sqlTransaction() keeps the store's queueing, timeout and busy rules.";

/** The driver of an executor: one connection that is always there; transactions are refused (see NO_KYSELY_TRANSACTIONS). */
class ExecutorDriver implements Driver {
  constructor(private readonly connection: DatabaseConnection) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error(NO_KYSELY_TRANSACTIONS);
  }
  async commitTransaction(): Promise<void> {
    throw new Error(NO_KYSELY_TRANSACTIONS);
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error(NO_KYSELY_TRANSACTIONS);
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

function executorDialect(run: Executor): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new ExecutorDriver(new ExecutorConnection(run)),
    createIntrospector: db => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** The executor behind a Kysely of this module, for `prepare` to call without Kysely's per-query machinery. */
const executors = new WeakMap<Sql, Executor>();

/** A Kysely whose statements `run` executes: the database's fast path (`Database.sql`). */
export function sqlOver(run: Executor): Sql {
  const db = new Kysely<DB>({ dialect: executorDialect(run) });
  executors.set(db, run);
  return db;
}

/** What per-transaction instances are derived from: compiler, adapter and plugins, built once. */
const template = (() => {
  const dialect = executorDialect(() => Promise.reject(new Error('template only')));
  const config = { dialect };
  const base = new Kysely<DB>(config);
  return { config, dialect, driver: dialect.createDriver(), executor: base.getExecutor() };
})();

/**
 * A Kysely bound to one transaction's connection (`run` executes on it). A Kysely `Transaction`:
 * nesting (`transaction()`) and `connection()` are refused.
 */
export function transactionSql(run: Executor): Sql {
  const props: KyselyProps = {
    config: template.config,
    dialect: template.dialect,
    driver: template.driver,
    executor: template.executor.withConnectionProvider(new SingleConnectionProvider(new ExecutorConnection(run))),
  };
  const db = new Transaction<DB>(props);
  executors.set(db, run);
  return db;
}

/** A statement parameter `prepare`'s builder receives instead of a value. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A statement built and compiled once, then run with each call's values: for the hot reads, where
 * building and compiling a Kysely query on every call costs more CPU than the statement itself.
 * `build` gets one placeholder per parameter (`arity` of them) and must use each as a plain value
 * (not to choose the statement's shape: branch outside, with one `prepare` per shape).
 */
export function prepare<A extends readonly unknown[], R>(
  arity: A['length'],
  build: (db: Sql, ...params: A) => { compile(): CompiledQuery<R> },
): (db: Sql, ...args: A) => Promise<R[]> {
  let compiled: { query: CompiledQuery<R>; values: readonly ((args: A) => unknown)[] } | undefined;
  return async (db, ...args) => {
    if (!compiled) {
      const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as A;
      const query = build(compiler, ...placeholders).compile();
      const values = query.parameters.map(value => (value instanceof Placeholder ? (given: A) => given[value.index] : () => value));
      compiled = { query, values };
    }
    const { query, values } = compiled;
    return runCompiled(db, { ...query, parameters: values.map(value => value(args)) });
  };
}

/**
 * The rows of a statement whose shape follows the call (so no `prepare` can hold it), compiled
 * and run as `prepare` runs its own: for the hot writes built per call.
 */
export const rowsOf = <R>(db: Sql, query: { compile(db: Sql): CompiledQuery<R> }): Promise<R[]> => runCompiled(db, query.compile(db));

async function runCompiled<R>(db: Sql, query: CompiledQuery<R>): Promise<R[]> {
  // Straight to the executor when the Kysely is ours: no plugins to apply, no connection to
  // acquire and release (Kysely's executeQuery would do both, for nothing, on every call).
  const run = executors.get(db);
  if (run) return (await run(query)).rows as R[];
  return (await db.executeQuery<R>(query)).rows;
}

/** Builds and compiles statements for `prepare`; never runs one. */
const compiler = new Kysely<DB>({ dialect: executorDialect(() => Promise.reject(new Error('compile only'))) });

type PrismaRaw = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'> | Prisma.TransactionClient;

const overPrisma = new WeakMap<object, Sql>();

/** Statements Prisma must run with `$executeRaw` to report the rows they wrote: writes without RETURNING. */
function writesWithoutRows(query: CompiledQuery): boolean {
  const node = query.query as { kind: string; returning?: unknown };
  return (node.kind === 'InsertQueryNode' || node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode') && !node.returning;
}

/**
 * The SQL layer inside a Prisma interactive transaction (`Database.transaction`), or on the
 * client outside one: the statements run on Prisma's connection, in its transaction. A raw
 * statement (`sql\`...\``) returns its rows; a builder's write its count. Given the SQL layer
 * itself (a driver transaction), it is that: code that takes either kind of transaction calls this once.
 */
export function sqlOf(prisma: PrismaRaw | Sql): Sql {
  // Already the SQL layer (a driver transaction, Database.sqlTransaction): used as it is.
  if (prisma instanceof Kysely) return prisma;
  let kysely = overPrisma.get(prisma);
  if (!kysely) {
    const run: Executor = async query => {
      if (writesWithoutRows(query)) return { rows: [], count: await prisma.$executeRawUnsafe(query.sql, ...query.parameters) };
      const rows = await prisma.$queryRawUnsafe<unknown[]>(query.sql, ...query.parameters);
      return { rows, count: rows.length };
    };
    kysely = transactionSql(run);
    overPrisma.set(prisma, kysely);
  }
  return kysely;
}
