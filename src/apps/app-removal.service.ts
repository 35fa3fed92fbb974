/**
 * Undo for developers (docs/api.md §3.2): deleting an app, deleting one environment, and resetting
 * one (its rows, files, resources and test users gone; the deployment and its static resources
 * kept). Only the app's developer may (another's app or a missing environment is a 404), and `prod`
 * needs `confirm: 'prod'` on top. Stored bytes stop counting because their rows and files are gone
 * (storage is metered from them); the blobs go from the blob store after commit. Live feeds hear
 * what went: members a resource's `delete` (roster and own memberships), row feeds each row's
 * `delete`, rooms feeds each grant's; each kind up to MEMBER_EVENTS_LIMIT per deployment.
 */
import { isTestUserId } from '../core/principals.rules.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { fail } from '../errors.js';
import { type GrantEvent, type MembershipEvent, type RowEvent, memberRow } from '../bus/event-bus.js';
import { stampCommit } from '../bus/commit-order.js';
import type { SchemaIR } from '../schema/index.js';
import { appNotFound, envNameSchema } from './apps.rules.js';
import type { AppDeps } from './apps.service.js';
import { reconcileStaticResources } from './app-deployments.service.js';
import { grantEvent } from '../rooms/room-events.service.js';
import { parseInput } from '../errors.js';

/** Beyond this many memberships (rows, grants), a removal tells no feed of them (they see them gone on their next read). */
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
  const [rows, files, resources, members, rowEvents, grantEvents] = await Promise.all([
    tx.row.count({ where: { deploymentId } }),
    tx.file.findMany({ where: { deploymentId }, select: { blobKey: true } }),
    tx.resource.findMany({ where: { deploymentId }, select: { id: true } }),
    tx.membership.findMany({
      where: { resource: { deploymentId } },
      select: { resourceId: true, principalId: true, role: true, state: true },
      take: MEMBER_EVENTS_LIMIT + 1,
    }),
    rowDeletions(tx, deploymentId),
    grantRemovals(tx, deploymentId),
  ]);
  const events: MembershipEvent[] =
    members.length > MEMBER_EVENTS_LIMIT
      ? []
      : members.map(m => ({ op: 'delete' as const, deploymentId, row: memberRow(m.resourceId, m.principalId, m.role, m.state) }));
  return { rows, blobKeys: files.map(f => f.blobKey), resourceIds: resources.map(r => r.id), events, rowEvents, grantEvents };
}

/**
 * Every row's `delete` as the row feeds take it: a top-level row once as its author's own, and in
 * each resource it is linked into; an owned row in its resource. Their resources go with them
 * (`resourceGone`): a feed there hears what a visitor could read and its own rows.
 */
async function rowDeletions(tx: Tx, deploymentId: string): Promise<RowEvent[]> {
  const rows = await tx.row.findMany({
    where: { deploymentId },
    select: {
      id: true,
      tableName: true,
      creatorId: true,
      resourceId: true,
      roomId: true,
      links: { where: { hidden: false }, select: { resourceId: true, roomId: true } },
    },
    take: MEMBER_EVENTS_LIMIT + 1,
  });
  if (rows.length > MEMBER_EVENTS_LIMIT) return [];
  return rows.flatMap(row => {
    const deleted = { op: 'delete' as const, deploymentId, table: row.tableName, creatorId: row.creatorId, row: { id: row.id }, resourceGone: true };
    const inResource = (resourceId: string, roomId: string | null): RowEvent => ({
      ...deleted,
      resourceId,
      roomId,
      previousRoomId: roomId,
      own: false,
    });
    return [
      row.resourceId ? inResource(row.resourceId, row.roomId) : { ...deleted, resourceId: null, roomId: null, previousRoomId: null, own: true },
      ...row.links.map(link => inResource(link.resourceId, link.roomId)),
    ];
  });
}

