import { describe, expect, it } from 'vitest';
import { defineSchema } from '../schema/index.js';
import { sqlOver } from '../db/sql.js';
import type { Fragment } from './rows.sql.js';
import { ROWS_MAX_WHERE } from './rows-input.service.js';
import { bindingIn } from './row-binding.service.js';
import { type Target, found, pick, reachSql } from './row-targets.service.js';
import { withWriteBudget } from './row-write-budget.service.js';

const schema = defineSchema({ resources: { team: r => r.visibility('members').owns('tasks', t => t.text('title')) } });
const tasks = bindingIn(schema, 'team', 'tasks');
const ID = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const target = (n: number): Target => ({
  id: ID(n),
  creator_id: 'usr_1',
  resource_id: 'res_1',
  room_id: null,
  data: {},
  created_at: new Date(0),
  updated_at: new Date(0),
  via: 'owned',
});

describe('the rows a write takes', () => {
  it('by id: the rows that are there, in the order named, each once (a replayed change succeeds)', () => {
    const taken = found(tasks, { ids: [ID(3), ID(1), ID(9), ID(3)] }, [target(1), target(3)]);
    expect(taken.map(t => t.id)).toEqual([ID(3), ID(1)]);
  });

  it(`by filter: what matched, refused past ${ROWS_MAX_WHERE} rows`, () => {
    const where = pick(tasks, { where: { title: { eq: 'x' } } });
    expect(found(tasks, where, [target(1)])).toHaveLength(1);
    const many = Array.from({ length: ROWS_MAX_WHERE + 1 }, (_, i) => target(i));
    expect(() => found(tasks, where, many)).toThrow(expect.objectContaining({ code: 'too_many_rows' }));
  });

  it("spends the call's write budget on what matched", async () => {
    await expect(withWriteBudget(1, [], async () => found(tasks, { ids: [ID(1), ID(2)] }, [target(1), target(2)]))).rejects.toMatchObject({
      code: 'too_many_rows',
    });
  });
});

describe('reachSql: what the caller reads, over a placement', () => {
  /** Compiled as PostgreSQL gets it; nothing is executed. */
  const compiler = sqlOver(() => Promise.reject(new Error('compile only')));
  const text = (fragment: Fragment) => {
    const { sql, parameters } = fragment.compile(compiler);
    return { sql: sql.replace(/\s+/g, ' '), values: parameters };
  };

  it('reaches nothing: FALSE', () => {
    expect(text(reachSql({ defaultRoom: 'none', all: [], own: [] }, 'r.room_id', 'usr_1')).sql).toBe('FALSE');
  });

  it('the default room wholly, whole rooms, and own rows of rooms; every value a parameter', () => {
    expect(text(reachSql({ defaultRoom: 'all', all: ['a', 'b'], own: ['c'] }, 'l.room_id', 'usr_1'))).toEqual({
      sql: '(l.room_id IS NULL OR l.room_id IN ($1, $2) OR (l.room_id IN ($3) AND r.creator_id = $4))',
      values: ['a', 'b', 'c', 'usr_1'],
    });
    expect(text(reachSql({ defaultRoom: 'own', all: [], own: [] }, 'r.room_id', 'usr_1'))).toEqual({
      sql: '((r.room_id IS NULL AND r.creator_id = $1))',
      values: ['usr_1'],
    });
  });
});
