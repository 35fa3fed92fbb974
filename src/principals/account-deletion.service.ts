/**
 * Account deletion (`DELETE /v1/me`, `deleteMyAccount`; docs/api.md §12). One transaction:
 *
 * 1. Lock every resource the account (and each agent it owns) has a membership in, in id order,
 *    then the principal rows themselves. From then on no membership, agent or row can be added for
 *    them: those inserts wait on the principal's foreign key and fail once it is gone.
 * 2. Apply each table's `onOwnerDelete` to the account's rows, in every app (owner-deletion.service.ts): `remove` deletes them;
 *    `tombstone` keeps them where others see them (authorship becomes the deleted-user profile,
 *    `creator_id` null) and deletes the own rows nobody else could ever read; `retain` hands them
 *    to the resources: rows created in a resource stay there, own rows linked into resources are
 *    copied into each (as `onMemberRemove: retain` does) and the originals go. Hidden links go
 *    first in every case: the member they waited for can never rejoin.
 * 3. Leave every resource: pending rows are withdrawn, active ones left; an owned resource passes
 *    to its longest-standing admin (a person), else it is deleted as the dashboard deletes it.
 * 4. End every credential: Gatehouse tokens, the account's embedded-provider sessions, grants and
 *    tokens, its sign-in account, blocks, its invite links, then the principal (its agents, wallet
 *    and room grants go with it by foreign key).
 *
 * Feed events (each removed member's `delete`, an heir's promotion, grant deletes) are published
 * after commit; the token caches of this instance are cleared so the ended tokens stop at once.
 */
import { accountExit, heirOf, isAccountDeletionConfirmed, ACCOUNT_DELETION_CONFIRMATION } from '../membership/lifecycle.rules.js';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { MembershipState } from '../membership/membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import type { StoredVisibility } from '../membership/visibility.rules.js';
import { fail } from '../errors.js';
import type { ServiceDeps, Tx } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { applyOwnerDeletion } from './owner-deletion.service.js';
import { sql, sqlOf } from '../db/sql.js';
import { ChangeSet, type LockedResource } from '../membership/membership-store.service.js';
import { findPrincipalInApp, userNotFound } from './principals.service.js';
import { type DeletionHooks, deleteLockedResource } from '../membership/resource-deletion.service.js';
import { isReservedType } from '../membership/resources.rules.js';

export interface AccountDeletionResult {
  ok: true;
  /** Resources the account owned that passed to an admin, with their new owner. */
  transferred: { resourceId: string; ownerId: string }[];
  /** Resources the account owned that no admin could inherit: deleted with everything in them. */
  deleted: string[];
}

/** The embedded provider's remembered consents are keyed `<subject> <clientId>` (src/identity-provider/consent-admin.ts). */
const REMEMBERED_CONSENT_MODEL = 'RememberedConsent';

const confirmationRequired = () =>
  fail(
    'confirmation_required',
    `Deleting an account cannot be undone: send { "confirm": "${ACCOUNT_DELETION_CONFIRMATION}" } to delete it, with every row, membership and token it has.`,
  );

interface MembershipFact {
  resource_id: string;
  principal_id: string;
  role: Role;
  state: MembershipState;
}

interface LockedRow {
  id: string;
  deployment_id: string;
  type: string;
  visibility: StoredVisibility;
  app_id: string;
}

/**
 * What deleting an account uses: the database, the bus and the clock, and what to do after commit
 * with the blobs no row names any more and with this instance's credential caches.
 */
export type AccountDeletionDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'bus' | 'now'> & DeletionHooks & { credentialsEnded?: () => void };

/** The memberships of `principals`, every state, in every app. */
const membershipsOf = (tx: Tx, principals: string[]): Promise<MembershipFact[]> =>
  sqlOf(tx).selectFrom('memberships').select(['resource_id', 'principal_id', 'role', 'state']).where('principal_id', 'in', principals).execute();

/** Row locks in id order (the lock is taken as the sorted rows come out), so two deletions cannot deadlock. */
const lockResources = (tx: Tx, ids: string[]): Promise<LockedRow[]> =>
  sqlOf(tx)
    .selectFrom('resources as r')
    .innerJoin('deployments as d', 'd.id', 'r.deployment_id')
    .select(['r.id', 'r.deployment_id', 'r.type', 'r.visibility', 'd.app_id'])
    .where('r.id', 'in', ids)
    .orderBy('r.id')
    .forUpdate('r')
    .execute();

