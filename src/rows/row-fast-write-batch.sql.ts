/**
 * Several calls' one-statement updates and deletes (row-fast-write.sql.ts), and upserts taken as
 * the update of their row, as one statement: what each would do alone, call by call, in one plan,
 * one round trip and one commit (bench/README.md).
 *
 * The calls of one statement have one shape: the same write, charge kind and filter (its text;
 * its values are each call's own), so the statement's text follows the shape and its plan is
 * reused. Each call keeps the single statement's gates, in its order: its resource and active
 * membership locked, with its role; the rows its filter names within what that role reads, locked;
 * its role admitted for every one of them, no more of them than a call may write, each update's
 * row within the size allowed; its charge when that held; its write once charged.
 *
 * Two calls of a batch may name the same row. The first in the batch writes it; a later one is
 * answered AFTER_BATCH (row-turn-batch.service.ts) without writing anything, and runs alone once
 * the batch is answered, so it sees the first's write as it would have in that order.
 *
 * A batch never waits on a lock (NOWAIT on the resource, the membership, the rows and the leases):
 * one call waiting would hold up every other in the batch, and several locks taken by one
 * statement could close a cycle with another's. Refused at once, its calls run alone.
 */
import type { CompiledQuery } from 'kysely';
import { type RawBuilder, type Sql, rowsOf, sql } from '../db/sql.js';
import { textParameter } from '../db/sql-values.js';
import { ROWS_MAX_WHERE } from './rows-input.service.js';
import { ROW_MAX_CHARS } from './row-values.rules.js';
import type { Fragment } from './rows.sql.js';
import type { WrittenRow } from './row-targets.service.js';
import {
  type BatchChargeKind,
  CHARGE_COLUMNS,
  batchCalls,
  batchCallsJson,
  batchChargeCtes,
  batchChargeOutcome,
  callCharged,
  callXid,
  lockedMembers,
} from './row-batch.sql.js';

/** What a batch's calls have in common: its statement's text follows it. */
export interface WriteBatchShape {
  write: 'update' | 'delete';
  charge: BatchChargeKind;
  /** An upsert's: charged only when a row matched (else the call inserts, on the transaction path). */
  onlyMatched: boolean;
  /** The most rows a call may match. */
  limit: number;
  /** The rows a call names in its table, as SQL over `r` whose values are the call's `p` (pickSql). */
  pick: string;
}

/** Every call's columns; the charge's after them (fastOwnedWrite's arguments). */
const WRITE_COLUMNS = [
  ['resource_id', 'text'],
  ['deployment_id', 'text'],
  ['type', 'text'],
  ['me', 'text'],
  ['read_all', 'text[]'],
  ['read_own', 'text[]'],
  ['write_own', 'text[]'],
  ['write_others', 'text[]'],
  ['p', 'jsonb'],
  ['set_data', 'jsonb'],
  ['unset_keys', 'text[]'],
  ['now', 'timestamp'],
  ...CHARGE_COLUMNS,
] as const;

/** The calls as the statement's one parameter. */
export const writeBatchCalls = (calls: readonly (readonly unknown[])[]): string => batchCallsJson(WRITE_COLUMNS, calls);

/** A call's filter as a shape's `pick` and the call's values for it. */
export interface PickSql {
  text: string;
  values: string[];
}

/**
 * `fragment` (a filter over `r`) with each of its parameters read from the call's `p` instead, as
 * text: every parameter a filter has is a string (cast where it is not text) or a list of strings
 * (cast to an array type), which PostgreSQL reads from its text form as it reads a parameter. Null
 * for any other value: the call runs alone.
 */
export function pickSql(db: Sql, fragment: Fragment): PickSql | null {
  const { sql: text, parameters } = fragment.compile(db);
  const values: string[] = [];
  for (const value of parameters) {
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value) && value.every(item => typeof item === 'string')) values.push(textParameter(value) as string);
    else return null;
  }
  return { text: text.replace(/\$(\d+)/g, (_, k: string) => `(i.p ->> ${Number(k) - 1})`), values };
}

/** The single statement's rows (writtenSelect's), with the resource's transaction (null: not as assumed) and whether the gate held. */
export type FastWrittenRow = WrittenRow & { xid: string | null; go: boolean | null };

/** What the batch answers for each call: the single statement's rows, numbered by call, and whether it must run alone after the batch. */
export type WriteBatchRow = FastWrittenRow & { n: number; overlaps: boolean };

