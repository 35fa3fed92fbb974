/**
 * Row values against their table's declared columns (docs/api.md §11.3): what an insert or update
 * may write, how each type is stored, and what `where` and `orderBy` may name. Pure; every
 * refusal is a 400 naming the table and field.
 *
 * Stored forms are chosen so that one SQL expression per type both orders and compares correctly
 * (src/rows/rows.sql.ts): timestamps as UTC ISO strings of one fixed width, uuids lowercase,
 * bigints as decimal strings (JSON numbers cannot hold every 64-bit integer), integers as numbers.
 */
import { type AppError, fail } from '../errors.js';

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
/** `2026-01-31`, `2026-01-31T12:00`, `…:30`, `….123456`, each with `Z`, `+02:00`, `+0200`, `+02` or no offset; `T` or a space. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A timestamp as apps send it (docs/api.md §11.3): a date alone is midnight UTC, a date-time
 * without an offset is UTC, one with an offset is converted. Milliseconds are kept (finer digits
 * are cut). Null when it is no such text or names no real instant (a 31st of April, 24:00).
 */
export function parseTimestamp(text: string): Date | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(part =>
    part === undefined ? undefined : Number(part),
  ) as number[];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetHours = m[10] === undefined ? 0 : Number(m[10]);
  const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  // Date.UTC maps years 0-99 to 1900-1999: set the year on its own.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  return new Date(date.getTime() - offset * 60_000);
}

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
  fail(
    'virtual_room_id',
    `${where}: roomId is virtual (docs/api.md §10 rule 6): rows are placed by scope.roomId and moveRoom; it is never written, filtered, ordered by or projected.`,
  );

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownColumn(table: string, name: string, row: RowTable): AppError {
  const known = Object.keys(row.columns).sort().join(', ') || 'none';
  return fail('unknown_column', `${table} has no column ${JSON.stringify(name)} (its columns: ${known}).`);
}

/** The stored form of `value` for a column of `type`, or a 400 `invalid_value` saying what was expected. */
export function storedValue(table: string, name: string, type: RowColumnType, value: unknown): JsonValue {
  const refuse = (expected: string) =>
    fail('invalid_value', `${table}.${name}: expected ${expected}, got ${describe(value)}.`, { table, column: name });
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
      const date = typeof value === 'string' ? parseTimestamp(value) : null;
      if (!date) throw refuse('an ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00, UTC without an offset, or with one: Z, +02:00)');
      const year = date.getUTCFullYear();
      // PostgreSQL's timestamps have no year 0 (22008): the range is years 0001-9999, in UTC.
      if (year < 1 || year > 9999) throw refuse('a date-time between years 0001 and 9999 (in UTC)');
      return date.toISOString();
    }
  }
}

/**
 * A stored value as rows read back (docs/api.md §11.1): bigints as JSON numbers while they are
 * safe integers (|n| <= 2^53 - 1), as decimal strings beyond, where a number would lose digits.
 */
export function readValue(type: RowColumnType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'bigint' && typeof value === 'string') {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : value;
  }
  return value;
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
    throw fail('column_not_writable', `${where}.${name}: ${name} is set by the server and cannot be written.`);
  }
  const column = Object.hasOwn(row.columns, name) ? row.columns[name] : undefined;
  if (!column) throw unknownColumn(table, name, row);
  return column;
}

/** `data` if its JSON fits a row, else 413-style row_too_large. */
export function checkSize(table: string, data: RowData): RowData {
  if (JSON.stringify(data).length > ROW_MAX_CHARS) {
    throw fail('row_too_large', `${table}: a row's values may hold at most ${ROW_MAX_CHARS} characters of JSON.`);
  }
  return data;
}

const notNullMissing = (table: string, name: string) =>
  fail('missing_value', `${table}.${name} is notNull and has no default: give it a value.`, { table, column: name });

/** An insert's values: declared columns only, each in its stored form, defaults filled, notNull held. */
export function insertData(table: string, row: RowTable, values: unknown, where = 'values'): RowData {
  if (!isPlainObject(values)) throw fail('invalid_value', `${where}: expected an object of column values, got ${describe(values)}.`);
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
/** An update's change: columns set to values, columns set to null (removed). */
export interface RowChange {
  set: RowData;
  unset: string[];
}

export function updateData(table: string, row: RowTable, values: unknown, where = 'values'): RowChange {
  if (!isPlainObject(values) || Object.keys(values).length === 0) {
    throw fail('invalid_value', `${where}: expected an object naming at least one column to change.`);
  }
  const set: RowData = {};
  const unset: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const column = writableColumn(table, row, name, where);
    if (value === null || value === undefined) {
      if (column.notNull) throw fail('missing_value', `${table}.${name} is notNull: it cannot be set to null.`, { table, column: name });
      unset.push(name);
    } else set[name] = storedValue(table, name, column.type, value);
  }
  return { set, unset };
}