/** Step 3 for one locked resource: withdraw, leave, transfer or delete (domain `accountExit`). */
async function leaveResource(tx: Tx, changes: ChangeSet, resource: LockedResource, doomed: Set<string>, result: AccountDeletionResult) {
  const members = await sqlOf(tx)
    .selectFrom('memberships as m')
    .innerJoin('principals as p', 'p.id', 'm.principal_id')
    .select(['m.principal_id', 'm.role', 'm.state', 'p.kind', 'm.created_at'])
    .where('m.resource_id', '=', resource.id)
    .orderBy('m.created_at')
    .orderBy('m.principal_id')
    .execute();
  const mine = members.filter(m => doomed.has(m.principal_id));
  const owner = mine.find(m => m.role === 'owner' && m.state === 'active');
  const heir = owner
    ? heirOf(
        members.map(m => ({ principalId: m.principal_id, role: m.role, state: m.state, kind: m.kind, since: new Date(m.created_at) })),
        doomed,
      )
    : null;
  const fate = owner ? accountExit(owner, heir) : null;
  // An app's reserved resource (`_app`) has no owner and is never deleted; were it owned, the owner just leaves.
  if (fate === 'delete_resource' && !isReservedType(resource.type)) {
    await deleteLockedResource(
      tx,
      resource,
      changes,
      members.map(m => ({ principalId: m.principal_id, role: m.role, state: m.state })),
    );
    result.deleted.push(resource.id);
    return;
  }
  if (fate === 'transfer' && heir) {
    await changes.apply(heir, { role: 'admin', state: 'active' }, { role: 'owner', state: 'active' });
    await tx.resource.update({ where: { id: resource.id }, data: { ownerPrincipal: heir } });
    result.transferred.push({ resourceId: resource.id, ownerId: heir });
  }
  // Withdrawn (pending) or left (active, the old owner too): the row goes with its events and onMemberRemove.
  for (const m of mine) await changes.apply(m.principal_id, { role: m.role, state: m.state }, null);
  await changes.flush();
}

