import { describe, expect, it } from 'vitest';
import type { CompiledQuery } from 'kysely';
import { prepare, sqlOver, transactionSql } from './sql.js';

const byId = prepare(2, (db, id: string, kind: string) =>
  db
    .selectFrom('principals')
    .select(['id', 'kind'])
    .where('id', '=', id)
    .where('kind', '=', kind as never),
);

/** An executor that records what it was asked and answers one row. */
function recording() {
  const seen: CompiledQuery[] = [];
  const run = async (query: CompiledQuery) => {
    seen.push(query);
    return { rows: [{ id: query.parameters[0], kind: query.parameters[1] }], count: 1 };
  };
  return { seen, run };
}

describe('prepare', () => {
  it('compiles once and hands each call its own values, straight to the executor', async () => {
    const { seen, run } = recording();
    const db = sqlOver(run);
    expect(await byId(db, 'p_1', 'user')).toEqual([{ id: 'p_1', kind: 'user' }]);
    expect(await byId(db, 'p_2', 'agent')).toEqual([{ id: 'p_2', kind: 'agent' }]);
    expect(seen.map(query => query.parameters)).toEqual([
      ['p_1', 'user'],
      ['p_2', 'agent'],
    ]);
    expect(seen[0].sql).toBe(seen[1].sql);
    expect(seen[0].sql).toBe('select "id", "kind" from "principals" where "id" = $1 and "kind" = $2');
  });

  it('runs on a transaction-bound Kysely, and on one with a plugin (through Kysely)', async () => {
    const { seen, run } = recording();
    expect(await byId(transactionSql(run), 'p_3', 'user')).toEqual([{ id: 'p_3', kind: 'user' }]);
    // `withPlugin` makes a Kysely this module did not register: Kysely's own executeQuery runs it.
    const withPlugin = sqlOver(run).withPlugin({ transformQuery: args => args.node, transformResult: async args => args.result });
    expect(await byId(withPlugin, 'p_4', 'agent')).toEqual([{ id: 'p_4', kind: 'agent' }]);
    expect(seen.map(query => query.parameters)).toEqual([
      ['p_3', 'user'],
      ['p_4', 'agent'],
    ]);
  });
});
