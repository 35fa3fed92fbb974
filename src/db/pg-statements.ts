/**
 * The statements of the SQL layer on PostgreSQL (src/db/sql.ts), as a `pg` Submittable: a named
 * statement parsed once per connection, whose rows are described once per connection too. pg's own
 * `Query` asks PostgreSQL to describe the portal on every execution and rebuilds its row parsers
 * from the answer, and clones the query config: about a tenth of a small read's server time
 * (bench/README.md). A prepared statement's columns cannot change while it exists (PostgreSQL
 * refuses with "cached plan must not change result type"), so after the first execution on a
 * connection a statement is Bind, Execute and Sync, and its rows are built from the kept description.
 *
 * Only pg's public surface is used: `client.query(submittable)` and the Connection's protocol
 * messages (the extension point pg-cursor and pg-query-stream are built on). What this module
 * knows about a connection (its parsed statements, their row shapes) it keeps itself.
 *
 * A statement may carry a prelude: statements without rows (a transaction's BEGIN and SET LOCAL)
 * sent unnamed in the same socket write and under the same Sync, so opening a transaction costs no
 * round trip of its own. Their CommandCompletes come first and are not the statement's.
 */
import pg from 'pg';
import { type StatementResult, textParameter } from './sql-values.js';
import { OutcomeUnknownError, refusedByServer } from './outcome.js';

interface Field {
  name: string;
  dataTypeID: number;
  format: 'text' | 'binary';
}

/** Column parsers by type oid (the layer's conventions, src/db/sql-values.ts), then pg's own. */
export type TypeParsers = Readonly<Record<number, (text: string) => unknown>>;

/** The columns of a statement, as described once. */
interface RowShape {
  names: string[];
  parsers: ((value: string) => unknown)[];
}

