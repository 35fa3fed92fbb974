/**
 * Apps (docs/api.md §3): registering one with its origins and OAuth client, listing and reading
 * them, deploying a schema to an environment, and minting test users; and `appOperations`, what
 * `services.apps` offers. Origins -> apps: app-origins.service.ts; deployments and their schema
 * cache: app-deployments.service.ts; inputs and shapes: apps.rules.ts.
 */
import type { z } from 'zod';
import { redirectUriProblem } from './app-urls.rules.js';
import { testUserId } from '../core/principals.rules.js';
import { fail, parseInput } from '../errors.js';
import { newId } from '../lib/secrets.js';
import { SchemaValidationError, droppedBy, validateSchemaIR, type SchemaIR } from '../schema/index.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { buildMissingRowIndexes, syncRowIndexes } from '../rows/row-indexes.service.js';
import type { TokenService } from '../gateway-auth/tokens.service.js';
import type { GatewayHosts } from '../gateway-auth/gateway-hosts.service.js';
import { BOUNDED_LIST_TAKE, boundedList } from '../core/pages.js';
import {
  type AppView,
  appInputSchema,
  appNotFound,
  appView,
  envNameSchema,
  sameHostOrigins,
  testUserNameSchema,
  withBareMaps,
} from './apps.rules.js';
import { type OriginCache, appOfHost, appOfOrigin } from './app-origins.service.js';
import { type DeploymentCache, deployment, reconcileStaticResources, refuseDroppingData } from './app-deployments.service.js';

// What other features import from apps.
export { APP_RESOURCE_TYPE, appInputSchema, appNotFound, envNameSchema, testUserNameSchema, type AppView } from './apps.rules.js';
export { ORIGIN_CACHE_MS, originCache, type OriginApp } from './app-origins.service.js';
export { deploymentCache, type DeploymentInfo } from './app-deployments.service.js';

/** What the app operations use: the database, the clock, the caches, token minting and the gateway's own hosts. */
export type AppDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'now'> & {
  originCache: OriginCache;
  deploymentCache: DeploymentCache;
  /** The embedded provider's view of apps' OAuth clients (their redirect URIs follow the origins), by client id. */
  oauthClientCache: { delete(clientId: string): void };
  tokens: Pick<TokenService, 'mint' | 'clearCache'>;
  gatewayHosts: Pick<GatewayHosts, 'has'>;
};

const STORED_APP = { origins: true, clients: true, deployments: { select: { env: true } } } as const;

/** The developer's app with its origins, clients and environments; 404 app_not_found for another's. */
async function ownedApp(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string) {
  const app = await deps.prisma.app.findUnique({ where: { id: appId }, include: STORED_APP });
  // Not yours and not there look the same (docs/api.md §3.1, rule 1).
  if (!app || app.developerId !== developerId) throw appNotFound(appId);
  return app;
}

/** 400 invalid_redirect_uri for the first URI an OAuth client may not send codes to (matched exactly at sign-in). */
function refuseBadRedirectUris(redirectUris: string[]) {
  for (const [i, uri] of redirectUris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw fail('invalid_redirect_uri', `redirectUris[${i}]: ${problem} (got ${JSON.stringify(uri.slice(0, 200))}).`);
  }
}

export async function create(
  deps: Pick<AppDeps, 'prisma' | 'originCache' | 'gatewayHosts'>,
  developerId: string,
  input: z.input<typeof appInputSchema>,
): Promise<AppView> {
  const { prisma } = deps;
  const { name, origins, redirectUris } = parseInput(appInputSchema, input);
  for (const [i, origin] of origins.entries()) {
    // An app origin takes over /auth/* and /_osg/* on its host: the gateway's own hosts are never an app's.
    if (deps.gatewayHosts.has(new URL(origin).host)) {
      throw fail('origin_reserved', `origins[${i}]: ${origin} is this gateway's own host; register the host your app is served from.`);
    }
  }
  refuseBadRedirectUris(redirectUris);
  // A host belongs to one app under both schemes, so the app of a Host header (appOfHost) is never ambiguous.
  const sameHost = origins.flatMap(sameHostOrigins);
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
  for (const origin of origins) deps.originCache.delete(origin);
  // Read back after the write's own transaction: an `include` inside it has Prisma send its
  // relation queries at once on the transaction's one pg client (deprecated by pg 8, gone in 9).
  return appView(await ownedApp(deps, developerId, id));
}

