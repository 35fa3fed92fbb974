/** Apps, their origins and OAuth clients, deployments of app schemas, and test-session minting. */
import { z } from 'zod';
import { redirectUriProblem } from './app-urls.rules.js';
import { testUserId } from '../core/principals.rules.js';
import { compileVisibility } from '../membership/visibility.rules.js';
import { fail, parseInput, shown } from '../errors.js';
import { newId } from '../lib/secrets.js';
import { Cache } from '../lib/cache.js';
import { SchemaValidationError, droppedBy, validateSchemaIR, type ResourceTypeIR, type SchemaDrops, type SchemaIR } from '../schema/index.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import { syncRowIndexes } from '../rows/row-indexes.service.js';
import type { TokenService } from '../gateway-auth/tokens.service.js';
import type { GatewayHosts } from '../gateway-auth/gateway-hosts.service.js';
import { BOUNDED_LIST_TAKE, boundedList } from '../core/pages.js';

/** The resource type every deployment gets; app-level membership (joined at consent). */
export const APP_RESOURCE_TYPE = '_app';

/** 404 for an app that does not exist or is another developer's (the same answer for both). */
export const appNotFound = (appId: string) => fail('app_not_found', `No app ${shown(appId)} owned by you.`);
const APP_RESOURCE_SLUG = 'app';

const originSchema = z
  .string()
  .url()
  .transform(value => new URL(value))
  .refine(url => url.protocol === 'https:' || url.protocol === 'http:', 'must be an http(s) origin')
  .refine(url => url.pathname === '/' && !url.search && !url.hash, 'must be an origin only (scheme://host[:port]), without a path')
  .transform(url => url.origin);

export const appInputSchema = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters'),
  origins: z.array(originSchema).max(20).default([]),
  // Checked one by one in `create` (redirectUriProblem) so the answer is invalid_redirect_uri.
  redirectUris: z.array(z.string()).max(20).default([]),
});

export const envNameSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'env must be lowercase letters, digits and dashes (e.g. dev, staging, prod)');

export const testUserNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'name must be 1-64 letters, digits, dashes or underscores');

export interface AppView {
  id: string;
  name: string;
  origins: string[];
  clientIds: string[];
  environments: string[];
  createdAt: Date;
}

export interface DeploymentInfo {
  id: string;
  appId: string;
  env: string;
  version: number;
  schema: SchemaIR;
  origins: string[];
}

