/**
 * Who may see, administer and grant in a room (docs/api.md §10.2, §10.3; spec §2.7 and §4.4 rules
 * 2 and 3), as pure decisions. The room service reads the facts inside its transaction (under the
 * resource row's lock), asks these, and writes what they return; each refusal is the AppError the
 * caller sees.
 *
 * Two rules keep a narrowing by a superior in force:
 * - A grant set by someone who outranks its holder is also the holder's **ceiling** in that room:
 *   the holder may lower their grant or drop it (leaving the room), and come back, but never above
 *   the ceiling. The ceiling outlives the grant, so dropping it and granting yourself anew is no
 *   way around it; only someone who outranks the holder moves it, by setting their grant again.
 * - A grantor's **reach** in a room is the role the resource gives them, narrowed by their grant
 *   there (or, holding none, by their ceiling): they assign no more than that, to anyone.
 */
import { fail } from '../errors.js';
import { type GrantCeilings, type Role, isAdminPlus, outranks, rank, withinCeiling } from '../core/roles.rules.js';

/** A member as the grant rules see them in one room. */
export interface RoomMember {
  id: string;
  /** Their active resource role; null when they are not an active member (an invitee, a requester, a stranger). */
  resourceRole: Role | null;
  /** Their grant in the room; null when they hold none. */
  grant: Role | null;
  /** The ceiling someone who outranked them set in the room; null when none was. */
  ceiling: Role | null;
}

/** An acting member: the room service lets only active members act. */
export type RoomActor = RoomMember & { resourceRole: Role };

export interface GrantInput {
  actor: RoomActor;
  /** The member whose grant is set: the actor themselves, or someone else. */
  target: RoomMember;
  role: Role;
  /** The type's grant ceilings (§5.1) and its name, for the messages. */
  ceilings: GrantCeilings;
  resourceType: string;
}

/** What a grant change writes: the holder's grant and ceiling afterwards (null: none). */
export interface GrantOutcome {
  grant: Role | null;
  ceiling: Role | null;
}

export const roomNotFound = (roomId: string) => fail('room_not_found', `No room ${roomId} that you hold or administer in this resource.`);
const notAdmin = (message = 'This action needs the admin or owner role on the resource.') => fail('not_admin', message);

const lower = (a: Role, b: Role): Role => (rank(a) <= rank(b) ? a : b);

/** The highest role `actor` may assign to others in the room: their resource role narrowed by their grant, or else their ceiling. */
export function grantorReach(actor: RoomActor): Role {
  const narrowing = actor.grant ?? actor.ceiling;
  return narrowing ? lower(actor.resourceRole, narrowing) : actor.resourceRole;
}

/** §10.2: owners and admins create, rename and delete rooms, and read their ACLs; others get 403 not_admin. */
export function requireRoomAdmin(role: Role, message?: string): void {
  if (!isAdminPlus(role)) throw notAdmin(message);
}

/** §10.2: a member sees a room they hold a grant in; owners and admins see every room. */
export const seesRoom = (resourceRole: Role, grant: Role | null): boolean => grant !== null || isAdminPlus(resourceRole);

/** §10.2: the rooms a member lists without holding a grant in them: every room for owners and admins, none for others. */
export const listsEveryRoom = (resourceRole: Role): boolean => isAdminPlus(resourceRole);

/**
 * §10.3 PUT a grant. In order: admin+ (403 not_admin); within the type's ceiling for the actor's
 * resource role, then within their reach in the room, or for their own grant within the ceiling
 * set on them (403 grant_ceiling); the subject an active member (409 grantee_not_member); someone
 * else's grant only below the actor (403 outranked). A grant set on someone below you is also
 * their ceiling; your own grant leaves your ceiling as it was.
 */
export function decideSetGrant({ actor, target, role, ceilings, resourceType }: GrantInput): GrantOutcome {
  if (!isAdminPlus(actor.resourceRole)) throw notAdmin();
  if (!withinCeiling(ceilings, actor.resourceRole, role)) {
    const ceiling = ceilings[actor.resourceRole];
    throw fail(
      'grant_ceiling',
      ceiling
        ? `As ${actor.resourceRole} of this ${resourceType} you can grant at most the ${ceiling} role; '${role}' is above your grant ceiling.`
        : `As ${actor.resourceRole} you cannot grant roles on this resource type.`,
    );
  }
  const self = target.id === actor.id;
  if (self) {
    if (actor.ceiling && rank(role) > rank(actor.ceiling)) {
      throw fail(
        'grant_ceiling',
        `Someone who outranks you set your grant in this room to at most ${actor.ceiling}: you can lower it or leave the room, not raise it to '${role}'.`,
      );
    }
  } else {
    const reach = grantorReach(actor);
    if (rank(role) > rank(reach)) {
      throw fail('grant_ceiling', `Your own role in this room is ${reach}; you cannot grant '${role}', which is above it.`);
    }
  }
  if (target.resourceRole === null) {
    throw fail('grantee_not_member', `${target.id} is not an active member of this resource: invite them first, then grant the room.`);
  }
  if (self) return { grant: role, ceiling: target.ceiling };
  requireOutranks(actor.resourceRole, target.resourceRole);
  return { grant: role, ceiling: role };
}

/**
 * §10.3 DELETE a grant. Anyone drops their own (leaving the room; a ceiling set on them stays);
 * a member with no grant who is not admin+ learns nothing about the room (404 room_not_found);
 * owners and admins drop the grants of those below them (403 outranked otherwise), which leaves
 * the ceiling in place too. Idempotent: no grant is no change. null: nothing to write.
 */
export function decideRemoveGrant({ actor, target, roomId }: { actor: RoomActor; target: RoomMember; roomId: string }): GrantOutcome | null {
  const self = target.id === actor.id;
  if (!self && !isAdminPlus(actor.resourceRole)) {
    if (actor.grant === null) throw roomNotFound(roomId);
    throw notAdmin();
  }
  if (target.grant === null) {
    if (self && !isAdminPlus(actor.resourceRole)) throw roomNotFound(roomId);
    return null;
  }
  if (!self) requireOutranks(actor.resourceRole, target.resourceRole);
  return { grant: null, ceiling: target.ceiling };
}

/** Peers and superiors (and always the owner) keep their grants. */
function requireOutranks(actorRole: Role, targetRole: Role | null): void {
  if (targetRole === null) return;
  if (targetRole === 'owner' || !outranks(actorRole, targetRole)) {
    throw fail('outranked', `You cannot change the room grant of a member whose role (${targetRole}) is not below yours (${actorRole}).`);
  }
}
