/**
 * What the dashboard (the web console, src/console) shows a signed-in person across every app
 * (docs/api.md §4.2): their account, the resources they own, and their pending invitations answered
 * from one place. Only the dashboard session reaches these (the resolvers ask ctx.dashboardUser()).
 */
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { fail } from '../errors.js';
import { isReservedType } from './resources.rules.js';

export interface DashboardAccount {
  id: string;
  displayName: string | null;
  handle: string | null;
  email: string | null;
  createdAt: Date;
}

export interface OwnedResource {
  resourceId: string;
  type: string;
  name: string;
  memberCount: number;
  appId: string;
  appName: string;
  env: string;
  createdAt: Date;
}

/** The most resources one list shows; the console says when there are more. */
export const OWNED_RESOURCES_MAX = 500;

export async function account(deps: Pick<ServiceDeps, 'prisma'>, userId: string): Promise<DashboardAccount> {
  const principal = await deps.prisma.principal.findUnique({
    where: { id: userId },
    select: { id: true, displayName: true, handle: true, createdAt: true, account: { select: { email: true } } },
  });
  if (!principal) throw fail('unauthenticated', 'This account no longer exists: sign in again.');
  return {
    id: principal.id,
    displayName: principal.displayName,
    handle: principal.handle,
    email: principal.account?.email ?? null,
    createdAt: principal.createdAt,
  };
}

/** The resources the person owns (an active owner membership), in every app, newest first; never an app's reserved ones. */
export async function ownedResources(deps: Pick<ServiceDeps, 'prisma'>, userId: string): Promise<OwnedResource[]> {
  const rows = await deps.prisma.membership.findMany({
    where: { principalId: userId, role: 'owner', state: 'active' },
    select: {
      resource: {
        select: {
          id: true,
          type: true,
          name: true,
          memberCount: true,
          createdAt: true,
          deployment: { select: { appId: true, env: true, app: { select: { name: true } } } },
        },
      },
    },
    orderBy: { createdAt: 'desc' },
    take: OWNED_RESOURCES_MAX,
  });
  return rows
    .filter(r => !isReservedType(r.resource.type))
    .map(({ resource: r }) => ({
      resourceId: r.id,
      type: r.type,
      name: r.name,
      memberCount: r.memberCount,
      appId: r.deployment.appId,
      appName: r.deployment.app.name,
      env: r.deployment.env,
      createdAt: r.createdAt,
    }));
}

/**
 * The person acting in the environment of `resourceId` (only people sign in to the dashboard), for
 * an invitation answered from the dashboard: the same transition as the app's accept and reject.
 */
export async function callerInResourceEnv(deps: Pick<ServiceDeps, 'prisma'>, userId: string, resourceId: string): Promise<PrincipalCaller> {
  const found = await deps.prisma.resource.findUnique({
    where: { id: resourceId },
    select: { deployment: { select: { id: true, appId: true, env: true } } },
  });
  if (!found) throw fail('resource_not_found', `No resource ${resourceId}.`);
  return {
    type: 'principal',
    principal: { id: userId, kind: 'user', ownerId: null },
    deployment: found.deployment,
    credential: 'session',
    payer: null,
  };
}

export const dashboardOperations = { account, ownedResources, callerInResourceEnv };

export type DashboardService = Bound<typeof dashboardOperations>;
