import { describe, expect, it } from 'vitest';
import {
  type Condition,
  type RowColumnType,
  type RowTable,
  insertData,
  parseOrder,
  parseWhere,
  rowMatches,
  storedValue,
  updateData,
} from './row-values.rules.js';

const table: RowTable = {
  timestamps: true,
  columns: {
    title: { type: 'text', notNull: true, unique: false },
    n: { type: 'integer', notNull: false, unique: false, default: 1 },
    big: { type: 'bigint', notNull: false, unique: false },
    meta: { type: 'jsonb', notNull: false, unique: false },
  },
};
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('docs/api.md §11.3 stored forms per column type', () => {
  it.each<[RowColumnType, unknown, unknown]>([
    ['text', 'a', 'a'],
    ['uuid', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
    ['integer', -2147483648, -2147483648],
    ['bigint', 12, '12'],
    ['bigint', '-0012', '-12'],
    ['bigint', '9223372036854775807', '9223372036854775807'],
    ['boolean', false, false],
    ['jsonb', [1, { a: null }], [1, { a: null }]],
    ['timestamp', '2026-01-31T12:00:00+02:00', '2026-01-31T10:00:00.000Z'],
    ['timestamp', '2026-01-31T12:00:00.5Z', '2026-01-31T12:00:00.500Z'],
    ['timestamp', '2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['timestamp', '1970-01-01', '1970-01-01T00:00:00.000Z'],
    ['timestamp', '2026-01-31T12:00:00', '2026-01-31T12:00:00.000Z'],
    ['timestamp', '2026-01-31T12:00', '2026-01-31T12:00:00.000Z'],
    ['timestamp', '2026-01-31 12:00:00.9999', '2026-01-31T12:00:00.999Z'],
    ['timestamp', '2026-01-31T12:00:00+0530', '2026-01-31T06:30:00.000Z'],
    ['timestamp', '2026-01-31T01:00:00-02', '2026-01-31T03:00:00.000Z'],
    ['timestamp', '2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['timestamp', '0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['timestamp', '0099-06-30T00:00:00Z', '0099-06-30T00:00:00.000Z'],
  ])('§11.3: %s %j is stored as %j', (type, value, stored) => {
    expect(storedValue('t', 'c', type, value)).toEqual(stored);
  });

  it.each<[RowColumnType, unknown]>([
    ['text', 1],
    ['uuid', 'a0eebc99'],
    ['integer', 2147483648],
    ['integer', 0.5],
    ['bigint', '9223372036854775808'],
    ['bigint', 2 ** 53],
    ['bigint', '1.0'],
    ['boolean', 0],
    ['timestamp', '2026-1-31'],
    ['timestamp', '2026-02-29'],
    ['timestamp', '2026-04-31'],
    ['timestamp', '2026-01-31T24:00:00'],
    ['timestamp', '2026-01-31T12:60'],
    ['timestamp', '2026-01-31T12'],
    ['timestamp', '2026-01-31T12:00:00+24:00'],
    ['timestamp', '2026-01-31Z'],
    ['timestamp', '0001-01-01T00:00:00+00:01'],
    ['timestamp', 'tomorrow'],
    ['timestamp', 0],
  ])('§11.3: %s refuses %j (400 invalid_value)', (type, value) => {
    expect(code(() => storedValue('t', 'c', type, value))).toBe('invalid_value');
  });
});

describe('docs/api.md §11.3 inserts and updates', () => {
  it('fills defaults, drops nulls (absent keys read as null), requires notNull', () => {
    expect(insertData('t', table, { title: 'x', meta: null })).toEqual({ title: 'x', n: 1 });
    expect(code(() => insertData('t', table, { n: 2 }))).toBe('missing_value');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an undeclared column', { title: 'x', nope: 1 }, 'unknown_column'],
    ['id', { title: 'x', id: 'a' }, 'column_not_writable'],
    ['updatedAt', { title: 'x', updatedAt: 'a' }, 'column_not_writable'],
    ['resourceId', { title: 'x', resourceId: 'a' }, 'column_not_writable'],
    ['roomId', { title: 'x', roomId: 'a' }, 'virtual_room_id'],
    ['room_id', { title: 'x', room_id: 'a' }, 'virtual_room_id'],
  ])('§11.3: writing %s is refused', (_, values, expected) => {
    expect(code(() => insertData('t', table, values))).toBe(expected);
  });

  it('an update sets and unsets; a notNull column cannot be unset', () => {
    expect(updateData('t', table, { n: null, big: 5 })).toEqual({ set: { big: '5' }, unset: ['n'] });
    expect(code(() => updateData('t', table, { title: null }))).toBe('missing_value');
  });
});

describe('docs/api.md §11.3 where and orderBy', () => {
  it('equality, comparisons and null', () => {
    expect(parseWhere('t', table, { title: 'a', n: { gt: 1, lte: 5 }, big: null })).toEqual([
      { field: { kind: 'column', name: 'title', type: 'text' }, op: 'eq', value: 'a' },
      { field: { kind: 'column', name: 'n', type: 'integer' }, op: 'gt', value: 1 },
      { field: { kind: 'column', name: 'n', type: 'integer' }, op: 'lte', value: 5 },
      { field: { kind: 'column', name: 'big', type: 'bigint' }, op: 'eq', value: null },
    ]);
  });

  it('neq, is and not are eq negated or null; in holds a list in stored form', () => {
    const n = { kind: 'column', name: 'n', type: 'integer' };
    const big = { kind: 'column', name: 'big', type: 'bigint' };
    expect(parseWhere('t', table, { n: { neq: 1, is: null, not: { in: [2, 3], eq: null } }, big: { in: [7] } })).toEqual([
      { field: n, op: 'eq', value: 1, not: true },
      { field: n, op: 'eq', value: null },
      { field: n, op: 'in', value: [2, 3], not: true },
      { field: n, op: 'eq', value: null, not: true },
      { field: big, op: 'in', value: ['7'] },
    ]);
    expect(parseWhere('t', table, { n: { not: { neq: 1 } } })).toEqual([{ field: n, op: 'eq', value: 1 }]);
  });

  it.each<[string, unknown, string]>([
    ['roomId is virtual', { roomId: 'x' }, 'virtual_room_id'],
    ['in takes a list', { n: { in: 1 } }, 'invalid_filter'],
    ['in lists no null', { n: { in: [null] } }, 'invalid_filter'],
    ['in lists at most 1000 values', { n: { in: Array.from({ length: 1001 }, (_, i) => i) } }, 'invalid_filter'],
    ['is takes null (or a boolean on boolean columns)', { n: { is: 1 } }, 'invalid_filter'],
    ['not takes comparisons', { n: { not: 1 } }, 'invalid_filter'],
    ['not is not nested', { n: { not: { not: { eq: 1 } } } }, 'invalid_filter'],
    ['jsonb compares by equality only', { meta: { gt: 1 } }, 'invalid_filter'],
    ['null only with equality', { n: { gt: null } }, 'invalid_filter'],
    ['unknown comparisons', { n: { ne: 1 } }, 'invalid_filter'],
    ['not an object', ['title'], 'invalid_filter'],
  ])('§11.3: where: %s', (_, where, expected) => {
    expect(code(() => parseWhere('t', table, where))).toBe(expected);
  });

  it('orderBy: one field and a direction; createdAt by default', () => {
    expect(parseOrder('t', table, undefined)).toEqual({ field: { kind: 'createdAt', name: 'createdAt' }, direction: 'asc' });
    expect(parseOrder('t', table, { column: 'n', direction: 'desc' })).toEqual({
      field: { kind: 'column', name: 'n', type: 'integer' },
      direction: 'desc',
    });
    expect(code(() => parseOrder('t', table, { column: 'roomId' }))).toBe('virtual_room_id');
    expect(code(() => parseOrder('t', table, { column: 'meta' }))).toBe('invalid_order');
    expect(code(() => parseOrder('t', { ...table, timestamps: false }, { column: 'updatedAt' }))).toBe('unknown_column');
  });
});

describe('rowMatches: the live feed filter, as a select judges', () => {
  const col = (name: string, type: 'text' | 'integer' | 'bigint' | 'boolean' | 'jsonb' | 'timestamp') => ({ kind: 'column' as const, name, type });
  const row = { title: 'b', n: 5, big: '9007199254740993', done: false, meta: { a: 1 }, due: '2026-11-24T10:00:00.000Z', none: null, emoji: '😀' };
  it.each<[string, Condition[], boolean]>([
    ['no conditions', [], true],
    ['text eq', [{ field: col('title', 'text'), op: 'eq', value: 'b' }], true],
    ['text gt in code-point order', [{ field: col('title', 'text'), op: 'gt', value: 'B' }], true],
    ['integer lt', [{ field: col('n', 'integer'), op: 'lt', value: 5 }], false],
    ['integer gte', [{ field: col('n', 'integer'), op: 'gte', value: 5 }], true],
    ['bigint beyond 2^53', [{ field: col('big', 'bigint'), op: 'gt', value: '9007199254740992' }], true],
    ['boolean eq', [{ field: col('done', 'boolean'), op: 'eq', value: false }], true],
    ['jsonb eq', [{ field: col('meta', 'jsonb'), op: 'eq', value: { a: 1 } }], true],
    ['timestamp lte', [{ field: col('due', 'timestamp'), op: 'lte', value: '2026-11-24T09:59:59.999Z' }], false],
    ['eq null is IS NULL', [{ field: col('none', 'text'), op: 'eq', value: null }], true],
    ['not eq null is IS NOT NULL', [{ field: col('none', 'text'), op: 'eq', value: null, not: true }], false],
    ['not eq on an absent field fails (unknown)', [{ field: col('none', 'integer'), op: 'eq', value: 1, not: true }], false],
    ['not eq', [{ field: col('n', 'integer'), op: 'eq', value: 4, not: true }], true],
    ['in', [{ field: col('big', 'bigint'), op: 'in', value: ['1', '9007199254740993'] }], true],
    ['in on an absent field fails', [{ field: col('none', 'text'), op: 'in', value: ['x'] }], false],
    ['not in an empty list passes even an absent field', [{ field: col('none', 'text'), op: 'in', value: [], not: true }], true],
    ['jsonb eq ignores key order', [{ field: col('meta', 'jsonb'), op: 'in', value: [{ b: 2 }, { a: 1 }] }], true],
    ['text in code-point order: an astral character after U+FFFF', [{ field: col('emoji', 'text'), op: 'gt', value: '\uffff' }], true],
    ['a null field passes no comparison', [{ field: col('none', 'integer'), op: 'gt', value: 0 }], false],
    [
      'every condition must pass',
      [
        { field: col('title', 'text'), op: 'eq', value: 'b' },
        { field: col('n', 'integer'), op: 'gt', value: 9 },
      ],
      false,
    ],
  ])('%s', (_what, conditions, expected) => {
    expect(rowMatches(row, conditions)).toBe(expected);
  });
});
