/** What every service module is built from; one instance per server. */
import type { Config } from '../config.js';
import type { LeanQuery, SqlTx, TransactionOptions } from '../db/database.js';
import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import type { EventBus } from '../bus/event-bus.js';

export type Tx = Prisma.TransactionClient;
export type { SqlTx };

export interface ServiceDeps {
  prisma: PrismaClient;
  /** Runs `fn` in one interactive transaction (serialised on the embedded database); `isolationLevel` for a snapshot read. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: Pick<TransactionOptions, 'isolationLevel'>): Promise<T>;
  /** One transaction on a driver connection, for raw statements only (Database.sqlTransaction). */
  sqlTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /** One statement straight through the driver, outside transactions: the hot reads (Database.query). */
  query: LeanQuery;
  bus: EventBus;
  config: Config;
  /** The service clock; tests move it to expire pending rows and links. */
  now(): Date;
}
