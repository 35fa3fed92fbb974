/**
 * The row store's query builder (docs/api.md §11) over `dbSelect`, `dbQuery` and `dbBatch`. A
 * builder is immutable-ish: each filter call returns the same builder for chaining, and awaiting it
 * runs the operation.
 *
 * `update(values).eq(...)` and `delete().eq(...)` are one operation with the filter as its `where`
 * (§11.1): the server matches, locks and writes the rows in one transaction, so a row a concurrent
 * write moves out of the filter is not written (at most 1,000 rows; more is 400 `too_many_rows`),
 * and answers the rows it changed: none when they are gone, so replaying a write succeeds.
 * `.in('id', ids)` alone may name more than 1,000 rows: they go in batches of operations.
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
/**
 * The row types a table may be given (`table<Task>('tasks')`): any object type with a string `id`,
 * an app's `interface` included (an interface has no implicit index signature, so `Row` would refuse it).
 */
export type RowType = { id: string };
/**
 * A map of table names to row types, as \`gatehouse typegen\` writes it (its \`Tables\` interface):
 * \`createClient<Tables>()\` makes \`table('tasks')\` a \`Table<TasksRow>\` and an unknown name an error.
 */
export type TableTypes = object;
/** Untyped: any table name, rows \`Row\` (or the \`T\` given to \`table<T>(name)\`). */
export type Untyped = Record<string, Row>;
/** A client's \`table(name)\`: by the map's names when it has some, any name otherwise. */
export type TableOf<S extends TableTypes> = string extends keyof S
  ? <T extends RowType = Row>(name: string) => Table<T>
  : <K extends keyof S & string>(name: K) => Table<S[K] & RowType>;
/** Values to write: some columns of the table's row type (an interface's `Partial` too), or any object of columns. */
export type RowValues<T> = Partial<T> | Record<string, unknown>;
/** Opens a feed on the client's one graphql-ws connection (client.ts). */
export type LiveFeeds = <T>(query: string, variables: Record<string, unknown>) => LiveHandle<T>;
export type Scope = DbScopeInput;
/** The operators of `where` (docs/api.md §11.3). */
export type Operator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'is';
type Ops = Partial<Record<Operator, unknown>>;
type Where = Record<string, Ops & { not?: Ops }>;

/** Ids one `in` may list (and so one write by ids); more go in batches. */
const MAX_IN = 1000;
const MAX_BATCH = 20;

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

const noRows = (table: string) =>
  new GatehouseError({ status: 406, code: 'no_rows', message: `${table}: no row matches, and single() needs exactly one.` });
const multipleRows = (table: string) =>
  new GatehouseError({ status: 406, code: 'multiple_rows', message: `${table}: more than one row matches; narrow the filter.` });

/** The one row of `rows`, or null (maybeSingle) or a `no_rows` error (single); more is `multiple_rows`. */
function oneOf<T>(table: string, rows: T[], required: boolean): T | null {
  if (rows.length > 1) throw multipleRows(table);
  if (rows.length === 0 && required) throw noRows(table);
  return rows[0] ?? null;
}

/** `columns` of select(columns) ('a, b' or ['a', 'b']; '*' or nothing is every column), or null. */
function columnList(columns: string | readonly string[] | undefined): string[] | null {
  const list = typeof columns === 'string' ? columns.split(',').map(c => c.trim()) : [...(columns ?? [])];
  const picked = list.filter(c => c && c !== '*');
  return picked.length ? picked : null;
}

/** Picks `columns` of each row client-side: the server always answers whole rows. */
function project<T>(rows: T[], columns: string[] | null): T[] {
  if (!columns) return rows;
  return rows.map(row => Object.fromEntries(columns.map(column => [column, (row as Record<string, unknown>)[column]])) as T);
}

/** Filters shared by select, update and delete; each returns the builder for chaining. */
abstract class Filtered<Self> {
  protected where: Where = {};

