/**
 * Row values against their table's declared columns (docs/api.md §11.3): what an insert or update
 * may write, how each type is stored, and what `where` and `orderBy` may name. Pure; every
 * refusal is a 400 naming the table and field.
 *
 * Stored forms are chosen so that one SQL expression per type both orders and compares correctly
 * (src/services/rows-sql.ts): timestamps as UTC ISO strings of one fixed width, uuids lowercase,
 * bigints as decimal strings (JSON numbers cannot hold every 64-bit integer), integers as numbers.
 */
import { z } from 'zod';
import { type AppError, badRequest } from '../errors.js';

export const ROW_COLUMN_TYPES = ['text', 'uuid', 'integer', 'bigint', 'boolean', 'jsonb', 'timestamp'] as const;
export type RowColumnType = (typeof ROW_COLUMN_TYPES)[number];

/** The parts of a declared column and table these rules read (structurally the schema IR's). */
export interface RowColumn {
  type: RowColumnType;
  notNull: boolean;
  unique: boolean;
  default?: unknown;
}
export interface RowTable {
  columns: Record<string, RowColumn>;
  timestamps: boolean;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** Column values as stored in `rows.data`: a null value is an absent key. */
export type RowData = Record<string, JsonValue>;

/** One row's stored values, as JSON text. */
export const ROW_MAX_CHARS = 65_536;

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isoDateTime = z.iso.datetime({ offset: true });

/**
 * The field a row reads back its server-recorded creator under (docs/api.md §11.3): the one the
 * `creator` access rule checks. `_`-prefixed because no declared column can start with `_`
 * (COLUMN_NAME_PATTERN in src/schema/ir.ts), so it never collides with an app's own `creatorId`.
 */
export const CREATOR_FIELD = '_creatorId';

/** Fields every row has that no write may set: the server owns them. */
const SERVER_FIELDS = new Set(['id', 'createdAt', 'updatedAt', 'created_at', 'updated_at', CREATOR_FIELD, 'resourceId']);
const ROOM_FIELDS = new Set(['roomId', 'room_id']);

export const virtualRoomId = (where: string) =>
  badRequest(
    'virtual_room_id',
    `${where}: roomId is virtual (docs/api.md §10 rule 6): rows are placed by scope.roomId and moveRoom; it is never written, filtered, ordered by or projected.`,
  );

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownColumn(table: string, name: string, row: RowTable): AppError {
  const known = Object.keys(row.columns).sort().join(', ') || 'none';
  return badRequest('unknown_column', `${table} has no column ${JSON.stringify(name)} (its columns: ${known}).`);
}

/** The stored form of `value` for a column of `type`, or a 400 `invalid_value` saying what was expected. */
export function storedValue(table: string, name: string, type: RowColumnType, value: unknown): JsonValue {
  const refuse = (expected: string) =>
    badRequest('invalid_value', `${table}.${name}: expected ${expected}, got ${describe(value)}.`, { table, column: name });
  switch (type) {
    case 'text':
      if (typeof value !== 'string') throw refuse('a string');
      return value;
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) throw refuse('a UUID string');
      return value.toLowerCase();
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32.min || value > INT32.max) throw refuse('a 32-bit integer');
      return value;
    case 'bigint': {
      const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value : null;
      if (text === null || !/^-?\d{1,19}$/.test(text) || BigInt(text) < INT64.min || BigInt(text) > INT64.max) {
        throw refuse('a 64-bit integer (a decimal string, or a JSON number within ±2^53)');
      }
      return BigInt(text).toString();
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw refuse('true or false');
      return value;
    case 'jsonb':
      return value as JsonValue;
    case 'timestamp': {
      if (typeof value !== 'string' || !isoDateTime.safeParse(value).success)
        throw refuse('an ISO 8601 date-time with an offset (e.g. 2026-01-31T12:00:00Z)');
      const date = new Date(value);
      const year = date.getUTCFullYear();
      if (Number.isNaN(date.getTime()) || year < 0 || year > 9999) throw refuse('a date-time between years 0000 and 9999');
      return date.toISOString();
    }
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value).slice(0, 80)}`;
}

/** Rejects names no write may set, and names the table does not declare. */
function writableColumn(table: string, row: RowTable, name: string, where: string): RowColumn {
  if (ROOM_FIELDS.has(name)) throw virtualRoomId(`${where}.${name}`);
  if (SERVER_FIELDS.has(name)) {
    throw badRequest('column_not_writable', `${where}.${name}: ${name} is set by the server and cannot be written.`);
  }
  const column = Object.hasOwn(row.columns, name) ? row.columns[name] : undefined;
  if (!column) throw unknownColumn(table, name, row);
  return column;
}

function checkSize(table: string, data: RowData): RowData {
  if (JSON.stringify(data).length > ROW_MAX_CHARS) {
    throw badRequest('row_too_large', `${table}: a row's values may hold at most ${ROW_MAX_CHARS} characters of JSON.`);
  }
  return data;
}

