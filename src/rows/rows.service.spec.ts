/**
 * How a row-store call runs, against fakes of everything it uses: which calls get a transaction,
 * when they are charged, how a batch names the operation that stopped it, and that nothing is
 * published unless the transaction committed. The operations themselves are tested through the
 * API (test/api/rows*.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { Sql } from '../core/deps.js';
import { defineSchema } from '../schema/index.js';
import type { DbOperation } from './rows-input.service.js';
import { type RowStoreDeps, executeCall } from './rows.service.js';

const caller = { type: 'principal', principal: { id: 'usr_1' }, deployment: { id: 'dep_1' } } as PrincipalCaller;
const schema = defineSchema({ tables: { notes: t => t.text('body') } });
/** A write no database is needed to refuse: writes at type scope are refused before any statement. */
const typeWrite = { op: 'insert', scope: { kind: 'type', type: 'team' }, table: 'notes', values: {} } as DbOperation;

function fakeStore(maxWritesPerCall = 10) {
  const log: string[] = [];
  const store = {
    prisma: {},
    now: () => new Date(0),
    config: { rows: { maxWritesPerCall }, metering: { developerCreditMicros: 0n } },
    // Writes run on a driver transaction (Prisma's only for an auto-join, which needs a database).
    sqlTransaction: async (fn: (tx: Sql) => Promise<unknown>) => {
      log.push('begin');
      const result = await fn({} as Sql);
      log.push('commit');
      return result;
    },
    bus: {
      publish: () => log.push('publish'),
      publishRows: () => log.push('publishRows'),
      publishGrants: () => log.push('publishGrants'),
    },
    apps: { deployment: async () => ({ schema }) },
    metering: {
      charge: async (_tx: unknown, _caller: unknown, _usage: unknown, operation: string) => void log.push(`charge ${operation}`),
      assertStorageCovered: async () => void log.push('storage'),
    },
  } as unknown as RowStoreDeps;
  return { store, log };
}

describe('executeCall', () => {
  it('refuses a call whose inserts alone pass ROWS_MAX_WRITES_PER_CALL before opening a transaction', async () => {
    const { store, log } = fakeStore(2);
    const insert = { op: 'insert', scope: { kind: 'user' }, table: 'notes', values: [{}, {}, {}] } as DbOperation;
    await expect(executeCall(store, caller, [insert], false)).rejects.toMatchObject({ code: 'too_many_rows' });
    expect(log).toEqual([]);
  });

  it("a lone write's refusal is its own; a batch's names the operation that stopped it", async () => {
    const { store, log } = fakeStore();
    await expect(executeCall(store, caller, [typeWrite], false)).rejects.toMatchObject({ code: 'invalid_operation', details: {} });
    const batch = executeCall(store, caller, [typeWrite], true);
    await expect(batch).rejects.toMatchObject({
      code: 'invalid_operation',
      message: expect.stringMatching(/^operations\[0\]: scope \{ kind: 'type' \} reads only/),
      details: { operation: 0 },
    });
    // Nothing was charged or published: the transaction rolled back.
    expect(log).toEqual(['begin', 'begin']);
  });

  it('a lone read runs outside a transaction and is charged once it has answered', async () => {
    const { store, log } = fakeStore();
    const typeRead = { op: 'select', scope: { kind: 'type', type: 'nope' }, table: 'notes' } as DbOperation;
    // Refused (unknown type) before any statement: a refused read costs nothing.
    await expect(executeCall(store, caller, [typeRead], false)).rejects.toMatchObject({ code: 'unknown_type' });
    expect(log).toEqual([]);
  });
});
