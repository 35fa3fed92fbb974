/**
 * Who holds what in a resource's rooms: the active resource role and the room grants, as the row
 * store, the files and the live row feed judge access with them.
 */
import type { Role } from '../core/roles.rules.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Tx } from '../core/deps.js';

/**
 * The caller's active resource role and their room grants in `resourceId`, for the row store and
 * the room routes. A pending (invited, requested) member has no role; grants of a non-member
 * cannot exist (their foreign key is the membership).
 */
export async function roomRoles(
  db: PrismaClient | Tx,
  resourceId: string,
  principalId: string,
): Promise<{ resourceRole: Role | null; grants: Map<string, Role> }> {
  const membership = await db.membership.findUnique({
    where: { resourceId_principalId: { resourceId, principalId } },
    select: { role: true, state: true },
  });
  if (membership?.state !== 'active') return { resourceRole: null, grants: new Map() };
  const grants = await db.roomGrant.findMany({ where: { resourceId, principalId }, select: { roomId: true, role: true } });
  return { resourceRole: membership.role, grants: new Map(grants.map(g => [g.roomId, g.role])) };
}

/**
 * `roomRoles` of several principals in one resource, in two statements whatever their number
 * (the live row feed judges one change for many subscribers at once).
 */
export async function roomRolesOf(
  db: PrismaClient | Tx,
  resourceId: string,
  principalIds: readonly string[],
): Promise<Map<string, { resourceRole: Role | null; grants: Map<string, Role> }>> {
  const out = new Map(principalIds.map(id => [id, { resourceRole: null as Role | null, grants: new Map<string, Role>() }]));
  const active = await db.membership.findMany({
    where: { resourceId, principalId: { in: [...principalIds] }, state: 'active' },
    select: { principalId: true, role: true },
  });
  if (active.length === 0) return out;
  for (const m of active) out.get(m.principalId)!.resourceRole = m.role;
  const grants = await db.roomGrant.findMany({
    where: { resourceId, principalId: { in: active.map(m => m.principalId) } },
    select: { principalId: true, roomId: true, role: true },
  });
  for (const g of grants) out.get(g.principalId)!.grants.set(g.roomId, g.role);
  return out;
}
