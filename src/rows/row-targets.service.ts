/**
 * The rows a write changes: named by id or by a `where` filter, matched and locked in the same
 * statement (a row a concurrent write moved out of the filter is skipped), at most ROWS_MAX_WHERE
 * of them, and only rows the caller reads (docs/api.md §11.4), so a write answers exactly as if
 * no other row existed.
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type Condition, type RowData, parseWhere } from './row-values.rules.js';
import { badRequest } from '../errors.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../core/deps.js';
import type { ResourceRef } from '../membership/writer-standing.service.js';
import { type DbOperation, ROWS_MAX_WHERE, rowIds } from './rows-input.service.js';
import { ISO_FORMAT, andAll, conditionSql, sameTable, uuidList } from './rows.sql.js';
import type { Reach } from './row-access.rules.js';
import { type Binding, rowTable } from './row-binding.service.js';
import { spendWrites } from './row-write-budget.service.js';

/** An update's or delete's rows: by id, or by a filter. */
export type RowPick = { ids: string[] } | { where: Condition[] };

/** A matched row, locked; `via` says whether the resource owns it or it is linked in. */
export interface Target {
  id: string;
  creator_id: string | null;
  resource_id: string | null;
  room_id: string | null;
  data: RowData;
  created_at: string;
  updated_at: string;
  via: 'owned' | 'linked';
}

/** The rows an update or delete names: by id or by its `where` filter. */
export function pick(binding: Binding, op: Pick<DbOperation, 'ids' | 'where'>): RowPick {
  if (op.ids) return { ids: rowIds(op.ids) };
  return { where: parseWhere(binding.name, rowTable(binding.table), op.where) };
}

function matching(pickOf: RowPick, col: string): Prisma.Sql {
  if ('ids' in pickOf) return Prisma.sql`${Prisma.raw(col)} IN (${uuidList(pickOf.ids)})`;
  return Prisma.sql`TRUE ${andAll(pickOf.where.map(c => conditionSql(c)))}`;
}

/**
 * The matched rows as the write takes them, counted against the call's write budget. By filter:
 * refused past ROWS_MAX_WHERE. By id: the rows that are there, in the order named, each once.
 */
export function found(binding: Binding, pickOf: RowPick, rows: Target[]): Target[] {
  spendWrites(rows.length);
  if (!('ids' in pickOf)) {
    if (rows.length > ROWS_MAX_WHERE) {
      throw badRequest(
        'too_many_rows',
        `where matches more than ${ROWS_MAX_WHERE} rows of ${binding.name}: narrow the filter, or write in pages by ids.`,
      );
    }
    return rows;
  }
  // By id, a write changes the rows that are there: an id of no row (gone, or one you cannot
  // read) changes nothing, so two devices replaying one change both succeed.
  const byId = new Map(rows.map(t => [t.id, t]));
  return [...new Set(pickOf.ids)].flatMap(id => byId.get(id) ?? []);
}

/** `reach` over a placement's room column: the default room (wholly or own rows), whole rooms, own rows of rooms. */
export function reachSql(reach: Reach, roomCol: string, me: string): Prisma.Sql {
  const room = Prisma.raw(roomCol);
  const mine = Prisma.sql`r.creator_id = ${me}`;
  const parts: Prisma.Sql[] = [];
  if (reach.defaultRoom === 'all') parts.push(Prisma.sql`${room} IS NULL`);
  if (reach.defaultRoom === 'own') parts.push(Prisma.sql`(${room} IS NULL AND ${mine})`);
  if (reach.all.length) parts.push(Prisma.sql`${room} IN (${Prisma.join(reach.all)})`);
  if (reach.own.length) parts.push(Prisma.sql`(${room} IN (${Prisma.join(reach.own)}) AND ${mine})`);
  return parts.length ? Prisma.sql`(${Prisma.join(parts, ' OR ')})` : Prisma.sql`FALSE`;
}

/**
 * The rows `pickOf` names inside the resource, locked for the write: its own rows and (shared
 * tables) rows linked in, hidden links excluded. Only rows within `reach` take part; null
 * (reading back rows just linked, for their events) reaches every room.
 */
export async function resourceTargets(
  tx: Tx,
  me: string,
  resource: ResourceRef,
  binding: Binding,
  pickOf: RowPick,
  reach: Reach | null,
): Promise<Target[]> {
  const table = sameTable(resource.deploymentId, binding.name);
  const within = (col: string) => (reach ? Prisma.sql`AND ${reachSql(reach, col, me)}` : Prisma.empty);
  const cols = Prisma.sql`r.id::text AS id, r.creator_id, r.data, to_char(r.created_at, ${ISO_FORMAT}) AS created_at, to_char(r.updated_at, ${ISO_FORMAT}) AS updated_at`;
  const owned = await tx.$queryRaw<Target[]>`
      SELECT ${cols}, r.resource_id, r.room_id, 'owned' AS via FROM rows r
      WHERE ${matching(pickOf, 'r.id')} AND r.resource_id = ${resource.id} AND ${table} ${within('r.room_id')}
      LIMIT ${ROWS_MAX_WHERE + 1} FOR UPDATE OF r`;
  const linked =
    binding.kind === 'shared'
      ? await tx.$queryRaw<Target[]>`
          SELECT ${cols}, l.resource_id, l.room_id, 'linked' AS via FROM row_links l JOIN rows r ON r.id = l.row_id
          WHERE ${matching(pickOf, 'l.row_id')} AND l.resource_id = ${resource.id} AND NOT l.hidden AND ${table} ${within('l.room_id')}
          LIMIT ${ROWS_MAX_WHERE + 1} FOR UPDATE OF r, l`
      : [];
  return found(binding, pickOf, [...owned, ...linked]);
}

/** The rows `pickOf` names among the caller's own rows of a top-level table, locked for the write. */
export async function userTargets(tx: Tx, caller: PrincipalCaller, binding: Binding, pickOf: RowPick): Promise<Target[]> {
  const rows = await tx.$queryRaw<Target[]>`
      SELECT r.id::text AS id, r.creator_id, r.resource_id, r.room_id, r.data, 'owned' AS via,
        to_char(r.created_at, ${ISO_FORMAT}) AS created_at, to_char(r.updated_at, ${ISO_FORMAT}) AS updated_at
      FROM rows r
      WHERE ${matching(pickOf, 'r.id')} AND ${sameTable(caller.deployment.id, binding.name)}
        AND r.creator_id = ${caller.principal.id} AND r.resource_id IS NULL
      LIMIT ${ROWS_MAX_WHERE + 1} FOR UPDATE OF r`;
  return found(binding, pickOf, rows);
}
