/**
 * Declared `index([...])`es as real indexes (docs/api.md §11.6). All apps' rows share one `rows`
 * table, so each declared index becomes a PARTIAL expression index for its deployment and table:
 *
 *   resource rows: (resource_id, room_id, <columns…>, id) WHERE deployment_id = '…' AND table_name = '…' AND resource_id IS NOT NULL
 *   a user's rows: (creator_id, <columns…>, id)          WHERE deployment_id = '…' AND table_name = '…' AND resource_id IS NULL
 *
 * led by what every read of that scope fixes (the resource and room, or the creator), then the
 * declared columns through the very expressions reads filter and order by (fieldExpr), then id,
 * the tie-break. `index(['createdAt'])` alone needs nothing: the built-in indexes
 * rows(resource_id, table_name, room_id, created_at, id) and rows(deployment_id, table_name,
 * creator_id, created_at, id) already serve it.
 *
 * Each unique key (`unique()`, `unique([...])`) gets one too, led by its scope and then its
 * columns, as row-unique.service.ts checks it: a resource's rows in every room, or a user's own:
 *
 *   (resource_id, <key columns…>) WHERE … AND <key columns> IS NOT NULL AND resource_id IS NOT NULL
 *   (creator_id, <key columns…>)  WHERE … AND <key columns> IS NOT NULL AND resource_id IS NULL
 *
 * Without it every insert, update and upsert that sets the key read the whole scope's rows of the
 * table (a declared index leads with the room, which the check cannot fix).
 *
 * Built after the deploy commits, CONCURRENTLY (writes to `rows` go on meanwhile), named by a
 * digest of their definition so a redeploy creates only what changed and drops what its schema
 * no longer declares. A server also builds, at start, those a deployment made before it lacks
 * (buildMissingRowIndexes): the unique keys' indexes came after the declared ones.
 */
import { createHash } from 'node:crypto';
import type { RowField } from './row-values.rules.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { type Sql, sql, sqlOf } from '../db/sql.js';
import { sqlStateOf } from '../db/sql-values.js';
import { logger } from '../lib/logger.js';
import type { SchemaIR, TableIR } from '../schema/index.js';
import { fieldExpr, literalText } from './rows.sql.js';
import { uniqueKeys } from './row-unique.service.js';

/** The prefixes of the indexes built here: declared indexes, and unique keys'. */
const DECLARED = 'rows_x_';
const UNIQUE = 'rows_u_';

function fieldOf(table: TableIR, name: string): RowField | null {
  if (name === 'id') return { kind: 'id', name: 'id' };
  if (name === 'createdAt' || name === 'updatedAt') return { kind: name, name };
  const column = table.columns[name];
  return column ? { kind: 'column', name, type: column.type } : null;
}

/** Whether any resource can hold rows of `name`: an inline table, or one a type owns or shares (retained copies). */
function inResources(schema: SchemaIR, name: string, table: TableIR): boolean {
  if (table.ownedBy) return true;
  return Object.values(schema.resources).some(def => def.owns.some(o => o.table === name) || def.shares.some(s => s.table === name));
}

/** The index definitions `schema` wants for `deploymentId`, by name. */
export function wantedRowIndexes(deploymentId: string, schema: SchemaIR): Map<string, string> {
  const wanted = new Map<string, string>();
  const want = (prefix: string, def: string) =>
    wanted.set(prefix + createHash('sha256').update(`${deploymentId}\n${def}`).digest('hex').slice(0, 24), def);
  const dep = literalText(deploymentId, 'deployment');
  for (const [name, table] of Object.entries(schema.tables)) {
    const where = `deployment_id = ${dep} AND table_name = ${literalText(name, 'name')}`;
    const inResource = inResources(schema, name, table);
    const ownRows = !table.ownedBy;
    const expressions = (columns: readonly string[]) => {
      const fields = columns.map(c => fieldOf(table, c));
      return fields.some(f => f === null) ? null : fields.map(f => fieldExpr(f!, null));
    };
    for (const columns of table.indexes) {
      if (columns.length === 1 && columns[0] === 'createdAt') continue;
      const exprs = expressions(columns);
      if (exprs === null) continue;
      if (inResource) want(DECLARED, `(resource_id, room_id, ${exprs.join(', ')}, id) WHERE ${where} AND resource_id IS NOT NULL`);
      if (ownRows) want(DECLARED, `(creator_id, ${exprs.join(', ')}, id) WHERE ${where} AND resource_id IS NULL`);
    }
    for (const key of uniqueKeys(table)) {
      const exprs = expressions(key);
      if (exprs === null) continue;
      // Only rows holding the whole key, which the check's equalities imply: a page read, which
      // implies nothing of the key, can never be planned on these instead of its ordered index.
      const held = `${where} AND ${exprs.map(e => `${e} IS NOT NULL`).join(' AND ')}`;
      if (inResource) want(UNIQUE, `(resource_id, ${exprs.join(', ')}) WHERE ${held} AND resource_id IS NOT NULL`);
      if (ownRows) want(UNIQUE, `(creator_id, ${exprs.join(', ')}) WHERE ${held} AND resource_id IS NULL`);
    }
  }
  return wanted;
}