/** Steps 1–4 for `principalId` and every agent it owns (an agent owns none). */
async function erase(deps: AccountDeletionDeps, principalId: string): Promise<AccountDeletionResult> {
  const now = deps.now();
  const result: AccountDeletionResult = { ok: true, transferred: [], deleted: [] };
  const changeSets: ChangeSet[] = [];
  const orphanedBlobs: string[] = [];

  await deps.transaction(async tx => {
    // Step 1: resources first (the order every transition takes), then the principals.
    const agentsBefore = await tx.principal.findMany({ where: { ownerId: principalId }, select: { id: true } });
    const firstLook = await membershipsOf(tx, [principalId, ...agentsBefore.map(a => a.id)]);
    const locked = new Map<string, LockedRow>();
    const lockNew = async (facts: MembershipFact[]) => {
      const ids = [...new Set(facts.map(f => f.resource_id))].filter(id => !locked.has(id));
      if (ids.length > 0) for (const row of await lockResources(tx, ids)) locked.set(row.id, row);
    };
    await lockNew(firstLook);
    const principals = await sqlOf(tx)
      .selectFrom('principals')
      .select('id')
      .where(eb => eb.or([eb('id', '=', principalId), eb('owner_id', '=', principalId)]))
      .orderBy('id')
      .forUpdate()
      .execute();
    if (!principals.some(p => p.id === principalId)) throw userNotFound(principalId); // deleted meanwhile
    const doomedIds = principals.map(p => p.id);
    const doomed = new Set(doomedIds);
    // Memberships added before the principal lock (they held its key share until they committed).
    const memberships = await membershipsOf(tx, doomedIds);
    await lockNew(memberships);

    // Step 2, before anyone leaves, so onMemberRemove never runs ahead of onOwnerDelete.
    await applyOwnerDeletion(tx, doomedIds);

    // Step 3.
    for (const id of [...locked.keys()].sort()) {
      const row = locked.get(id)!;
      const resource: LockedResource = { id: row.id, deploymentId: row.deployment_id, type: row.type, visibility: row.visibility };
      const changes = new ChangeSet(tx, resource, now, row.app_id);
      changeSets.push(changes);
      await leaveResource(tx, changes, resource, doomed, result);
    }

    // Step 4.
    await tx.inviteLink.deleteMany({ where: { resourceId: { in: [...locked.keys()] }, creatorId: { in: doomedIds } } });
    await tx.block.deleteMany({ where: { OR: [{ blockerId: { in: doomedIds } }, { blockedId: { in: doomedIds } }] } });
    // Sessions, grants, codes and tokens of the embedded provider carry the subject as accountId.
    await sqlOf(tx)
      .deleteFrom('oidc_payloads')
      .where(eb =>
        eb.or([
          eb(sql<string>`payload->>'accountId'`, '=', principalId),
          eb.and([eb('model', '=', REMEMBERED_CONSENT_MODEL), eb(sql<boolean>`starts_with(id, ${`${principalId} `})`, '=', true)]),
        ]),
      )
      .execute();
    // Their own files go with them (files they put in resources stay there, as rows do); the bytes after commit.
    const ownFiles = await sqlOf(tx)
      .deleteFrom('files')
      .where(
        'scope',
        'in',
        doomedIds.map(id => `u:${id}`),
      )
      .returning('blob_key')
      .execute();
    orphanedBlobs.push(...ownFiles.map(f => f.blob_key));
    await tx.wallet.deleteMany({ where: { holderId: { in: doomedIds } } });
    // Cascades: api_tokens, accounts, wallet_entries, agents (and theirs), memberships, room grants.
    const gone = await tx.principal.deleteMany({ where: { id: principalId } });
    if (gone.count !== 1) throw fail('conflict', 'The account changed while it was being deleted; retry.');
    // Their open leases' charges, which name no foreign key to cascade by (wallet_charges is lean).
    await sqlOf(tx).deleteFrom('wallet_charges').where('principal_id', 'in', doomedIds).execute();
  });

  for (const changes of changeSets) {
    deps.bus.publish(changes.events);
    deps.bus.publishGrants(changes.grantEvents);
  }
  orphanedBlobs.push(...changeSets.flatMap(c => c.orphanedBlobs));
  if (orphanedBlobs.length) deps.blobsOrphaned?.(orphanedBlobs);
  deps.credentialsEnded?.();
  return result;
}

/**
 * Deletes the account of `principalId` (a person; their agents go with them) once `confirm`
 * is the confirmation phrase. The caller has authenticated as that person.
 */
export async function deleteAccount(deps: AccountDeletionDeps, principalId: string, confirm: unknown): Promise<AccountDeletionResult> {
  if (!isAccountDeletionConfirmed(confirm)) throw confirmationRequired();
  const principal = await deps.prisma.principal.findUnique({ where: { id: principalId }, select: { kind: true } });
  if (!principal) throw userNotFound(principalId);
  if (principal.kind !== 'user') {
    throw fail('agents_cannot_delete_accounts', 'An agent cannot delete an account; its owner deletes their own account, and the agent with it.');
  }
  return erase(deps, principalId);
}

/**
 * Deletes one of the caller's agents (`DELETE /v1/agents/:id`) exactly as account deletion
 * deletes an account's agents: its rows by each table's onOwnerDelete, its memberships (an owned
 * resource passes to an admin or goes), its tokens. An agent that is not the caller's own, in
 * this app, is 404 `user_not_found`, as one that does not exist.
 */
export async function deleteAgent(deps: AccountDeletionDeps, caller: PrincipalCaller, agentId: string): Promise<AccountDeletionResult> {
  const agent = await findPrincipalInApp(deps.prisma, agentId, caller.deployment.appId);
  if (agent?.kind !== 'agent' || agent.ownerId !== caller.principal.id) throw userNotFound(agentId);
  return erase(deps, agentId);
}

/** What `services.accountDeletion` offers; src/services.ts binds each to the server's dependencies. */
export const accountDeletionOperations = { deleteAccount, deleteAgent };

export type AccountDeletionService = Bound<typeof accountDeletionOperations>;
