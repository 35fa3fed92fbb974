/**
 * Deployments of app schemas (docs/api.md §5.5): storing a validated schema for one environment
 * (refusing a deploy that would drop data), its static resources, and the deployment as every
 * resource operation reads it, cached briefly.
 */
import { fail } from '../errors.js';
import { newId } from '../lib/secrets.js';
import { Cache } from '../lib/cache.js';
import type { SchemaDrops, SchemaIR } from '../schema/index.js';
import { sql, sqlOf } from '../db/sql.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { compileVisibility } from '../membership/visibility.rules.js';
import { staticResourcesOf, withBareMaps } from './apps.rules.js';

export interface DeploymentInfo {
  id: string;
  appId: string;
  env: string;
  version: number;
  schema: SchemaIR;
  origins: string[];
}

const DEPLOYMENT_CACHE_MS = 5_000;

export type DeploymentCache = Cache<DeploymentInfo>;
export const deploymentCache = (): DeploymentCache => new Cache<DeploymentInfo>({ ttlMs: DEPLOYMENT_CACHE_MS });

/** The deployment with its schema, cached briefly: it is read on every resource operation. */
export function deployment(deps: Pick<ServiceDeps, 'prisma'> & { deploymentCache: DeploymentCache }, deploymentId: string): Promise<DeploymentInfo> {
  return deps.deploymentCache.getOrLoad(deploymentId, async () => {
    const row = await deps.prisma.deployment.findUnique({
      where: { id: deploymentId },
      include: { app: { select: { origins: { select: { origin: true }, orderBy: { createdAt: 'asc' } } } } },
    });
    if (!row) throw fail('deployment_gone', 'The deployment this credential was issued for no longer exists.');
    return {
      id: row.id,
      appId: row.appId,
      env: row.env,
      version: row.version,
      schema: withBareMaps(row.schema as unknown as SchemaIR),
      origins: row.app.origins.map(o => o.origin),
    };
  });
}

/**
 * docs/api.md §5.5: a deploy may drop a table or column only while it holds no data in this
 * deployment (a column holds data when any row of its table has the key). One answer names
 * every offender, so the developer fixes them in one pass.
 */
export async function refuseDroppingData(tx: Tx, deploymentId: string, env: string, drops: SchemaDrops): Promise<void> {
  const db = sqlOf(tx);
  const holdsRows = async (table: string, column?: string) => {
    const { held } = await db
      .selectNoFrom(eb =>
        eb
          .exists(
            eb
              .selectFrom('rows')
              .select(sql`1`.as('one'))
              .where('deployment_id', '=', deploymentId)
              .where('table_name', '=', table)
              .$if(column !== undefined, query => query.where(sql<boolean>`jsonb_exists(data, ${column})`)),
          )
          .as('held'),
      )
      .executeTakeFirstOrThrow();
    return held;
  };
  const tables: string[] = [];
  for (const table of drops.tables) if (await holdsRows(table)) tables.push(table);
  const columns: SchemaDrops['columns'] = [];
  for (const { table, column } of drops.columns) if (await holdsRows(table, column)) columns.push({ table, column });
  const buckets: string[] = [];
  for (const bucket of drops.buckets) {
    if (await tx.file.findFirst({ where: { deploymentId, bucket }, select: { id: true } })) buckets.push(bucket);
  }
  if (tables.length === 0 && columns.length === 0 && buckets.length === 0) return;
  const named = [...tables.map(t => `table "${t}"`), ...columns.map(c => `column "${c.table}.${c.column}"`), ...buckets.map(b => `bucket "${b}"`)];
  throw fail(
    'schema_drops_data',
    `This deploy would drop ${named.join(', ')}, which still hold${named.length === 1 ? 's' : ''} data in environment '${env}'. Keep ${named.length === 1 ? 'it' : 'them'} in the schema, or delete the rows or files first (a deploy never deletes data).`,
    { tables, columns, buckets },
  );
}

/** Creates the deployment's static resources (`_app` and the schema's) that it does not hold yet. */
export async function reconcileStaticResources(tx: Tx, deploymentId: string, schema: SchemaIR, now: Date): Promise<void> {
  // Static resources that disappear from the schema are kept: deploys never delete data.
  for (const { type, slug, def } of staticResourcesOf(schema)) {
    const pair = compileVisibility(def.visibility.default);
    await tx.resource.upsert({
      where: { deploymentId_type_staticSlug: { deploymentId, type, staticSlug: slug } },
      create: { id: newId('res'), deploymentId, type, name: slug, staticSlug: slug, ...pair, createdAt: now },
      update: {},
    });
  }
}
