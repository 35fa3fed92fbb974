/**
 * User profiles (docs/api.md §5.6): a person's own profile (read and edit), and other principals'
 * public profiles `{ id, handle, displayName }` by handle or by ids.
 *
 * A profile is visible only within the caller's app environment, to callers whose app has seen
 * that principal: it holds a membership (any state) in one of the environment's resources, `_app`
 * included. Anyone else is answered exactly as a handle or id nobody has: a lookup cannot tell a
 * stranger from no one. Lookups are rate-limited per person and app (PROFILE_LOOKUPS_PER_MINUTE)
 * against enumeration; handles are lower-case, so a lookup is case-insensitive.
 */
import { z } from 'zod';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { personOf } from '../core/principals.rules.js';
import { fail, parseInput } from '../errors.js';
import { Cache } from '../lib/cache.js';
import { type Sql, prepare, sql } from '../db/sql.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { displayNameSchema, handleSchema } from './handles.service.js';
import { accountDeleted } from '../membership/lifecycle.service.js';

export interface PublicProfile {
  id: string;
  handle: string | null;
  displayName: string | null;
}

/** Ids one `profiles` call may ask for. */
export const PROFILE_IDS_MAX = 100;

const LOOKUP_WINDOW_MS = 60_000;

/** `handle` and `displayName`: a value sets it, null (or "") clears it, absent leaves it. */
export const profilePatchSchema = z.strictObject({
  displayName: z.union([z.literal('').transform(() => null), displayNameSchema, z.null()]).optional(),
  handle: z.union([z.literal('').transform(() => null), handleSchema, z.null()]).optional(),
});
export type ProfilePatch = z.infer<typeof profilePatchSchema>;

/** Public profiles of the principals the caller's app environment has seen: the caller, or a member (any state) of one of its resources. */
const seenProfiles = (db: Sql, callerId: string, deploymentId: string) =>
  db
    .selectFrom('principals as p')
    .select(['p.id', 'p.handle', 'p.display_name as displayName'])
    .where(eb =>
      eb.or([
        eb('p.id', '=', callerId),
        eb.exists(
          eb
            .selectFrom('memberships as m')
            .innerJoin('resources as r', 'r.id', 'm.resource_id')
            .select(sql`1`.as('one'))
            .whereRef('m.principal_id', '=', 'p.id')
            .where('r.deployment_id', '=', deploymentId),
        ),
      ]),
    );

// The two lookups, prepared: by handle, and by a list of ids (one array parameter).
const seenByHandle = prepare(3, (db, callerId: string, deploymentId: string, handle: string) =>
  seenProfiles(db, callerId, deploymentId).where('p.handle', '=', handle),
);
const seenByIds = prepare(3, (db, callerId: string, deploymentId: string, ids: string[]) =>
  seenProfiles(db, callerId, deploymentId).where(eb => eb('p.id', '=', eb.fn.any(eb.val(ids)))),
);

const handleTaken = (handle: string) => fail('handle_taken', `The handle "${handle}" belongs to someone else: choose another.`);

/** Lookups per (person, app) in the current window; per process. */
export type ProfileLookups = Cache<{ count: number; until: number }>;
export const profileLookups = (now: () => Date): ProfileLookups =>
  new Cache<{ count: number; until: number }>({ ttlMs: LOOKUP_WINDOW_MS, max: 100_000, now: () => now().getTime() });

/** What profile lookups use: the SQL layer, the clock, the lookup limit and this process's lookup counts. */
export type ProfileDeps = Pick<ServiceDeps, 'sql' | 'config' | 'now'> & { profileLookups: ProfileLookups };

/** Counts one lookup of the caller's; 429 too_many_lookups past PROFILE_LOOKUPS_PER_MINUTE in the window. */
export function countLookup(deps: Pick<ProfileDeps, 'config' | 'now' | 'profileLookups'>, caller: PrincipalCaller): void {
  const lookups = deps.profileLookups;
  const key = `${caller.deployment.appId} ${personOf(caller.principal)}`;
  const now = deps.now().getTime();
  const window = lookups.get(key);
  if (!window || window.until <= now) {
    lookups.set(key, { count: 1, until: now + LOOKUP_WINDOW_MS });
    return;
  }
  window.count++;
  const limit = deps.config.quotas.profileLookupsPerMinute;
  if (window.count > limit) {
    const retryAfter = Math.max(1, Math.ceil((window.until - now) / 1000));
    throw fail('too_many_lookups', `Too many profile lookups: at most ${limit} a minute. Try again in ${retryAfter} s.`, {
      retryAfter,
    });
  }
}

/** The public profile of the principal whose handle is `handle` (any case), or null: unknown and unseen look the same. */
export async function byHandle(deps: ProfileDeps, caller: PrincipalCaller, handle: string): Promise<PublicProfile | null> {
  countLookup(deps, caller);
  const parsed = handleSchema.safeParse(handle);
  // A string no handle can be is a handle nobody has.
  if (!parsed.success) return null;
  const [found] = await seenByHandle(deps.sql, caller.principal.id, caller.deployment.id, parsed.data);
  return found ?? null;
}

/** The public profiles of those of `ids` the caller's app has seen, in the order asked; the others are left out. */
export async function profiles(deps: ProfileDeps, caller: PrincipalCaller, ids: string[]): Promise<PublicProfile[]> {
  if (ids.length > PROFILE_IDS_MAX) throw fail('invalid_argument', `ids: at most ${PROFILE_IDS_MAX} per call.`);
  countLookup(deps, caller);
  if (ids.length === 0) return [];
  const found = new Map((await seenByIds(deps.sql, caller.principal.id, caller.deployment.id, [...new Set(ids)])).map(p => [p.id, p]));
  return [...new Set(ids)].flatMap(id => found.get(id) ?? []);
}

/**
 * Edits the caller's own profile (a person's, in every app: a profile is the person's, not an
 * app's). A handle someone else holds is 409 `handle_taken`; clearing it is allowed, and the
 * gateway never issues one again (consent rule 6).
 */
export async function update(deps: Pick<ServiceDeps, 'prisma'>, caller: PrincipalCaller, patch: unknown): Promise<void> {
  if (caller.principal.kind !== 'user')
    throw fail('agents_cannot_edit_profiles', "An agent's profile is its owner's to name: only a person edits their profile.");
  const input = parseInput(profilePatchSchema, patch, 'input');
  const data = {
    ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
    // Set or cleared by hand: the handle counts as issued, so consent never generates another.
    ...(input.handle !== undefined ? { handle: input.handle, handleIssued: true } : {}),
  };
  if (Object.keys(data).length === 0) return;
  try {
    const { count } = await deps.prisma.principal.updateMany({ where: { id: caller.principal.id }, data });
    if (count === 0) throw accountDeleted();
  } catch (error) {
    // The unique index decides a race for a handle: one person gets it, the other 409.
    if ((error as { code?: string }).code === 'P2002' && input.handle) throw handleTaken(input.handle);
    throw error;
  }
}

/** What `services.profiles` offers; src/services.ts binds each to the server's dependencies. */
export const profileOperations = { byHandle, profiles, update };

export type ProfileService = Bound<typeof profileOperations>;
