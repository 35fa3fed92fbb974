/**
 * Statements outside transactions on a few pipelined connections (pg's `pipeline` mode), apart
 * from the pool: a lane. A pooled statement costs a socket write of its own and wakes an idle
 * backend; on a busy server the kernel's work for those writes was most of a small statement's
 * CPU (bench/README.md). Here every statement of one event-loop turn is sent to its connection in
 * one write, behind the ones still running, and the backend reads them together. Each statement
 * still ends with its own Sync, so it runs in its own implicit transaction, exactly as on the pool:
 * only the socket is shared.
 *
 * Two lanes use this, each on connections of its own (src/db/postgres.ts):
 * - the read lane: only statements that take no lock and write nothing (`isPlainRead`), so none
 *   waits on another's lock (row or advisory);
 * - the write lane: the row store's one-statement writes (Database.sqlWrites), which may wait on a
 *   row lock. Nothing waits on them while holding a transaction (they run before a call's
 *   transaction, never inside one), and their connections carry a statement timeout, so a wait
 *   ends as it would on the pool.
 *
 * A slow statement still delays the ones queued behind it on its connection: each goes to the
 * connection with the fewest in flight, a connection opens only when every open one is busy, and a
 * connection whose oldest statement has run past `STALLED_MS` takes no more. When all of them are
 * held up so, the statement is the pool's, as it was before the lane: a few slow statements
 * cannot hold up everyone's.
 */
import pg from 'pg';
import type { StatementResult } from './sql-values.js';
import { type TypeParsers, runPrepared } from './pg-statements.js';

interface Connection {
  client: pg.Client;
  /** Settles when the connection is ready (or failed to open). */
  ready: Promise<void>;
  open: boolean;
  /** When each statement in flight was sent, oldest first (a pipelined connection answers in order). */
  sent: number[];
  /** Its socket is held corked until the end of this event-loop turn. */
  corked: boolean;
}

/** How each lane's connections are named in pg_stat_activity. */
export const READ_LANE_APPLICATION = 'gatehouse reads';
export const WRITE_LANE_APPLICATION = 'gatehouse writes';

/** A statement in flight this long holds up its connection: far past a busy server's small statements, far short of a slow one. */
export const STALLED_MS = 50;

export interface Lane {
  /** The statement's answer, or undefined when every connection is held up by a slow statement (the pool's turn). */
  run(statement: string, text: string, values: readonly unknown[], parsers: TypeParsers): Promise<StatementResult> | undefined;
  usage(): { max: number; open: number; idle: number };
  close(): Promise<void>;
}

/**
 * A lock in a statement's text (values are parameters, so the text is the code's): a row-locking
 * clause, or an advisory lock (which may wait, and a session-level one would outlive the statement
 * on a shared connection).
 */
const TAKES_LOCKS = /\bFOR\s+(?:NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b|\bpg_(?:try_)?advisory_/i;

/**
 * A statement that neither writes nor waits on a lock, judged by its text (Kysely's or raw): it
 * begins with SELECT (only a top-level WITH can write) and takes no lock.
 */
export const isPlainRead = (text: string): boolean => /^\s*SELECT\b/i.test(text) && !TAKES_LOCKS.test(text);

export interface LaneOptions {
  /** Its connections' application_name (READ_LANE_APPLICATION, WRITE_LANE_APPLICATION). */
  application: string;
  /** The most connections it opens. */
  size: number;
  connectTimeoutMs: number;
  /** Each connection's statement_timeout: a statement waiting on a lock longer fails (57014). */
  statementTimeoutMs?: number;
  stalledMs?: number;
  /** Its statements may write. */
  writes?: boolean;
  onError(error: Error): void;
}

export function createLane(databaseUrl: string, options: LaneOptions): Lane {
  // A write's lost answer leaves its outcome unknown (src/db/outcome.ts); a read has none to lose.
  const run = { ownTransaction: options.writes === true };
  const stalledMs = options.stalledMs ?? STALLED_MS;
  const connections: Connection[] = [];
  let closed = false;

  function openConnection(): Connection {
    const client = new pg.Client({
      connectionString: databaseUrl,
      pipeline: true,
      connectionTimeoutMillis: options.connectTimeoutMs,
      // Told apart from the pool's in pg_stat_activity.
      application_name: options.application,
      ...(options.statementTimeoutMs !== undefined && { statement_timeout: options.statementTimeoutMs }),
    });
    const connection: Connection = { client, ready: Promise.resolve(), open: false, sent: [], corked: false };
    const drop = () => {
      const index = connections.indexOf(connection);
      if (index >= 0) connections.splice(index, 1);
    };
    // pg fails the statements in flight itself; the lane forgets the connection and opens another when needed.
    client.on('error', error => {
      drop();
      if (!closed) options.onError(error);
    });
    client.on('end', drop);
    connection.ready = client.connect().then(
      () => {
        connection.open = true;
      },
      error => {
        drop();
        throw error;
      },
    );
    connections.push(connection);
    return connection;
  }

  function pick(now: number): Connection | undefined {
    let best: Connection | undefined;
    for (const connection of connections) {
      const { sent } = connection;
      if (sent.length > 0 && now - sent[0] > stalledMs) continue;
      if (!best || sent.length < best.sent.length) best = connection;
    }
    if ((!best || best.sent.length > 0) && connections.length < options.size) return openConnection();
    return best;
  }

  async function send(connection: Connection, now: number, run: () => Promise<StatementResult>): Promise<StatementResult> {
    connection.sent.push(now);
    try {
      if (!connection.open) await connection.ready;
      cork(connection);
      return await run();
    } finally {
      connection.sent.shift();
    }
  }

  /** Holds the socket's writes until the turn ends: the turn's statements leave in one write. */
  function cork(connection: Connection): void {
    if (connection.corked) return;
    const { stream } = connection.client.connection;
    connection.corked = true;
    stream.cork();
    setImmediate(() => {
      connection.corked = false;
      stream.uncork();
    });
  }

  return {
    run(statement, text, values, parsers) {
      if (closed) return Promise.reject(new Error('The database is closed.'));
      const now = performance.now();
      const connection = pick(now);
      return connection && send(connection, now, () => runPrepared(connection.client, statement, text, values, parsers, run));
    },
    usage: () => ({
      max: options.size,
      open: connections.filter(connection => connection.open).length,
      idle: connections.filter(connection => connection.open && connection.sent.length === 0).length,
    }),
    async close() {
      closed = true;
      // A pipelined client's end() waits for the statements already sent.
      await Promise.all(connections.splice(0).map(connection => connection.client.end().catch(() => {})));
    },
  };
}
