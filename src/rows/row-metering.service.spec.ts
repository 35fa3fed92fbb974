import { describe, expect, it } from 'vitest';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { RowEvent } from '../bus/event-bus.js';
import type { Tx } from '../core/deps.js';
import type { DbOperation } from './rows-input.service.js';
import { type RowMetering, callUsage, chargedAs, meterWriteCall, resourcesGrownBy } from './row-metering.service.js';

const ops = (...names: string[]) => names.map(op => ({ op }) as DbOperation);
const event = (op: RowEvent['op'], resourceId: string | null, own = false) => ({ op, resourceId, own }) as RowEvent;

describe('what a row-store call costs (docs/api.md §14)', () => {
  it("a batch's operations count one each, moveRoom as one", () => {
    expect(callUsage(ops('select', 'insert', 'moveRoom', 'select'))).toEqual([
      { class: 'reads', quantity: 2 },
      { class: 'writes', quantity: 2 },
    ]);
    expect(chargedAs(ops('update'), false)).toBe('rows.update');
    expect(chargedAs(ops('update', 'select'), true)).toBe('rows.batch');
  });

  it("grows a resource when its own tables' rows are inserted or updated (not deleted, not a user's own rows)", () => {
    const grown = resourcesGrownBy([
      event('insert', 'res_a'),
      event('update', 'res_b'),
      event('delete', 'res_c'),
      event('insert', 'res_d', true),
      event('insert', null),
      event('update', 'res_a'),
    ]);
    expect([...grown]).toEqual(['res_a', 'res_b']);
  });

  const recording = () => {
    const calls: unknown[][] = [];
    const metering: RowMetering = {
      charge: async (...args) => void calls.push(['charge', ...args]),
      assertStorageCovered: async (...args) => void calls.push(['storage', ...args]),
      chargeAddingBytes: async (...args) => void calls.push(['chargeAddingBytes', ...args]),
    };
    return { calls, metering };
  };
  const tx = {} as Tx;
  const caller = {} as PrincipalCaller;
  const twoWrites = [
    { class: 'reads', quantity: 0 },
    { class: 'writes', quantity: 2 },
  ];

  it("one grown resource: its storage check and the charge together (one statement where they can be), in the call's transaction", async () => {
    const { calls, metering } = recording();
    await meterWriteCall(metering, tx, caller, ops('insert', 'insert'), true, [event('insert', 'res_a'), event('insert', 'res_a')]);
    expect(calls).toEqual([['chargeAddingBytes', tx, caller, twoWrites, 'rows.batch', 'res_a', undefined]]);
  });

  it("several: each grown resource's storage checked, then one charge", async () => {
    const { calls, metering } = recording();
    await meterWriteCall(metering, tx, caller, ops('insert', 'insert'), true, [event('insert', 'res_a'), event('insert', 'res_b')]);
    expect(calls).toEqual([
      ['storage', tx, caller, 'res_a', 0],
      ['storage', tx, caller, 'res_b', 0],
      ['charge', tx, caller, twoWrites, 'rows.batch'],
    ]);
  });

  it('none (deletes): the charge alone', async () => {
    const { calls, metering } = recording();
    await meterWriteCall(metering, tx, caller, ops('delete'), false, [event('delete', 'res_a')]);
    expect(calls).toEqual([
      [
        'charge',
        tx,
        caller,
        [
          { class: 'reads', quantity: 0 },
          { class: 'writes', quantity: 1 },
        ],
        'rows.delete',
      ],
    ]);
  });
});
