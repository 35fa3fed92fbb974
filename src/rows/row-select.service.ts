/**
 * Reads (docs/api.md §10): a page of rows at user, resource or type scope, each reached room an
 * index-ordered branch, the branches merged into one keyset page.
 */
import { ruleFor, rolesReaching, visitorRole } from './rows.rules.js';
import { type Condition, type RowOrder, parseOrder, parseWhere } from './row-values.rules.js';
import { isPublic } from '../membership/visibility.rules.js';
import { fail } from '../errors.js';
import { sql, sqlOf } from '../db/sql.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import type { ResourceRef } from '../membership/writer-standing.service.js';
import { resourceFacts } from './row-resource-facts.service.js';
import { type DbOperation, ROWS_DEFAULT_LIMIT, decodeCursor, encodeCursor, querySignature, resumeValue, rowIds } from './rows-input.service.js';
import { EMPTY, type Fragment, type SqlRow, afterSql, andAll, conditionSql, joined, orderSql, sameTable, selectList, uuidList } from './rows.sql.js';
import { type Reach, reachesNothing, refusedIn, roleIn } from './row-access.rules.js';
import { type Binding, type Place, bindingIn, rowTable, shape, userBinding } from './row-binding.service.js';
import type { DbResult, Run } from './row-run.service.js';
import { readable } from './row-reach.service.js';

/** A select's page: its order, filters, size and where it resumes. */
export interface Page {
  order: RowOrder;
  conditions: Condition[];
  ids: string[];
  limit: number;
  after: Fragment;
  signature: string;
  resumeOf: (row: SqlRow) => { value: string | null; id: string };
}

/** Where a branch reads a row's placement: its own columns, or its link's. */
interface Placement {
  resource: string;
  room: string;
}

const OWN_PLACEMENT: Placement = { resource: 'r.resource_id', room: 'r.room_id' };
const LINK_PLACEMENT: Placement = { resource: 'l.resource_id', room: 'l.room_id' };

/** `op`'s page; `scopeKey` binds its cursor to this scope (a cursor of another query is refused). */
export function pageOf(op: DbOperation, binding: Binding, scopeKey: unknown[]): Page {
  const table = rowTable(binding.table);
  const order = parseOrder(binding.name, table, op.orderBy);
  const conditions = parseWhere(binding.name, table, op.where);
  const ids = op.ids ? rowIds(op.ids) : [];
  const signature = querySignature([scopeKey, binding.name, order.field.name, order.direction, conditions, ids]);
  const nullable = order.field.kind === 'column' && !binding.table.columns[order.field.name]?.notNull;
  const after = op.cursor ? afterSql(order, decodeCursor(op.cursor, signature, order, binding.name), nullable) : EMPTY;
  return {
    order,
    conditions,
    ids,
    limit: op.limit ?? ROWS_DEFAULT_LIMIT,
    after: op.cursor ? sql`AND ${after}` : EMPTY,
    signature,
    resumeOf: row => ({ value: resumeValue(order.field, row), id: row.id }),
  };
}

/** Filters every branch shares: the caller's `where`, `ids`, and the cursor. */
function filters(page: Page): Fragment {
  const parts = page.conditions.map(c => conditionSql(c));
  if (page.ids.length) parts.push(sql`r.id IN (${uuidList(page.ids)})`);
  return sql`${andAll(parts)} ${page.after}`;
}

/** One ordered, limited branch; the outer query merges branches into one page (docs/api.md §10 rule 4). */
export function branch(page: Page, from: Fragment, place: Placement, where: Fragment): Fragment {
  return sql`SELECT ${selectList(page.order, place)} FROM ${from} WHERE ${where} ${filters(page)}
      ORDER BY ${orderSql(page.order)} LIMIT ${page.limit + 1}`;
}

const emptyPage: DbResult = { op: 'select', rows: [], nextCursor: null, ok: true };