/** A connection as pg hands it to a Submittable: its socket and the protocol messages it sends. */
interface Connection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { name: string; text: string; types: number[] }): void;
  bind(config: { statement: string; values: readonly unknown[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  close(message: { type: 'S'; name: string }): void;
  sync(): void;
}

/** What this module learned about one connection; it lives as long as the connection does. */
interface ConnectionState {
  /** Statements known to exist on the connection (a whole execution succeeded after their Parse). */
  parsed: Set<string>;
  shapes: Map<string, RowShape>;
}

const connections = new WeakMap<object, ConnectionState>();

/** "UPDATE 3", "INSERT 0 1", "SELECT 2": the rows a statement wrote or returned. */
function rowCountOf(tag: string | undefined): number {
  const count = Number(tag?.slice(tag.lastIndexOf(' ') + 1));
  return Number.isFinite(count) ? count : 0;
}

class PreparedStatement {
  /** Set by pg's client (the pool's completion callback). */
  callback?: (error: Error | null, result?: StatementResult) => void;
  /** Not `rows`: pg reads a query's `rows` as a portal's page size, which pipeline mode refuses. */
  private readonly received: Record<string, unknown>[] = [];
  private count = 0;
  private shape: RowShape | undefined;
  /** The description this execution received, kept for the connection once the statement succeeds. */
  private described: RowShape | undefined;
  private state: ConnectionState | undefined;
  private failed: Error | null = null;
  private done = false;
  /** The prelude's statements whose CommandComplete has yet to arrive. */
  private preludeLeft: number;
  /** Its messages were handed to the socket: from here a lost connection may follow its commit. */
  private sent = false;

  constructor(
    private readonly statement: string,
    private readonly text: string,
    private readonly values: readonly unknown[],
    private readonly parsers: TypeParsers,
    private readonly prelude: readonly string[],
    private readonly ownTransaction: boolean,
  ) {
    this.preludeLeft = prelude.length;
  }

  /** Parse, Bind and Execute of each prelude statement, unnamed: they are parsed once per transaction. */
  private sendPrelude(connection: Connection): void {
    for (const text of this.prelude) {
      connection.parse({ name: '', text, types: [] });
      connection.bind({ statement: '', values: [] });
      connection.execute({ portal: '' });
    }
  }

  submit(connection: Connection): void {
    let state = connections.get(connection);
    if (!state) connections.set(connection, (state = { parsed: new Set(), shapes: new Map() }));
    // The unnamed statement ('') is parsed and described on every execution, and nothing is kept.
    if (this.statement !== '') {
      this.state = state;
      this.shape = state.shapes.get(this.statement);
    }
    let params: (string | Buffer | null)[];
    try {
      params = this.values.map(textParameter);
    } catch (error) {
      // The statement is not sent: the answer is the error. The prelude still is, so a transaction
      // is open whatever its first statement did, and the caller's ROLLBACK has one to end.
      connection.stream.cork?.();
      try {
        this.sendPrelude(connection);
        connection.sync();
      } finally {
        connection.stream.uncork?.();
      }
      this.failed = error as Error;
      return;
    }
    connection.stream.cork?.();
    this.sent = true;
    try {
      this.sendPrelude(connection);
      if (this.statement === '') connection.parse({ name: '', text: this.text, types: [] });
      else if (!state.parsed.has(this.statement)) {
        // An earlier execution may have parsed it and failed later: closing a statement that does
        // not exist is no error, so Close then Parse is right either way.
        connection.close({ type: 'S', name: this.statement });
        connection.parse({ name: this.statement, text: this.text, types: [] });
      }
      connection.bind({ statement: this.statement, values: params });
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
      parsers: message.fields.map(
        field => this.parsers[field.dataTypeID] ?? (pg.types.getTypeParser(field.dataTypeID, field.format || 'text') as (value: string) => unknown),
      ),
    };
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const { shape } = this;
    if (this.failed || this.preludeLeft > 0) return;
    if (!shape) {
      this.failed = new Error(`A row of statement ${this.statement} arrived before its description.`);
      return;
    }
    const row: Record<string, unknown> = {};
    const { fields } = message;
    for (let i = 0; i < fields.length; i++) {
      const value = fields[i];
      row[shape.names[i]] = value === null ? null : shape.parsers[i](value);
    }
    this.received.push(row);
  }

  handleCommandComplete(message: { text?: string }): void {
    if (this.preludeLeft > 0) {
      this.preludeLeft--;
      return;
    }
    this.count = rowCountOf(message.text);
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleReadyForQuery(): void {
    if (this.failed) {
      this.finish(this.failed);
      return;
    }
    this.state?.parsed.add(this.statement);
    if (this.described) this.state?.shapes.set(this.statement, this.described);
    this.finish(null, { rows: this.received, count: this.count });
  }

  handleError(error: Error): void {
    // A statement that is its own transaction, sent, and not refused by the server: it may have committed.
    const failed = this.ownTransaction && this.sent && !refusedByServer(error) ? new OutcomeUnknownError(error) : error;
    // The server's error comes before its ReadyForQuery; answer once the connection is ready again.
    this.failed ??= failed;
    this.finish(failed);
  }

  private finish(error: Error | null, result?: StatementResult): void {
    if (this.done) return;
    this.done = true;
    this.callback?.(error, result);
  }
}

// pg's pipeline mode (the read lane, src/db/pg-lanes.ts) admits only its own Query class: a
// custom Submittable may keep a portal open across round trips (pg-cursor), which would take the
// answers of the statements pipelined behind it. This one sends Sync and holds no portal, so it
// is given Query's prototype (every method pg's client calls on it is its own; Query's constructor never runs).
Object.setPrototypeOf(PreparedStatement.prototype, pg.Query.prototype);

export interface RunOptions {
  /** Statements without rows sent before it under the same Sync (see above): a transaction's BEGIN. */
  prelude?: readonly string[];
  /**
   * The statement is its own implicit transaction (on a pool, or a lane's connection): a connection
   * lost once it was sent fails it with OutcomeUnknownError, since it may have committed.
   */
  ownTransaction?: boolean;
}

/**
 * Runs one statement as a named prepared statement on a pool (a pooled connection for the one
 * statement) or on a client already held (a transaction's), after the prelude's statements if any
 * (see above). pg's client does the rest: the connection's queue, its errors, and (for a pool)
 * acquire and release.
 */
export function runPrepared(
  on: pg.Pool | pg.ClientBase,
  statement: string,
  text: string,
  values: readonly unknown[],
  parsers: TypeParsers,
  { prelude = [], ownTransaction = false }: RunOptions = {},
): Promise<StatementResult> {
  // `query` takes a Submittable as a query config and calls back with what the Submittable answers.
  const prepared = new PreparedStatement(statement, text, values, parsers, prelude, ownTransaction) as unknown as pg.QueryConfig;
  if (on instanceof pg.Pool) return runOnPool(on, prepared);
  return new Promise((resolve, reject) => queryOn(on)(prepared, (error, result) => (error ? reject(error) : resolve(result))));
}

type Answered = (error: Error | null, result: StatementResult) => void;
const queryOn = (client: pg.ClientBase) => client.query.bind(client) as unknown as (config: pg.QueryConfig, callback: Answered) => void;

/**
 * A statement on a pooled connection of its own. Not pg-pool's `query`, which answers a lost
 * connection from the client's 'error' event, before the statement can tell whether it was sent
 * (OutcomeUnknownError), and closes the connection on any error, a refusal by the server too
 * (losing its prepared statements for nothing).
 */
function runOnPool(pool: pg.Pool, prepared: pg.QueryConfig): Promise<StatementResult> {
  return new Promise((resolve, reject) => {
    pool.connect((connectError, client, release) => {
      if (connectError || !client) {
        reject(connectError ?? new Error('The pool gave no connection.'));
        return;
      }
      let lost: Error | undefined;
      // pg fails the statement itself once its connection is lost (handleError); heard here, the
      // error is not the process's uncaught one, and the connection is closed, not reused.
      const onLost = (error: Error) => {
        lost = error;
      };
      client.on('error', onLost);
      queryOn(client)(prepared, (error, result) => {
        client.removeListener('error', onLost);
        release(lost);
        if (error) reject(error);
        else resolve(result);
      });
    });
  });
}
