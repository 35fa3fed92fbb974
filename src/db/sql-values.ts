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

/**
 * A `timestamp` as text ('2026-11-26 17:40:00.123') read as the UTC instant it holds. The shape
 * PostgreSQL writes is read digit by digit (the Date string parser was a tenth of a 10-row list's
 * own CPU); anything else (BC, infinity, a year before 100, a field out of range) goes to the Date
 * parser as before. Fractions past milliseconds are truncated, as that parser does.
 */
export function parseUtcTimestamp(text: string): Date {
  const instant = plainUtcTimestamp(text);
  return instant === null ? new Date(`${text.replace(' ', 'T')}Z`) : new Date(instant);
}

/** 'YYYY-MM-DD HH:MM:SS[.f{1,6}]' as epoch milliseconds, or null for any other text. */
function plainUtcTimestamp(text: string): number | null {
  const length = text.length;
  if (length < 19 || length === 20 || length > 26) return null;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':') return null;
  if (length > 19 && text[19] !== '.') return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  const fraction = length > 19 ? digits(text, 20, length) : 0;
  // Date.UTC reads years 0-99 as 1900-1999.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || fraction < 0) return null;
  const places = length - 20;
  const millisecond = places <= 0 ? 0 : places <= 3 ? fraction * 10 ** (3 - places) : Math.trunc(fraction / 10 ** (places - 3));
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
}

/** The decimal number in text[from, to), or -1 when a character there is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

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

/**
 * A parameter as PostgreSQL's text input reads it. Dates go as UTC ISO text (`driverValue`), arrays
 * as array literals, other objects as JSON; `null` stays NULL.
 */
export function textParameter(raw: unknown): string | Buffer | null {
  const value = driverValue(raw);
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map(item => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteral(item);
    const text = textParameter(item);
    return `"${String(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

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
