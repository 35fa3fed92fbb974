/** What every service module is built from; one instance per server. */
import type { Config } from '../config.js';
import type { LeanQuery, Sql, SqlTx as DriverTx, TransactionOptions } from '../db/database.js';
import type { RawStatements } from '../db/sql-tx.js';
import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import type { EventBus } from '../bus/event-bus.js';

export type Tx = Prisma.TransactionClient;
/** A write's transaction of either kind: Prisma's interactive one, or a driver one (the SQL layer); `sqlOf` reads both. */
export type AnyTx = Tx | Sql;
export type { Sql };
/** Prisma's raw calls, on a Prisma transaction or a driver one; goes once services use the SQL layer. */
export type SqlTx = RawStatements;

export interface ServiceDeps {
  prisma: PrismaClient;
  /** Runs `fn` in one interactive transaction (serialised on the embedded database); `isolationLevel` for a snapshot read. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: Pick<TransactionOptions, 'isolationLevel'>): Promise<T>;
  /** The typed SQL layer outside transactions, the hot reads' path (Database.sql, src/db/sql.ts). */
  sql: Sql;
  /** `sql` for the row store's one-statement writes (Database.sqlWrites). */
  sqlWrites: Sql;
  /** One transaction on a driver connection; `fn` gets the SQL layer bound to it (Database.sqlTransaction). */
  sqlTransaction<T>(fn: (tx: DriverTx) => Promise<T>): Promise<T>;
  /** A statement as text on the fast path of `sql` (Database.query); goes once no caller is left. */
  query: LeanQuery;
  bus: EventBus;
  config: Config;
  /** The service clock; tests move it to expire pending rows and links. */
  now(): Date;
}
