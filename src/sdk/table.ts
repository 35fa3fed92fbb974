/**
 * The row store's query builder (docs/api.md §11) over `dbSelect`, `dbQuery` and `dbBatch`. A
 * builder is immutable-ish: each filter call returns the same builder for chaining, and awaiting it
 * runs the operation.
 *
 * `update(values).eq(...)` and `delete().eq(...)` are one operation with the filter as its `where`
 * (§11.1): the server matches, locks and writes the rows in one transaction, so a row a concurrent
 * write moves out of the filter is not written (at most 1,000 rows; more is 400 `too_many_rows`).
 * `.eq('id', ids)` alone names rows by id instead, and then every one of them must exist.
 */
import { GatehouseError } from './errors.js';
import type { DbOperationInput, DbScopeInput } from './generated/graphql.js';
import type { LiveHandle } from './live.js';
import { DbBatchDocument, DbQueryDocument, DbSelectDocument, RowsLiveDocument } from './operations.js';
import type { Transport } from './transport.js';

/**
 * A row as read: its id, the table's columns, and the server's fields (`_creatorId`: who wrote it,
 * the one the `creator` rule checks; `roomId` at resource scope; `createdAt`/`updatedAt` with
 * timestamps()). An app's own `creatorId` column is one of its columns like any other.
 */
export type Row = { id: string; _creatorId?: string | null; [column: string]: unknown };
/** Opens a feed on the client's one graphql-ws connection (client.ts). */
export type LiveFeeds = <T>(query: string, variables: Record<string, unknown>) => LiveHandle<T>;
export type Scope = DbScopeInput;
type Comparison = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
type Where = Record<string, Partial<Record<Comparison, unknown>>>;

const MAX_IDS = 100;
const MAX_BATCH = 20;

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

/** Filters shared by select, update and delete. */
abstract class Filtered<Self> {
  protected where: Where = {};

  private compare(column: string, op: Comparison, value: unknown): Self {
    this.where[column] = { ...this.where[column], [op]: value };
    return this as unknown as Self;
  }
  eq(column: string, value: unknown): Self {
    return this.compare(column, 'eq', value);
  }
  gt(column: string, value: unknown): Self {
    return this.compare(column, 'gt', value);
  }
  gte(column: string, value: unknown): Self {
    return this.compare(column, 'gte', value);
  }
  lt(column: string, value: unknown): Self {
    return this.compare(column, 'lt', value);
  }
  lte(column: string, value: unknown): Self {
    return this.compare(column, 'lte', value);
  }

  protected whereOrUndefined(): Where | undefined {
    return Object.keys(this.where).length ? this.where : undefined;
  }
}

export class SelectQuery<T extends Row = Row> extends Filtered<SelectQuery<T>> implements PromiseLike<T[]> {
  private orderBy: { column: string; direction: 'asc' | 'desc' } | undefined;
  private max: number | undefined;
  private cursor: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly scope: Scope,
    private readonly table: string,
    private readonly columns: string[] | null,
    private readonly feeds: LiveFeeds | null = null,
  ) {
    super();
  }

  /**
   * The rows this select's scope and filters reach, as they change (docs/api.md §6, live rows):
   * `insert`, `update` (the row as it is now) and `delete` (at least its `id`); a row moved out of
   * your sight is a delete, into it an insert. Order, limit and columns do not apply to the feed.
   * Not for `typeTable(...)`: type-scoped reads have no feed.
   */
  live(): LiveHandle<T> {
    if (!this.feeds) throw new GatehouseError({ status: 400, code: 'live_unavailable', message: 'This table has no live feed (type scope).' });
    return this.feeds<T>(RowsLiveDocument.toString(), { input: { scope: this.scope, table: this.table, where: this.whereOrUndefined() } });
  }

  order(column: string, options: { ascending?: boolean } = {}): this {
    this.orderBy = { column, direction: options.ascending === false ? 'desc' : 'asc' };
    return this;
  }
  /** Page size, 1–200 (default 50). */
  limit(count: number): this {
    this.max = count;
    return this;
  }
  /** Resume after a page's `nextCursor` (same table, scope, filters and order). */
  after(cursor: string | null | undefined): this {
    this.cursor = cursor ?? undefined;
    return this;
  }

  /** One page: its rows and the cursor of the next (null on the last). */
  async page(): Promise<Page<T>> {
    const result = await this.transport.graphql(DbSelectDocument, {
      input: {
        scope: this.scope,
        table: this.table,
        where: this.whereOrUndefined(),
        orderBy: this.orderBy,
        limit: this.max,
        cursor: this.cursor,
      },
    });
    return { rows: result.rows.map(row => this.project(row as T)), nextCursor: result.nextCursor ?? null };
  }

  /** The one matching row or null; more than one is 406 `multiple_rows`. */
  async maybeSingle(): Promise<T | null> {
    const saved = this.max;
    this.max = 2;
    try {
      const { rows } = await this.page();
      if (rows.length > 1) {
        throw new GatehouseError({ status: 406, code: 'multiple_rows', message: `${this.table}: more than one row matches; narrow the filter.` });
      }
      return rows[0] ?? null;
    } finally {
      this.max = saved;
    }
  }

  // biome-ignore lint/suspicious/noThenProperty: a query is awaited to run it, like a promise.
  then<R1 = T[], R2 = never>(
    onFulfilled?: ((rows: T[]) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.page()
      .then(page => page.rows)
      .then(onFulfilled, onRejected);
  }

  /** `select(columns)` picks columns client-side: the server always answers whole rows. */
  private project(row: T): T {
    if (!this.columns) return row;
    const picked: Record<string, unknown> = {};
    for (const column of this.columns) picked[column] = row[column];
    return picked as T;
  }
}