  private add(column: string, op: Operator, value: unknown, negated = false): Self {
    const ops = { ...this.where[column] };
    if (negated) ops.not = { ...ops.not, [op]: value };
    else ops[op] = value;
    this.where[column] = ops;
    return this as unknown as Self;
  }
  /** Equal (`null`: the column is absent). */
  eq(column: string, value: unknown): Self {
    return this.add(column, 'eq', value);
  }
  /** Not equal; like SQL, a row where the column is absent matches no comparison (use `.is(column, null)`). */
  neq(column: string, value: unknown): Self {
    return this.add(column, 'neq', value);
  }
  gt(column: string, value: unknown): Self {
    return this.add(column, 'gt', value);
  }
  gte(column: string, value: unknown): Self {
    return this.add(column, 'gte', value);
  }
  lt(column: string, value: unknown): Self {
    return this.add(column, 'lt', value);
  }
  lte(column: string, value: unknown): Self {
    return this.add(column, 'lte', value);
  }
  /** One of `values` (at most 1,000; an empty list matches nothing). */
  in(column: string, values: readonly unknown[]): Self {
    return this.add(column, 'in', [...values]);
  }
  /** `null`: the column is absent; `true`/`false` on a boolean column. */
  is(column: string, value: null | boolean): Self {
    return this.add(column, 'is', value);
  }
  /** The negation of one operator: `.not('status', 'eq', 'done')`, `.not('tag', 'in', ['a', 'b'])`, `.not('due', 'is', null)`. */
  not(column: string, operator: Operator, value: unknown): Self {
    return this.add(column, operator, operator === 'in' && Array.isArray(value) ? [...value] : value, true);
  }
  /** Equality on every column of `values`. */
  match(values: Record<string, unknown>): Self {
    for (const [column, value] of Object.entries(values)) this.add(column, 'eq', value);
    return this as unknown as Self;
  }

  protected whereOrUndefined(): Where | undefined {
    return Object.keys(this.where).length ? this.where : undefined;
  }
}

