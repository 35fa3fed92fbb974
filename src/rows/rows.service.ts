/**
 * The row store (docs/api.md §11): rows of the tables an app schema declares, in three scopes (a
 * user's own rows, a resource's rows across its rooms, a type's default rooms), one operation
 * shape, access rules judged against the caller's effective role in the targeted room, and
 * auto-join on a first write to a public resource.
 *
 * Writes run in one transaction per call (a batch is one transaction for all its operations);
 * membership events of an auto-join are published only after it commits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { Role } from '../core/roles.rules.js';
import {
  type AccessRules,
  type ReadReach,
  type RowAction,
  accessRefused,
  canMoveOutOf,
  readReach,
  rolesReaching,
  ruleFor,
  visitorRole,
} from './rows.rules.js';
import {
  CREATOR_FIELD,
  type Condition,
  type RowData,
  type RowOrder,
  type RowTable,
  applyUpdate,
  insertData,
  parseOrder,
  parseWhere,
  readValue,
  updateData,
} from './row-values.rules.js';
import { effectiveRole, passesAccessRule, reachesEveryRoom } from '../rooms/rooms.rules.js';
import { isPublic } from '../membership/visibility.rules.js';
import { AppError, fail } from '../errors.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { stampCommit } from '../bus/commit-order.js';
import type { GrantEvent, MembershipEvent, RowEvent } from '../bus/event-bus.js';
import type { ResourceTypeIR, SchemaIR, TableIR } from '../schema/index.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { MeteringService } from '../billing/metering.service.js';
import { accountDeleted, violatesForeignKey } from '../membership/lifecycle.service.js';
import { type ChangeSet, resourceNotFound } from '../membership/membership-store.service.js';
import { roomRoles } from '../rooms/rooms.service.js';
import { type ResourceRef, type Roles, loadResource, roomOf, writerRoles } from '../membership/writer-standing.service.js';
import {
  type DbOp,
  type DbOperation,
  ROWS_DEFAULT_LIMIT,
  ROWS_MAX_WHERE,
  decodeCursor,
  encodeCursor,
  parseBatch,
  parseOperation,
  querySignature,
  resumeValue,
  rowIds,
} from './rows-input.service.js';
import { type SqlRow, afterSql, andAll, conditionSql, literal, orderSql, selectList } from './rows.sql.js';

export type RowOut = Record<string, unknown>;

export interface DbResult {
  op: DbOp;
  /** select: the page; insert, update, delete: the rows as written (delete: as they were); else null. */
  rows: RowOut[] | null;
  nextCursor: string | null;
  ok: true;
}

type Db = PrismaClient | Tx;

/** How a table is reached inside a resource type: its own rows, or users' rows linked in. */
export interface Binding {
  name: string;
  table: TableIR;
  kind: 'owned' | 'shared' | 'user';
  /** The type's `owns`/`shares` access override, merged over the table's rules action by action. */
  override: AccessRules | null;
}

/** One call's state: the transaction (null for a lone read), and what auto-joins must publish. */
interface Run {
  db: Db;
  tx: Tx | null;
  caller: PrincipalCaller;
  schema: SchemaIR;
  now: Date;
  joins: ChangeSet[];
  /** What the writes changed, published on the bus after commit (the live row feed). */
  rowEvents: RowEvent[];
  /** When set, a select appends its query plan here instead of answering (bench and index tests). */
  explain?: { lines: string[]; analyze: boolean };
}

/**
 * The rows one call (a query or a whole batch) may insert, update or delete
 * (ROWS_MAX_WRITES_PER_CALL): on the embedded database a call's transaction holds the one
 * connection everyone shares, so one bulk call must not hold it for long. Spent as the call's
 * operations are prepared, before their writes; over it, nothing changes (the transaction rolls back).
 */
const writeBudgets = new AsyncLocalStorage<{ limit: number; spent: number }>();

function spendWrites(rows: number): void {
  const budget = writeBudgets.getStore();
  if (!budget) return;
  budget.spent += rows;
  if (budget.spent > budget.limit) throw tooManyWrites(budget);
}

function tooManyWrites({ limit, spent }: { limit: number; spent: number }): AppError {
  return fail(
    'too_many_rows',
    `This call writes at least ${spent} rows; one call may write at most ${limit} (ROWS_MAX_WRITES_PER_CALL: ` +
      'every write waits for the one before it on this database). Nothing was changed: send the rows in smaller calls.',
  );
}

const insertCount = (values: unknown) => (Array.isArray(values) ? values.length : 1);

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): milliseconds, then a 12-bit sequence, then randomness. Ids of one process
 * increase, so rows written in the same millisecond (one insert of several) keep their order under
 * the id tie-break, and primary-key inserts land at the right edge of the index.
 */
function newRowId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Auto-join, write ops only (docs/api.md §5.2): reads, unlink and moveRoom never join. */
const JOINING_OPS = new Set<DbOp>(['insert', 'update', 'delete', 'upsert', 'link']);

const invalidOperation = (message: string) => fail('invalid_operation', message);

function tableOf(schema: SchemaIR, name: string): TableIR {
  const table = Object.hasOwn(schema.tables, name) ? schema.tables[name] : undefined;
  if (!table) {
    const known = Object.keys(schema.tables).sort().join(', ') || 'none';
    throw fail('unknown_table', `This app's deployed schema has no table ${JSON.stringify(name)} (its tables: ${known}).`);
  }
  return table;
}

export function bindingIn(schema: SchemaIR, type: string, name: string): Binding {
  const table = tableOf(schema, name);
  const def: ResourceTypeIR | undefined = schema.resources[type];
  const own = def?.owns.find(o => o.table === name);
  if (own) return { name, table, kind: 'owned', override: own.access };
  const share = def?.shares.find(s => s.table === name);
  if (share) return { name, table, kind: 'shared', override: share.access };
  const owns = def?.owns.map(o => o.table).join(', ') || 'none';
  const shares = def?.shares.map(s => s.table).join(', ') || 'none';
  throw fail('table_not_in_scope', `Resources of type ${type} neither own nor share table ${name} (owns: ${owns}; shares: ${shares}).`);
}

/** docs/api.md §11.2: a user's own rows are of top-level tables only. */
export function userBinding(schema: SchemaIR, name: string): Binding {
  const table = tableOf(schema, name);
  if (table.ownedBy) {
    throw fail(
      'table_not_in_scope',
      `Table ${name} is declared inside resource type ${table.ownedBy}: its rows live in those resources; use scope { kind: 'resource', resourceId }.`,
    );
  }
  return { name, table, kind: 'user', override: null };
}

