/**
 * The one operation shape of the row store (docs/api.md §11.1), its limits, and keyset cursors.
 * REST bodies and GraphQL inputs both arrive here as plain objects.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type Condition, type RowField, type RowOrder, fieldValue } from './row-values.rules.js';
import { fail, parseInput } from '../errors.js';
import type { Resume } from './rows.sql.js';

export const DB_OPS = ['insert', 'select', 'update', 'delete', 'upsert', 'link', 'unlink', 'moveRoom'] as const;
export type DbOp = (typeof DB_OPS)[number];
export const DB_SCOPE_KINDS = ['user', 'resource', 'type'] as const;

/** docs/api.md §11.7. */
export const ROWS_DEFAULT_LIMIT = 50;
export const ROWS_MAX_LIMIT = 200;
/** Row ids per update, delete, link, unlink or moveRoom; rows per insert. */
export const ROWS_MAX_IDS = 100;
export const ROWS_MAX_BATCH = 20;
/** Rows one update or delete by `where` may change, all in its one transaction. */
export const ROWS_MAX_WHERE = 1000;
/** How deep JSON may nest in one operation (its `where`, `values` and jsonb values included). */
export const ROWS_MAX_JSON_DEPTH = 64;

const name = (what: string) =>
  z
    .string({ message: `must be a ${what} name` })
    .min(1, 'must not be empty')
    .max(63, 'is too long');
/** Columns one `onConflict` may name. */
const MAX_KEY_COLUMNS = 20;
const id = z.string({ message: 'must be a string' }).min(1, 'must not be empty').max(100, 'is too long');

export const dbScopeSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('user') }),
    z.strictObject({ kind: z.literal('resource'), resourceId: id, roomId: id.optional() }),
    z.strictObject({ kind: z.literal('type'), type: name('resource type') }),
  ],
  { message: `kind must be one of ${DB_SCOPE_KINDS.join(', ')}` },
);
export type DbScope = z.output<typeof dbScopeSchema>;

export const dbOperationSchema = z.strictObject({
  scope: dbScopeSchema,
  table: name('table'),
  op: z.enum(DB_OPS, { message: `must be one of ${DB_OPS.join(', ')}` }),
  values: z.unknown().optional(),
  where: z.unknown().optional(),
  orderBy: z.unknown().optional(),
  limit: z
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(ROWS_MAX_LIMIT, `must be at most ${ROWS_MAX_LIMIT}`)
    .optional(),
  cursor: z.string({ message: 'must be a string' }).max(2000, 'is not a cursor this API returned').optional(),
  ids: z.array(id).min(1, 'must name at least one row').max(ROWS_MAX_IDS, `at most ${ROWS_MAX_IDS} per operation`).optional(),
  destination: id.optional(),
  // A unique key's columns: a list, or one name; either may be comma-separated, as apps write it.
  onConflict: z
    .union([z.string().max(2000), z.string().max(2000).array().max(MAX_KEY_COLUMNS)], { message: 'must be a column name or a list of them' })
    .transform(value => (typeof value === 'string' ? [value] : value).flatMap(part => part.split(',')).map(column => column.trim()))
    .pipe(name('column').array().min(1, 'must name at least one column').max(MAX_KEY_COLUMNS, `at most ${MAX_KEY_COLUMNS} columns`))
    .optional(),
});
export type DbOperation = z.output<typeof dbOperationSchema>;

/** Which optional fields each op takes; anything else is refused rather than silently ignored. */
const FIELDS: Record<DbOp, readonly (keyof DbOperation)[]> = {
  select: ['where', 'orderBy', 'limit', 'cursor', 'ids'],
  insert: ['values'],
  update: ['ids', 'where', 'values'],
  delete: ['ids', 'where'],
  upsert: ['values', 'onConflict'],
  link: ['ids'],
  unlink: ['ids'],
  moveRoom: ['ids', 'destination'],
};
const REQUIRED: Record<DbOp, readonly (keyof DbOperation)[]> = {
  select: [],
  insert: ['values'],
  update: ['values'],
  delete: [],
  upsert: ['values', 'onConflict'],
  link: ['ids'],
  unlink: ['ids'],
  moveRoom: ['ids', 'destination'],
};
const OPTIONAL_FIELDS = ['values', 'where', 'orderBy', 'limit', 'cursor', 'ids', 'destination', 'onConflict'] as const;

/** GraphQL sends absent input fields as null; a null here means "not given". */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Refuses what no store can hold or no check should walk, before anything reads the operation:
 * strings (and object keys) that are not well-formed UTF-16 (a lone surrogate has no UTF-8 form,
 * so PostgreSQL would refuse it mid-statement), and JSON nested past ROWS_MAX_JSON_DEPTH (the
 * size check and the SQL parameters serialise it recursively). Iterative, so any depth is safe.
 */
