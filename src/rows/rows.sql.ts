/**
 * The SQL of the row store (docs/api.md §11.6). Column values live in `rows.data` (jsonb); each
 * field has ONE SQL expression that filters, orders, checks uniqueness and is indexed
 * (src/rows/row-indexes.service.ts builds declared indexes from the same function), because the
 * planner uses an expression index only for the identical expression.
 *
 * Names are inlined, not bound: the deployment id, table and column names are checked against
 * strict patterns here (they come from the deployed schema, never from a request unchecked), and
 * a partial index `WHERE deployment_id = '…' AND table_name = '…'` is only considered by the
 * planner when the query carries the same constants. Every value from a request is a parameter.
 *
 * Fragments are the SQL layer's `sql` templates (src/db/sql.ts, Kysely): the statements that use
 * them run on it, and read timestamps as Dates like every other path.
 */
import type { Condition, RowField, RowOrder } from './row-values.rules.js';
import type { RawBuilder } from 'kysely';
import { sql } from '../db/sql.js';
import { TABLE_NAME_PATTERN } from '../schema/index.js';

/** A piece of a statement: text with its values as parameters (Kysely's `sql` template). */
export type Fragment = RawBuilder<unknown>;

/** The fragment of nothing. */
export const EMPTY: Fragment = sql``;

/** Fragments and values joined by `separator` (text): a fragment as its text, a value as a parameter. */
export const joined = (parts: readonly unknown[], separator = ', '): Fragment => sql.join(parts, sql.raw(separator));

/** Every table and column name the schema accepts (column names are the stricter pattern). */
const NAME = TABLE_NAME_PATTERN;
const DEPLOYMENT_ID = /^[a-z]+_[0-9a-f]{8,64}$/;

/** A schema name or deployment id as an SQL string literal; anything off-pattern is a bug, not input. */
export function literalText(value: string, kind: 'name' | 'deployment'): string {
  if (!(kind === 'name' ? NAME : DEPLOYMENT_ID).test(value)) throw new Error(`rows-sql: refusing to inline ${kind} ${JSON.stringify(value)}`);
  return `'${value}'`;
}

export const literal = (value: string, kind: 'name' | 'deployment'): Fragment => sql.raw(literalText(value, kind));

/** How a field's expression compares: text in byte order, numbers as numeric, jsonb by equality. */
type ExprKind = 'uuid' | 'timestamp' | 'text' | 'numeric' | 'jsonb';

export function exprKind(field: RowField): ExprKind {
  if (field.kind === 'id') return 'uuid';
  if (field.kind !== 'column') return 'timestamp';
  if (field.type === 'integer' || field.type === 'bigint') return 'numeric';
  if (field.type === 'jsonb') return 'jsonb';
  return 'text';
}

/**
 * The expression of `field` over the row alias (`r`), or over the bare table for an index
 * definition (alias null). Text-like values compare with COLLATE "C" so order is the same on every
 * server whatever its default collation; timestamps are stored as fixed-width UTC ISO text.
 */
export function fieldExpr(field: RowField, alias: string | null = 'r'): string {
  const at = alias ? `${alias}.` : '';
  switch (field.kind) {
    case 'id':
      return `${at}id`;
    case 'createdAt':
      return `${at}created_at`;
    case 'updatedAt':
      return `${at}updated_at`;
    case 'column': {
      if (!NAME.test(field.name)) throw new Error(`rows-sql: bad column name ${JSON.stringify(field.name)}`);
      const kind = exprKind(field);
      if (kind === 'numeric') return `((${at}data ->> '${field.name}')::numeric)`;
      if (kind === 'jsonb') return `(${at}data -> '${field.name}')`;
      return `((${at}data ->> '${field.name}') COLLATE "C")`;
    }
  }
}

/** A request value as a parameter of the field's SQL type. */
export function valueSql(field: RowField, value: unknown): Fragment {
  switch (exprKind(field)) {
    case 'uuid':
      return sql`${String(value)}::uuid`;
    case 'timestamp':
      // The columns are timestamp(3) holding UTC wall time (what Prisma writes): compare as such.
      return sql`${String(value).replace(/Z$/, '')}::timestamp`;
    case 'numeric':
      return sql`${String(value)}::numeric`;
    case 'jsonb':
      return sql`${JSON.stringify(value)}::jsonb`;
    case 'text':
      return sql`${String(value)}`;
  }
}