/** The IR's table as the pure value rules read it (the same shape). */
const rowTable = (table: TableIR): RowTable => table;

/**
 * A row as the caller sees it: id, the declared columns by name (absent ones null), timestamps
 * when declared, then who wrote it and where it sits (roomId at resource and type scope). The
 * server's creator is `_creatorId` (CREATOR_FIELD): no declared column can start with `_`, so an
 * app's own `creatorId` column keeps its value.
 */
function shape(row: SqlRow, binding: Binding, place: 'user' | 'resource' | 'type'): RowOut {
  const out: RowOut = { id: row.id };
  for (const name of Object.keys(binding.table.columns).sort()) out[name] = readValue(binding.table.columns[name].type, row.data[name]);
  if (binding.table.timestamps) {
    out.createdAt = row.created_at;
    out.updatedAt = row.updated_at;
  }
  out[CREATOR_FIELD] = row.creator_id;
  if (place !== 'user') out.roomId = row.room_id;
  if (place === 'type') out.resourceId = row.resource_id;
  return out;
}

/** One row change for the bus (RowEvent in src/bus/event-bus.ts). */
function rowEvent(
  run: Run,
  op: RowEvent['op'],
  binding: Binding,
  resourceId: string | null,
  roomId: string | null,
  previousRoomId: string | null,
  row: RowOut,
): RowEvent {
  return {
    op,
    deploymentId: run.caller.deployment.id,
    table: binding.name,
    resourceId,
    roomId,
    previousRoomId,
    creatorId: (row[CREATOR_FIELD] as string | null) ?? null,
    // A top-level table's row is its author's own wherever it is seen (owned tables' rows are not).
    own: binding.kind !== 'owned',
    row,
  };
}

/** The resources whose own tables `events` inserted or updated rows in. */
function resourcesGrownBy(events: RowEvent[]): Set<string> {
  const grown = new Set<string>();
  for (const event of events)
    if (!event.own && event.resourceId !== null && (event.op === 'insert' || event.op === 'update')) grown.add(event.resourceId);
  return grown;
}