export function assertWellFormed(value: unknown, where: string): void {
  const stack: [unknown, string, number][] = [[value, where, 0]];
  while (stack.length) {
    const [item, path, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) throw loneSurrogate(path);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= ROWS_MAX_JSON_DEPTH) {
      throw fail('invalid_value', `${path}: JSON nested deeper than ${ROWS_MAX_JSON_DEPTH} levels; flatten the value.`);
    }
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}.${i}`, depth + 1]);
      continue;
    }
    for (const [key, child] of Object.entries(item).reverse()) {
      if (LONE_SURROGATE.test(key)) throw loneSurrogate(path, 'a key');
      stack.push([child, `${path}.${key}`, depth + 1]);
    }
  }
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const loneSurrogate = (path: string, what = 'a string') =>
  fail('invalid_value', `${path}: ${what} holds a lone UTF-16 surrogate; send well-formed Unicode text.`);

export function parseOperation(input: unknown, where = 'input'): DbOperation {
  assertWellFormed(input, where);
  const raw = withoutNulls(input) as Record<string, unknown>;
  if (raw && typeof raw === 'object' && 'scope' in raw) raw.scope = withoutNulls(raw.scope);
  const op = parseInput(dbOperationSchema, raw, where);
  for (const field of OPTIONAL_FIELDS) {
    if (op[field] !== undefined && !FIELDS[op.op].includes(field)) {
      throw fail('invalid_operation', `${where}.${field}: ${op.op} takes no ${field} (it takes ${FIELDS[op.op].join(', ')}).`);
    }
  }
  for (const field of REQUIRED[op.op]) {
    if (op[field] === undefined) throw fail('invalid_operation', `${where}.${field}: ${op.op} needs ${field}.`);
  }
  // An update or delete names its rows by id or by a filter, one or the other.
  if ((op.op === 'update' || op.op === 'delete') && (op.ids === undefined) === (op.where === undefined)) {
    throw fail('invalid_operation', `${where}: ${op.op} takes either ids or where (a filter, matching at most ${ROWS_MAX_WHERE} rows).`);
  }
  return op;
}

export function parseBatch(input: unknown): DbOperation[] {
  if (!Array.isArray(input) || input.length === 0 || input.length > ROWS_MAX_BATCH) {
    throw fail('invalid_argument', `operations: expected 1 to ${ROWS_MAX_BATCH} operations.`);
  }
  return input.map((item, i) => parseOperation(item, `operations[${i}]`));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Row ids are UUIDs; anything else can name no row. */
export function rowIds(ids: readonly string[]): string[] {
  return ids.map((value, i) => {
    if (!UUID.test(value)) throw fail('invalid_value', `ids[${i}]: ${JSON.stringify(value.slice(0, 80))} is not a row id (a UUID).`);
    return value.toLowerCase();
  });
}

/**
 * Keyset cursors: the last row's sort value and id, with a digest of the query they belong to,
 * base64url JSON. Not a capability: it only says where to resume inside what the caller may read,
 * and it is refused for any other query (another scope, table, filter or order).
 */
export function querySignature(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export const encodeCursor = (signature: string, resume: Resume) =>
  Buffer.from(JSON.stringify([signature, resume.value, resume.id])).toString('base64url');

const invalidCursor = (why: string) => fail('invalid_cursor', `cursor: ${why}; pass nextCursor from the previous page of the same query.`);
const NUMERIC = /^-?\d{1,40}(\.\d{1,40})?$/;

export function decodeCursor(cursor: string, signature: string, order: RowOrder, table: string): Resume {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('not a cursor this API returned');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== 'string' || typeof parsed[2] !== 'string') {
    throw invalidCursor('not a cursor this API returned');
  }
  const [sig, value, rowId] = parsed as [string, unknown, string];
  if (sig !== signature) throw invalidCursor('it belongs to another query (scope, table, where, ids or orderBy differ)');
  if (!UUID.test(rowId) || (value !== null && typeof value !== 'string')) throw invalidCursor('not a cursor this API returned');
  if (value !== null && !resumeValueOk(order.field, value, table)) throw invalidCursor('not a cursor this API returned');
  return { value, id: rowId };
}

function resumeValueOk(field: RowField, value: string, table: string): boolean {
  if (field.kind === 'column' && (field.type === 'integer' || field.type === 'bigint')) return NUMERIC.test(value);
  if (field.kind === 'column' && field.type !== 'uuid' && field.type !== 'timestamp') return true;
  try {
    fieldValue(table, field, value);
    return true;
  } catch {
    return false;
  }
}

/** The sort value of a row as a cursor keeps it (the text its SQL expression yields). */
export function resumeValue(
  field: RowField,
  row: { id: string; data: Record<string, unknown>; created_at: string; updated_at: string },
): string | null {
  if (field.kind === 'id') return row.id;
  if (field.kind === 'createdAt') return row.created_at;
  if (field.kind === 'updatedAt') return row.updated_at;
  const value = row.data[field.name];
  return value === null || value === undefined ? null : String(value);
}

export type { Condition };