/**
 * Registers one more origin for the developer's app (`gatehouse dev` registers its local origin):
 * the same rules as at creation. Already this app's: nothing changes; another app's: 409 `origin_taken`.
 */
export async function addOrigin(
  deps: Pick<AppDeps, 'prisma' | 'originCache' | 'oauthClientCache' | 'gatewayHosts'>,
  developerId: string,
  appId: string,
  rawOrigin: unknown,
): Promise<AppView & { added: boolean }> {
  const app = await ownedApp(deps, developerId, appId);
  const [origin] = parseInput(appInputSchema, { name: app.name, origins: [rawOrigin] }, 'body').origins;
  if (deps.gatewayHosts.has(new URL(origin).host)) {
    throw fail('origin_reserved', `${origin} is this gateway's own host; register the host your app is served from.`);
  }
  const taken = await deps.prisma.appOrigin.findMany({ where: { origin: { in: sameHostOrigins(origin) } } });
  if (taken.some(row => row.appId !== appId)) throw fail('origin_taken', `Origin ${taken[0].origin} already belongs to another app.`);
  const added = !taken.some(row => row.origin === origin);
  if (added) {
    await deps.prisma.appOrigin.create({ data: { origin, appId } }).catch(error => {
      if ((error as { code?: string }).code === 'P2002') throw fail('origin_taken', `Origin ${origin} was registered at the same time.`);
      throw error;
    });
  }
  for (const name of sameHostOrigins(origin)) deps.originCache.delete(name);
  // The new origin's root is a redirect URI of the app's clients: sign-in from it works at once here.
  return { ...forgetClients(deps, appView(await ownedApp(deps, developerId, appId))), added };
}

/**
 * Unregisters one origin of the developer's app: it no longer serves the app nor passes CORS, and its
 * root stops being a redirect URI. Not one of the app's: nothing changes (`removed: false`).
 */
export async function removeOrigin(
  deps: Pick<AppDeps, 'prisma' | 'originCache' | 'oauthClientCache'>,
  developerId: string,
  appId: string,
  rawOrigin: unknown,
): Promise<AppView & { removed: boolean }> {
  const app = await ownedApp(deps, developerId, appId);
  const [origin] = parseInput(appInputSchema, { name: app.name, origins: [rawOrigin] }, 'body').origins;
  const { count } = await deps.prisma.appOrigin.deleteMany({ where: { origin, appId } });
  for (const name of sameHostOrigins(origin)) deps.originCache.delete(name);
  return { ...forgetClients(deps, appView(await ownedApp(deps, developerId, appId))), removed: count > 0 };
}

/**
 * Replaces the redirect URIs the app's OAuth clients accept (besides its origins' roots), each
 * checked as at creation; sign-in matches them exactly from the next request on.
 */
export async function setRedirectUris(
  deps: Pick<AppDeps, 'prisma' | 'oauthClientCache'>,
  developerId: string,
  appId: string,
  rawRedirectUris: unknown,
): Promise<AppView> {
  const app = await ownedApp(deps, developerId, appId);
  const { redirectUris } = parseInput(appInputSchema, { name: app.name, redirectUris: rawRedirectUris }, 'body');
  refuseBadRedirectUris(redirectUris);
  await deps.prisma.appClient.updateMany({ where: { appId }, data: { redirectUris: [...new Set(redirectUris)] } });
  return forgetClients(deps, appView(await ownedApp(deps, developerId, appId)));
}

/** The embedded provider reads the app's clients afresh: their redirect URIs changed. */
function forgetClients(deps: Pick<AppDeps, 'oauthClientCache'>, view: AppView): AppView {
  for (const clientId of view.clientIds) deps.oauthClientCache.delete(clientId);
  return view;
}

/**
 * The test users of one environment of the developer's app (those ever given a token there), by
 * name, with whether one of their tokens there still works; never the tokens.
 */