/** update(values) / delete(): filters, then awaited for the rows written (as written / as they were). */
export class WriteQuery<T extends Row = Row> extends Filtered<WriteQuery<T>> implements PromiseLike<T[]> {
  constructor(
    private readonly transport: Transport,
    private readonly scope: Scope,
    private readonly table: string,
    private readonly op: 'update' | 'delete',
    private readonly values?: Record<string, unknown>,
  ) {
    super();
  }

  // biome-ignore lint/suspicious/noThenProperty: a query is awaited to run it, like a promise.
  then<R1 = T[], R2 = never>(
    onFulfilled?: ((rows: T[]) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.run().then(onFulfilled, onRejected);
  }

  private async run(): Promise<T[]> {
    const where = this.whereOrUndefined();
    if (!where) {
      throw new GatehouseError({
        status: 400,
        code: 'filter_required',
        message: `${this.op} on ${this.table} needs a filter (e.g. .eq('id', rowId)): the SDK never ${this.op}s a whole table by accident.`,
      });
    }
    const values = this.op === 'update' ? { values: this.values } : {};
    const ids = this.namedIds(where);
    if (!ids) {
      // One operation: the server matches, locks and writes the rows in one transaction.
      const result = await this.transport.graphql(DbQueryDocument, {
        input: { scope: this.scope, table: this.table, op: this.op, where, ...values },
      });
      return (result.rows ?? []) as T[];
    }
    const operations: DbOperationInput[] = [];
    for (let i = 0; i < ids.length; i += MAX_IDS) {
      operations.push({ scope: this.scope, table: this.table, op: this.op, ids: ids.slice(i, i + MAX_IDS), ...values });
    }
    // More ids than one operation takes: one batch (one transaction) per MAX_BATCH operations.
    const rows: T[] = [];
    for (let i = 0; i < operations.length; i += MAX_BATCH) {
      const chunk = operations.slice(i, i + MAX_BATCH);
      if (chunk.length === 1) {
        const result = await this.transport.graphql(DbQueryDocument, { input: chunk[0] });
        rows.push(...((result.rows ?? []) as T[]));
      } else {
        const results = await this.transport.graphql(DbBatchDocument, { operations: chunk });
        for (const result of results) rows.push(...((result.rows ?? []) as T[]));
      }
    }
    return rows;
  }

  /** `.eq('id', x)` alone names the rows (every one must exist); any other filter is the server's `where`. */
  private namedIds(where: Where): string[] | null {
    const columns = Object.keys(where);
    if (columns.length !== 1 || columns[0] !== 'id' || Object.keys(where.id).join() !== 'eq') return null;
    const id = where.id.eq;
    return Array.isArray(id) ? (id as string[]) : [String(id)];
  }
}

/** One table in one scope (your own rows, a resource, or a room of a resource). */
export class Table<T extends Row = Row> {
  constructor(
    private readonly transport: Transport,
    readonly scope: Scope,
    readonly name: string,
    private readonly feeds: LiveFeeds | null = null,
  ) {}

  /** Rows, filtered and ordered by chaining; `columns` ('a, b' or ['a', 'b']) picks columns client-side. */
  select(columns?: string | string[]): SelectQuery<T> {
    const list =
      typeof columns === 'string'
        ? columns
            .split(',')
            .map(c => c.trim())
            .filter(c => c && c !== '*')
        : (columns ?? null);
    return new SelectQuery<T>(this.transport, this.scope, this.name, list?.length ? list : null, this.feeds);
  }

  /** Inserts one row (answers it) or 1–100 rows (answers them), as written. */
  insert(values: Record<string, unknown>): Promise<T>;
  insert(values: Record<string, unknown>[]): Promise<T[]>;
  async insert(values: Record<string, unknown> | Record<string, unknown>[]): Promise<T | T[]> {
    const result = await this.transport.graphql(DbQueryDocument, { input: { scope: this.scope, table: this.name, op: 'insert', values } });
    const rows = (result.rows ?? []) as T[];
    return Array.isArray(values) ? rows : rows[0];
  }

  /** Changes the given columns (`null` clears one) of the rows the chained filter matches. */
  update(values: Record<string, unknown>): WriteQuery<T> {
    return new WriteQuery<T>(this.transport, this.scope, this.name, 'update', values);
  }

  /** Deletes the rows the chained filter matches; answers them as they were. */
  delete(): WriteQuery<T> {
    return new WriteQuery<T>(this.transport, this.scope, this.name, 'delete');
  }

  /** Moves rows to another room of the resource (its id is the default room). Needs a resource scope. */
  async moveRoom(ids: string | string[], roomId: string): Promise<{ ok: true }> {
    const list = Array.isArray(ids) ? ids : [ids];
    await this.transport.graphql(DbQueryDocument, { input: { scope: this.scope, table: this.name, op: 'moveRoom', ids: list, destination: roomId } });
    return { ok: true };
  }
}
