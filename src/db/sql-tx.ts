/**
 * What the driver-level transactions of both backends share (Database.sqlTransaction): turning a
 * `$queryRaw` call into one parameterized statement, and reading timestamps back as Prisma does.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { SqlTx } from './database.js';

/** PostgreSQL's `timestamp` (without time zone): Gatehouse's columns, holding UTC wall time. */
export const TIMESTAMP_OID = 1114;

/** A `timestamp` as text ('2026-11-26 17:40:00.123') read as the UTC instant it holds. */
export const parseUtcTimestamp = (text: string): Date => new Date(`${text.replace(' ', 'T')}Z`);

/**
 * A value as the drivers should get it: a Date as UTC ISO text. The drivers' own Date formatting
 * follows the process's time zone; Prisma's (and the columns') is UTC.
 */
export const driverValue = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/**
 * The statement of a `$queryRaw` call (a tagged template or a `Prisma.sql` fragment): text with
 * $n placeholders, and values as the driver should send them (`driverValue`).
 */
export function statementOf(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): { text: string; values: unknown[] } {
  const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  return { text: sql.text, values: sql.values.map(driverValue) };
}

/** A driver's answer to one statement: its rows and how many rows it wrote. */
export interface StatementResult {
  rows: unknown[];
  count: number;
}

/** The transaction handle over a driver's `run` of one statement (text with $n placeholders, values). */
export function sqlTx(run: (text: string, values: unknown[]) => Promise<StatementResult>): SqlTx {
  const execute = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const statement = statementOf(query, values);
    return run(statement.text, statement.values);
  };
  return {
    $queryRaw: async <T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await execute(query, values)).rows as T,
    $executeRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await execute(query, values)).count,
  };
}

/**
 * The SQLSTATE of a failed statement, from either path: a Prisma raw-query error (P2010) carries it
 * as its driver error's `originalCode`; the drivers' own errors (pg, PGlite) as `code`.
 */
export function sqlStateOf(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
    return typeof cause?.originalCode === 'string' ? cause.originalCode : undefined;
  }
  const code = (error as { code?: unknown; severity?: unknown } | null)?.code;
  return error instanceof Error && 'severity' in error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