export async function testUsers(deps: Pick<AppDeps, 'prisma' | 'now'>, developerId: string, appId: string, rawEnv: unknown) {
  await ownedApp(deps, developerId, appId);
  const env = parseInput(envNameSchema, rawEnv);
  const deployment = await deps.prisma.deployment.findUnique({ where: { appId_env: { appId, env } }, select: { id: true } });
  if (!deployment) throw fail('env_not_found', `App ${appId} has no environment '${env}'.`);
  const mine = { kind: 'test_session', deploymentId: deployment.id } as const;
  const firstTokens = await deps.prisma.apiToken.groupBy({
    by: ['principalId'],
    where: mine,
    _min: { createdAt: true },
    orderBy: { principalId: 'asc' },
    take: BOUNDED_LIST_TAKE,
  });
  const users = boundedList(firstTokens, 'test users', 'reset the environment to start afresh.');
  const live = await deps.prisma.apiToken.groupBy({
    by: ['principalId'],
    where: {
      ...mine,
      principalId: { in: users.map(u => u.principalId!) },
      revokedAt: null,
      OR: [{ expiresAt: null }, { expiresAt: { gt: deps.now() } }],
    },
  });
  const liveIds = new Set(live.map(row => row.principalId));
  const prefix = testUserId(appId, '');
  return users.map(({ principalId, _min }) => ({
    userId: principalId!,
    name: principalId!.slice(prefix.length),
    createdAt: _min.createdAt!,
    hasLiveTokens: liveIds.has(principalId),
  }));
}

export async function list(deps: Pick<ServiceDeps, 'prisma'>, developerId: string): Promise<AppView[]> {
  const apps = await deps.prisma.app.findMany({
    where: { developerId },
    include: STORED_APP,
    orderBy: { createdAt: 'asc' },
    take: BOUNDED_LIST_TAKE,
  });
  return boundedList(apps, 'apps', 'delete apps you no longer use.').map(appView);
}

export async function get(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string): Promise<AppView> {
  return appView(await ownedApp(deps, developerId, appId));
}

/** Validates and stores the schema IR for one environment, then reconciles static resources. */
export async function deploy(
  deps: Pick<AppDeps, 'prisma' | 'transaction' | 'now' | 'deploymentCache'>,
  developerId: string,
  appId: string,
  env: string,
  rawSchema: unknown,
) {
  await ownedApp(deps, developerId, appId);
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
    await tx.deploymentVersion.create({ data: { deploymentId: row.id, version: row.version, schema: schema as object, createdAt: now } });
    await tx.deploymentVersion.deleteMany({ where: { deploymentId: row.id, version: { lte: row.version - DEPLOYMENT_VERSIONS_KEPT } } });
    return row;
  });
  deps.deploymentCache.delete(deployment.id);
  // Declared index([...])es, built concurrently once the schema is live (docs/api.md §11.6).
  await syncRowIndexes(deps.prisma, deployment.id, schema);
  return {
    deploymentId: deployment.id,
    appId,
    env: envName,
    version: deployment.version,
    resourceTypes: Object.keys(schema.resources).sort(),
    tables: Object.keys(schema.tables).sort(),
    buckets: Object.keys(schema.buckets ?? {}).sort(),
  };
}

/** Who a developer token belongs to (`gatehouse whoami`). */
export async function developer(deps: Pick<ServiceDeps, 'prisma'>, developerId: string): Promise<{ developerId: string; email: string }> {
  const found = await deps.prisma.developer.findUniqueOrThrow({ where: { id: developerId }, select: { id: true, email: true } });
  return { developerId: found.id, email: found.email };
}

/**
 * At a server's start, in the background: the row indexes that deployments made before this
 * release lack (row-indexes.service.ts), while `goOn()` holds. Answers how many it built.
 */
export function buildMissingIndexes(deps: Pick<ServiceDeps, 'prisma'>, goOn: () => boolean): Promise<number> {
  return buildMissingRowIndexes(deps.prisma, allDeployments(deps), goOn);
}

