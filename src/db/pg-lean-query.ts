/**
 * The lean reads on PostgreSQL (`Database.query`), as a `pg` Submittable: a named statement parsed
 * once per connection, whose rows are described once per connection too. pg's own `Query` asks
 * PostgreSQL to describe the portal on every execution and rebuilds its row parsers from the answer
 * (`Result.addFields`), and clones the query config: about a tenth of a small read's server time
 * (bench/README.md). A prepared statement's columns cannot change while it exists (PostgreSQL
 * refuses with "cached plan must not change result type"), so after the first execution on a
 * connection a read is Bind, Execute and Sync, and its rows are built from the kept description.
 *
 * Values are mapped as pg maps them (`prepareValue`), and rows parsed with pg's type parsers, so
 * the rows are the ones `pool.query` returns.
 */
import { createRequire } from 'node:module';
import pg from 'pg';

/** pg's own value mapping (Dates, arrays, objects as JSON), from the module pg's Query uses. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

interface Field {
  name: string;
  dataTypeID: number;
  format: 'text' | 'binary';
}

/** The columns of a statement, as described once. */
interface RowShape {
  names: string[];
  parsers: ((value: string) => unknown)[];
}

/** pg's Connection, the part a Submittable drives. */
interface Connection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { name: string; text: string; types: number[] }): void;
  bind(config: { statement: string; values: readonly unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  close(message: { type: 'S'; name: string }): void;
  sync(): void;
}

/** Row shapes by connection, then by statement name: they live as long as the connection does. */
const shapes = new WeakMap<object, Map<string, RowShape>>();

class LeanQuery<T> {
  /** Set by pg's client (the pool's completion callback). */
  callback?: (error: Error | null, rows?: T[]) => void;
  private readonly rows: T[] = [];
  private shape: RowShape | undefined;
  /** The description this execution received, kept for the connection once the query succeeds. */
  private described: RowShape | undefined;
  private failed: Error | null = null;
  private done = false;

  constructor(
    /** Read by pg's client to record the parsed statement. */
    readonly name: string,
    readonly text: string,
    private readonly values: readonly unknown[],
  ) {}

  submit(connection: Connection): void {
    let known = shapes.get(connection);
    if (!known) shapes.set(connection, (known = new Map()));
    this.shape = known.get(this.name);
    connection.stream.cork?.();
    try {
      if (connection.parsedStatements[this.name] === undefined && connection.submittedNamedStatements[this.name] === undefined) {
        connection.parse({ name: this.name, text: this.text, types: [] });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      try {
        connection.bind({ statement: this.name, values: this.values, valueMapper: prepareValue });
      } catch (error) {
        // As pg does: a value that cannot be sent closes the statement, and the answer is the error.
        connection.close({ type: 'S', name: this.name });
        connection.sync();
        this.handleError(error as Error);
        return;
      }
      if (!this.shape) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  handleRowDescription(message: { fields: Field[] }): void {
    this.shape = this.described = {
      names: message.fields.map(field => field.name),
      parsers: message.fields.map(field => pg.types.getTypeParser(field.dataTypeID, field.format || 'text') as (value: string) => unknown),
    };
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const { shape } = this;
    if (this.failed) return;
    if (!shape) {
      this.failed = new Error(`A row of statement ${this.name} arrived before its description.`);
      return;
    }
    const row: Record<string, unknown> = {};
    const { fields } = message;
    for (let i = 0; i < fields.length; i++) {
      const value = fields[i];
      row[shape.names[i]] = value === null ? null : shape.parsers[i](value);
    }
    this.rows.push(row as T);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleReadyForQuery(connection: Connection): void {
    if (this.failed) {
      this.finish(this.failed);
      return;
    }
    if (this.described) shapes.get(connection)?.set(this.name, this.described);
    this.finish(null, this.rows);
  }

  handleError(error: Error): void {
    this.finish(error);
  }

  private finish(error: Error | null, rows?: T[]): void {
    if (this.done) return;
    this.done = true;
    this.callback?.(error, rows);
  }
}

/** Runs one lean statement on a pooled connection; the pool's own `query` does the rest (acquire, release, connection errors). */
export function leanQuery<T extends object>(pool: pg.Pool, name: string, text: string, values: readonly unknown[]): Promise<T[]> {
  // pool.query takes a Submittable as a query config: the client calls its `callback` with our rows.
  return pool.query(new LeanQuery<T>(name, text, values) as unknown as pg.QueryConfig) as unknown as Promise<T[]>;
}
