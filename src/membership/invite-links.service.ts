/** Single-use invite links (docs/api.md §2.2, §5.2): the code is shown once and only its hash is stored. */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { INVITE_LINK_TTL_MS, decideClaimInviteLink, decideCreateInviteLink } from './membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import { fail } from '../errors.js';
import { newId, newSecret, sha256 } from '../lib/secrets.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { runStatementTransition, runTransition } from './membership-store.service.js';
import { typeRules } from './resources.rules.js';

/** The link as a claim reads it, under the resource lock. */
interface ClaimedLink {
  id: string;
  creatorId: string;
  role: Role;
  expiresAt: Date;
  usedAt: Date | null;
}

const linkNotFound = () => fail('invite_link_not_found', 'No such invite link: check that the whole code was copied.');

/** What creating and claiming a link need: the transition's dependencies and the caller's deployment from `apps`. */
export type InviteLinkDeps = Pick<ServiceDeps, 'prisma' | 'now' | 'transaction' | 'sqlTransaction' | 'bus' | 'config'> & {
  apps: Pick<AppService, 'deployment'>;
};

export async function create(deps: InviteLinkDeps, caller: PrincipalCaller, resourceId: string, role?: Role) {
  const deployment = await deps.apps.deployment(caller.deployment.id);
  const code = newSecret('inv');
  // Gated like every per-resource route: 404 to a caller who cannot see the resource.
  const link = await runTransition(
    deps,
    caller,
    resourceId,
    async ({ tx, actor, resource, now }) => {
      const liveLinksByActor = await tx.inviteLink.count({
        where: { resourceId: resource.id, creatorId: actor.id, usedAt: null, expiresAt: { gt: now } },
      });
      const granted = decideCreateInviteLink({ actor, role, rules: typeRules(deployment, resource.type), liveLinksByActor });
      return tx.inviteLink.create({
        data: {
          id: newId('lnk'),
          resourceId: resource.id,
          creatorId: actor.id,
          role: granted,
          codeHash: sha256(code),
          expiresAt: new Date(now.getTime() + INVITE_LINK_TTL_MS),
          createdAt: now,
        },
      });
    },
    { gate: 'reach' },
  );
  const origin = deployment.origins[0] ?? deps.config.publicUrl;
  return { url: `${origin}/_invite/${code}`, role: link.role, expiresAt: link.expiresAt };
}

/**
 * What an invite page shows before anyone joins (read only, never consumes): the link's
 * resource, role and app. Used and expired links answer as a claim would.
 */
export async function preview(deps: Pick<ServiceDeps, 'prisma' | 'now'>, code: string) {
  if (!/^inv_[A-Za-z0-9_-]{43}$/.test(code)) throw linkNotFound();
  const link = await deps.prisma.inviteLink.findUnique({
    where: { codeHash: sha256(code) },
    select: {
      role: true,
      usedAt: true,
      expiresAt: true,
      resource: {
        select: { id: true, name: true, type: true, deployment: { select: { appId: true, env: true, app: { select: { name: true } } } } },
      },
    },
  });
  if (!link) throw linkNotFound();
  if (link.usedAt) throw fail('invite_link_used', 'This invite link has already been used.');
  if (link.expiresAt <= deps.now()) throw fail('invite_link_expired', 'This invite link has expired.');
  const { resource } = link;
  return {
    appId: resource.deployment.appId,
    appName: resource.deployment.app.name,
    env: resource.deployment.env,
    resourceId: resource.id,
    resourceName: resource.name,
    resourceType: resource.type,
    role: link.role,
  };
}

/** Re-checks every condition; a failed check leaves the link unconsumed. */
export async function claim(deps: InviteLinkDeps, caller: PrincipalCaller, code: string) {
  if (!/^inv_[A-Za-z0-9_-]{43}$/.test(code)) throw linkNotFound();
  const found = await deps.prisma.inviteLink.findUnique({
    where: { codeHash: sha256(code) },
    select: { resourceId: true, creatorId: true, resource: { select: { deploymentId: true } } },
  });
  // A link of another app environment is no link here.
  if (!found || found.resource.deploymentId !== caller.deployment.id) throw linkNotFound();
  const deployment = await deps.apps.deployment(caller.deployment.id);
  // The code is the capability: claiming is the way into a members-only resource, so no visibility gate.
  // The creator (fixed for a link's life) is read with the other facts; the link itself under the lock.
  return runStatementTransition(
    deps,
    caller,
    found.resourceId,
    async ({ tx, write, resource, now, actor: claimer, target: creator, blocked }) => {
      // Read under the resource lock: concurrent claims of one link serialise here.
      // Found above, and links are never deleted while their resource lives (it is locked).
      const link = (await tx
        .selectFrom('invite_links')
        .select(['id', 'creator_id as creatorId', 'role', 'expires_at as expiresAt', 'used_at as usedAt'])
        .where('code_hash', '=', sha256(code))
        .executeTakeFirst()) as ClaimedLink;
      if (!creator) throw fail('invite_link_inactive', 'The creator of this invite link no longer exists.');
      const outcome = decideClaimInviteLink({ claimer, creator, link, rules: typeRules(deployment, resource.type), blocked, now });
      // One statement consumes the link and writes the membership; an unconsumed link rolls both back.
      const { linkConsumed } = await write(claimer, outcome, { invitedBy: link.creatorId, consumeLink: { id: link.id } });
      if (!linkConsumed) throw fail('invite_link_used', 'This invite link has already been used.');
      return { ok: true as const, resourceId: resource.id, state: 'active' as const, role: outcome.role };
    },
    { gate: 'entry', targetId: found.creatorId, deployment },
  );
}

/** What `services.inviteLinks` offers; src/services.ts binds each to the server's dependencies. */
export const inviteLinkOperations = { create, preview, claim };

export type InviteLinkService = Bound<typeof inviteLinkOperations>;