const notNullMissing = (table: string, name: string) =>
  badRequest('missing_value', `${table}.${name} is notNull and has no default: give it a value.`, { table, column: name });

/** An insert's values: declared columns only, each in its stored form, defaults filled, notNull held. */
export function insertData(table: string, row: RowTable, values: unknown, where = 'values'): RowData {
  if (!isPlainObject(values)) throw badRequest('invalid_value', `${where}: expected an object of column values, got ${describe(values)}.`);
  const data: RowData = {};
  for (const [name, value] of Object.entries(values)) {
    const column = writableColumn(table, row, name, where);
    if (value !== null && value !== undefined) data[name] = storedValue(table, name, column.type, value);
  }
  for (const [name, column] of Object.entries(row.columns)) {
    if (name in data) continue;
    if (column.default !== undefined && column.default !== null) data[name] = storedValue(table, name, column.type, column.default);
    else if (column.notNull) throw notNullMissing(table, name);
  }
  return checkSize(table, data);
}

/** An update's changes: `set` in stored form, `unset` for explicit nulls (absent keys read as null). */
export function updateData(table: string, row: RowTable, values: unknown, where = 'values'): { set: RowData; unset: string[] } {
  if (!isPlainObject(values) || Object.keys(values).length === 0) {
    throw badRequest('invalid_value', `${where}: expected an object naming at least one column to change.`);
  }
  const set: RowData = {};
  const unset: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const column = writableColumn(table, row, name, where);
    if (value === null || value === undefined) {
      if (column.notNull) throw badRequest('missing_value', `${table}.${name} is notNull: it cannot be set to null.`, { table, column: name });
      unset.push(name);
    } else set[name] = storedValue(table, name, column.type, value);
  }
  return { set, unset };
}

/** The merged values after an update, size-checked. */
export function applyUpdate(table: string, data: RowData, change: { set: RowData; unset: string[] }): RowData {
  const next: RowData = { ...data, ...change.set };
  for (const name of change.unset) delete next[name];
  return checkSize(table, next);
}

/** A field `where` and `orderBy` may name: a declared column, the row id, or a server timestamp. */
export type RowField =
  | { kind: 'column'; name: string; type: RowColumnType }
  | { kind: 'id'; name: 'id' }
  | { kind: 'createdAt' | 'updatedAt'; name: 'createdAt' | 'updatedAt' };

export const ID_FIELD: RowField = { kind: 'id', name: 'id' };
/** Server insertion time: the default order, whether or not the table exposes it. */
export const CREATED_FIELD: RowField = { kind: 'createdAt', name: 'createdAt' };

export function rowField(table: string, row: RowTable, name: string, where: string): RowField {
  if (ROOM_FIELDS.has(name)) throw virtualRoomId(where);
  if (name === 'id') return ID_FIELD;
  if (name === 'createdAt' || name === 'updatedAt') {
    if (!row.timestamps)
      throw badRequest('unknown_column', `${where}: ${table} has no ${name}: it exists only on tables declared with timestamps().`);
    return { kind: name, name };
  }
  const column = Object.hasOwn(row.columns, name) ? row.columns[name] : undefined;
  if (!column) throw unknownColumn(table, name, row);
  return { kind: 'column', name, type: column.type };
}

