/**
 * How a table of the deployed schema is reached in one scope (a resource type's own or shared
 * table, or a user's top-level table), and how its stored rows are shown to the caller.
 */
import type { AccessRules } from './rows.rules.js';
import { CREATOR_FIELD, type RowTable, readValue } from './row-values.rules.js';
import { fail } from '../errors.js';
import type { ResourceTypeIR, SchemaIR, TableIR } from '../schema/index.js';
import type { SqlRow } from './rows.sql.js';

export type RowOut = Record<string, unknown>;

/** How a table is reached inside a resource type: its own rows, or users' rows linked in. */
export interface Binding {
  name: string;
  table: TableIR;
  kind: 'owned' | 'shared' | 'user';
  /** The type's `owns`/`shares` access override, merged over the table's rules action by action. */
  override: AccessRules | null;
}

/** Where a shown row sits: a user's own rows, a resource's rows, or a type's default rooms. */
export type Place = 'user' | 'resource' | 'type';

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
export const rowTable = (table: TableIR): RowTable => table;

const sortedColumns = new WeakMap<TableIR, readonly (readonly [string, TableIR['columns'][string]['type']])[]>();

/** A table's declared columns and their types, by name: worked out once per deployed table, not per row shown. */
function columnsByName(table: TableIR) {
  let columns = sortedColumns.get(table);
  if (!columns) {
    columns = Object.keys(table.columns)
      .sort()
      .map(name => [name, table.columns[name].type] as const);
    sortedColumns.set(table, columns);
  }
  return columns;
}

/**
 * A row as the caller sees it: id, the declared columns by name (absent ones null), timestamps
 * when declared, then who wrote it and where it sits (roomId at resource and type scope). The
 * server's creator is `_creatorId` (CREATOR_FIELD): no declared column can start with `_`, so an
 * app's own `creatorId` column keeps its value.
 */
export function shape(row: SqlRow, binding: Binding, place: Place): RowOut {
  const out: RowOut = { id: row.id };
  for (const [name, type] of columnsByName(binding.table)) out[name] = readValue(type, row.data[name]);
  if (binding.table.timestamps) {
    out.createdAt = row.created_at.toISOString();
    out.updatedAt = row.updated_at.toISOString();
  }
  out[CREATOR_FIELD] = row.creator_id;
  if (place !== 'user') out.roomId = row.room_id;
  if (place === 'type') out.resourceId = row.resource_id;
  return out;
}
