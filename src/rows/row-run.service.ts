/**
 * One call's state as the row store's operations share it (a query, or a whole batch), what an
 * operation answers, and the row changes it records for the bus.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { CREATOR_FIELD } from './row-values.rules.js';
import { fail } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { RowEvent } from '../bus/event-bus.js';
import type { SchemaIR } from '../schema/index.js';
import type { Sql, Tx } from '../core/deps.js';
import type { ChangeSet } from '../membership/membership-store.service.js';
import type { DbOp } from './rows-input.service.js';
import type { Binding, RowOut } from './row-binding.service.js';
import type { InlineCharge } from './row-metering.service.js';

/** Where a call reads: Prisma's client or transaction, or the SQL layer (`sqlOf` takes each). */
export type Db = PrismaClient | Tx | Sql;

export interface DbResult {
  op: DbOp;
  /** select: the page; insert, update, delete: the rows as written (delete: as they were); else null. */
  rows: RowOut[] | null;
  nextCursor: string | null;
  ok: true;
}

/**
 * A write call runs on a driver transaction (Database.sqlTransaction), without Prisma. A write
 * that would auto-join the caller (docs/api.md §5.2) needs the membership change set, which runs
 * on Prisma's interactive transaction: it throws this, and the whole call runs again there.
 */
export class NeedsPrismaTransaction extends Error {
  constructor() {
    super('rows: this call auto-joins; it runs again in a Prisma transaction');
  }
}

/** One call's state: the transaction (null for a lone read), and what auto-joins must publish. */
export interface Run {
  db: Db;
  /** The write call's transaction as the SQL layer (a driver transaction, or sqlOf of Prisma's). */
  tx: Sql | null;
  /** Prisma's transaction when the call runs in one (a call that auto-joins); null on the driver path. */
  prismaTx: Tx | null;
  /** The transaction's id once a statement returned it (the events' stamp, src/bus/commit-order.ts). */
  xid?: string;
  caller: PrincipalCaller;
  schema: SchemaIR;
  now: Date;
  joins: ChangeSet[];
  /** What the writes changed, published on the bus after commit (the live row feed). */
  rowEvents: RowEvent[];
  /** The unique keys' advisory locks the call's transaction holds (row-unique.service.ts). */
  uniqueLocks: Set<string>;
  /** A lone write's charge, for the statement that writes its rows to record (null: a batch, a read). */
  charge?: InlineCharge | null;
  /** When set, a select appends its query plan here instead of answering (bench and index tests). */
  explain?: { lines: string[]; analyze: boolean };
}

/** A read's state: no transaction, nothing to publish. */
export const readRun = (db: Db, caller: PrincipalCaller, schema: SchemaIR, now: Date, explain?: Run['explain']): Run => ({
  db,
  tx: null,
  prismaTx: null,
  caller,
  schema,
  now,
  joins: [],
  rowEvents: [],
  uniqueLocks: new Set(),
  ...(explain ? { explain } : {}),
});

export const invalidOperation = (message: string) => fail('invalid_operation', message);

/** An answer without rows (link, unlink, moveRoom). */
export const okResult = (op: DbOp): DbResult => ({ op, rows: null, nextCursor: null, ok: true });

/** One row change for the bus (RowEvent in src/bus/event-bus.ts). */
export function rowEvent(
  run: Pick<Run, 'caller'>,
  op: RowEvent['op'],
  binding: Binding,
  resourceId: string | null,
  roomId: string | null,
  previousRoomId: string | null,
  row: RowOut,
): RowEvent {
  return {
    op,
    deploymentId: run.caller.deployment.id,
    table: binding.name,
    resourceId,
    roomId,
    previousRoomId,
    creatorId: (row[CREATOR_FIELD] as string | null) ?? null,
    // A top-level table's row is its author's own wherever it is seen (owned tables' rows are not).
    own: binding.kind !== 'owned',
    row,
  };
}