const OPERATORS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const ARRAY_TYPES: Record<ExprKind, string> = { uuid: 'uuid[]', timestamp: 'timestamp[]', text: 'text[]', numeric: 'numeric[]', jsonb: 'jsonb[]' };

/** `in`'s list as one array parameter (one bind value however long the list, and `= ANY` uses the field's index). */
function listSql(field: RowField, values: readonly unknown[]): Fragment {
  const kind = exprKind(field);
  const items = values.map(value =>
    kind === 'jsonb' ? JSON.stringify(value) : kind === 'timestamp' ? String(value).replace(/Z$/, '') : String(value),
  );
  return sql`${items}::${sql.raw(ARRAY_TYPES[kind])}`;
}

export function conditionSql(condition: Condition, alias = 'r'): Fragment {
  const expr = sql.raw(fieldExpr(condition.field, alias));
  const test =
    condition.value === null
      ? sql`${expr} IS NULL`
      : condition.op === 'in'
        ? sql`${expr} = ANY(${listSql(condition.field, condition.value as unknown[])})`
        : sql`${expr} ${sql.raw(OPERATORS[condition.op])} ${valueSql(condition.field, condition.value)}`;
  return condition.not ? sql`NOT (${test})` : test;
}

export const andAll = (parts: readonly Fragment[]): Fragment => (parts.length ? sql`AND ${joined(parts, ' AND ')}` : EMPTY);

/** Where a keyset page resumes: the last row's sort value (null when it had none) and id. */
export interface Resume {
  value: string | null;
  id: string;
}

/**
 * Rows strictly after `resume` in `order`, ties broken on id in the same direction. PostgreSQL
 * puts NULLs last ascending and first descending (what a btree index yields), so a nullable
 * key needs the NULL side spelled out.
 */
export function afterSql(order: RowOrder, resume: Resume, nullable: boolean, alias = 'r'): Fragment {
  const id = sql.raw(`${alias}.id`);
  const cid = sql`${resume.id}::uuid`;
  const asc = order.direction === 'asc';
  const cmp = sql.raw(asc ? '>' : '<');
  if (order.field.kind === 'id') return sql`${id} ${cmp} ${cid}`;
  const key = sql.raw(fieldExpr(order.field, alias));
  if (resume.value === null) {
    return asc ? sql`(${key} IS NULL AND ${id} > ${cid})` : sql`((${key} IS NULL AND ${id} < ${cid}) OR ${key} IS NOT NULL)`;
  }
  const past = sql`(${key}, ${id}) ${cmp} (${valueSql(order.field, resume.value)}, ${cid})`;
  return asc && nullable ? sql`(${past} OR ${key} IS NULL)` : past;
}

export function orderSql(order: RowOrder, alias: string | null = 'r'): Fragment {
  const dir = order.direction === 'asc' ? 'ASC' : 'DESC';
  const id = alias ? `${alias}.id` : 'id';
  if (order.field.kind === 'id') return sql.raw(`${id} ${dir}`);
  const key = alias ? fieldExpr(order.field, alias) : 'sort_key';
  const collate = !alias && exprKind(order.field) === 'text' ? ' COLLATE "C"' : '';
  return sql.raw(`${key}${collate} ${dir}, ${id} ${dir}`);
}

/** The rows of one app table: `r.deployment_id` and `r.table_name` inlined, so partial indexes apply. */
export const sameTable = (deploymentId: string, tableName: string): Fragment =>
  sql`r.deployment_id = ${literal(deploymentId, 'deployment')} AND r.table_name = ${literal(tableName, 'name')}`;

/** Row ids as a list of uuid parameters. */
export const uuidList = (ids: readonly string[]): Fragment => joined(ids.map(id => sql`${id}::uuid`));

/** The columns every branch selects; `place` names where the row sits (its own or its link's placement). */
export function selectList(order: RowOrder, place: { resource: string; room: string }): Fragment {
  const key = order.field.kind === 'id' ? 'r.id' : fieldExpr(order.field, 'r');
  return sql.raw(
    `r.id, r.creator_id, ${place.resource} AS resource_id, ${place.room} AS room_id, r.data, r.created_at, r.updated_at, ${key} AS sort_key`,
  );
}

/** What a row read returns, before it is shaped for the caller. */
export interface SqlRow {
  id: string;
  creator_id: string | null;
  resource_id: string | null;
  room_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}
