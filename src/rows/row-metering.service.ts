/**
 * What a row-store call costs (docs/api.md §14): one charge per call, and the storage check of a
 * write that adds bytes to a resource. The metering service is passed in, so these run against a
 * fake one in the unit specs.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { RowEvent } from '../bus/event-bus.js';
import type { AnyTx } from '../core/deps.js';
import { type MeteringService, type StoragePayer, type Usage, type WriteCharge, payerHoldsLease, settledAs } from '../billing/metering.service.js';
import type { DbOperation } from './rows-input.service.js';
import type { ChargeFound, StatementCharge } from './row-targets.service.js';
import { knownStoragePayer, storagePayerChecked } from './row-resource-facts.service.js';

export type RowMetering = Pick<MeteringService, 'charge' | 'assertStorageCovered' | 'chargeAddingBytes'>;

/** A call's usage: each operation of a batch counts as one read or one write, moveRoom as one. */
export function callUsage(ops: readonly Pick<DbOperation, 'op'>[]): Usage[] {
  const reads = ops.filter(op => op.op === 'select').length;
  return [
    { class: 'reads', quantity: reads },
    { class: 'writes', quantity: ops.length - reads },
  ];
}

/** The operation name a call's charge is recorded under. */
export const chargedAs = (ops: readonly Pick<DbOperation, 'op'>[], batch: boolean): string => (batch ? 'rows.batch' : `rows.${ops[0].op}`);

/** A lone read, charged once it has answered: a refused read costs nothing, an unpaid one answers 402. */
export const chargeRead = (metering: RowMetering, caller: PrincipalCaller): Promise<void> =>
  metering.charge(null, caller, [{ class: 'reads', quantity: 1 }], 'rows.select');

/** The resources whose own tables `events` inserted or updated rows in. */
export function resourcesGrownBy(events: readonly RowEvent[]): Set<string> {
  const grown = new Set<string>();
  for (const event of events)
    if (!event.own && event.resourceId !== null && (event.op === 'insert' || event.op === 'update')) grown.add(event.resourceId);
  return grown;
}

/**
 * Last in a write call's transaction, once its operations ran. Bytes a resource holds at rest are
 * its owner's to pay (docs/api.md §14.2): a write that adds some is refused, like an upload, while
 * that wallet is in debt. (Not a day's cost of the rows: a row's is below a micro-dollar, and the
 * write's own payer may be the same wallet.) Then the call's one charge, in the transaction it pays for.
 */
export async function meterWriteCall(
  metering: RowMetering,
  tx: AnyTx,
  caller: PrincipalCaller,
  ops: readonly DbOperation[],
  batch: boolean,
  rowEvents: readonly RowEvent[],
): Promise<void> {
  const grown = [...resourcesGrownBy(rowEvents)];
  // The common case, one resource: its storage check and the charge in one statement where they can
  // be, with the resource's storage payer when a write there found it (remembered as they do).
  if (grown.length === 1) {
    const [resourceId] = grown;
    const known = knownStoragePayer(resourceId);
    storagePayerChecked(resourceId, known, await metering.chargeAddingBytes(tx, caller, callUsage(ops), chargedAs(ops, batch), resourceId, known));
    return;
  }
  for (const resourceId of grown) await metering.assertStorageCovered(tx, caller, resourceId, 0);
  await metering.charge(tx, caller, callUsage(ops), chargedAs(ops, batch));
}

/**
 * A held charge as a write's statement records it, with the storage check the payer a write
 * there found allows: no starting credit when none can be due (storageCreditDue), no wallet read
 * when that payer holds the charge's lease (payerHoldsLease).
 */
export const statementCharge = (
  metering: Pick<MeteringService, 'storageCreditDue'>,
  entry: WriteCharge['entry'],
  payer: StoragePayer | null | undefined,
): StatementCharge => ({ entry, creditMicros: metering.storageCreditDue(payer), payer: payer ?? null, holdsLease: payerHoldsLease(payer, entry) });

/**
 * A lone write's charge, for the statement that writes its rows to record where it can
 * (writeOwnedTargets): held from this process's lease when that statement asks for it, and
 * settled once the call's work ran. Recorded, it replaces meterWriteCall; a call that throws
 * rolled it back with its rows, and the hold is given back.
 */
export interface InlineCharge {
  /**
   * The charge to record for a write to `resourceId`, held once per call, with the resource's
   * storage payer when a write there found it (the statement then checks only its owner); null
   * when it cannot be held (meterWriteCall charges, as before).
   */
  take(resourceId: string): StatementCharge | null;
  /** What the statement found, and whether its write grew the resource. */
  found(found: ChargeFound | undefined, grows: boolean): void;
  readonly recorded: boolean;
  /** Gives the hold back unless the statement recorded it and the call's work completed. */
  settle(completed: boolean): void;
}

export function inlineCharge(
  metering: Pick<MeteringService, 'holdCharge' | 'storageCreditDue'>,
  caller: PrincipalCaller,
  ops: readonly DbOperation[],
): InlineCharge {
  let held: WriteCharge | null = null;
  let asked = false;
  let outcome: ReturnType<typeof settledAs> = 'refused';
  let resource = '';
  let paidBy: StoragePayer | undefined;
  return {
    take(resourceId) {
      if (asked) return null;
      asked = true;
      const charge = metering.holdCharge(caller, callUsage(ops), chargedAs(ops, false));
      if (charge === null || charge === 'unmetered') return null;
      held = charge;
      resource = resourceId;
      paidBy = knownStoragePayer(resourceId);
      return statementCharge(metering, charge.entry, paidBy);
    },
    found(found, grows) {
      if (!held) return;
      outcome = settledAs(found, grows);
      if (found) storagePayerChecked(resource, paidBy, found.payer ?? null);
    },
    get recorded() {
      return outcome === 'charged';
    },
    settle(completed) {
      held?.held.settle(completed ? outcome : 'refused');
    },
  };
}