const DEPLOYMENT_CACHE_MS = 5_000;
/** Origin -> app answers may be this stale on other instances after an app registers an origin. */
export const ORIGIN_CACHE_MS = 30_000;
/** A registered origin: an http(s) scheme and a host (with port); no path. */
const ORIGIN_SHAPE = /^https?:\/\/([a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(:\d{1,5})?$/;

/** A registered app origin and the app it belongs to. */
export interface OriginApp {
  appId: string;
  origin: string;
}

export function createAppService(deps: ServiceDeps, tokens: TokenService, ownHosts: GatewayHosts) {
  const { prisma } = deps;
  const deploymentCache = new Cache<DeploymentInfo>({ ttlMs: DEPLOYMENT_CACHE_MS });
  const originCache = new Cache<OriginApp | null>({ ttlMs: ORIGIN_CACHE_MS });

  /**
   * The one origin -> app rule: an exact, registered `scheme://host[:port]` (http or https, as
   * the URL parser writes it: lowercase, no default port). Anything else names no app.
   */
  function appOfOrigin(origin: string): Promise<OriginApp | null> {
    if (!ORIGIN_SHAPE.test(origin)) return Promise.resolve(null);
    return originCache.getOrLoad(origin, async () => {
      const row = await prisma.appOrigin.findUnique({ where: { origin }, select: { appId: true, origin: true } });
      return row ? { appId: row.appId, origin: row.origin } : null;
    });
  }

  async function ownedApp(developerId: string, appId: string) {
    const app = await prisma.app.findUnique({
      where: { id: appId },
      include: { origins: true, clients: true, deployments: { select: { env: true } } },
    });
    // Not yours and not there look the same (docs/api.md §3.1, rule 1).
    if (!app || app.developerId !== developerId) throw appNotFound(appId);
    return app;
  }

  function toView(app: Awaited<ReturnType<typeof ownedApp>>): AppView {
    return {
      id: app.id,
      name: app.name,
      origins: app.origins.map(o => o.origin),
      clientIds: app.clients.map(c => c.clientId),
      environments: app.deployments.map(d => d.env).sort(),
      createdAt: app.createdAt,
    };
  }

  /**
   * docs/api.md §5.5: a deploy may drop a table or column only while it holds no data in this
   * deployment (a column holds data when any row of its table has the key). One answer names
   * every offender, so the developer fixes them in one pass.
   */
  async function refuseDroppingData(tx: Tx, deploymentId: string, env: string, drops: SchemaDrops) {
    const tables: string[] = [];
    for (const table of drops.tables) {
      const [{ held }] = await tx.$queryRaw<{ held: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM rows WHERE deployment_id = ${deploymentId} AND table_name = ${table}) AS held`;
      if (held) tables.push(table);
    }
    const columns: SchemaDrops['columns'] = [];
    for (const { table, column } of drops.columns) {
      const [{ held }] = await tx.$queryRaw<{ held: boolean }[]>`
        SELECT EXISTS (
          SELECT 1 FROM rows WHERE deployment_id = ${deploymentId} AND table_name = ${table} AND jsonb_exists(data, ${column})
        ) AS held`;
      if (held) columns.push({ table, column });
    }
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

  async function reconcileStaticResources(tx: Tx, deploymentId: string, schema: SchemaIR, now: Date) {
    const wanted: { type: string; slug: string; def: Pick<ResourceTypeIR, 'visibility'> }[] = [
      { type: APP_RESOURCE_TYPE, slug: APP_RESOURCE_SLUG, def: { visibility: { default: 'members', allow: ['members'] } } },
    ];
    for (const [type, def] of Object.entries(schema.resources)) {
      for (const slug of def.static) wanted.push({ type, slug, def });
    }
    // Static resources that disappear from the schema are kept: deploys never delete data.
    for (const { type, slug, def } of wanted) {
      const pair = compileVisibility(def.visibility.default);
      await tx.resource.upsert({
        where: { deploymentId_type_staticSlug: { deploymentId, type, staticSlug: slug } },
        create: { id: newId('res'), deploymentId, type, name: slug, staticSlug: slug, ...pair, createdAt: now },
        update: {},
      });
    }
  }

  return {
    async create(developerId: string, input: z.input<typeof appInputSchema>): Promise<AppView> {
      const { name, origins, redirectUris } = parseInput(appInputSchema, input);
      for (const [i, origin] of origins.entries()) {
        // An app origin takes over /auth/* and /_osg/* on its host: the gateway's own hosts are never an app's.
        if (ownHosts.has(new URL(origin).host)) {
          throw fail('origin_reserved', `origins[${i}]: ${origin} is this gateway's own host; register the host your app is served from.`);
        }
      }
      for (const [i, uri] of redirectUris.entries()) {
        const problem = redirectUriProblem(uri);
        if (problem) throw fail('invalid_redirect_uri', `redirectUris[${i}]: ${problem} (got ${JSON.stringify(uri.slice(0, 200))}).`);
      }
      // A host belongs to one app under both schemes, so the app of a Host header (appOfHost) is never ambiguous.
      const sameHost = origins.flatMap(o => [`https://${new URL(o).host}`, `http://${new URL(o).host}`]);
      const taken = origins.length ? await prisma.appOrigin.findMany({ where: { origin: { in: sameHost } } }) : [];
      if (taken.length) throw fail('origin_taken', `Origin ${taken[0].origin} already belongs to another app.`);
      const id = newId('app', 8);
      await prisma.app.create({
        data: {
          id,
          name,
          developerId,
          origins: { create: origins.map(origin => ({ origin })) },
          clients: { create: [{ clientId: newId('cli', 12), redirectUris }] },
        },
      });
      for (const origin of origins) originCache.delete(origin);
      // Read back after the write's own transaction: an `include` inside it has Prisma send its
      // relation queries at once on the transaction's one pg client (deprecated by pg 8, gone in 9).
      return toView(await ownedApp(developerId, id));
    },

    async list(developerId: string): Promise<AppView[]> {
      const apps = await prisma.app.findMany({
        where: { developerId },
        include: { origins: true, clients: true, deployments: { select: { env: true } } },
        orderBy: { createdAt: 'asc' },
        take: BOUNDED_LIST_TAKE,
      });
      return boundedList(apps, 'apps', 'delete apps you no longer use.').map(toView);
    },

    async get(developerId: string, appId: string): Promise<AppView> {
      return toView(await ownedApp(developerId, appId));
    },

    /** Validates and stores the schema IR for one environment, then reconciles static resources. */
    async deploy(developerId: string, appId: string, env: string, rawSchema: unknown) {
      await ownedApp(developerId, appId);
      const envName = parseInput(envNameSchema, env);
      let schema: SchemaIR;
      try {
        schema = validateSchemaIR(rawSchema);
      } catch (error) {
        if (error instanceof SchemaValidationError) {
          throw fail('invalid_schema', error.message, { issues: error.issues });
        }
        throw error;
      }
      const now = deps.now();
      const deployment = await deps.transaction(async tx => {
        const existing = await tx.deployment.findUnique({ where: { appId_env: { appId, env: envName } } });
        if (existing) await refuseDroppingData(tx, existing.id, envName, droppedBy(existing.schema, schema));
        const row = existing
          ? await tx.deployment.update({ where: { id: existing.id }, data: { schema: schema as object, version: { increment: 1 } } })
          : await tx.deployment.create({ data: { id: newId('dep'), appId, env: envName, schema: schema as object } });
        await reconcileStaticResources(tx, row.id, schema, now);
        return row;
      });
      deploymentCache.delete(deployment.id);
      // Declared index([...])es, built concurrently once the schema is live (docs/api.md §11.6).
      await syncRowIndexes(prisma, deployment.id, schema);
      return {
        deploymentId: deployment.id,
        appId,
        env: envName,
        version: deployment.version,
        resourceTypes: Object.keys(schema.resources).sort(),
        tables: Object.keys(schema.tables).sort(),
        buckets: Object.keys(schema.buckets ?? {}).sort(),
      };
    },

    /** The deployment with its schema, cached briefly: it is read on every resource operation. */
    deployment(deploymentId: string): Promise<DeploymentInfo> {
      return deploymentCache.getOrLoad(deploymentId, async () => {
        const row = await prisma.deployment.findUnique({
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
    },

    appOfOrigin,

    /**
     * The app served on a hosted origin, from the request's Host (`host[:port]`, lowercase): the
     * same rule as appOfOrigin, for the origin `https://<host>` or else `http://<host>`. The
     * scheme is not taken from the request (a proxy may end TLS); registration keeps one host to one app.
     */
    async appOfHost(host: string): Promise<OriginApp | null> {
      const h = host.toLowerCase();
      return (await appOfOrigin(`https://${h}`)) ?? (await appOfOrigin(`http://${h}`));
    },

    /** The app's first OAuth client (the one the gateway signs people in with for invite links), or null. */
    async signInClientOf(appId: string): Promise<string | null> {
      const client = await prisma.appClient.findFirst({ where: { appId }, orderBy: { createdAt: 'asc' }, select: { clientId: true } });
      return client?.clientId ?? null;
    },

    /** docs/api.md §3.1: a test user pinned to a deployed non-production environment. */
    async mintTestUser(developerId: string, appId: string, input: { name?: unknown; env?: unknown }) {
      await ownedApp(developerId, appId);
      if (input.env === undefined || input.env === null || input.env === '') {
        throw fail('invalid_argument', 'env is required (for example "dev"); test users are pinned to one environment.');
      }
      const env = parseInput(envNameSchema, input.env);
      if (env === 'prod') throw fail('prod_not_allowed', 'Test users cannot be minted for prod: they may never touch production data.');
      const name = parseInput(testUserNameSchema, input.name);
      const deployment = await prisma.deployment.findUnique({ where: { appId_env: { appId, env } } });
      if (!deployment) {
        throw fail(
          'env_not_deployed',
          `Environment '${env}' of app ${appId} has no deployment yet: deploy a schema to it first (gatehouse deploy --app ${appId} --env ${env}).`,
        );
      }
      const userId = testUserId(appId, name);
      await prisma.principal.upsert({ where: { id: userId }, create: { id: userId, kind: 'user', displayName: name }, update: {} });
      const minted = await tokens.mint({ kind: 'test_session', principalId: userId, deploymentId: deployment.id, developerId });
      return { user_id: userId, token: minted.token, expires_at: minted.expiresAt!.toISOString(), payer: developerId, env };
    },
  };
}

export type AppService = ReturnType<typeof createAppService>;

/**
 * The stored IR with its name-keyed maps (types, tables, buckets) made prototype-free: they are
 * indexed by names callers send, and `constructor` or `toString` must be absent like any unknown
 * name, not Object.prototype's functions (a create of type `constructor` was a 500).
 */
function withBareMaps(schema: SchemaIR): SchemaIR {
  const bare = <T>(map: Record<string, T>): Record<string, T> => Object.assign(Object.create(null), map);
  return { ...schema, resources: bare(schema.resources), tables: bare(schema.tables), ...(schema.buckets ? { buckets: bare(schema.buckets) } : {}) };
}