export const COMPARISONS = ['eq', 'gt', 'gte', 'lt', 'lte'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** One `where` term; `value` is in stored form (ISO text for timestamps, lowercase uuids), null only with `eq`. */
export interface Condition {
  field: RowField;
  op: Comparison;
  value: JsonValue;
}

export const MAX_WHERE_TERMS = 20;

/** A field's value in `where` or a cursor, in the form its SQL expression compares. */
export function fieldValue(table: string, field: RowField, value: unknown): JsonValue {
  if (field.kind === 'column') return storedValue(table, field.name, field.type, value);
  if (field.kind === 'id') return storedValue(table, 'id', 'uuid', value);
  return storedValue(table, field.name, 'timestamp', value);
}

/**
 * `where: { column: value }` is equality (`null` matches absent values); `{ column: { gt: 1, lte: 9 } }`
 * compares. jsonb columns compare by equality only, written `{ eq: value }` when the value is an object.
 */
export function parseWhere(table: string, row: RowTable, where: unknown): Condition[] {
  if (where === undefined || where === null) return [];
  if (!isPlainObject(where)) throw badRequest('invalid_filter', `where: expected an object of { column: value | { eq, gt, gte, lt, lte } }.`);
  const entries = Object.entries(where);
  if (entries.length > MAX_WHERE_TERMS) throw badRequest('invalid_filter', `where: at most ${MAX_WHERE_TERMS} columns.`);
  const conditions: Condition[] = [];
  for (const [name, spec] of entries) {
    const field = rowField(table, row, name, `where.${name}`);
    const ops = isPlainObject(spec) ? Object.entries(spec) : [['eq', spec] as const];
    if (ops.length === 0) throw badRequest('invalid_filter', `where.${name}: name at least one of ${COMPARISONS.join(', ')}.`);
    for (const [op, value] of ops) {
      if (!(COMPARISONS as readonly string[]).includes(op)) {
        throw badRequest('invalid_filter', `where.${name}.${op}: unknown comparison (use ${COMPARISONS.join(', ')}).`);
      }
      const unordered = field.kind === 'column' && (field.type === 'jsonb' || field.type === 'boolean');
      if (op !== 'eq' && unordered)
        throw badRequest('invalid_filter', `where.${name}.${op}: ${field.kind === 'column' ? field.type : ''} columns compare by equality only.`);
      if (value === null || value === undefined) {
        if (op !== 'eq') throw badRequest('invalid_filter', `where.${name}.${op}: needs a value (null matches with equality only).`);
        conditions.push({ field, op: 'eq', value: null });
      } else conditions.push({ field, op: op as Comparison, value: fieldValue(table, field, value) });
    }
  }
  return conditions;
}

export interface RowOrder {
  field: RowField;
  direction: 'asc' | 'desc';
}

/** `orderBy: { column, direction? }` on one orderable field; ties always break on id in the same direction. */
export function parseOrder(table: string, row: RowTable, orderBy: unknown): RowOrder {
  if (orderBy === undefined || orderBy === null) return { field: CREATED_FIELD, direction: 'asc' };
  if (!isPlainObject(orderBy) || typeof orderBy.column !== 'string') {
    throw badRequest('invalid_order', 'orderBy: expected { column, direction? } with direction asc (default) or desc.');
  }
  const extra = Object.keys(orderBy).filter(key => key !== 'column' && key !== 'direction');
  if (extra.length) throw badRequest('invalid_order', `orderBy: unknown field ${extra[0]} (expected column and direction).`);
  const direction = orderBy.direction ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') throw badRequest('invalid_order', 'orderBy.direction: expected asc or desc.');
  const field = rowField(table, row, orderBy.column, 'orderBy.column');
  if (field.kind === 'column' && field.type === 'jsonb')
    throw badRequest('invalid_order', `orderBy.column: ${orderBy.column} is jsonb, which has no order.`);
  return { field, direction };
}

/**
 * Whether a row passes `conditions`, as the SQL of a select would judge it (src/services/rows-sql.ts):
 * numbers numerically, text and timestamps (stored as ISO text) in code-point order, jsonb by
 * equality, and `eq null` as IS NULL. `row` holds the fields in stored form, as the row store reads
 * them; the live row feed filters its events with it.
 */
export function rowMatches(row: Readonly<Record<string, unknown>>, conditions: readonly Condition[]): boolean {
  return conditions.every(condition => {
    const actual = (row[condition.field.name] ?? null) as JsonValue;
    if (condition.value === null) return actual === null;
    if (actual === null) return false;
    const numeric = condition.field.kind === 'column' && (condition.field.type === 'integer' || condition.field.type === 'bigint');
    let order: number;
    if (numeric) {
      const a = BigInt(String(actual).split('.')[0]);
      const b = BigInt(String(condition.value).split('.')[0]);
      order = a < b ? -1 : a > b ? 1 : 0;
    } else if (condition.field.kind === 'column' && (condition.field.type === 'jsonb' || condition.field.type === 'boolean')) {
      if (condition.op !== 'eq') return false;
      order = JSON.stringify(actual) === JSON.stringify(condition.value) ? 0 : 1;
    } else {
      const a = String(actual);
      const b = String(condition.value);
      order = a < b ? -1 : a > b ? 1 : 0;
    }
    const passes: Record<Comparison, boolean> = { eq: order === 0, gt: order > 0, gte: order >= 0, lt: order < 0, lte: order <= 0 };
    return passes[condition.op];
  });
}
