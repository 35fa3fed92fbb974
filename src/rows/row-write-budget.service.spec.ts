import { describe, expect, it } from 'vitest';
import type { DbOperation } from './rows-input.service.js';
import { spendWrites, withWriteBudget } from './row-write-budget.service.js';

const insert = (values: unknown) => ({ op: 'insert', values }) as DbOperation;
const update = { op: 'update' } as DbOperation;

describe('the write budget of one call (ROWS_MAX_WRITES_PER_CALL)', () => {
  it('refuses before anything runs when the inserts alone are over it', async () => {
    let ran = false;
    const call = () =>
      withWriteBudget(3, [insert([{}, {}]), update, insert([{}, {}])], async () => {
        ran = true;
      });
    expect(call).toThrow(expect.objectContaining({ code: 'too_many_rows', status: 400 }));
    expect(ran).toBe(false);
  });

  it('counts matched rows as they are spent, and refuses the one that goes over', async () => {
    await expect(
      withWriteBudget(3, [update], async () => {
        spendWrites(2);
        spendWrites(1);
        return 'within';
      }),
    ).resolves.toBe('within');
    await expect(
      withWriteBudget(3, [insert({})], async () => {
        // The inserts' pre-count is not carried over: each write spends as it is prepared.
        spendWrites(3);
        spendWrites(1);
      }),
    ).rejects.toMatchObject({ code: 'too_many_rows', message: expect.stringContaining('at least 4 rows') });
  });

  it('counts nothing outside a call (a lone read), and each call has its own budget', async () => {
    expect(() => spendWrites(1_000_000)).not.toThrow();
    await Promise.all([withWriteBudget(2, [], async () => spendWrites(2)), withWriteBudget(2, [], async () => spendWrites(2))]);
  });
});