/** The merged values after an update, size-checked. */
export function applyUpdate(table: string, data: RowData, change: RowChange): RowData {
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
    if (!row.timestamps) throw fail('unknown_column', `${where}: ${table} has no ${name}: it exists only on tables declared with timestamps().`);
    return { kind: name, name };
  }
  const column = Object.hasOwn(row.columns, name) ? row.columns[name] : undefined;
  if (!column) throw unknownColumn(table, name, row);
  return { kind: 'column', name, type: column.type };
}

/** The operators `where` takes per column (docs/api.md §11.3); `not` negates the ones under it. */
export const COMPARISONS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is'] as const;
export type Comparison = (typeof COMPARISONS)[number];
/** What a condition tests: `neq` and `is` are spelled with these (`eq` with `not`, `eq` null or a boolean). */
export type ConditionOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in';

/**
 * One `where` term, in stored form (ISO text for timestamps, lowercase uuids): `eq` with a null
 * value is IS NULL; `in` holds a list; `not` negates the test (SQL's NOT: a row whose field is
 * absent passes neither a comparison nor its negation, except IS NULL and an empty `in`).
 */
export interface Condition {
  field: RowField;
  op: ConditionOp;
  value: JsonValue;
  not?: true;
}

export const MAX_WHERE_TERMS = 20;
/** Values one `in` may list. */
export const MAX_IN_VALUES = 1000;

/** A field's value in `where` or a cursor, in the form its SQL expression compares. */
export function fieldValue(table: string, field: RowField, value: unknown): JsonValue {
  if (field.kind === 'column') return storedValue(table, field.name, field.type, value);
  if (field.kind === 'id') return storedValue(table, 'id', 'uuid', value);
  return storedValue(table, field.name, 'timestamp', value);
}

const WHERE_SHAPE = `{ column: value | { ${COMPARISONS.join(', ')}, not: { … } } }`;
const invalidFilter = (message: string) => fail('invalid_filter', message);

/** `field <op> value` as a condition, `negate`d under `not`. */
function term(table: string, field: RowField, path: string, op: string, value: unknown, negate: boolean): Condition {
  const not = (flip: boolean): { not?: true } => (negate !== flip ? { not: true } : {});
  const type = field.kind === 'column' ? field.type : null;
  switch (op) {
    case 'eq':
    case 'neq':
      if (value === null || value === undefined) return { field, op: 'eq', value: null, ...not(op === 'neq') };
      return { field, op: 'eq', value: fieldValue(table, field, value), ...not(op === 'neq') };
    case 'is':
      if (value === null || value === undefined) return { field, op: 'eq', value: null, ...not(false) };
      if (typeof value === 'boolean' && type === 'boolean') return { field, op: 'eq', value, ...not(false) };
      throw invalidFilter(`${path}: is takes null${type === 'boolean' ? ', true or false' : ' (true and false only on boolean columns)'}.`);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (type === 'jsonb' || type === 'boolean') throw invalidFilter(`${path}: ${type} columns compare by equality only (eq, neq, in, is).`);
      if (value === null || value === undefined) throw invalidFilter(`${path}: needs a value (null matches with eq, neq and is only).`);
      return { field, op, value: fieldValue(table, field, value), ...not(false) };
    case 'in': {
      if (!Array.isArray(value)) throw invalidFilter(`${path}: expected a list of values.`);
      if (value.length > MAX_IN_VALUES) throw invalidFilter(`${path}: at most ${MAX_IN_VALUES} values.`);
      const list = value.map((item, i) => {
        if (item === null || item === undefined) throw invalidFilter(`${path}[${i}]: in lists values; match absent ones with is: null.`);
        return fieldValue(table, field, item);
      });
      return { field, op: 'in', value: list, ...not(false) };
    }
    default:
      throw invalidFilter(`${path}: unknown comparison (use ${COMPARISONS.join(', ')}, or not: { … }).`);
  }
}

/**
 * `where: { column: value }` is equality (`null` matches absent values); `{ column: { gt: 1, lte: 9 } }`
 * compares, several operators ANDed: `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `in` (a list), `is`
 * (null, or a boolean on boolean columns), and `not: { <operator>: value }` negating each one under
 * it. jsonb and boolean columns compare by equality only, written `{ eq: value }` when the value
 * is an object.
 */
