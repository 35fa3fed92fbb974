/**
 * Undo for developers (docs/api.md §3.2): deleting an app, deleting one environment, and resetting
 * one (its rows, files, resources and test users gone; the deployment and its static resources
 * kept). Only the app's developer may (another's app or a missing environment is a 404), and `prod`
 * needs `confirm: 'prod'` on top. Stored bytes stop counting because their rows and files are gone
 * (storage is metered from them); the blobs go from the blob store after commit. Members who lose
 * a resource hear its `delete` on their feeds, up to MEMBER_EVENTS_LIMIT per call.
 */
import { isTestUserId } from '../core/principals.rules.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { fail } from '../errors.js';
import { type MembershipEvent, memberRow } from '../bus/event-bus.js';
import { stampCommit } from '../bus/commit-order.js';
import type { SchemaIR } from '../schema/index.js';
import { appNotFound, envNameSchema } from './apps.rules.js';
import type { AppDeps } from './apps.service.js';
import { reconcileStaticResources } from './app-deployments.service.js';
import { parseInput } from '../errors.js';

/** Beyond this many memberships, a removal tells no feed (they see the resources gone on their next read). */
export const MEMBER_EVENTS_LIMIT = 5_000;

export type RemovalDeps = Pick<AppDeps, 'prisma' | 'transaction' | 'now' | 'deploymentCache' | 'originCache'> &
  Pick<ServiceDeps, 'bus'> & {
    tokens: { clearCache(): void };
    /** After commit: the blob store drops these keys (src/services.ts). */
    blobsOrphaned?: (keys: string[]) => void;
  };

/** What one removal took away, counted. */
export interface Removal {
  appId: string;
  /** The environments removed or reset. */
  environments: string[];
  rows: number;
  files: number;
  resources: number;
  testUsers: number;
}

const prodNeedsConfirm = (what: string) =>
  fail('prod_confirmation_required', `${what} removes production data: repeat it with confirm=prod (the CLI's --confirm-prod).`);

async function ownedApp(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string) {
  const app = await deps.prisma.app.findUnique({
    where: { id: appId },
    select: { developerId: true, origins: { select: { origin: true } }, deployments: { select: { id: true, env: true } } },
  });
  // Not yours and not there look the same (docs/api.md §3.1, rule 1).
  if (!app || app.developerId !== developerId) throw appNotFound(appId);
  return app;
}

async function ownedDeployment(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string, rawEnv: string, confirm?: string | null) {
  const app = await ownedApp(deps, developerId, appId);
  const env = parseInput(envNameSchema, rawEnv);
  const deployment = app.deployments.find(d => d.env === env);
  if (!deployment) {
    const known = app.deployments.map(d => d.env).sort();
    throw fail('env_not_found', `App ${appId} has no environment '${env}' (it has: ${known.join(', ') || 'none'}).`);
  }
  if (env === 'prod' && confirm !== 'prod') throw prodNeedsConfirm(`Environment 'prod' of app ${appId}`);
  return deployment;
}

/** What a deployment holds, as the removal will report and notify it; read inside the removal's transaction. */
async function contentsOf(tx: Tx, deploymentId: string) {
  const [rows, files, resources, members] = await Promise.all([
    tx.row.count({ where: { deploymentId } }),
    tx.file.findMany({ where: { deploymentId }, select: { blobKey: true } }),
    tx.resource.findMany({ where: { deploymentId }, select: { id: true } }),
    tx.membership.findMany({
      where: { resource: { deploymentId } },
      select: { resourceId: true, principalId: true, role: true, state: true },
      take: MEMBER_EVENTS_LIMIT + 1,
    }),
  ]);
  const events: MembershipEvent[] =
    members.length > MEMBER_EVENTS_LIMIT
      ? []
      : members.map(m => ({ op: 'delete' as const, deploymentId, row: memberRow(m.resourceId, m.principalId, m.role, m.state) }));
  return { rows, blobKeys: files.map(f => f.blobKey), resourceIds: resources.map(r => r.id), events };
}

/** Deletes a deployment's rows, files and resources (rooms, memberships, links cascade), keeping the deployment. */
async function emptyDeployment(tx: Tx, deploymentId: string) {
  const contents = await contentsOf(tx, deploymentId);
  // Rows and files first: their room keys are NO ACTION, the rooms go with the resources.
  await tx.row.deleteMany({ where: { deploymentId } });
  await tx.file.deleteMany({ where: { deploymentId } });
  await tx.wallet.deleteMany({ where: { holderId: { in: contents.resourceIds } } });
  await tx.resource.deleteMany({ where: { deploymentId } });
  // Feeds order events by their commit (src/bus/commit-order.ts).
  await stampCommit(tx, contents.events);
  return contents;
}

/**
 * Deletes the app's test users (and, by cascade, their agents) that nothing outside `leaving` still
 * ties to the app: no token, membership, row or file in another of its deployments.
 */
