/**
 * Keyset pages for the lists (browse, the caller's resources, the members list): a page size
 * checked against its bounds, and opaque cursors holding the sort key of a page's last entry.
 */
import { fail } from '../errors.js';

/** The page size asked for, or the default; a size out of bounds is a 400 naming them. */
export function pageLimit(limit: number | null | undefined, bounds: { default: number; max: number }): number {
  const size = limit ?? bounds.default;
  if (!Number.isInteger(size) || size < 1 || size > bounds.max) throw fail('invalid_argument', `limit: must be an integer from 1 to ${bounds.max}.`);
  return size;
}

/** The caller's resources and a members list: one page holds them all but in the largest cases. */
export const LIST_PAGE = { default: 1000, max: 1000 } as const;

export interface PageInput {
  limit?: number | null;
  cursor?: string | null;
}

type KeyPart = string | number;

/** A cursor holding `key` (the sort key of the last entry returned). */
export const encodeCursor = (key: readonly KeyPart[]): string => Buffer.from(JSON.stringify(key)).toString('base64url');

/** The sort key in a cursor this API returned, its parts strings or integers as `types` says; 400 invalid_cursor otherwise. */
export function decodeCursor<const T extends readonly ('string' | 'number')[]>(
  cursor: string,
  types: T,
): { [K in keyof T]: T[K] extends 'string' ? string : number } {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const valid =
      Array.isArray(key) &&
      key.length === types.length &&
      key.every((part, i) => (types[i] === 'string' ? typeof part === 'string' && !part.includes('\0') : Number.isSafeInteger(part)));
    if (!valid) throw new Error('bad cursor');
    return key as { [K in keyof T]: T[K] extends 'string' ? string : number };
  } catch {
    throw fail('invalid_cursor', 'cursor: not a cursor this API returned; pass nextCursor from the previous page.');
  }
}

/** A page of `limit` from `rows` (fetched with `limit + 1`): the extra row says there is a next one. */
export function pageOf<Row, Entry>(rows: Row[], limit: number, entry: (row: Row) => Entry, key: (row: Row) => readonly KeyPart[]) {
  const page = rows.slice(0, limit);
  return { entries: page.map(entry), nextCursor: rows.length > limit ? encodeCursor(key(page[page.length - 1])) : null };
}

/** The one refusal of a list longer than a page: `More than 1000 <what>: <hint>`. */
const tooManyResults = (what: string, hint: string) => fail('too_many_results', `More than ${LIST_PAGE.max} ${what}: ${hint}`);

/**
 * A whole list asked for (GraphQL's `resources`, `members`, `invitations`) when it is longer than
 * one page: a clear refusal rather than a cut-off list or an unbounded answer.
 */
export function wholeList<T>(page: { nextCursor: string | null }, entries: T[], paged: string): T[] {
  if (page.nextCursor === null) return entries;
  throw tooManyResults('entries', `read them a page at a time with ${paged} (limit, cursor: nextCursor of the previous page).`);
}

/** Rows to read for a list without pages: one more than it may hold, so `boundedList` can tell. */
export const BOUNDED_LIST_TAKE = LIST_PAGE.max + 1;

/**
 * A list without pages (blocks, invitations, room grants, apps), read with `BOUNDED_LIST_TAKE`:
 * the list, or a refusal when it holds more than a page, so no request reads past that.
 */
export function boundedList<T>(rows: T[], what: string, hint: string): T[] {
  if (rows.length <= LIST_PAGE.max) return rows;
  throw tooManyResults(what, hint);
}
