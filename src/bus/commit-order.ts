/**
 * Where a feed's snapshot ends and its changes begin (docs/api.md §6, "Snapshot, then changes").
 *
 * A feed listens to the bus first, then reads its snapshot, so every change committed after the
 * snapshot reaches it; but a change committed just before the snapshot may also arrive (it is
 * published after its commit, and over Redis later still) and must not be delivered twice. Wall
 * clocks cannot tell them apart. PostgreSQL can: each write transaction stamps its events with its
 * transaction id (`pg_current_xact_id()`, before commit), and the snapshot is read in one
 * REPEATABLE READ transaction that also returns `pg_current_snapshot()`. An event whose
 * transaction the snapshot sees is already in it and is dropped; any other one committed after
 * the snapshot was taken and is delivered. Exact on one database for any number of instances,
 * whatever the bus delay, and one extra column per write transaction.
 */
import { Kysely } from 'kysely';
import type { Tx } from '../db/database.js';
import { type Sql, sql, sqlOf } from '../db/sql.js';

/** What a feed event carries of its transaction: its id (xid8 as text), set just before commit. */
export interface Stamped {
  xid?: string;
  /** When the bus published it (epoch ms), for the delivery lag /metrics reports (src/ops/metrics.ts). */
  publishedAt?: number;
}

/** Stamps `lists`' events with the transaction's id; no query when there is nothing to stamp. */
export async function stampCommit(tx: Sql | Tx, ...lists: readonly (readonly Stamped[])[]): Promise<void> {
  if (lists.every(list => list.length === 0)) return;
  const db = tx instanceof Kysely ? tx : sqlOf(tx);
  const {
    rows: [{ xid }],
  } = await sql<{ xid: string }>`SELECT pg_current_xact_id()::text AS xid`.execute(db);
  stampAll(xid, ...lists);
}

/** Stamps events with an id a statement of their transaction already returned (`pg_current_xact_id()::text`). */
export function stampAll(xid: string, ...lists: readonly (readonly Stamped[])[]): void {
  for (const list of lists) for (const event of list) (event as Stamped).xid = xid;
}

/** `pg_current_snapshot()` as text, `xmin:xmax:xip,…`: which transactions a snapshot sees. */
export class CommitSnapshot {
  private readonly xmaxText: string;

  private constructor(
    private readonly xmin: bigint,
    private readonly xmax: bigint,
    private readonly inProgress: ReadonlySet<bigint>,
  ) {
    this.xmaxText = String(xmax);
  }

  static parse(text: string): CommitSnapshot {
    const [xmin, xmax, xip = ''] = text.split(':');
    if (xmin === undefined || xmax === undefined) throw new Error(`not a pg_snapshot: ${text}`);
    return new CommitSnapshot(BigInt(xmin), BigInt(xmax), new Set(xip ? xip.split(',').map(BigInt) : []));
  }

  /**
   * Whether the snapshot already holds the change of transaction `xid` (pg_visible_in_snapshot's
   * rule for a committed transaction). An event without a stamp is treated as newer: delivered.
   */
  includes(xid: string | undefined): boolean {
    if (xid === undefined) return false;
    // The common case without a BigInt: ids of one snapshot's era have as many digits.
    if (xid.length > this.xmaxText.length) return false;
    const id = BigInt(xid);
    return id < this.xmin || (id < this.xmax && !this.inProgress.has(id));
  }
}

/** The statement that opens a snapshot read: run first in its REPEATABLE READ transaction. */
export const SNAPSHOT_SQL = 'SELECT pg_current_snapshot()::text AS snapshot';