/** Every room grant's removal, for its holder's rooms feed. */
async function grantRemovals(tx: Tx, deploymentId: string): Promise<GrantEvent[]> {
  const grants = await tx.roomGrant.findMany({
    where: { membership: { resource: { deploymentId } } },
    select: { principalId: true, resourceId: true, roomId: true, role: true },
    take: MEMBER_EVENTS_LIMIT + 1,
  });
  if (grants.length > MEMBER_EVENTS_LIMIT) return [];
  return grants.map(grant => grantEvent('delete', deploymentId, grant));
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
  await stampCommit(tx, contents.events, contents.rowEvents, contents.grantEvents);
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

/** What feeds hear of a removal. */
interface RemovalEvents {
  events: MembershipEvent[];
  rowEvents: RowEvent[];
  grantEvents: GrantEvent[];
}

/** After commit: this instance forgets what it cached of the removed, feeds hear, blobs go. */
function afterRemoval(deps: RemovalDeps, deploymentIds: string[], heard: RemovalEvents, blobKeys: string[], origins: string[] = []) {
  for (const id of deploymentIds) deps.deploymentCache.delete(id);
  for (const origin of origins) deps.originCache.delete(origin);
  deps.tokens.clearCache();
  deps.bus.publish(heard.events);
  deps.bus.publishRows(heard.rowEvents);
  deps.bus.publishGrants(heard.grantEvents);
  if (blobKeys.length) deps.blobsOrphaned?.(blobKeys);
}

/** Which environment a removal takes: the developer's app, its name, and `prod` for prod. */
type EnvironmentTarget = [developerId: string, appId: string, env: string, confirm?: string | null];

/**
 * Empties one environment (rows, files, resources, test users), then `finish` decides, in the same
 * transaction, what becomes of the deployment itself.
 */
async function emptyEnvironment(
  deps: RemovalDeps,
  [developerId, appId, env, confirm]: EnvironmentTarget,
  finish: (tx: Tx, deploymentId: string) => Promise<unknown>,
): Promise<Removal> {
  const deployment = await ownedDeployment(deps, developerId, appId, env, confirm);
  const others = (await ownedApp(deps, developerId, appId)).deployments.filter(d => d.id !== deployment.id).map(d => d.id);
  const done = await deps.transaction(async tx => {
    const contents = await emptyDeployment(tx, deployment.id);
    const testUsers = await removeTestUsers(tx, appId, [deployment.id], others);
    await finish(tx, deployment.id);
    return { ...contents, testUsers };
  });
  afterRemoval(deps, [deployment.id], done, done.blobKeys);
  return counts(appId, [deployment.env], done);
}

/** Empties one environment: rows, files, resources, test users; the schema stays deployed, static resources are made anew. */
export async function resetEnvironment(deps: RemovalDeps, ...target: EnvironmentTarget): Promise<Removal> {
  const now = deps.now();
  return emptyEnvironment(deps, target, async (tx, deploymentId) => {
    const deployed = await tx.deployment.findUniqueOrThrow({ where: { id: deploymentId }, select: { schema: true } });
    await reconcileStaticResources(tx, deploymentId, deployed.schema as unknown as SchemaIR, now);
  });
}

/** Deletes one environment: everything resetEnvironment removes, then the deployment itself. */
export async function deleteEnvironment(deps: RemovalDeps, ...target: EnvironmentTarget): Promise<Removal> {
  // Cascades: the deployment's remaining tokens (agents').
  return emptyEnvironment(deps, target, (tx, deploymentId) => tx.deployment.delete({ where: { id: deploymentId } }));
}

/** Deletes the app: every environment's data, its test users, budgets, origins and OAuth clients. */
export async function deleteApp(deps: RemovalDeps, developerId: string, appId: string, confirm?: string | null): Promise<Removal> {
  const app = await ownedApp(deps, developerId, appId);
  if (app.deployments.some(d => d.env === 'prod') && confirm !== 'prod')
    throw prodNeedsConfirm(`App ${appId} has a prod environment, so deleting it`);
  const ids = app.deployments.map(d => d.id);
  const done = await deps.transaction(async tx => {
    const all = {
      rows: 0,
      blobKeys: [] as string[],
      resourceIds: [] as string[],
      events: [] as MembershipEvent[],
      rowEvents: [] as RowEvent[],
      grantEvents: [] as GrantEvent[],
    };
    for (const id of ids) {
      const contents = await emptyDeployment(tx, id);
      all.rows += contents.rows;
      all.blobKeys.push(...contents.blobKeys);
      all.resourceIds.push(...contents.resourceIds);
      all.events.push(...contents.events);
      all.rowEvents.push(...contents.rowEvents);
      all.grantEvents.push(...contents.grantEvents);
    }
    const testUsers = await removeTestUsers(tx, appId, ids, []);
    await tx.budget.deleteMany({ where: { appId } });
    // Cascades: origins, OAuth clients, deployments and their remaining tokens.
    await tx.app.delete({ where: { id: appId } });
    return { ...all, testUsers };
  });
  const bounded = <E>(events: E[]) => (events.length > MEMBER_EVENTS_LIMIT ? [] : events);
  const heard = { events: bounded(done.events), rowEvents: bounded(done.rowEvents), grantEvents: bounded(done.grantEvents) };
  afterRemoval(
    deps,
    ids,
    heard,
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