/** Every deployment with its schema, a page at a time. */
async function* allDeployments(deps: Pick<ServiceDeps, 'prisma'>): AsyncIterable<{ id: string; schema: SchemaIR }> {
  let after: string | undefined;
  for (;;) {
    const page = await deps.prisma.deployment.findMany({
      select: { id: true, schema: true },
      orderBy: { id: 'asc' },
      take: DEPLOYMENTS_PER_PAGE,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
    for (const row of page) yield { id: row.id, schema: withBareMaps(row.schema as unknown as SchemaIR) };
    if (page.length < DEPLOYMENTS_PER_PAGE) return;
    after = page[page.length - 1].id;
  }
}

const DEPLOYMENTS_PER_PAGE = 100;

/** The schema deployed to one environment of the developer's app (`gatehouse typegen --deployed`); 404 env_not_found. */
export async function deployedSchema(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string, env: string) {
  await ownedApp(deps, developerId, appId);
  const envName = parseInput(envNameSchema, env);
  const found = await deps.prisma.deployment.findUnique({ where: { appId_env: { appId, env: envName } } });
  if (!found) throw fail('env_not_found', `App ${appId} has no environment '${envName}': deploy a schema to it first.`);
  return { appId, env: envName, version: found.version, schema: found.schema as Record<string, unknown> };
}

/** How many versions of an environment's schema are kept (docs/api.md §3, deploymentVersions). */
export const DEPLOYMENT_VERSIONS_KEPT = 50;

/** The schemas one environment of the developer's app was deployed with, newest first; 404 env_not_found. */
export async function deploymentVersions(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string, env: string) {
  await ownedApp(deps, developerId, appId);
  const envName = parseInput(envNameSchema, env);
  const found = await deps.prisma.deployment.findUnique({
    where: { appId_env: { appId, env: envName } },
    select: { versions: { orderBy: { version: 'desc' }, take: DEPLOYMENT_VERSIONS_KEPT } },
  });
  if (!found) throw fail('env_not_found', `App ${appId} has no environment '${envName}': deploy a schema to it first.`);
  return found.versions.map(v => ({ appId, env: envName, version: v.version, schema: v.schema as Record<string, unknown>, createdAt: v.createdAt }));
}

/** The app's first OAuth client (the one the gateway signs people in with for invite links), or null. */
export async function signInClientOf(deps: Pick<ServiceDeps, 'prisma'>, appId: string): Promise<string | null> {
  const client = await deps.prisma.appClient.findFirst({ where: { appId }, orderBy: { createdAt: 'asc' }, select: { clientId: true } });
  return client?.clientId ?? null;
}

/** docs/api.md §3.1: a test user pinned to a deployed non-production environment. */
export async function mintTestUser(
  deps: Pick<AppDeps, 'prisma' | 'tokens'>,
  developerId: string,
  appId: string,
  input: { name?: unknown; env?: unknown },
) {
  const { prisma } = deps;
  await ownedApp(deps, developerId, appId);
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
  const minted = await deps.tokens.mint({ kind: 'test_session', principalId: userId, deploymentId: deployment.id, developerId });
  return { user_id: userId, token: minted.token, expires_at: minted.expiresAt!.toISOString(), payer: developerId, env };
}

/**
 * Revokes every test-session token of one test user in one environment (docs/api.md §3.1): they stop
 * at once on this instance (the token cache is cleared); the user, its data and memberships stay,
 * and minting the name again gives it a new token.
 */
export async function revokeTestUser(
  deps: Pick<AppDeps, 'prisma' | 'tokens' | 'now'>,
  developerId: string,
  appId: string,
  input: { name?: unknown; env?: unknown },
) {
  await ownedApp(deps, developerId, appId);
  const env = parseInput(envNameSchema, input.env);
  const name = parseInput(testUserNameSchema, input.name);
  const deployment = await deps.prisma.deployment.findUnique({ where: { appId_env: { appId, env } }, select: { id: true } });
  if (!deployment) throw fail('env_not_found', `App ${appId} has no environment '${env}'.`);
  const userId = testUserId(appId, name);
  const { count } = await deps.prisma.apiToken.updateMany({
    where: { kind: 'test_session', principalId: userId, deploymentId: deployment.id, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
  deps.tokens.clearCache();
  return { userId, env, revoked: count };
}

/** The redirect URIs an app's OAuth clients accept (the app is the caller's: it came from `list` or `get`). */
export async function redirectUris(deps: Pick<ServiceDeps, 'prisma'>, appId: string): Promise<string[]> {
  const clients = await deps.prisma.appClient.findMany({ where: { appId }, select: { redirectUris: true }, orderBy: { clientId: 'asc' } });
  return clients.flatMap(c => c.redirectUris);
}

/** What `services.apps` offers; src/services.ts binds each to the server's dependencies. */

export const appOperations = {
  create,
  list,
  get,
  redirectUris,
  revokeTestUser,
  deploymentVersions,
  addOrigin,
  removeOrigin,
  setRedirectUris,
  testUsers,
  deploy,
  buildMissingIndexes,
  deployment,
  developer,
  deployedSchema,
  appOfOrigin,
  appOfHost,
  signInClientOf,
  mintTestUser,
};

export type AppService = Bound<typeof appOperations>;
