/**
 * The one convention of the SQL layer (src/db/sql.ts) for values, on every store and every path,
 * the same as Prisma's: a `timestamp` (Gatehouse's columns hold UTC wall time) is a Date, an
 * `int8` a bigint; parameters that are Dates go as UTC.
 */
import { Prisma } from '../generated/prisma/client.js';

/** PostgreSQL's `timestamp` (without time zone): Gatehouse's columns, holding UTC wall time. */
export const TIMESTAMP_OID = 1114;
/** PostgreSQL's `int8`. */
export const INT8_OID = 20;

/** A `timestamp` as text ('2026-11-26 17:40:00.123') read as the UTC instant it holds. */
export const parseUtcTimestamp = (text: string): Date => new Date(`${text.replace(' ', 'T')}Z`);

/** Column parsers the drivers use for the layer, by type oid. */
export const SQL_TYPE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [TIMESTAMP_OID]: parseUtcTimestamp,
  [INT8_OID]: text => BigInt(text),
};

/**
 * A value as the drivers should get it: a Date as UTC ISO text. The drivers' own Date formatting
 * follows the process's time zone; Prisma's (and the columns') is UTC.
 */
export const driverValue = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/** A driver's answer to one statement: its rows and how many rows it wrote (or returned). */
export interface StatementResult {
  rows: unknown[];
  count: number;
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
