/**
 * The row store (docs/api.md §11): rows of the tables an app schema declares, in three scopes (a
 * user's own rows, a resource's rows across its rooms, a type's default rooms), one operation
 * shape, access rules judged against the caller's effective role in the targeted room, and
 * auto-join on a first write to a public resource.
 *
 * Writes run in one transaction per call (a batch is one transaction for all its operations): a
 * driver transaction through the SQL layer, or Prisma's when the call auto-joins (the membership
 * change set's); membership events of an auto-join are published only after it commits.
 *
 * This file runs calls (runOperation, executeCall) and names what `services.rows` offers
 * (`rowOperations`, bound in src/services.ts). The operations are module functions beside it, each taking what it uses:
 *
 *   row-select       reads: pages at user, resource and type scope
 *   row-write-user   writes among a user's own rows      row-write-resource  writes into a resource
 *   row-write-scope  a resource write's target, room, standing and auto-join, and its judgements
 *   row-write        insert, update, delete of rows already judged
 *   row-upsert       upsert     row-links  link, unlink     row-move  moveRoom
 *   row-targets      the rows a write takes (matched and locked)     row-unique  unique keys
 *   row-reach        what a caller reads    row-access.rules  the pure judgements it asks
 *   row-write-budget ROWS_MAX_WRITES_PER_CALL     row-metering  a call's charge
 *   row-fast-write   a member's lone insert, update or delete in one statement (row-fast-insert)
 *   row-binding      tables in a scope, rows as shown     row-run  one call's state
 *   rows.sql         the SQL fragments      rows-input  parsing      row-id  row ids
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { AppError, fail } from '../errors.js';
import { stampAll, stampCommit } from '../bus/commit-order.js';
import { type Sql, sqlOf } from '../db/sql.js';
import type { Tx } from '../core/deps.js';
import type { GrantEvent, MembershipEvent } from '../bus/event-bus.js';
import type { SchemaIR } from '../schema/index.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { type DbOperation, parseBatch, parseOperation } from './rows-input.service.js';
import { type Db, type DbResult, NeedsPrismaTransaction, type Run, invalidOperation, readRun } from './row-run.service.js';
import { selectResource, selectType, selectUser } from './row-select.service.js';
import { writeUser } from './row-write-user.service.js';
import { writeResource } from './row-write-resource.service.js';
import { withWriteBudget } from './row-write-budget.service.js';
import { type InlineCharge, type RowMetering, chargeRead, inlineCharge, meterWriteCall } from './row-metering.service.js';
import { fastWriteIn } from './row-fast-write.service.js';
import type { MeteringService } from '../billing/metering.service.js';

export type { DbResult } from './row-run.service.js';
export type { RowOut, Binding } from './row-binding.service.js';
export { bindingIn, userBinding } from './row-binding.service.js';

/** What running a call needs: the database, the clock, the bus, the write limit, the deployed schema and metering. */
export type RowStoreDeps = Pick<ServiceDeps, 'prisma' | 'sql' | 'sqlWrites' | 'transaction' | 'sqlTransaction' | 'bus' | 'config' | 'now'> & {
  apps: Pick<AppService, 'deployment'>;
  metering: RowMetering & Pick<MeteringService, 'holdCharge' | 'holdChargeSoon' | 'storageCreditDue' | 'knownPayerCheck'>;
};

/** One operation of a call: a read at any scope, or a write at user or resource scope inside the call's transaction. */
export async function runOperation(run: Run, op: DbOperation): Promise<DbResult> {
  const scope = op.scope;
  if (op.op === 'select') {
    if (scope.kind === 'user') return selectUser(run, op);
    if (scope.kind === 'resource') return selectResource(run, { ...op, scope });
    return selectType(run, { ...op, scope });
  }
  if (scope.kind === 'type') throw invalidOperation(`scope { kind: 'type' } reads only (docs/api.md §10 rule 8); write through a resource scope.`);
  if (!run.tx) throw new Error('rows: a write outside a transaction');
  if (scope.kind === 'user') return writeUser(run, run.tx, op);
  return writeResource(run, run.tx, { ...op, scope });
}

/** A batch's error names the operation that stopped it (a batch is all or nothing). */
export function inOperation(error: unknown, index: number): unknown {
  if (!(error instanceof AppError)) return error;
  return fail(error.code, `operations[${index}]: ${error.message}`, { ...error.details, operation: index });
}