function writeBatchSql(shape: WriteBatchShape, calls: unknown): RawBuilder<WriteBatchRow> {
  const update = shape.write === 'update';
  const metered = shape.charge !== 'unmetered';
  const mine = sql`t.n = i.n`;
  const admitted = sql<boolean>`(SELECT ok.go FROM ok WHERE ok.n = i.n)`;
  const when = shape.onlyMatched ? sql<boolean>`${admitted} AND EXISTS (SELECT 1 FROM t WHERE ${mine})` : admitted;
  // checkSize's bound, as the single statement checks it (fastOwnedWrite).
  const fitsSize = update
    ? sql`AND NOT EXISTS (SELECT 1 FROM t WHERE ${mine} AND octet_length(((t.data || i.set_data) - i.unset_keys)::text) > ${sql.lit(ROW_MAX_CHARS)})`
    : sql``;
  const written = metered ? callCharged : admitted;
  const change = update
    ? sql`UPDATE rows AS w SET data = (w.data || i.set_data) - i.unset_keys, updated_at = i.now
        FROM t JOIN i ON ${mine} WHERE w.id = t.id::uuid AND ${written} RETURNING t.*, w.data AS new_data`
    : sql`DELETE FROM rows AS w USING t JOIN i ON ${mine} WHERE w.id = t.id::uuid AND ${written} RETURNING t.*, w.data AS new_data`;
  const columns = sql`x.id, x.creator_id, x.data, x.created_at, x.updated_at, x.resource_id, x.room_id, x.via`;
  return sql<WriteBatchRow>`
    WITH ${batchCalls(WRITE_COLUMNS, calls)},
    ${lockedMembers},
    t AS MATERIALIZED (
      SELECT i.n, x.* FROM i JOIN mem ON mem.n = i.n CROSS JOIN LATERAL (
        SELECT r.id::text AS id, r.creator_id, r.data, r.created_at, r.updated_at, r.resource_id, r.room_id, 'owned'::text AS via
        FROM rows r
        WHERE ${sql.raw(shape.pick)} AND r.resource_id = i.resource_id AND r.room_id IS NULL
          AND (mem.role = ANY(i.read_all) OR (mem.role = ANY(i.read_own) AND r.creator_id = i.me))
        LIMIT ${sql.lit(ROWS_MAX_WHERE + 1)} FOR UPDATE OF r NOWAIT) x),
    ok AS MATERIALIZED (
      SELECT i.n, o.overlaps,
        COALESCE(mem.role = ANY(i.write_own), false)
          AND NOT EXISTS (SELECT 1 FROM t WHERE ${mine} AND t.creator_id IS DISTINCT FROM i.me AND NOT mem.role = ANY(i.write_others))
          AND (SELECT count(*) FROM t WHERE ${mine}) <= ${sql.lit(shape.limit)} ${fitsSize}
          AND NOT o.overlaps AS go
      FROM i LEFT JOIN mem ON mem.n = i.n
      CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM t JOIN t u ON u.id = t.id AND u.n < t.n WHERE ${mine}) AS overlaps) o)${
        metered ? sql`,${batchChargeCtes(shape.charge as Exclude<BatchChargeKind, 'unmetered'>, when, update)}` : sql``
      },
    c AS (${change})
    SELECT i.n, ${callXid},
      ok.go, ok.overlaps, ${columns}, x.new_data, ${batchChargeOutcome(shape.charge)}
    FROM i JOIN ok ON ok.n = i.n${metered ? sql` LEFT JOIN cov ON cov.n = i.n` : sql``}
    LEFT JOIN LATERAL (
      SELECT c.id, c.creator_id, c.data, c.created_at, c.updated_at, c.resource_id, c.room_id, c.via, c.new_data FROM c WHERE c.n = i.n
      UNION ALL
      SELECT t.id, t.creator_id, t.data, t.created_at, t.updated_at, t.resource_id, t.room_id, t.via, NULL::jsonb FROM t
      WHERE ${mine} AND NOT EXISTS (SELECT 1 FROM c WHERE c.n = i.n)) x ON true
    ORDER BY i.n`;
}

/** Each shape's statement compiled once, its calls' parameter left to fill. */
const compiled = new Map<string, CompiledQuery<WriteBatchRow>>();
const MAX_SHAPES = 256;
const CALLS = Symbol('calls');

/** The key a shape's calls are batched under. */
export const writeShapeKey = (shape: WriteBatchShape): string =>
  `write:${shape.write}:${shape.charge}:${shape.onlyMatched}:${shape.limit}:${shape.pick}`;

/** The rows of the statement of `shape` (whose writeShapeKey is `key`) for `calls` (writeBatchCalls'). */
export function fastWriteBatch(db: Sql, shape: WriteBatchShape, key: string, calls: string): Promise<WriteBatchRow[]> {
  let query = compiled.get(key);
  if (!query) {
    if (compiled.size >= MAX_SHAPES) compiled.delete(compiled.keys().next().value!);
    query = writeBatchSql(shape, CALLS).compile(db);
    compiled.set(key, query);
  }
  const { parameters } = query;
  return rowsOf(db, { compile: () => ({ ...query, parameters: parameters.map(value => (value === CALLS ? calls : value)) }) });
}