export class SelectQuery<T extends RowType = Row> extends Filtered<SelectQuery<T>> implements PromiseLike<T[]> {
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
    return { rows: project(result.rows as T[], this.columns), nextCursor: result.nextCursor ?? null };
  }

  /** The one matching row; none is 406 `no_rows`, more than one 406 `multiple_rows`. */
  async single(): Promise<T> {
    return (await this.one(true)) as T;
  }

  /** The one matching row or null; more than one is 406 `multiple_rows`. */
  maybeSingle(): Promise<T | null> {
    return this.one(false);
  }

  private async one(required: boolean): Promise<T | null> {
    const saved = this.max;
    this.max = 2;
    try {
      return oneOf(this.table, (await this.page()).rows, required);
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
}

/** A write's answer: its rows, with the columns `.select(columns)` picked; one of them for single() and maybeSingle(). */
class Answer<T> {
  columns: string[] | null = null;

  constructor(
    private readonly table: string,
    private readonly rows: () => Promise<T[]>,
  ) {}

  all(): Promise<T[]> {
    return this.rows().then(rows => project(rows, this.columns));
  }
  /** The one row (a write that changed several still changed them: only the answer is refused). */
  one(required: boolean): Promise<T | null> {
    return this.all().then(rows => oneOf(this.table, rows, required));
  }
}

/**
 * insert(values) / upsert(values): awaited, the row (one object given) or the rows (a list
 * given), as written; `.select(columns?)` picks columns of them, `.single()` / `.maybeSingle()`
 * answer the one row. The write runs once however often it is awaited.
 */
export class InsertQuery<T extends RowType, R extends T | T[]> implements PromiseLike<R> {
  private result: Promise<T[]> | null = null;
  private readonly answer: Answer<T>;

  constructor(
    private readonly transport: Transport,
    private readonly input: DbOperationInput,
    private readonly many: boolean,
  ) {
    this.answer = new Answer(input.table, () => this.run());
  }

  select(columns?: string | readonly string[]): this {
    this.answer.columns = columnList(columns);
    return this;
  }
  async single(): Promise<T> {
    return (await this.answer.one(true)) as T;
  }
  maybeSingle(): Promise<T | null> {
    return this.answer.one(false);
  }

  // biome-ignore lint/suspicious/noThenProperty: a write is awaited to run it, like a promise.
  then<R1 = R, R2 = never>(
    onFulfilled?: ((value: R) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.answer
      .all()
      .then(rows => (this.many ? rows : rows[0]) as R)
      .then(onFulfilled, onRejected);
  }

  private run(): Promise<T[]> {
    this.result ??= this.transport.graphql(DbQueryDocument, { input: this.input }).then(result => (result.rows ?? []) as T[]);
    return this.result;
  }
}

/**
 * update(values) / delete(): filters, then awaited for the rows it changed (as written / as they
 * were), with `.select()`, `.single()` and `.maybeSingle()` as on inserts. One operation whose
 * `where` the server matches, locks and writes in one transaction.
 */
export class WriteQuery<T extends RowType = Row> extends Filtered<WriteQuery<T>> implements PromiseLike<T[]> {
  private result: Promise<T[]> | null = null;
  private readonly answer: Answer<T>;

  constructor(
    private readonly transport: Transport,
    private readonly scope: Scope,
    private readonly table: string,
    private readonly op: 'update' | 'delete',
    private readonly values?: RowValues<T>,
  ) {
    super();
    // Runs once however often it is awaited, like an insert.
    this.answer = new Answer(table, () => (this.result ??= this.run()));
  }

  select(columns?: string | readonly string[]): this {
    this.answer.columns = columnList(columns);
    return this;
  }
  async single(): Promise<T> {
    return (await this.answer.one(true)) as T;
  }
  maybeSingle(): Promise<T | null> {
    return this.answer.one(false);
  }

  // biome-ignore lint/suspicious/noThenProperty: a write is awaited to run it, like a promise.
  then<R1 = T[], R2 = never>(
    onFulfilled?: ((rows: T[]) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.answer.all().then(onFulfilled, onRejected);
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
    const operation = (filter: Where): DbOperationInput => ({ scope: this.scope, table: this.table, op: this.op, where: filter, ...values });
    const ids = this.namedIds(where);
    if (!ids || ids.length <= MAX_IN) {
      const result = await this.transport.graphql(DbQueryDocument, { input: operation(ids ? { id: { in: ids } } : where) });
      return (result.rows ?? []) as T[];
    }
    // More ids than one `in` takes: one batch (one transaction) per MAX_BATCH operations.
    const rows: T[] = [];
    for (let i = 0; i < ids.length; i += MAX_IN * MAX_BATCH) {
      const operations: DbOperationInput[] = [];
      for (let j = i; j < Math.min(ids.length, i + MAX_IN * MAX_BATCH); j += MAX_IN)
        operations.push(operation({ id: { in: ids.slice(j, j + MAX_IN) } }));
      const results = await this.transport.graphql(DbBatchDocument, { operations });
      for (const result of results) rows.push(...((result.rows ?? []) as T[]));
    }
    return rows;
  }

  /** Rows named by id alone (`.in('id', ids)`, or `.eq('id', id | ids)`), which may be more than one operation takes. */
  private namedIds(where: Where): string[] | null {
    const columns = Object.keys(where);
    if (columns.length !== 1 || columns[0] !== 'id') return null;
    const ops = Object.keys(where.id);
    if (ops.length !== 1 || (ops[0] !== 'eq' && ops[0] !== 'in')) return null;
    const id = ops[0] === 'eq' ? where.id.eq : where.id.in;
    return Array.isArray(id) ? (id as string[]) : [String(id)];
  }
}

export interface UpsertOptions {
  /** The unique key rows are found by: one column, `'a,b'`, or `['a', 'b']`. */
  onConflict: string | readonly string[];
}

/** One table in one scope (your own rows, a resource, or a room of a resource). */
export class Table<T extends RowType = Row> {
  constructor(
    private readonly transport: Transport,
    readonly scope: Scope,
    readonly name: string,
    private readonly feeds: LiveFeeds | null = null,
  ) {}

  /** Rows, filtered and ordered by chaining; `columns` ('a, b' or ['a', 'b']) picks columns client-side. */
  select(columns?: string | readonly string[]): SelectQuery<T> {
    return new SelectQuery<T>(this.transport, this.scope, this.name, columnList(columns), this.feeds);
  }

  /** Inserts one row (answers it) or 1–100 rows (answers them), as written; `.select().single()` chains. */
  insert(values: RowValues<T>): InsertQuery<T, T>;
  insert(values: RowValues<T>[]): InsertQuery<T, T[]>;
  insert(values: RowValues<T> | RowValues<T>[]): InsertQuery<T, T> | InsertQuery<T, T[]> {
    return new InsertQuery<T, T>(this.transport, { scope: this.scope, table: this.name, op: 'insert', values }, Array.isArray(values));
  }

  /**
   * Inserts each row, or updates the row already holding its values of a unique key of the table
   * (`onConflict`: a `unique()` column, or the columns of a `unique([...])`; `'a,b'` or `['a',
   * 'b']`), atomically; the given columns only are updated. Answers the rows as written, like
   * insert. A row with that key you cannot read or update in this scope is 409 `unique_violation`.
   */
  upsert(values: RowValues<T>, options: UpsertOptions): InsertQuery<T, T>;
  upsert(values: RowValues<T>[], options: UpsertOptions): InsertQuery<T, T[]>;
  upsert(values: RowValues<T> | RowValues<T>[], options: UpsertOptions): InsertQuery<T, T> | InsertQuery<T, T[]> {
    const onConflict = typeof options.onConflict === 'string' ? [options.onConflict] : [...options.onConflict];
    return new InsertQuery<T, T>(this.transport, { scope: this.scope, table: this.name, op: 'upsert', values, onConflict }, Array.isArray(values));
  }

  /** Changes the given columns (`null` clears one) of the rows the chained filter matches. */
  update(values: RowValues<T>): WriteQuery<T> {
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
