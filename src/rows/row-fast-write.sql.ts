/**
 * A member's update or delete of a resource's own rows in its default room as one statement
 * (row-fast-write.service.ts): no transaction around it, so one round trip. Its parts run in this
 * order, each gating the next:
 *
 * 1. the resource row FOR KEY SHARE and the caller's active membership FOR SHARE, with its role,
 *    as the one-statement insert takes them (lockedMembership): a member who just left, or whose
 *    role just changed, is seen so;
 * 2. the rows the pick names in the default room, within what that role reads there (every row,
 *    or only the caller's own), locked (ownedTargets);
 * 3. the gate: the role is one the action admits for the caller's own rows (and reads something:
 *    the transaction path refuses anyone else before matching), every matched row is one the role
 *    may write, no more rows than the call may write, and (update) each row's new values within
 *    the size checkSize allows;
 * 4. the call's charge (chargeParts), when the gate holds (and, `onlyMatched`, an upsert's, when
 *    a row matched: else the transaction path inserts); an update also needs the storage payer
 *    surely covering it, whether or not a row matched (the transaction path decides that case);
 * 5. the write (targetChange), only once the charge was recorded (unmetered: once the gate holds).
 *
 * It answers what it found, so the caller can tell a write from a refusal; a refusal changed nothing.
 */
import { type Sql, rowsOf, sql } from '../db/sql.js';
import type { BatchChargeKind } from './row-batch.sql.js';
import { type FastWrittenRow, type WriteBatchShape, pickSql } from './row-fast-write-batch.sql.js';
import { type WriteBatchCall, writeInTurn } from './row-fast-write-batch.service.js';
import type { Binding } from './row-binding.service.js';
import { ROW_MAX_CHARS } from './row-values.rules.js';
import { type Fragment, sameTable } from './rows.sql.js';
import {
  type ChargeFound,
  type RowPick,
  type StatementCharge,
  type TargetWrite,
  type Written,
  chargeParts,
  chargeFound,
  atMost,
  lockedMembership,
  matching,
  mergedData,
  ownedTargets,
  targetChange,
  writtenOf,
  writtenSelect,
} from './row-targets.service.js';

/** The roles that decide a write in a resource's default room, where the caller's role there is their resource role. */
export interface DefaultRoomRoles {
  /** The roles that read every row there, and those that read only their own. */
  readAll: readonly string[];
  readOwn: readonly string[];
  /** The roles the action admits for the caller's own rows (among those that read some), and for others' rows. */
  writeOwn: readonly string[];
  writeOthers: readonly string[];
}

/** What a member's write in a resource's default room assumes: the resource (its app environment and type) and the rows it names. */
export interface DefaultRoomPick {
  me: string;
  resource: { id: string; deploymentId: string; type: string };
  binding: Binding;
  pickOf: RowPick;
}

/** What the statement found: `xid` null when the resource is not as assumed or the caller no active member; `admitted` whether the gate held. */
export interface FastWritten {
  xid: string | null;
  admitted: boolean;
  written: Written[];
  charge: ChargeFound | undefined;
}

/** A member's write in a resource's default room, as the statement takes it. */
export interface OwnedWrite extends DefaultRoomPick {
  roles: DefaultRoomRoles;
  write: TargetWrite;
  /** The call's charge to record; null unmetered. */
  charge: StatementCharge | null;
  /** The most rows the call may write. */
  limit: number;
  /** An upsert's: charged and written only when a row matched (else the transaction path inserts). */
  onlyMatched: boolean;
}

/** The write in one statement: its own, or its turn's batch of its shape (row-fast-write-batch.service.ts). */
export async function fastOwnedWrite(db: Sql, owned: OwnedWrite): Promise<FastWritten> {
  const rows = await writeInTurn(
    db,
    () => batchCall(db, owned),
    on => rowsOf(on, singleWrite(owned)),
  );
  const go = Boolean(rows[0]?.go);
  // Refused, the rows matched are not the write's (found() would refuse too many of them).
  return {
    xid: rows[0]?.xid ?? null,
    admitted: go,
    written: go ? writtenOf(owned.binding, owned.pickOf, rows) : [],
    charge: chargeFound(owned.charge, rows),
  };
}