/**
 * Brings the partial indexes of `deploymentId` in line with its schema. Never fails the deploy
 * (which has committed): reads are correct without an index, only slower; a failure is logged.
 */
export async function syncRowIndexes(prisma: PrismaClient, deploymentId: string, schema: SchemaIR): Promise<void> {
  try {
    const wanted = wantedRowIndexes(deploymentId, schema);
    const db = sqlOf(prisma);
    const existing = await builtIndexes(db, deploymentId);
    for (const { name, valid } of existing) {
      // An index a failed concurrent build left invalid is rebuilt; one the schema dropped goes.
      if (!wanted.has(name) || !valid) await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.id(name)}`.execute(db);
    }
    const kept = new Set(existing.filter(e => e.valid).map(e => e.name));
    for (const [name, def] of wanted) {
      if (!kept.has(name)) await createIndex(db, name, def);
    }
  } catch (error) {
    logger.error({ err: error, deploymentId }, 'building the declared row indexes failed; reads stay correct, without them');
  }
}

/** The indexes built here that exist (valid, or invalid: a concurrent build still running or one that failed), of one deployment or all. */
async function builtIndexes(db: Sql, deploymentId?: string): Promise<{ name: string; valid: boolean }[]> {
  const { rows } = await sql<{ name: string; valid: boolean }>`
    SELECT c.relname AS name, i.indisvalid AS valid
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    WHERE t.relname = 'rows' AND t.relnamespace = current_schema()::regnamespace
      AND (c.relname LIKE ${`${DECLARED}%`} OR c.relname LIKE ${`${UNIQUE}%`})
      AND ${deploymentId === undefined ? sql`true` : sql`pg_get_expr(i.indpred, i.indrelid) LIKE ${`%'${deploymentId}'%`}`}`.execute(db);
  return rows;
}

/** duplicate_table, unique_violation (on the catalog's index names): the index was created meanwhile. */
const BUILT_ELSEWHERE = new Set(['42P07', '23505']);

const createIndex = (db: Sql, name: string, def: string) =>
  sql`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${sql.id(name)} ON rows ${sql.raw(def)}`.execute(db);

/**
 * At a server's start: the indexes `deployments` want that do not exist at all (the existing
 * ones read once), built one at a time while `goOn()` holds (a stopping server ends after the build under way). An index that
 * exists but is not valid may be another instance's build in progress, so it is left to the
 * deployment's next deploy (syncRowIndexes rebuilds it). Answers how many were built; a failure
 * is logged and the next index tried.
 */
export async function buildMissingRowIndexes(
  prisma: PrismaClient,
  deployments: AsyncIterable<{ id: string; schema: SchemaIR }>,
  goOn: () => boolean,
): Promise<number> {
  const db = sqlOf(prisma);
  const existing = new Set((await builtIndexes(db)).map(index => index.name));
  let built = 0;
  for await (const { id, schema } of deployments) {
    if (!goOn()) return built;
    let wanted: Map<string, string>;
    try {
      wanted = wantedRowIndexes(id, schema);
    } catch (error) {
      logger.error(
        { err: error, deploymentId: id },
        'the row indexes of a deployment could not be derived from its schema; its next deploy builds them',
      );
      continue;
    }
    for (const [name, def] of wanted) {
      if (existing.has(name)) continue;
      if (!goOn()) return built;
      try {
        await createIndex(db, name, def);
        built++;
      } catch (error) {
        // Another server starting at the same time created it first.
        if (BUILT_ELSEWHERE.has(sqlStateOf(error) ?? '')) continue;
        logger.error({ err: error, deploymentId: id, index: name }, 'building a missing row index failed; reads stay correct, without it');
      }
    }
  }
  return built;
}
