/**
 * The SQL layer's statements outside transactions (`Database.sql`, src/db/sql.ts) on the embedded
 * store, as named prepared statements.
 *
 * PGlite's `query` parses, plans and describes its statement on every call: six protocol messages,
 * each a call into its WebAssembly, on the event loop's thread. Here a statement is parsed once,
 * under a name, and each later call binds, describes and executes it in one call. The parse is
 * PostgreSQL's plan cache as on the server (`pg` named statements, src/db/postgres.ts), and it
 * follows schema changes the same way. Measured in bench/README.md.
 *
 * It takes the same two locks as `PGlite.query` (transactions, then queries), so it never runs
 * inside another caller's transaction. Parameters go as text, which PostgreSQL casts to the types
 * it inferred; a value with no plain text form (an object, an array, bytes) and any statement past
 * `maxStatements` distinct texts go through `PGlite.query` instead.
 */
import { type PGlite, parse as pgliteParse, protocol } from '@electric-sql/pglite';
import { SQL_TYPE_PARSERS, type StatementResult, driverValue } from './sql-values.js';

const { serialize } = protocol;

/** Text parameters, or null when one has no plain text form. */
function textParams(values: readonly unknown[]): (string | null)[] | null {
  const params: (string | null)[] = [];
  for (const raw of values) {
    const value = driverValue(raw);
    if (value === null || value === undefined) params.push(null);
    else if (typeof value === 'string') params.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint') params.push(String(value));
    else if (typeof value === 'boolean') params.push(value ? 't' : 'f');
    else return null;
  }
  return params;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/** Names are per instance: two over one PGlite (tests) must not collide on its one connection. */
let instances = 0;

export function preparedQuery(pglite: PGlite, maxStatements = 256) {
  const prefix = `gh_lean_${++instances}_`;
  const names = new Map<string, string>();
  const exclusive = <T>(fn: () => Promise<T>) => pglite._runExclusiveTransaction(() => pglite.runExclusive(fn));
  const parsers = { ...pglite.parsers, ...SQL_TYPE_PARSERS };

  return async function query(text: string, values: readonly unknown[] = []): Promise<StatementResult> {
    const params = textParams(values);
    if (!params || (!names.has(text) && names.size >= maxStatements)) {
      const { rows, affectedRows } = await pglite.query(text, values.map(driverValue), { parsers: SQL_TYPE_PARSERS });
      return { rows, count: affectedRows ?? rows.length };
    }
    return exclusive(async () => {
      let name = names.get(text);
      if (!name) {
        name = `${prefix}${names.size + 1}`;
        // On its own, with its Sync: a statement that does not parse is never recorded.
        await pglite.execProtocol(concat([serialize.parse({ name, text }), serialize.sync()]));
        names.set(text, name);
      }
      const { messages } = await pglite.execProtocol(
        concat([serialize.bind({ statement: name, values: params }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      );
      const [{ rows, affectedRows }] = pgliteParse.parseResults(messages, parsers);
      return { rows, count: affectedRows ?? rows.length };
    });
  };
}