function singleWrite({ me, resource, binding, pickOf, roles, write, charge, limit, onlyMatched }: OwnedWrite) {
  const role = sql`(SELECT role FROM mem)`;
  const within = sql`r.room_id IS NULL
    AND (${role} = ANY(${roles.readAll}::text[]) OR (${role} = ANY(${roles.readOwn}::text[]) AND r.creator_id = ${me}))`;
  // checkSize counts JSON.stringify's UTF-16 units; jsonb's text is never shorter (spaces after
  // ':' and ',', UTF-8 bytes, numbers no shorter than JavaScript prints them), so a row within
  // this bound passes checkSize; one beyond it is left to the transaction path to judge exactly.
  const fitsSize: Fragment =
    write.kind === 'update'
      ? sql`AND NOT EXISTS (SELECT 1 FROM t WHERE octet_length((${mergedData('t.data', write)})::text) > ${ROW_MAX_CHARS})`
      : sql``;
  const admitted = sql<boolean>`(SELECT go FROM ok)`;
  // An update grows the resource whether or not a row matched: see step 4 above.
  const charged = chargeParts(
    resource.id,
    charge,
    write.kind === 'update' ? sql<boolean>`true` : sql<boolean>`false`,
    onlyMatched ? sql<boolean>`${admitted} AND EXISTS (SELECT 1 FROM t)` : admitted,
  );
  return sql<FastWrittenRow>`
    WITH mem AS MATERIALIZED (${lockedMembership(resource, me)}),
    t AS MATERIALIZED (${ownedTargets(resource, binding, pickOf, within)}),
    ok AS MATERIALIZED (
      SELECT COALESCE(${role} = ANY(${roles.writeOwn}::text[]), false)
        AND NOT EXISTS (SELECT 1 FROM t WHERE t.creator_id IS DISTINCT FROM ${me} AND NOT ${role} = ANY(${roles.writeOthers}::text[]))
        AND ${atMost(limit)} ${fitsSize} AS go)${charged.ctes},
    c AS (${targetChange(write, charge ? charged.recorded : admitted)})
    ${writtenSelect(charged.row, sql`, (SELECT xid FROM mem) AS xid, ${admitted} AS go`)}`;
}

/**
 * The write as a call of a batch (row-fast-write-batch.sql.ts): its shape and its arguments, or
 * null when its filter cannot be one (pickSql).
 */
function batchCall(db: Sql, { me, resource, binding, pickOf, roles, write, charge, limit, onlyMatched }: OwnedWrite): WriteBatchCall | null {
  const pick = pickSql(db, sql`${matching(pickOf, 'r.id')} AND ${sameTable(resource.deploymentId, binding.name)}`);
  if (!pick) return null;
  const shape: WriteBatchShape = { write: write.kind, charge: chargeKindOf(charge), onlyMatched, limit, pick: pick.text };
  const change = write.kind === 'update' ? [write.set, write.unset, write.now.toISOString()] : [null, null, null];
  const args: unknown[] = [resource.id, resource.deploymentId, resource.type, me, roles.readAll, roles.readOwn, roles.writeOwn, roles.writeOthers];
  args.push(pick.values, ...change);
  if (charge) args.push(charge.creditMicros, ...charge.entry, charge.payer?.owner, charge.payer?.holder, charge.payer?.developer);
  return { shape, args };
}

/** How a charge's statement checks its storage payer: as fastInsertIn picks its statement. */
const chargeKindOf = (charge: StatementCharge | null): BatchChargeKind =>
  !charge ? 'unmetered' : !charge.payer ? 'charged' : charge.holdsLease ? 'lease' : charge.creditMicros === null ? 'headroom' : 'credit';
