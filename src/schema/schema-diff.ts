/**
 * What a new schema drops relative to the deployed one: tables, and columns of the tables both
 * keep. Pure; the deploy service asks the row store which of them hold data and refuses those
 * (docs/api.md §5.5). Adding is never a drop, and neither are changes to timestamps(), indexes,
 * access rules, policies or a bucket's limits: none of them deletes stored values. A bucket the new
 * schema drops is one, when files remain in it.
 */
import type { SchemaIR } from './ir.js';

export interface SchemaDrops {
  /** Tables the new schema no longer declares (top-level or inline alike), sorted. */
  tables: string[];
  /** Columns the new schema no longer declares, of tables it keeps, sorted by table then column. */
  columns: { table: string; column: string }[];
  /** File buckets the new schema no longer declares, sorted (docs/api.md §13). */
  buckets: string[];
}

/**
 * `previous` is the stored IR of the deployment being replaced (null for a first deploy). It was
 * validated by an older server, so only the shape every version shares is read: table names and
 * their column names.
 */
export function droppedBy(previous: unknown, next: SchemaIR): SchemaDrops {
  const before = tablesOf(previous);
  const tables: string[] = [];
  const columns: SchemaDrops['columns'] = [];
  for (const [table, oldColumns] of [...before].sort(([a], [b]) => compare(a, b))) {
    const kept = Object.hasOwn(next.tables, table) ? next.tables[table] : undefined;
    if (!kept) {
      tables.push(table);
      continue;
    }
    for (const column of [...oldColumns].sort(compare)) {
      if (!Object.hasOwn(kept.columns, column)) columns.push({ table, column });
    }
  }
  const oldBuckets = isObject(previous) && isObject(previous.buckets) ? Object.keys(previous.buckets) : [];
  const buckets = oldBuckets.filter(name => !next.buckets || !Object.hasOwn(next.buckets, name)).sort(compare);
  return { tables, columns, buckets };
}

/** Plain code-unit order, so the result does not depend on the locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function tablesOf(ir: unknown): Map<string, string[]> {
  const tables = isObject(ir) && isObject(ir.tables) ? ir.tables : {};
  return new Map(Object.entries(tables).map(([name, table]) => [name, isObject(table) && isObject(table.columns) ? Object.keys(table.columns) : []]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