/** Merges `branches` into one page and shapes it; with `run.explain`, records the plan instead. */
async function runPage(run: Run, page: Page, branches: Fragment[], binding: Binding, place: Place): Promise<DbResult> {
  if (branches.length === 0) return emptyPage;
  const union = joined(
    branches.map(b => sql`(${b})`),
    ' UNION ALL ',
  );
  const query = sql`
      SELECT id, creator_id, resource_id, room_id, data, created_at, updated_at FROM (${union}) AS page
      ORDER BY ${orderSql(page.order, null)} LIMIT ${page.limit + 1}`;
  if (run.explain) {
    const explain = sql.raw(run.explain.analyze ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN');
    const plan = await sql<Record<string, string>>`${explain} ${query}`.execute(sqlOf(run.db));
    run.explain.lines.push(...plan.rows.map(line => Object.values(line)[0]));
    return emptyPage;
  }
  const { rows } = await sql<SqlRow>`${query}`.execute(sqlOf(run.db));
  const more = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  const nextCursor = more ? encodeCursor(page.signature, page.resumeOf(kept[kept.length - 1])) : null;
  return { op: 'select', rows: kept.map(row => shape(row, binding, place)), nextCursor, ok: true };
}

/**
 * docs/api.md §10 rules 4 and 6: the rooms a read reaches, each as one index-ordered branch. Room
 * records go through one LATERAL over their ids, so the statement has a fixed shape however many
 * rooms the caller holds; rooms where only `creator` admits the caller add `creator_id = caller`.
 */
export function resourceBranches(me: string, resource: ResourceRef, binding: Binding, page: Page, reach: Reach): Fragment[] {
  const table = sameTable(resource.deploymentId, binding.name);
  const out: Fragment[] = [];
  /** `room` null: the default room; else the LATERAL's room id. */
  const roomIs = (col: string, room: Fragment | null) => (room === null ? sql`${sql.raw(col)} IS NULL` : sql`${sql.raw(col)} = ${room}`);
  const sources: { from: Fragment; place: Placement; at: (room: Fragment | null) => Fragment }[] = [
    {
      from: sql`rows r`,
      place: OWN_PLACEMENT,
      at: room => sql`r.resource_id = ${resource.id} AND ${table} AND ${roomIs('r.room_id', room)}`,
    },
  ];
  if (binding.kind === 'shared') {
    sources.push({
      from: sql`row_links l JOIN rows r ON r.id = l.row_id`,
      place: LINK_PLACEMENT,
      at: room => sql`l.resource_id = ${resource.id} AND NOT l.hidden AND ${roomIs('l.room_id', room)} AND ${table}`,
    });
  }
  const mine = sql`AND r.creator_id = ${me}`;
  for (const source of sources) {
    if (reach.defaultRoom !== 'none') {
      out.push(branch(page, source.from, source.place, sql`${source.at(null)} ${reach.defaultRoom === 'own' ? mine : EMPTY}`));
    }
    for (const [rooms, own] of [
      [reach.all, false],
      [reach.own, true],
    ] as const) {
      if (rooms.length === 0) continue;
      const inner = branch(page, source.from, source.place, sql`${source.at(sql.raw('g.room_id'))} ${own ? mine : EMPTY}`);
      out.push(sql`SELECT b.* FROM unnest(ARRAY[${joined(rooms)}]::text[]) AS g(room_id) CROSS JOIN LATERAL (${inner}) AS b`);
    }
  }
  return out;
}

export async function selectResource(run: Run, op: DbOperation & { scope: { kind: 'resource' } }): Promise<DbResult> {
  const facts = await resourceFacts(sqlOf(run.db), run.caller, op.scope.resourceId, op.scope.roomId);
  const { resource, roles } = facts;
  const binding = bindingIn(run.schema, resource.type, op.table);
  if (!roles.resourceRole && !isPublic(resource)) throw resourceNotFound(resource.id);
  const defaultRole = run.schema.resources[resource.type]?.defaultRole ?? 'reader';
  const base = roles.resourceRole ?? visitorRole(resource.visibility, defaultRole);
  const room = op.scope.roomId === undefined ? undefined : facts.room();
  const reach = await readable(run.db, resource, binding, roles, base, room);
  // Rule 6: a room-scoped read is that room alone, refused when its role reads nothing there.
  if (reachesNothing(reach))
    throw room === undefined
      ? refusedIn('read', binding.name, base, null)
      : refusedIn('read', binding.name, room === null ? base : roleIn(roles, room), room);
  const page = pageOf(op, binding, ['resource', resource.id, op.scope.roomId ?? null]);
  return runPage(run, page, resourceBranches(run.caller.principal.id, resource, binding, page, reach), binding, 'resource');
}

export async function selectUser(run: Run, op: DbOperation): Promise<DbResult> {
  const binding = userBinding(run.schema, op.table);
  const page = pageOf(op, binding, ['user', run.caller.principal.id]);
  const where = sql`${sameTable(run.caller.deployment.id, binding.name)} AND r.creator_id = ${run.caller.principal.id} AND r.resource_id IS NULL`;
  return runPage(run, page, [branch(page, sql`rows r`, OWN_PLACEMENT, where)], binding, 'user');
}

/**
 * docs/api.md §10 rule 8: default rooms only, across every resource of the type the caller can
 * read: where they are an active member, and public ones (read as a visitor would, §11.4).
 */
export async function selectType(run: Run, op: DbOperation & { scope: { kind: 'type' } }): Promise<DbResult> {
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
  const roleList = (roles: string[]) => (roles.length ? sql`IN (${joined(roles)})` : sql`IN (NULL)`);
  const reach = sql`(role.name ${roleList(all)} OR (role.name ${roleList(own)} AND r.creator_id = ${me}))`;
  const role = (resourceCol: string) => sql`
      JOIN resources res ON res.id = ${sql.raw(resourceCol)} AND res.deployment_id = ${run.caller.deployment.id} AND res.type = ${type}
      LEFT JOIN memberships m ON m.resource_id = res.id AND m.principal_id = ${me} AND m.state = 'active'
      CROSS JOIN LATERAL (SELECT COALESCE(m.role::text, CASE WHEN res.visibility = 'public' THEN ${def.defaultRole} END) AS name) AS role`;
  const table = sameTable(run.caller.deployment.id, binding.name);
  const branches = [branch(page, sql`rows r ${role('r.resource_id')}`, OWN_PLACEMENT, sql`${table} AND r.room_id IS NULL AND ${reach}`)];
  if (binding.kind === 'shared') {
    branches.push(
      branch(
        page,
        sql`row_links l JOIN rows r ON r.id = l.row_id ${role('l.resource_id')}`,
        LINK_PLACEMENT,
        sql`${table} AND l.room_id IS NULL AND NOT l.hidden AND ${reach}`,
      ),
    );
  }
  return runPage(run, page, branches, binding, 'type');
}