async function removeTestUsers(tx: Tx, appId: string, leaving: readonly string[], staying: readonly string[]): Promise<number> {
  const candidates = await tx.principal.findMany({ where: { id: { startsWith: `test:${appId}:` } }, select: { id: true } });
  const doomed: string[] = [];
  for (const { id } of candidates) {
    if (!isTestUserId(id)) continue;
    if (staying.length) {
      const elsewhere = { in: [...staying] };
      const [tokens, rows, files, memberships] = await Promise.all([
        tx.apiToken.count({ where: { principalId: id, deploymentId: elsewhere } }),
        tx.row.count({ where: { creatorId: id, deploymentId: elsewhere } }),
        tx.file.count({ where: { creatorId: id, deploymentId: elsewhere } }),
        tx.membership.count({ where: { principalId: id, resource: { deploymentId: elsewhere } } }),
      ]);
      if (tokens + rows + files + memberships > 0) continue;
    }
    doomed.push(id);
  }
  // The tokens of the environments going, whoever holds them (a test user kept for another env too).
  await tx.apiToken.deleteMany({ where: { deploymentId: { in: [...leaving] }, kind: 'test_session' } });
  if (!doomed.length) return 0;
  const agents = await tx.principal.findMany({ where: { ownerId: { in: doomed } }, select: { id: true } });
  await tx.wallet.deleteMany({ where: { holderId: { in: [...doomed, ...agents.map(a => a.id)] } } });
  await tx.principal.deleteMany({ where: { id: { in: doomed } } });
  return doomed.length;
}

/** After commit: this instance forgets what it cached of the removed, feeds hear, blobs go. */
function afterRemoval(deps: RemovalDeps, deploymentIds: string[], events: MembershipEvent[], blobKeys: string[], origins: string[] = []) {
  for (const id of deploymentIds) deps.deploymentCache.delete(id);
  for (const origin of origins) deps.originCache.delete(origin);
  deps.tokens.clearCache();
  deps.bus.publish(events);
  if (blobKeys.length) deps.blobsOrphaned?.(blobKeys);
}

/** Empties one environment: rows, files, resources, test users; the schema stays deployed, static resources are made anew. */
export async function resetEnvironment(
  deps: RemovalDeps,
  developerId: string,
  appId: string,
  env: string,
  confirm?: string | null,
): Promise<Removal> {
  const target = await ownedDeployment(deps, developerId, appId, env, confirm);
  const others = (await ownedApp(deps, developerId, appId)).deployments.filter(d => d.id !== target.id).map(d => d.id);
  const now = deps.now();
  const done = await deps.transaction(async tx => {
    const contents = await emptyDeployment(tx, target.id);
    const testUsers = await removeTestUsers(tx, appId, [target.id], others);
    const deployed = await tx.deployment.findUniqueOrThrow({ where: { id: target.id }, select: { schema: true } });
    await reconcileStaticResources(tx, target.id, deployed.schema as unknown as SchemaIR, now);
    return { ...contents, testUsers };
  });
  afterRemoval(deps, [target.id], done.events, done.blobKeys);
  return counts(appId, [target.env], done);
}

/** Deletes one environment: everything resetEnvironment removes, then the deployment itself. */
export async function deleteEnvironment(
  deps: RemovalDeps,
  developerId: string,
  appId: string,
  env: string,
  confirm?: string | null,
): Promise<Removal> {
  const target = await ownedDeployment(deps, developerId, appId, env, confirm);
  const others = (await ownedApp(deps, developerId, appId)).deployments.filter(d => d.id !== target.id).map(d => d.id);
  const done = await deps.transaction(async tx => {
    const contents = await emptyDeployment(tx, target.id);
    const testUsers = await removeTestUsers(tx, appId, [target.id], others);
    // Cascades: the deployment's remaining tokens (agents').
    await tx.deployment.delete({ where: { id: target.id } });
    return { ...contents, testUsers };
  });
  afterRemoval(deps, [target.id], done.events, done.blobKeys);
  return counts(appId, [target.env], done);
}

/** Deletes the app: every environment's data, its test users, budgets, origins and OAuth clients. */
export async function deleteApp(deps: RemovalDeps, developerId: string, appId: string, confirm?: string | null): Promise<Removal> {
  const app = await ownedApp(deps, developerId, appId);
  if (app.deployments.some(d => d.env === 'prod') && confirm !== 'prod')
    throw prodNeedsConfirm(`App ${appId} has a prod environment, so deleting it`);
  const ids = app.deployments.map(d => d.id);
  const done = await deps.transaction(async tx => {
    const all = { rows: 0, blobKeys: [] as string[], resourceIds: [] as string[], events: [] as MembershipEvent[] };
    for (const id of ids) {
      const contents = await emptyDeployment(tx, id);
      all.rows += contents.rows;
      all.blobKeys.push(...contents.blobKeys);
      all.resourceIds.push(...contents.resourceIds);
      all.events.push(...contents.events);
    }
    const testUsers = await removeTestUsers(tx, appId, ids, []);
    await tx.budget.deleteMany({ where: { appId } });
    // Cascades: origins, OAuth clients, deployments and their remaining tokens.
    await tx.app.delete({ where: { id: appId } });
    return { ...all, testUsers };
  });
  afterRemoval(
    deps,
    ids,
    done.events.length > MEMBER_EVENTS_LIMIT ? [] : done.events,
    done.blobKeys,
    app.origins.map(o => o.origin),
  );
  return counts(appId, app.deployments.map(d => d.env).sort(), done);
}

function counts(
  appId: string,
  environments: string[],
  done: { rows: number; blobKeys: string[]; resourceIds: string[]; testUsers: number },
): Removal {
  return {
    appId,
    environments,
    rows: done.rows,
    files: done.blobKeys.length,
    resources: done.resourceIds.length,
    testUsers: done.testUsers,
  };
}

/** What `services.appRemoval` offers; src/services.ts binds each to the server's dependencies. */
export const appRemovalOperations = { resetEnvironment, deleteEnvironment, deleteApp };

export type AppRemovalService = Bound<typeof appRemovalOperations>;
