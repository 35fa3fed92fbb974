/**
 * Profiles (docs/api.md §5.6): `users.byHandle(handle)` and `users(ids).profiles()` for sharing by
 * handle and names on rosters, within your app; `auth.getUser()` and `auth.updateProfile()` are the
 * signed-in user's own (./auth.ts).
 */
import { graphql } from './generated/index.js';
import type { Transport } from './transport.js';

/** A principal's public profile. */
export interface UserProfile {
  id: string;
  handle: string | null;
  displayName: string | null;
}

export const UserByHandleDocument = graphql(`
  query SdkUserByHandle($handle: String!) {
    result: userByHandle(handle: $handle) { id handle displayName }
  }
`);

export const UserProfilesDocument = graphql(`
  query SdkUserProfiles($ids: [ID!]!) {
    result: userProfiles(ids: $ids) { id handle displayName }
  }
`);

/** Ids one `profiles()` request carries (the server's limit per call). */
const IDS_PER_REQUEST = 100;

export function usersOf(transport: Transport) {
  /** The profiles of `ids` your app has seen, in the order given; others are left out. Any number of ids, 100 a request. */
  const profiles = async (ids: readonly string[]): Promise<UserProfile[]> => {
    const found: UserProfile[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
      found.push(...(await transport.graphql(UserProfilesDocument, { ids: ids.slice(i, i + IDS_PER_REQUEST) })));
    }
    return found;
  };
  return Object.assign((ids: readonly string[]) => ({ profiles: () => profiles(ids) }), {
    /** The profile of the user with this handle (any case), or null when your app knows no such user. */
    byHandle: async (handle: string): Promise<UserProfile | null> => transport.graphql(UserByHandleDocument, { handle }),
  });
}

export type Users = ReturnType<typeof usersOf>;