export function createRowService(deps: ServiceDeps, apps: AppService, metering: MeteringService) {
  const roleIn = (roles: Roles, room: string | null): Role | null =>
    effectiveRole(roles.resourceRole, room === null ? null : (roles.grants.get(room) ?? null), room === null);

  function refuse(action: RowAction, binding: Binding, role: Role | null, room: string | null): AppError {
    return accessRefused(action, binding.name, role, room === null ? 'default' : 'room');
  }

  // ---- reads -------------------------------------------------------------------------------

  interface Page {
    order: RowOrder;
    conditions: Condition[];
    ids: string[];
    limit: number;
    after: Prisma.Sql;
    signature: string;
    resumeOf: (row: SqlRow) => { value: string | null; id: string };
  }

  function pageOf(op: DbOperation, binding: Binding, scopeKey: unknown[]): Page {
    const table = rowTable(binding.table);
    const order = parseOrder(binding.name, table, op.orderBy);
    const conditions = parseWhere(binding.name, table, op.where);
    const ids = op.ids ? rowIds(op.ids) : [];
    const signature = querySignature([scopeKey, binding.name, order.field.name, order.direction, conditions, ids]);
    const nullable = order.field.kind === 'column' && !binding.table.columns[order.field.name]?.notNull;
    const after = op.cursor ? afterSql(order, decodeCursor(op.cursor, signature, order, binding.name), nullable) : Prisma.empty;
    return {
      order,
      conditions,
      ids,
      limit: op.limit ?? ROWS_DEFAULT_LIMIT,
      after: op.cursor ? Prisma.sql`AND ${after}` : Prisma.empty,
      signature,
      resumeOf: row => ({ value: resumeValue(order.field, row), id: row.id }),
    };
  }

  /** Filters every branch shares: the caller's `where`, `ids`, and the cursor. */
  function filters(page: Page): Prisma.Sql {
    const parts = page.conditions.map(c => conditionSql(c));
    if (page.ids.length) parts.push(Prisma.sql`r.id IN (${Prisma.join(page.ids.map(id => Prisma.sql`${id}::uuid`))})`);
    return Prisma.sql`${andAll(parts)} ${page.after}`;
  }

  /** One ordered, limited branch; the outer query merges branches into one page (docs/api.md §10 rule 4). */
  function branch(page: Page, from: Prisma.Sql, place: { resource: string; room: string }, where: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`SELECT ${selectList(page.order, place)} FROM ${from} WHERE ${where} ${filters(page)}
      ORDER BY ${orderSql(page.order)} LIMIT ${page.limit + 1}`;
  }

  async function runPage(run: Run, page: Page, branches: Prisma.Sql[], binding: Binding, place: 'user' | 'resource' | 'type'): Promise<DbResult> {
    if (branches.length === 0) return { op: 'select', rows: [], nextCursor: null, ok: true };
    const union = Prisma.join(
      branches.map(b => Prisma.sql`(${b})`),
      ' UNION ALL ',
    );
    const query = Prisma.sql`
      SELECT id, creator_id, resource_id, room_id, data, created_at, updated_at FROM (${union}) AS page
      ORDER BY ${orderSql(page.order, null)} LIMIT ${page.limit + 1}`;
    if (run.explain) {
      const explain = Prisma.raw(run.explain.analyze ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN');
      const plan = await run.db.$queryRaw<Record<string, string>[]>`${explain} ${query}`;
      run.explain.lines.push(...plan.map(line => Object.values(line)[0]));
      return { op: 'select', rows: [], nextCursor: null, ok: true };
    }
    const rows = await run.db.$queryRaw<SqlRow[]>(query);
    const more = rows.length > page.limit;
    const kept = rows.slice(0, page.limit);
    const nextCursor = more ? encodeCursor(page.signature, page.resumeOf(kept[kept.length - 1])) : null;
    return { op: 'select', rows: kept.map(row => shape(row, binding, place)), nextCursor, ok: true };
  }

  const sameTable = (deploymentId: string, binding: Binding) =>
    Prisma.sql`r.deployment_id = ${literal(deploymentId, 'deployment')} AND r.table_name = ${literal(binding.name, 'name')}`;

  /**
   * docs/api.md §10 rules 4 and 6: the rooms a read reaches, each as one index-ordered branch. Room
   * records go through one LATERAL over their ids, so the statement has a fixed shape however many
   * rooms the caller holds; rooms where only `creator` admits the caller add `creator_id = caller`.
   */
  function resourceBranches(run: Run, resource: ResourceRef, binding: Binding, page: Page, reach: Reach): Prisma.Sql[] {
    const me = run.caller.principal.id;
    const table = sameTable(resource.deploymentId, binding);
    const out: Prisma.Sql[] = [];
    /** `room` null: the default room; else the LATERAL's room id. */
    const roomIs = (col: string, room: Prisma.Sql | null) =>
      room === null ? Prisma.sql`${Prisma.raw(col)} IS NULL` : Prisma.sql`${Prisma.raw(col)} = ${room}`;
    const sources: { from: Prisma.Sql; place: { resource: string; room: string }; at: (room: Prisma.Sql | null) => Prisma.Sql }[] = [
      {
        from: Prisma.sql`rows r`,
        place: { resource: 'r.resource_id', room: 'r.room_id' },
        at: room => Prisma.sql`r.resource_id = ${resource.id} AND ${table} AND ${roomIs('r.room_id', room)}`,
      },
    ];
    if (binding.kind === 'shared') {
      sources.push({
        from: Prisma.sql`row_links l JOIN rows r ON r.id = l.row_id`,
        place: { resource: 'l.resource_id', room: 'l.room_id' },
        at: room => Prisma.sql`l.resource_id = ${resource.id} AND NOT l.hidden AND ${roomIs('l.room_id', room)} AND ${table}`,
      });
    }
    const mine = Prisma.sql`AND r.creator_id = ${me}`;
    for (const source of sources) {
      if (reach.defaultRoom !== 'none') {
        out.push(branch(page, source.from, source.place, Prisma.sql`${source.at(null)} ${reach.defaultRoom === 'own' ? mine : Prisma.empty}`));
      }
      for (const [rooms, own] of [
        [reach.all, false],
        [reach.own, true],
      ] as const) {
        if (rooms.length === 0) continue;
        const inner = branch(page, source.from, source.place, Prisma.sql`${source.at(Prisma.raw('g.room_id'))} ${own ? mine : Prisma.empty}`);
        out.push(Prisma.sql`SELECT b.* FROM unnest(ARRAY[${Prisma.join(rooms)}]::text[]) AS g(room_id) CROSS JOIN LATERAL (${inner}) AS b`);
      }
    }
    return out;
  }

  /** What of a resource a caller reads: the default room's reach, and the rooms read wholly or only as their rows' creator. */
  interface Reach {
    defaultRoom: ReadReach;
    all: string[];
    own: string[];
  }

  const reachesNothing = (reach: Reach) => reach.defaultRoom === 'none' && reach.all.length === 0 && reach.own.length === 0;

  /**
   * docs/api.md §10 rules 4 and 6, §11.4: what the read rule lets the caller read, with `base` as
   * their role in the default room. `room` (a scope's roomId, null for the default room) narrows
   * it to that room; undefined spans the rooms they hold, and every room when the rule names
   * their admin role (admin visibility). Reads and the matching of writes share it: a row outside
   * it takes part in neither (a write cannot probe what a read would not show).
   */
  async function readable(
    db: Db,
    resource: ResourceRef,
    binding: Binding,
    roles: Roles,
    base: Role | null,
    room: string | null | undefined,
  ): Promise<Reach> {
    const rule = ruleFor('read', binding.override, binding.table.access);
    const reach: Reach = { defaultRoom: 'none', all: [], own: [] };
    if (room !== undefined) {
      const role = room === null ? base : roleIn(roles, room);
      const r = readReach(rule, role, room === null ? role : roles.resourceRole);
      if (room === null) reach.defaultRoom = r;
      else if (r !== 'none') reach[r].push(room);
      return reach;
    }
    reach.defaultRoom = readReach(rule, base);
    const everyRoom = reachesEveryRoom(rule, roles.resourceRole)
      ? (await db.room.findMany({ where: { resourceId: resource.id }, select: { id: true } })).map(r => r.id)
      : [];
    for (const roomId of [...new Set([...roles.grants.keys(), ...everyRoom])].sort()) {
      const r = readReach(rule, effectiveRole(roles.resourceRole, roles.grants.get(roomId) ?? null, false), roles.resourceRole);
      if (r !== 'none') reach[r].push(roomId);
    }
    return reach;
  }

  async function selectResource(run: Run, op: DbOperation & { scope: { kind: 'resource' } }): Promise<DbResult> {
    const resource = await loadResource(run.db, run.caller, op.scope.resourceId);
    const binding = bindingIn(run.schema, resource.type, op.table);
    const roles = await roomRoles(run.db, resource.id, run.caller.principal.id);
    if (!roles.resourceRole && !isPublic(resource)) throw resourceNotFound(resource.id);
    const defaultRole = run.schema.resources[resource.type]?.defaultRole ?? 'reader';
    const base = roles.resourceRole ?? visitorRole(resource.visibility, defaultRole);
    const room = op.scope.roomId === undefined ? undefined : await roomOf(run.db, resource.id, op.scope.roomId);
    const reach = await readable(run.db, resource, binding, roles, base, room);
    // Rule 6: a room-scoped read is that room alone, refused when its role reads nothing there.
    if (reachesNothing(reach))
      throw room === undefined ? refuse('read', binding, base, null) : refuse('read', binding, room === null ? base : roleIn(roles, room), room);
    const page = pageOf(op, binding, ['resource', resource.id, op.scope.roomId ?? null]);
    return runPage(run, page, resourceBranches(run, resource, binding, page, reach), binding, 'resource');
  }

  async function selectUser(run: Run, op: DbOperation): Promise<DbResult> {
    const binding = userBinding(run.schema, op.table);
    const page = pageOf(op, binding, ['user', run.caller.principal.id]);
    const where = Prisma.sql`${sameTable(run.caller.deployment.id, binding)} AND r.creator_id = ${run.caller.principal.id} AND r.resource_id IS NULL`;
    return runPage(run, page, [branch(page, Prisma.sql`rows r`, { resource: 'r.resource_id', room: 'r.room_id' }, where)], binding, 'user');
  }

  /**
   * docs/api.md §10 rule 8: default rooms only, across every resource of the type the caller can
   * read: where they are an active member, and public ones (read as a visitor would, §11.4).
   */
  async function selectType(run: Run, op: DbOperation & { scope: { kind: 'type' } }): Promise<DbResult> {
    const type = op.scope.type;
    const def = run.schema.resources[type];
    if (!def) {
      const known = Object.keys(run.schema.resources).sort().join(', ') || 'none';
      throw fail('unknown_type', `Unknown resource type '${type}' (this app declares: ${known}).`);
    }
    const binding = bindingIn(run.schema, type, op.table);
    const { all, own } = rolesReaching(ruleFor('read', binding.override, binding.table.access));
    const page = pageOf(op, binding, ['type', type]);
    const me = run.caller.principal.id;
    const roleList = (roles: string[]) => (roles.length ? Prisma.sql`IN (${Prisma.join(roles)})` : Prisma.sql`IN (NULL)`);
    const reach = Prisma.sql`(role.name ${roleList(all)} OR (role.name ${roleList(own)} AND r.creator_id = ${me}))`;
    const role = (resourceCol: string) => Prisma.sql`
      JOIN resources res ON res.id = ${Prisma.raw(resourceCol)} AND res.deployment_id = ${run.caller.deployment.id} AND res.type = ${type}
      LEFT JOIN memberships m ON m.resource_id = res.id AND m.principal_id = ${me} AND m.state = 'active'
      CROSS JOIN LATERAL (SELECT COALESCE(m.role::text, CASE WHEN res.visibility = 'public' THEN ${def.defaultRole} END) AS name) AS role`;
    const table = sameTable(run.caller.deployment.id, binding);
    const branches = [
      branch(
        page,
        Prisma.sql`rows r ${role('r.resource_id')}`,
        { resource: 'r.resource_id', room: 'r.room_id' },
        Prisma.sql`${table} AND r.room_id IS NULL AND ${reach}`,
      ),
    ];
    if (binding.kind === 'shared') {
      branches.push(
        branch(
          page,
          Prisma.sql`row_links l JOIN rows r ON r.id = l.row_id ${role('l.resource_id')}`,
          { resource: 'l.resource_id', room: 'l.room_id' },
          Prisma.sql`${table} AND l.room_id IS NULL AND NOT l.hidden AND ${reach}`,
        ),
      );
    }
    return runPage(run, page, branches, binding, 'type');
  }

  // ---- writes ------------------------------------------------------------------------------

  function writer(run: Run, tx: Tx, resource: ResourceRef, op: DbOp) {
    const defaultRole = run.schema.resources[resource.type]?.defaultRole ?? 'reader';
    return writerRoles(tx, run.caller, resource, { joining: JOINING_OPS.has(op), defaultRole, now: run.now, joins: run.joins });
  }

  /** An update's or delete's rows: by id, or by a filter. */
  type Pick = { ids: string[] } | { where: Condition[] };

  interface Target {
    id: string;
    creator_id: string | null;
    resource_id: string | null;
    room_id: string | null;
    data: RowData;
    created_at: string;
    updated_at: string;
    via: 'owned' | 'linked';
  }

  const ISO = Prisma.raw(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);
  const uuidList = (ids: string[]) => Prisma.join(ids.map(id => Prisma.sql`${id}::uuid`));

  /**
   * The rows an update or delete names: by id or by a `where` filter, matched and locked in the
   * same statement (a row a concurrent write moved out of the filter is skipped), at most
   * ROWS_MAX_WHERE of them.
   */
  function pick(binding: Binding, op: DbOperation): Pick {
    if (op.ids) return { ids: rowIds(op.ids) };
    return { where: parseWhere(binding.name, rowTable(binding.table), op.where) };
  }

  function matching(pickOf: Pick, col: string): Prisma.Sql {
    if ('ids' in pickOf) return Prisma.sql`${Prisma.raw(col)} IN (${uuidList(pickOf.ids)})`;
    return Prisma.sql`TRUE ${andAll(pickOf.where.map(c => conditionSql(c)))}`;
  }

  function found(binding: Binding, pickOf: Pick, rows: Target[]): Target[] {
    spendWrites(rows.length);
    if (!('ids' in pickOf)) {
      if (rows.length > ROWS_MAX_WHERE) {
        throw fail(
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
  function reachSql(reach: Reach, roomCol: string, me: string): Prisma.Sql {
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
   * tables) rows linked in, hidden links excluded. Only rows within `reach` (what the caller reads,
   * docs/api.md §11.4) take part, so a write answers exactly as if no other row existed; null
   * (reading back rows just linked, for their events) reaches every room.
   */
  async function resourceTargets(tx: Tx, me: string, resource: ResourceRef, binding: Binding, pickOf: Pick, reach: Reach | null): Promise<Target[]> {
    const table = sameTable(resource.deploymentId, binding);
    const within = (col: string) => (reach ? Prisma.sql`AND ${reachSql(reach, col, me)}` : Prisma.empty);
    const cols = Prisma.sql`r.id::text AS id, r.creator_id, r.data, to_char(r.created_at, ${ISO}) AS created_at, to_char(r.updated_at, ${ISO}) AS updated_at`;
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

  async function userTargets(run: Run, tx: Tx, binding: Binding, pickOf: Pick): Promise<Target[]> {
    const rows = await tx.$queryRaw<Target[]>`
      SELECT r.id::text AS id, r.creator_id, r.resource_id, r.room_id, r.data, 'owned' AS via,
        to_char(r.created_at, ${ISO}) AS created_at, to_char(r.updated_at, ${ISO}) AS updated_at
      FROM rows r
      WHERE ${matching(pickOf, 'r.id')} AND ${sameTable(run.caller.deployment.id, binding)}
        AND r.creator_id = ${run.caller.principal.id} AND r.resource_id IS NULL
      LIMIT ${ROWS_MAX_WHERE + 1} FOR UPDATE OF r`;
    return found(binding, pickOf, rows);
  }

  type UniqueScope = { kind: 'resource'; id: string } | { kind: 'user'; id: string };

  /** Where a row's values must be unique: its resource, or its creator's own rows and every resource it is linked into. */
  async function scopesOf(tx: Tx, row: { id: string; resource_id: string | null; creator_id: string | null }): Promise<UniqueScope[]> {
    if (row.resource_id) return [{ kind: 'resource', id: row.resource_id }];
    const links = await tx.rowLink.findMany({ where: { rowId: row.id }, select: { resourceId: true } });
    return [
      ...(row.creator_id ? [{ kind: 'user' as const, id: row.creator_id }] : []),
      ...links.map(l => ({ kind: 'resource' as const, id: l.resourceId })),
    ];
  }

  /** The table's unique keys: each `unique()` column alone, then each `unique([...])` set. */
  const uniqueKeys = (table: TableIR): string[][] => [
    ...Object.entries(table.columns)
      .filter(([, column]) => column.unique)
      .map(([name]) => [name]),
    ...(table.uniques ?? []),
  ];

  /** Serialises the writes whose uniqueness `scopes` judge: a transaction-scoped advisory lock per (deployment, table, scope). */
  async function lockUniqueScopes(tx: Tx, deploymentId: string, binding: Binding, scopes: UniqueScope[]): Promise<void> {
    const keys = [...new Set(scopes.map(s => `rows-unique:${deploymentId}:${binding.name}:${s.kind}:${s.id}`))].sort();
    for (const key of keys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
  }

  /** `key`'s columns equal to `data`'s values, as conditions (the select's own SQL). */
  const keyConditions = (binding: Binding, key: readonly string[], data: RowData): Condition[] =>
    key.map(name => ({ field: { kind: 'column', name, type: binding.table.columns[name].type }, op: 'eq', value: data[name] }));

  /**
   * docs/api.md §11.3 `unique`: per scope (a user's own rows; a resource's rows in every room,
   * owned and linked, hidden links included since they may come back), for each unique key whose
   * columns all hold a value in `data` (the row as it will be) and, for an update, one of which it
   * `changed`. Enforced under lockUniqueScopes and a check query, not an index: linked rows live
   * in their creators' namespace, where no index of the resource reaches.
   */
  async function checkUnique(
    tx: Tx,
    deploymentId: string,
    binding: Binding,
    scopes: UniqueScope[],
    data: RowData,
    changed: readonly string[] | null,
    except: string[],
  ): Promise<void> {
    const keys = uniqueKeys(binding.table).filter(
      key => key.every(name => data[name] !== undefined && data[name] !== null) && (changed === null || key.some(name => changed.includes(name))),
    );
    if (keys.length === 0 || scopes.length === 0) return;
    await lockUniqueScopes(tx, deploymentId, binding, scopes);
    const table = sameTable(deploymentId, binding);
    const others = except.length ? Prisma.sql`AND r.id NOT IN (${uuidList(except)})` : Prisma.empty;
    for (const key of keys) {
      const same = andAll(keyConditions(binding, key, data).map(c => conditionSql(c)));
      for (const scope of scopes) {
        const where =
          scope.kind === 'user'
            ? Prisma.sql`SELECT 1 FROM rows r WHERE ${table} AND r.creator_id = ${scope.id} AND r.resource_id IS NULL ${same} ${others}`
            : Prisma.sql`SELECT 1 FROM rows r WHERE r.resource_id = ${scope.id} AND ${table} ${same} ${others}
                UNION ALL SELECT 1 FROM row_links l JOIN rows r ON r.id = l.row_id WHERE l.resource_id = ${scope.id} AND ${table} ${same} ${others}`;
        const [{ taken }] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT EXISTS (${where}) AS taken`;
        if (taken) {
          const among = scope.kind === 'user' ? "among a user's own rows" : 'within a resource';
          const values = key.map(name => JSON.stringify(data[name])).join(', ');
          throw fail(
            'unique_violation',
            key.length === 1
              ? `${binding.name}.${key[0]} is unique ${among}, and ${values} is taken there.`
              : `${binding.name} (${key.join(', ')}) is unique together ${among}, and (${values}) is taken there.`,
          );
        }
      }
    }
  }

  async function insertRows(
    run: Run,
    tx: Tx,
    binding: Binding,
    values: unknown,
    place: { resourceId: string | null; roomId: string | null; link: { resourceId: string; roomId: string | null } | null },
  ): Promise<SqlRow[]> {
    const list = Array.isArray(values) ? values : [values];
    if (list.length === 0 || list.length > 100) throw fail('invalid_value', 'values: one object, or an array of 1 to 100 objects.');
    spendWrites(list.length);
    const datas = list.map((v, i) => insertData(binding.name, rowTable(binding.table), v, Array.isArray(values) ? `values[${i}]` : 'values'));
    const me = run.caller.principal.id;
    const scopes: UniqueScope[] = place.resourceId ? [{ kind: 'resource', id: place.resourceId }] : [{ kind: 'user', id: me }];
    if (place.link) scopes.push({ kind: 'resource', id: place.link.resourceId });
    const out: SqlRow[] = [];
    for (const data of datas) {
      await checkUnique(tx, run.caller.deployment.id, binding, scopes, data, null, []);
      const id = newRowId();
      await tx.row
        .create({
          data: {
            id,
            deploymentId: run.caller.deployment.id,
            tableName: binding.name,
            creatorId: me,
            resourceId: place.resourceId,
            roomId: place.roomId,
            data: data as Prisma.InputJsonValue,
            createdAt: run.now,
            updatedAt: run.now,
          },
        })
        .catch(error => {
          // The caller's account was deleted while this write ran (docs/api.md §12).
          throw violatesForeignKey(error, 'rows_creator_id_fkey') ? accountDeleted() : error;
        });
      if (place.link)
        await tx.rowLink.create({
          data: { rowId: id, resourceId: place.link.resourceId, roomId: place.link.roomId, linkedBy: me, createdAt: run.now },
        });
      const at = run.now.toISOString();
      out.push({
        id,
        creator_id: me,
        resource_id: place.resourceId ?? place.link?.resourceId ?? null,
        room_id: place.link ? place.link.roomId : place.roomId,
        data,
        created_at: at,
        updated_at: at,
      });
    }
    return out;
  }

  async function updateTargets(run: Run, tx: Tx, binding: Binding, targets: Target[], values: unknown): Promise<SqlRow[]> {
    const change = updateData(binding.name, rowTable(binding.table), values);
    const at = run.now.toISOString();
    const out: SqlRow[] = [];
    for (const target of targets) {
      const data = applyUpdate(binding.name, target.data, change);
      await checkUnique(
        tx,
        run.caller.deployment.id,
        binding,
        await scopesOf(tx, { ...target, resource_id: target.via === 'owned' ? target.resource_id : null }),
        data,
        Object.keys(change.set),
        [target.id],
      );
      await tx.row.update({ where: { id: target.id }, data: { data: data as Prisma.InputJsonValue, updatedAt: run.now } });
      out.push({ ...target, data, updated_at: at });
    }
    return out;
  }

  /** The unique key of the table `onConflict` names (its columns in any order), or 400 saying which keys there are. */
  function conflictKey(binding: Binding, onConflict: readonly string[]): string[] {
    const wanted = [...new Set(onConflict)].sort();
    const keys = uniqueKeys(binding.table);
    const key = keys.find(k => k.length === wanted.length && [...k].sort().every((name, i) => name === wanted[i]));
    if (!key) {
      const known = keys.map(k => k.join(' + ')).join('; ') || 'none';
      throw invalidOperation(
        `onConflict: ${wanted.join(', ')} is no unique key of ${binding.name} (its unique keys: ${known}); declare one with unique() or unique([...]).`,
      );
    }
    return key;
  }

  interface UpsertItem {
    values: unknown;
    /** The values in stored form: the update path's change, and the key the row is found by. */
    change: { set: RowData; unset: string[] };
  }

  /** An upsert's values (one object or 1-100), each checked as an update would be and naming every key column. */
  function upsertItems(binding: Binding, values: unknown, key: readonly string[]): UpsertItem[] {
    const list = Array.isArray(values) ? values : [values];
    if (list.length === 0 || list.length > 100) throw fail('invalid_value', 'values: one object, or an array of 1 to 100 objects.');
    return list.map((item, i) => {
      const where = Array.isArray(values) ? `values[${i}]` : 'values';
      const change = updateData(binding.name, rowTable(binding.table), item, where);
      const missing = key.find(name => change.set[name] === undefined);
      if (missing) {
        throw fail('missing_value', `${where}.${missing}: upsert finds its row by onConflict (${key.join(', ')}): give each of them a value.`, {
          table: binding.name,
          column: missing,
        });
      }
      return { values: item, change };
    });
  }

  async function writeUser(run: Run, tx: Tx, op: DbOperation): Promise<DbResult> {
    const binding = userBinding(run.schema, op.table);
    const seen = (kind: RowEvent['op'], rows: SqlRow[]) => {
      const shaped = rows.map(r => shape(r, binding, 'user'));
      for (const row of shaped) run.rowEvents.push(rowEvent(run, kind, binding, null, null, null, row));
      return shaped;
    };
    const written = (rows: SqlRow[]): DbResult => {
      const shaped = op.op === 'insert' || op.op === 'update' || op.op === 'delete' ? seen(op.op, rows) : [];
      return { op: op.op, rows: shaped, nextCursor: null, ok: true };
    };
    const place = { resourceId: null, roomId: null, link: null };
    switch (op.op) {
      case 'insert':
        return written(await insertRows(run, tx, binding, op.values, place));
      case 'upsert': {
        // One atomic insert-or-update per value: the key's scope is locked, then its row looked up.
        const key = conflictKey(binding, op.onConflict!);
        const rows: RowOut[] = [];
        for (const item of upsertItems(binding, op.values, key)) {
          await lockUniqueScopes(tx, run.caller.deployment.id, binding, [{ kind: 'user', id: run.caller.principal.id }]);
          const targets = await userTargets(run, tx, binding, { where: keyConditions(binding, key, item.change.set) });
          if (targets.length) rows.push(...seen('update', await updateTargets(run, tx, binding, targets, item.values)));
          else rows.push(...seen('insert', await insertRows(run, tx, binding, item.values, place)));
        }
        return { op: 'upsert', rows, nextCursor: null, ok: true };
      }
      case 'update':
        return written(await updateTargets(run, tx, binding, await userTargets(run, tx, binding, pick(binding, op)), op.values));
      case 'delete': {
        const targets = await userTargets(run, tx, binding, pick(binding, op));
        await tx.row.deleteMany({ where: { id: { in: targets.map(t => t.id) } } });
        return written(targets);
      }
      default:
        throw invalidOperation(`${op.op} works on a resource's rows: use scope { kind: 'resource', resourceId }.`);
    }
  }

  async function writeResource(run: Run, tx: Tx, op: DbOperation & { scope: { kind: 'resource' } }): Promise<DbResult> {
    const resource = await loadResource(tx, run.caller, op.scope.resourceId);
    const binding = bindingIn(run.schema, resource.type, op.table);
    if ((op.op === 'link' || op.op === 'unlink') && binding.kind !== 'shared') {
      throw invalidOperation(
        `${op.op} is for shared tables; resources of type ${resource.type} own ${binding.name}, whose rows are written in place.`,
      );
    }
    const me = run.caller.principal.id;
    // Rule 5 and 6: writes go to the default room unless the scope names a room.
    const room = await roomOf(tx, resource.id, op.scope.roomId);
    const { roles, join } = await writer(run, tx, resource, op.op);
    const rule = (action: RowAction) => ruleFor(action, binding.override, binding.table.access);
    /** Row events as seen in this resource: `previous` is the room a moved row left. */
    const seen = (kind: RowEvent['op'], rows: SqlRow[], previous?: (row: SqlRow) => string | null) => {
      for (const r of rows)
        run.rowEvents.push(rowEvent(run, kind, binding, resource.id, r.room_id, previous ? previous(r) : r.room_id, shape(r, binding, 'resource')));
    };
    const written = (rows: SqlRow[]): DbResult => {
      if (op.op === 'insert' || op.op === 'update' || op.op === 'delete') seen(op.op, rows);
      return { op: op.op, rows: rows.map(r => shape(r, binding, 'resource')), nextCursor: null, ok: true };
    };
    const ok: DbResult = { op: op.op, rows: null, nextCursor: null, ok: true };
    const role = roleIn(roles, room);

    switch (op.op) {
      case 'insert': {
        if (!passesAccessRule(rule('create'), role, true, roles.resourceRole)) throw refuse('create', binding, role, room);
        await join?.();
        const place =
          binding.kind === 'shared'
            ? { resourceId: null, roomId: null, link: { resourceId: resource.id, roomId: room } }
            : { resourceId: resource.id, roomId: room, link: null };
        return written(await insertRows(run, tx, binding, op.values, place));
      }
      case 'upsert': {
        const key = conflictKey(binding, op.onConflict!);
        const items = upsertItems(binding, op.values, key);
        // Judged before matching, as update and delete are: with neither path open, refused whatever rows there are.
        const canCreate = passesAccessRule(rule('create'), role, true, roles.resourceRole);
        const reach = await readable(tx, resource, binding, roles, roles.resourceRole, room);
        const canUpdate = !reachesNothing(reach) && passesAccessRule(rule('update'), role, true, roles.resourceRole);
        if (!canCreate && !canUpdate) throw refuse('create', binding, role, room);
        const place =
          binding.kind === 'shared'
            ? { resourceId: null, roomId: null, link: { resourceId: resource.id, roomId: room } }
            : { resourceId: resource.id, roomId: room, link: null };
        const scopes: UniqueScope[] = [{ kind: 'resource', id: resource.id }];
        if (binding.kind === 'shared') scopes.push({ kind: 'user', id: me });
        const rows: RowOut[] = [];
        for (const item of items) {
          // The key's scopes are locked first, so racing upserts of one key run one after the other
          // and the second finds the first's row. A conflicting row takes the update path only where
          // an update of this scope reaches it and the caller reads it; anywhere else (another room, a
          // row they cannot read) the insert path meets it as an insert would: 409 unique_violation.
          await lockUniqueScopes(tx, run.caller.deployment.id, binding, scopes);
          const targets = canUpdate
            ? await resourceTargets(tx, me, resource, binding, { where: keyConditions(binding, key, item.change.set) }, reach)
            : [];
          if (targets.length) {
            for (const t of targets)
              if (!passesAccessRule(rule('update'), role, t.creator_id === me, roles.resourceRole)) throw refuse('update', binding, role, room);
            await join?.();
            const updated = await updateTargets(run, tx, binding, targets, item.values);
            seen('update', updated);
            rows.push(...updated.map(r => shape(r, binding, 'resource')));
          } else {
            if (!canCreate) throw refuse('create', binding, role, room);
            await join?.();
            const inserted = await insertRows(run, tx, binding, item.values, place);
            seen('insert', inserted);
            rows.push(...inserted.map(r => shape(r, binding, 'resource')));
          }
        }
        return { op: 'upsert', rows, nextCursor: null, ok: true };
      }
      case 'update':
      case 'delete': {
        // Judged before matching, so the answer cannot depend on rows: reading nothing in the room,
        // or a rule that admits the caller for no row at all, refuses whatever rows are there.
        const reach = await readable(tx, resource, binding, roles, roles.resourceRole, room);
        if (reachesNothing(reach) || !passesAccessRule(rule(op.op), role, true, roles.resourceRole)) throw refuse(op.op, binding, role, room);
        const targets = await resourceTargets(tx, me, resource, binding, pick(binding, op), reach);
        for (const t of targets)
          if (!passesAccessRule(rule(op.op), role, t.creator_id === me, roles.resourceRole)) throw refuse(op.op, binding, role, room);
        // A write that changes no row makes no one a member.
        if (targets.length) await join?.();
        if (op.op === 'update') return written(await updateTargets(run, tx, binding, targets, op.values));
        // A shared row is its creator's: deleting it here deletes it everywhere it is linked (docs/api.md §11.2).
        await tx.row.deleteMany({ where: { id: { in: targets.map(t => t.id) } } });
        return written(targets);
      }
      case 'link': {
        if (!passesAccessRule(rule('create'), role, true, roles.resourceRole)) throw refuse('create', binding, role, room);
        const ids = rowIds(op.ids!);
        const own = await tx.row.findMany({
          where: { id: { in: ids }, deploymentId: run.caller.deployment.id, tableName: binding.name, creatorId: me, resourceId: null },
          select: { id: true, data: true },
        });
        const missing = ids.filter(id => !own.some(r => r.id === id));
        if (missing.length)
          throw fail(
            'row_not_found',
            `Only your own rows of ${binding.name} can be linked; not yours or not there: ${missing.slice(0, 5).join(', ')}.`,
          );
        await join?.();
        for (const row of own) {
          await checkUnique(tx, run.caller.deployment.id, binding, [{ kind: 'resource', id: resource.id }], row.data as RowData, null, [row.id]);
          // Linking again is a no-op (moveRoom moves a link); a hidden link comes back.
          await tx.$executeRaw`
            INSERT INTO row_links (row_id, resource_id, room_id, linked_by, hidden, created_at)
            VALUES (${row.id}::uuid, ${resource.id}, ${room}, ${me}, false, ${run.now})
            ON CONFLICT (row_id, resource_id) DO UPDATE SET hidden = false`;
        }
        seen('insert', await resourceTargets(tx, me, resource, binding, { ids }, null));
        return ok;
      }
      case 'unlink': {
        const reach = await readable(tx, resource, binding, roles, roles.resourceRole, room);
        if (reachesNothing(reach) || !passesAccessRule(rule('unlink'), role, true, roles.resourceRole)) throw refuse('unlink', binding, role, room);
        // Like update and delete by id: what is linked is unlinked, an id of nothing linked changes nothing.
        const targets = await resourceTargets(tx, me, resource, binding, { ids: rowIds(op.ids!) }, reach);
        const owned = targets.filter(t => t.via === 'owned').map(t => t.id);
        if (owned.length)
          throw invalidOperation(
            `${owned.slice(0, 5).join(', ')}: the resource's own rows (copies a member left behind, docs/api.md §12.1) are not linked: delete them instead.`,
          );
        for (const t of targets)
          if (!passesAccessRule(rule('unlink'), role, t.creator_id === me, roles.resourceRole)) throw refuse('unlink', binding, role, room);
        await tx.rowLink.deleteMany({ where: { resourceId: resource.id, rowId: { in: targets.map(t => t.id) } } });
        seen('delete', targets);
        return ok;
      }
      case 'moveRoom': {
        // Rule 7: admin in every source room, the create rule in the destination; one call. What
        // does not depend on rows is judged before matching: the destination, and a named source room.
        const destination = await roomOf(tx, resource.id, op.destination);
        const destRole = roleIn(roles, destination);
        if (!passesAccessRule(rule('create'), destRole, true, roles.resourceRole)) throw refuse('create', binding, destRole, destination);
        const source = op.scope.roomId === undefined ? undefined : room;
        const reach = await readable(tx, resource, binding, roles, roles.resourceRole, source);
        if (source !== undefined && (reachesNothing(reach) || !canMoveOutOf(role))) throw accessRefusedMove(binding.name, role, source);
        // Only rows the caller reads take part, so a refusal names a room they read in.
        const targets = await resourceTargets(tx, me, resource, binding, { ids: rowIds(op.ids!) }, reach);
        for (const t of targets) {
          const sourceRole = roleIn(roles, t.room_id);
          if (!canMoveOutOf(sourceRole)) throw accessRefusedMove(binding.name, sourceRole, t.room_id);
          if (!passesAccessRule(rule('create'), destRole, t.creator_id === me, roles.resourceRole))
            throw refuse('create', binding, destRole, destination);
        }
        const owned = targets.filter(t => t.via === 'owned').map(t => t.id);
        const linked = targets.filter(t => t.via === 'linked').map(t => t.id);
        if (owned.length) await tx.row.updateMany({ where: { id: { in: owned } }, data: { roomId: destination } });
        if (linked.length) await tx.rowLink.updateMany({ where: { resourceId: resource.id, rowId: { in: linked } }, data: { roomId: destination } });
        const from = new Map(targets.map(t => [t.id, t.room_id]));
        seen(
          'update',
          targets.map(t => ({ ...t, room_id: destination })),
          r => from.get(r.id) ?? null,
        );
        return ok;
      }
      default:
        throw invalidOperation(`${op.op} is not a write.`);
    }
  }

  function accessRefusedMove(table: string, role: Role | null, room: string | null): AppError {
    const who = role ? `your role there is ${role}` : 'you hold no role there';
    const where = room === null ? 'the default room' : `room ${room}`;
    return fail(room === null ? 'access_denied' : 'room_forbidden', `moveRoom on ${table} needs admin in the source room (${where}): ${who}.`);
  }

  // ---- dispatch ----------------------------------------------------------------------------

  async function one(run: Run, op: DbOperation): Promise<DbResult> {
    const scope = op.scope;
    if (op.op === 'select') {
      if (scope.kind === 'user') return selectUser(run, op);
      if (scope.kind === 'resource') return selectResource(run, { ...op, scope });
      return selectType(run, { ...op, scope });
    }
    if (scope.kind === 'type') throw invalidOperation(`scope { kind: 'type' } reads only (docs/api.md §10 rule 8); write through a resource scope.`);
    if (!run.tx) throw new Error('rows: a write outside a transaction');
    if (scope.kind === 'user') return writeUser(run, run.tx, op);
    return writeResource(run, run.tx, { ...op, scope });
  }

  /** Runs `ops` (one transaction unless it is a lone select), then publishes what auto-joins changed. */
  async function execute(caller: PrincipalCaller, ops: DbOperation[], batch: boolean): Promise<DbResult[]> {
    const deployment = await apps.deployment(caller.deployment.id);
    const base = { caller, schema: deployment.schema, now: deps.now() };
    if (!batch && ops[0].op === 'select') {
      // A read is charged once it has answered: a refused read costs nothing, an unpaid one answers 402.
      const result = await one({ ...base, db: deps.prisma, tx: null, joins: [], rowEvents: [] }, ops[0]);
      await metering.charge(null, caller, [{ class: 'reads', quantity: 1 }], 'rows.select');
      return [result];
    }
    // Refused before anything runs when its inserts alone are too many; the rest is counted as it is matched.
    const budget = {
      limit: deps.config.rows.maxWritesPerCall,
      spent: ops.reduce((sum, op) => sum + (op.op === 'insert' ? insertCount(op.values) : 0), 0),
    };
    if (budget.spent > budget.limit) throw tooManyWrites(budget);
    budget.spent = 0;
    const { results, events, grantEvents, rowEvents } = await writeBudgets.run(budget, () =>
      deps.transaction(async tx => {
        const run: Run = { ...base, db: tx, tx, joins: [], rowEvents: [] };
        const results: DbResult[] = [];
        for (const [i, op] of ops.entries()) {
          try {
            results.push(await one(run, op));
          } catch (error) {
            // A batch is all or nothing: say which operation stopped it.
            if (batch && error instanceof AppError) throw fail(error.code, `operations[${i}]: ${error.message}`, { ...error.details, operation: i });
            throw error;
          }
        }
        // Bytes a resource holds at rest are its owner's to pay (docs/api.md §14.2): a write that adds
        // some is refused, like an upload, while that wallet is in debt. (Not a day's cost of the
        // rows: a row's is below a micro-dollar, and the write's own payer may be the same wallet.)
        for (const resourceId of resourcesGrownBy(run.rowEvents)) await metering.assertStorageCovered(tx, caller, resourceId, 0);
        // One charge per call, last in the transaction it pays for (docs/api.md §14): a batch's
        // operations count as one operation each, moveRoom as one.
        const reads = ops.filter(op => op.op === 'select').length;
        const usage = [
          { class: 'reads' as const, quantity: reads },
          { class: 'writes' as const, quantity: ops.length - reads },
        ];
        await metering.charge(tx, caller, usage, batch ? 'rows.batch' : `rows.${ops[0].op}`);
        const events: MembershipEvent[] = [];
        const grantEvents: GrantEvent[] = [];
        for (const changes of run.joins) {
          await changes.flush();
          events.push(...changes.events);
          grantEvents.push(...changes.grantEvents);
        }
        await stampCommit(tx, run.rowEvents);
        return { results, events, grantEvents, rowEvents: run.rowEvents };
      }),
    );
    deps.bus.publish(events);
    deps.bus.publishRows(rowEvents);
    deps.bus.publishGrants(grantEvents);
    return results;
  }

  return {
    /** POST /v1/db/query, `dbQuery`, `dbSelect`. */
    async query(caller: PrincipalCaller, input: unknown): Promise<DbResult> {
      const [result] = await execute(caller, [parseOperation(input)], false);
      return result;
    },
    /** POST /v1/db/batch, `dbBatch`: every operation in one transaction, all or nothing. */
    batch(caller: PrincipalCaller, input: unknown): Promise<DbResult[]> {
      return execute(caller, parseBatch(input), true);
    },
    /**
     * A select on `db` with the deployment's `schema` (read before: no other query inside the
     * transaction), unmetered: the live row feed's gate and snapshot (src/rows/rows-live.service.ts).
     */
    selectOn(db: Db, caller: PrincipalCaller, schema: SchemaIR, op: DbOperation): Promise<DbResult> {
      return one({ caller, schema, now: deps.now(), db, tx: null, joins: [], rowEvents: [] }, { ...op, op: 'select' });
    },

    /** The plan of a select's page query as EXPLAIN prints it, ANALYZE'd on request (bench/rows.ts, the index tests). */
    async explain(caller: PrincipalCaller, input: unknown, { analyze = false } = {}): Promise<string[]> {
      const op = parseOperation(input);
      if (op.op !== 'select') throw invalidOperation('explain takes a select.');
      const deployment = await apps.deployment(caller.deployment.id);
      const explain = { lines: [] as string[], analyze };
      await one({ caller, schema: deployment.schema, now: deps.now(), db: deps.prisma, tx: null, joins: [], rowEvents: [], explain }, op);
      return explain.lines;
    },
  };
}

export type RowService = ReturnType<typeof createRowService>;
