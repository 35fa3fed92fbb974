/**
 * docs/api.md §11.3 `unique`: per scope (a user's own rows; a resource's rows in every room, owned
 * and linked), enforced under transaction-scoped advisory locks (one per scope, key and values)
 * and a check query, not an index: linked rows live in their creators' namespace, where no index
 * of the resource reaches.
 */
import type { Condition, RowData } from './row-values.rules.js';
import { fail } from '../errors.js';
import { type Sql, sql } from '../db/sql.js';
import type { TableIR } from '../schema/index.js';
import { EMPTY, type Fragment, andAll, conditionSql, sameTable, uuidList } from './rows.sql.js';
import type { Binding } from './row-binding.service.js';
import { invalidOperation } from './row-run.service.js';

export type UniqueScope = { kind: 'resource'; id: string } | { kind: 'user'; id: string };

/** Where a row's values must be unique: its resource, or its creator's own rows and every resource it is linked into. */
export async function scopesOf(tx: Sql, row: { id: string; resource_id: string | null; creator_id: string | null }): Promise<UniqueScope[]> {
  if (row.resource_id) return [{ kind: 'resource', id: row.resource_id }];
  const links = await tx.selectFrom('row_links').select('resource_id').where('row_id', '=', row.id).execute();
  return [
    ...(row.creator_id ? [{ kind: 'user' as const, id: row.creator_id }] : []),
    ...links.map(l => ({ kind: 'resource' as const, id: l.resource_id })),
  ];
}

/** The table's unique keys: each `unique()` column alone, then each `unique([...])` set. */
export const uniqueKeys = (table: TableIR): string[][] => [
  ...Object.entries(table.columns)
    .filter(([, column]) => column.unique)
    .map(([name]) => [name]),
  ...(table.uniques ?? []),
];

/**
 * The value a key column's lock is named by: values the check's SQL finds equal name one lock
 * (numbers as numbers: 1 and 1.0; text byte for byte, as COLLATE "C" compares). A jsonb column
 * names none (equal jsonb may differ as text), so its key locks every value of the scope.
 */
function lockValue(table: TableIR, name: string, value: unknown): string {
  const type = table.columns[name]?.type;
  if (type === 'jsonb') return '*';
  if (type === 'integer' || type === 'bigint') return String(Number(value));
  return JSON.stringify(value);
}

/**
 * The advisory lock keys of a row's unique `keys` in `scopes`: one per (scope, key, the key's
 * values in `data`), each once, in one order (so two writers never wait on each other
 * crosswise). Only writes that could take the same values wait on each other.
 */
export const uniqueLockKeys = (
  deploymentId: string,
  binding: Pick<Binding, 'name' | 'table'>,
  scopes: readonly UniqueScope[],
  keys: readonly (readonly string[])[],
  data: RowData,
): string[] => {
  const locks = scopes.flatMap(s =>
    keys.map(
      key =>
        `rows-unique:${deploymentId}:${binding.name}:${s.kind}:${s.id}:${key.join(',')}=${key.map(name => lockValue(binding.table, name, data[name])).join(',')}`,
    ),
  );
  return [...new Set(locks)].sort();
};

/**
 * Serialises the writes whose uniqueness one key's values in `scopes` judge: transaction-scoped
 * advisory locks, all of them in one statement (in the keys' order), skipping those this call
 * already holds (`held`, the call's: an upsert locks its key before its insert checks it).
 */
export async function lockUniqueKeys(db: Sql, held: Set<string>, keys: readonly string[]): Promise<void> {
  const wanted = keys.filter(key => !held.has(key));
  if (wanted.length === 0) return;
  // A nested loop over the list: each lock is taken in the list's order.
  await sql`SELECT 1 AS locked FROM jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb) AS k(key)
    CROSS JOIN LATERAL pg_advisory_xact_lock(hashtextextended(k.key, 0))`.execute(db);
  for (const key of wanted) held.add(key);
}

/** `key`'s columns equal to `data`'s values, as conditions (the select's own SQL). */
export const keyConditions = (binding: Binding, key: readonly string[], data: RowData): Condition[] =>
  key.map(name => ({ field: { kind: 'column', name, type: binding.table.columns[name].type }, op: 'eq', value: data[name] }));

/**
 * The unique keys a write must check: those whose columns all hold a value in `data` (the row as
 * it will be) and, for an update, one of which it `changed` (null: an insert, every key).
 */
/** Whether setting `set`'s columns may take a unique key (an update that does is checked row by row). */
export const changesUniqueKey = (table: TableIR, set: RowData): boolean => uniqueKeys(table).some(key => key.some(name => Object.hasOwn(set, name)));

export const keysToCheck = (table: TableIR, data: RowData, changed: readonly string[] | null): string[][] =>
  uniqueKeys(table).filter(
    key => key.every(name => data[name] !== undefined && data[name] !== null) && (changed === null || key.some(name => changed.includes(name))),
  );

/**
 * Refuses (409 unique_violation) a row whose values `data` take a unique key already held in one
 * of `scopes` by a row other than `except`; hidden links count, since they may come back.
 */
export async function checkUnique(
  db: Sql,
  held: Set<string>,
  deploymentId: string,
  binding: Binding,
  scopes: UniqueScope[],
  data: RowData,
  changed: readonly string[] | null,
  except: string[],
): Promise<void> {
  const keys = keysToCheck(binding.table, data, changed);
  if (keys.length === 0 || scopes.length === 0) return;
  await lockUniqueKeys(db, held, uniqueLockKeys(deploymentId, binding, scopes, keys, data));
  for (const key of keys) {
    for (const scope of scopes) {
      const {
        rows: [{ taken }],
      } = await sql<{ taken: boolean }>`SELECT EXISTS (${holdersOf(deploymentId, binding, scope, key, data, except)}) AS taken`.execute(db);
      if (taken) throw uniqueViolation(binding.name, key, data, scope);
    }
  }
}

/** The rows other than `except` that hold `data`'s values of `key` in `scope`, as a subquery (hidden links included). */
export function holdersOf(
  deploymentId: string,
  binding: Binding,
  scope: UniqueScope,
  key: readonly string[],
  data: RowData,
  except: string[],
): Fragment {
  const table = sameTable(deploymentId, binding.name);
  const others = except.length ? sql`AND r.id NOT IN (${uuidList(except)})` : EMPTY;
  const same = andAll(keyConditions(binding, key, data).map(c => conditionSql(c)));
  return scope.kind === 'user'
    ? sql`SELECT 1 FROM rows r WHERE ${table} AND r.creator_id = ${scope.id} AND r.resource_id IS NULL ${same} ${others}`
    : sql`SELECT 1 FROM rows r WHERE r.resource_id = ${scope.id} AND ${table} ${same} ${others}
          UNION ALL SELECT 1 FROM row_links l JOIN rows r ON r.id = l.row_id WHERE l.resource_id = ${scope.id} AND ${table} ${same} ${others}`;
}

function uniqueViolation(table: string, key: readonly string[], data: RowData, scope: UniqueScope) {
  const among = scope.kind === 'user' ? "among a user's own rows" : 'within a resource';
  const values = key.map(name => JSON.stringify(data[name])).join(', ');
  return fail(
    'unique_violation',
    key.length === 1
      ? `${table}.${key[0]} is unique ${among}, and ${values} is taken there.`
      : `${table} (${key.join(', ')}) is unique together ${among}, and (${values}) is taken there.`,
  );
}

/** The unique key of the table `onConflict` names (its columns in any order), or 400 saying which keys there are. */
export function conflictKey(binding: Binding, onConflict: readonly string[]): string[] {
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