export function parseWhere(table: string, row: RowTable, where: unknown): Condition[] {
  if (where === undefined || where === null) return [];
  if (!isPlainObject(where)) throw invalidFilter(`where: expected an object of ${WHERE_SHAPE}.`);
  const entries = Object.entries(where);
  if (entries.length > MAX_WHERE_TERMS) throw invalidFilter(`where: at most ${MAX_WHERE_TERMS} columns.`);
  const conditions: Condition[] = [];
  for (const [name, spec] of entries) {
    const field = rowField(table, row, name, `where.${name}`);
    if (!isPlainObject(spec)) {
      conditions.push(term(table, field, `where.${name}`, 'eq', spec, false));
      continue;
    }
    const ops = Object.entries(spec);
    if (ops.length === 0) throw invalidFilter(`where.${name}: name at least one of ${COMPARISONS.join(', ')}.`);
    for (const [op, value] of ops) {
      if (op !== 'not') {
        conditions.push(term(table, field, `where.${name}.${op}`, op, value, false));
        continue;
      }
      const negated = isPlainObject(value) ? Object.entries(value) : [];
      if (negated.length === 0) throw invalidFilter(`where.${name}.not: expected { <comparison>: value } (${COMPARISONS.join(', ')}).`);
      for (const [inner, v] of negated) conditions.push(term(table, field, `where.${name}.not.${inner}`, inner, v, true));
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
    throw fail('invalid_order', 'orderBy: expected { column, direction? } with direction asc (default) or desc.');
  }
  const extra = Object.keys(orderBy).filter(key => key !== 'column' && key !== 'direction');
  if (extra.length) throw fail('invalid_order', `orderBy: unknown field ${extra[0]} (expected column and direction).`);
  const direction = orderBy.direction ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') throw fail('invalid_order', 'orderBy.direction: expected asc or desc.');
  const field = rowField(table, row, orderBy.column, 'orderBy.column');
  if (field.kind === 'column' && field.type === 'jsonb')
    throw fail('invalid_order', `orderBy.column: ${orderBy.column} is jsonb, which has no order.`);
  return { field, direction };
}

/**
 * Code-point order, as PostgreSQL's COLLATE "C" compares UTF-8 text. JavaScript's `<` compares
 * UTF-16 units, which puts astral characters (surrogates, D800-DFFF) before E000-FFFF: at the
 * first differing unit, shift those two ranges into code-point order (ICU's fix-up).
 */
function codePointOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** jsonb equality: object keys in any order, numbers by value. */
function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every(key => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** How `actual` orders against `expected` (both non-null) for the field's SQL expression; NaN when they are only unequal. */
function order(field: RowField, actual: JsonValue, expected: JsonValue): number {
  if (field.kind === 'column' && (field.type === 'integer' || field.type === 'bigint')) {
    const a = BigInt(String(actual).split('.')[0]);
    const b = BigInt(String(expected).split('.')[0]);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (field.kind === 'column' && (field.type === 'jsonb' || field.type === 'boolean')) return sameJson(actual, expected) ? 0 : Number.NaN;
  return codePointOrder(String(actual), String(expected));
}

/** SQL's three-valued test of one condition before `not`: null when the field is absent (unknown). */
function holds(condition: Condition, actual: JsonValue): boolean | null {
  if (condition.value === null) return actual === null;
  if (condition.op === 'in') {
    const list = condition.value as JsonValue[];
    // `x = ANY('{}')` is false even for a null x.
    if (list.length === 0) return false;
    if (actual === null) return null;
    return list.some(item => order(condition.field, actual, item) === 0);
  }
  if (actual === null) return null;
  const o = order(condition.field, actual, condition.value);
  switch (condition.op) {
    case 'eq':
      return o === 0;
    case 'gt':
      return o > 0;
    case 'gte':
      return o >= 0;
    case 'lt':
      return o < 0;
    case 'lte':
      return o <= 0;
  }
}

/**
 * Whether a row passes `conditions`, as the SQL of a select would judge it (src/rows/rows.sql.ts):
 * numbers numerically, text and timestamps (stored as ISO text) in code-point order, jsonb by
 * equality, `eq null` as IS NULL, and NOT as SQL's (an unknown stays unknown, which fails). `row`
 * holds the fields as the row store reads them (bigints as numbers or decimal strings); the live
 * row feed filters its events with it.
 */
export function rowMatches(row: Readonly<Record<string, unknown>>, conditions: readonly Condition[]): boolean {
  return conditions.every(condition => {
    const result = holds(condition, (row[condition.field.name] ?? null) as JsonValue);
    return result !== null && result !== !!condition.not;
  });
}