/** Runs `ops` (one transaction unless it is a lone select), then publishes what auto-joins changed. */
export async function executeCall(deps: RowStoreDeps, caller: PrincipalCaller, ops: DbOperation[], batch: boolean): Promise<DbResult[]> {
  const { apps, metering } = deps;
  const deployment = await apps.deployment(caller.deployment.id);
  const now = deps.now();
  if (!batch && ops[0].op === 'select') {
    const result = await runOperation(readRun(deps.sql, caller, deployment.schema, now), ops[0]);
    await chargeRead(metering, caller);
    return [result];
  }
  if (!batch) {
    const fast = await fastWriteIn(deps, caller, deployment.schema, now, ops[0]);
    if (fast) {
      deps.bus.publishRows(fast.rowEvents);
      return [fast.result];
    }
  }
  const limit = deps.config.rows.maxWritesPerCall;
  const call = (tx: Sql, prismaTx: Tx | null) =>
    runWrites(
      { metering, caller, schema: deployment.schema, now, charge: batch ? null : inlineCharge(metering, caller, ops) },
      tx,
      prismaTx,
      ops,
      batch,
    );
  const { results, events, grantEvents, rowEvents } = await withWriteBudget(limit, ops, async () => {
    try {
      return await deps.sqlTransaction(tx => call(tx, null));
    } catch (error) {
      if (!(error instanceof NeedsPrismaTransaction)) throw error;
      // An auto-join: the call runs again from the start (a fresh budget) on Prisma's transaction.
      return withWriteBudget(limit, ops, () => deps.transaction(tx => call(sqlOf(tx), tx)));
    }
  });
  deps.bus.publish(events);
  deps.bus.publishRows(rowEvents);
  deps.bus.publishGrants(grantEvents);
  return results;
}

/**
 * A write call's operations in `tx`, then its charge (unless its statement recorded it) and the
 * auto-joins' changes; last, the events' stamp.
 */
async function runWrites(
  call: { metering: RowMetering; caller: PrincipalCaller; schema: SchemaIR; now: Date; charge: InlineCharge | null },
  tx: Sql,
  prismaTx: Tx | null,
  ops: DbOperation[],
  batch: boolean,
) {
  const { metering, caller, charge } = call;
  const run: Run = {
    db: prismaTx ?? tx,
    tx,
    prismaTx,
    caller,
    schema: call.schema,
    now: call.now,
    joins: [],
    rowEvents: [],
    uniqueLocks: new Set(),
    charge,
  };
  let completed = false;
  try {
    const results: DbResult[] = [];
    for (const [i, op] of ops.entries()) {
      try {
        results.push(await runOperation(run, op));
      } catch (error) {
        throw batch ? inOperation(error, i) : error;
      }
    }
    if (!charge?.recorded) await meterWriteCall(metering, tx, caller, ops, batch, run.rowEvents);
    const events: MembershipEvent[] = [];
    const grantEvents: GrantEvent[] = [];
    for (const changes of run.joins) {
      await changes.flush();
      events.push(...changes.events);
      grantEvents.push(...changes.grantEvents);
    }
    if (run.xid) stampAll(run.xid, run.rowEvents);
    else await stampCommit(tx, run.rowEvents);
    completed = true;
    return { results, events, grantEvents, rowEvents: run.rowEvents };
  } finally {
    charge?.settle(completed);
  }
}

/** POST /v1/db/query, `dbQuery`, `dbSelect`. */
export async function queryRows(deps: RowStoreDeps, caller: PrincipalCaller, input: unknown): Promise<DbResult> {
  const [result] = await executeCall(deps, caller, [parseOperation(input)], false);
  return result;
}

/** POST /v1/db/batch, `dbBatch`: every operation in one transaction, all or nothing. */
export const batchRows = (deps: RowStoreDeps, caller: PrincipalCaller, input: unknown): Promise<DbResult[]> =>
  executeCall(deps, caller, parseBatch(input), true);

/**
 * A select on `db` with the deployment's `schema` (read before: no other query inside the
 * transaction), unmetered: the live row feed's gate and snapshot (src/rows/rows-live.service.ts).
 */
export const selectOn = (deps: Pick<ServiceDeps, 'now'>, db: Db, caller: PrincipalCaller, schema: SchemaIR, op: DbOperation): Promise<DbResult> =>
  runOperation(readRun(db, caller, schema, deps.now()), { ...op, op: 'select' });

/** The plan of a select's page query as EXPLAIN prints it, ANALYZE'd on request (bench/rows.ts, the index tests). */
export async function explainSelect(
  deps: Pick<RowStoreDeps, 'prisma' | 'now' | 'apps'>,
  caller: PrincipalCaller,
  input: unknown,
  { analyze = false }: { analyze?: boolean } = {},
): Promise<string[]> {
  const op = parseOperation(input);
  if (op.op !== 'select') throw invalidOperation('explain takes a select.');
  const deployment = await deps.apps.deployment(caller.deployment.id);
  const explain = { lines: [] as string[], analyze };
  await runOperation(readRun(deps.prisma, caller, deployment.schema, deps.now(), explain), op);
  return explain.lines;
}

/** What `services.rows` offers; src/services.ts binds each to the server's dependencies. */
export const rowOperations = { query: queryRows, batch: batchRows, selectOn, explain: explainSelect };

export type RowService = Bound<typeof rowOperations>;
