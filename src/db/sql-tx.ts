/**
 * Prisma's raw-SQL calling convention (`$queryRaw`, `$executeRaw`) on a driver transaction, kept
 * while services move to the SQL layer (src/db/sql.ts): it goes once none calls it.
 */
import { Prisma } from '../generated/prisma/client.js';
import { type StatementResult, driverValue } from './sql-values.js';

export { sqlStateOf } from './sql-values.js';

/** Prisma's raw-SQL calls, as a driver transaction answers them. */
export interface RawStatements {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

/**
 * The statement of a `$queryRaw` call (a tagged template or a `Prisma.sql` fragment): text with
 * $n placeholders, and values as the driver should send them (`driverValue`).
 */
export function statementOf(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): { text: string; values: unknown[] } {
  const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  return { text: sql.text, values: sql.values.map(driverValue) };
}

/** The transaction handle over a driver's `run` of one statement (text with $n placeholders, values). */
export function rawStatements(run: (text: string, values: unknown[]) => Promise<StatementResult>): RawStatements {
  const execute = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const statement = statementOf(query, values);
    return run(statement.text, statement.values);
  };
  return {
    $queryRaw: async <T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await execute(query, values)).rows as T,
    $executeRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await execute(query, values)).count,
  };
}
