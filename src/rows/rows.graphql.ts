/**
 * The row store over GraphQL (docs/api.md §11): one generic operation shape, the same one REST
 * takes. Rows are `JSON` because their columns are each app's own (a deployed schema), while this
 * GraphQL schema is one for every app: typed row types would need a schema per deployment, and
 * the REST shims, the committed SDL and codegen all rely on one. The envelope (scope, op, order,
 * cursor) is typed.
 */
import { requirePrincipal } from '../core/caller.rules.js';
import { DB_OPS, DB_SCOPE_KINDS, ROWS_DEFAULT_LIMIT, ROWS_MAX_LIMIT } from './rows-input.service.js';
import type { FeedChange } from '../feeds/snapshot-feed.service.js';
import type { RowOut } from './rows-live.service.js';
import type { DbResult } from './row-run.service.js';
import { builder } from '../graphql/builder.js';
import { FeedOpEnum, SNAPSHOT_ARG, SNAPSHOT_FIELD } from '../feeds/feeds.graphql.js';
import { pageRows, rowsRead } from '../graphql/row-budget.js';

const DbOpEnum = builder.enumType('DbOp', { values: DB_OPS });
const DbScopeKindEnum = builder.enumType('DbScopeKind', { values: DB_SCOPE_KINDS });
const DbDirectionEnum = builder.enumType('DbDirection', { values: ['asc', 'desc'] as const });

const DbScopeInput = builder.inputType('DbScopeInput', {
  description: "user: your own rows; resource: a resource's rows (roomId: that room alone); type: default rooms across a type (select only).",
  fields: t => ({
    kind: t.field({ type: DbScopeKindEnum, required: true }),
    resourceId: t.id(),
    roomId: t.id({ description: 'A room of the resource (its own id is the default room). Room-scoped reads and writes touch that room alone.' }),
    type: t.string(),
  }),
});

const DbOrderByInput = builder.inputType('DbOrderByInput', {
  fields: t => ({
    column: t.string({ required: true }),
    direction: t.field({ type: DbDirectionEnum }),
  }),
});

/** The fields every operation may carry; which ones an op takes is checked by the service. */
type InputFields = Parameters<NonNullable<Parameters<typeof builder.inputType>[1]['fields']>>[0];
const operationFields = (t: InputFields) => ({
  scope: t.field({ type: DbScopeInput, required: true }),
  table: t.string({ required: true }),
  where: t.field({ type: 'JSON', description: '{ column: value | { eq, neq, gt, gte, lt, lte, in: [..], is: null, not: { <operator>: value } } }' }),
  orderBy: t.field({ type: DbOrderByInput }),
  limit: t.int(),
  cursor: t.string(),
  ids: t.idList(),
});

const DbSelectInput = builder.inputType('DbSelectInput', { fields: t => operationFields(t) });

const DbOperationInput = builder.inputType('DbOperationInput', {
  fields: t => ({
    ...operationFields(t),
    op: t.field({ type: DbOpEnum, required: true }),
    values: t.field({ type: 'JSON', description: 'insert: an object or an array of objects; update: the columns to change.' }),
    destination: t.id({ description: 'moveRoom: the room to move to (the resource id is the default room).' }),
    onConflict: t.stringList({
      description:
        "upsert: the columns of a unique key of the table (unique() or unique([...])); a row with the values' key is updated, else one is inserted.",
    }),
  }),
});

const DbPageRef = builder.objectRef<DbResult>('DbPage').implement({
  fields: t => ({
    rows: t.field({ type: ['JSON'], resolve: r => r.rows ?? [] }),
    nextCursor: t.string({ nullable: true, resolve: r => r.nextCursor }),
  }),
});

const DbResultRef = builder.objectRef<DbResult>('DbResult').implement({
  description: 'select: rows and nextCursor; insert, update, delete, upsert: the rows as written; link, unlink, moveRoom: ok alone.',
  fields: t => ({
    op: t.field({ type: DbOpEnum, resolve: r => r.op }),
    ok: t.boolean({ resolve: () => true }),
    rows: t.field({ type: ['JSON'], nullable: true, resolve: r => r.rows }),
    nextCursor: t.string({ nullable: true, resolve: r => r.nextCursor }),
  }),
});

/** The operation input as the weights see it (coerced arguments). */
interface DbOperationArg {
  op?: string;
  ids?: unknown[] | null;
  limit?: number | null;
}

/** Rows a select may read: its ids, or its page. Writes are bounded by the row store's own limits (ROWS_MAX_*). */
const selectRows = (input: DbOperationArg) => ((input.op ?? 'select') !== 'select' ? 0 : (input.ids?.length ?? pageWeight({ limit: input.limit })));
const pageWeight = pageRows({ default: ROWS_DEFAULT_LIMIT, max: ROWS_MAX_LIMIT }).rowsRead;

builder.queryFields(t => ({
  dbSelect: t.field({
    type: DbPageRef,
    description: 'A page of rows (the select of dbQuery, as a query).',
    args: { input: t.arg({ type: DbSelectInput, required: true }) },
    extensions: rowsRead(a => selectRows(a.input as DbOperationArg)),
    resolve: (_, { input }, ctx) => ctx.services.rows.query(requirePrincipal(ctx.caller), { ...input, op: 'select' }),
  }),
}));

builder.mutationFields(t => ({
  dbQuery: t.field({
    type: DbResultRef,
    description: 'One row-store operation (POST /v1/db/query).',
    args: { input: t.arg({ type: DbOperationInput, required: true }) },
    extensions: rowsRead(a => selectRows(a.input as DbOperationArg)),
    resolve: (_, { input }, ctx) => ctx.services.rows.query(requirePrincipal(ctx.caller), input),
  }),
  dbBatch: t.field({
    type: [DbResultRef],
    description: 'Several operations in one transaction, all or nothing (POST /v1/db/batch).',
    args: { operations: t.arg({ type: [DbOperationInput], required: true }) },
    extensions: rowsRead(a => (a.operations as DbOperationArg[]).reduce((sum, op) => sum + selectRows(op), 0)),
    resolve: (_, { operations }, ctx) => ctx.services.rows.batch(requirePrincipal(ctx.caller), operations),
  }),
}));

const RowChangeRef = builder.objectRef<FeedChange<RowOut>>('RowChange').implement({
  description: 'A row change as you see it: insert, update (the row as it is now), delete ({ id } only) or ready (the snapshot is complete).',
  fields: t => ({
    op: t.field({ type: FeedOpEnum, resolve: e => e.op }),
    snapshot: t.exposeBoolean('snapshot', SNAPSHOT_FIELD),
    row: t.field({ type: 'JSON', nullable: true, description: 'Null on ready.', resolve: e => e.row }),
  }),
});

builder.subscriptionFields(t => ({
  rowsLive: t.field({
    type: RowChangeRef,
    description:
      'A select kept live: the rows its scope (roomId: that room alone) and where reach as a snapshot, then each change as your access sees it at that moment (docs/api.md §6).',
    args: { input: t.arg({ type: DbSelectInput, required: true }), snapshot: t.arg.boolean(SNAPSHOT_ARG) },
    subscribe: (_, { input, snapshot }, ctx) => ctx.services.feeds.rows(requirePrincipal(ctx.caller), input, { snapshot: snapshot !== false }),
    resolve: event => event,
  }),
}));
