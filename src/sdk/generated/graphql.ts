/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type CreateResourceInput = {
  name: string;
  type: string;
  visibility?: VisibilityChoice | null | undefined;
};

export type DbDirection =
  | 'asc'
  | 'desc';

export type DbOp =
  | 'delete'
  | 'insert'
  | 'link'
  | 'moveRoom'
  | 'select'
  | 'unlink'
  | 'update'
  | 'upsert';

export type DbOperationInput = {
  cursor?: string | null | undefined;
  /** moveRoom: the room to move to (the resource id is the default room). */
  destination?: string | number | null | undefined;
  ids?: Array<string | number> | null | undefined;
  limit?: number | null | undefined;
  /** upsert: the columns of a unique key of the table (unique() or unique([...])); a row with the values' key is updated, else one is inserted. */
  onConflict?: Array<string> | null | undefined;
  op: DbOp;
  orderBy?: DbOrderByInput | null | undefined;
  scope: DbScopeInput;
  table: string;
  /** insert: an object or an array of objects; update: the columns to change. */
  values?: unknown;
  /** { column: value | { eq, neq, gt, gte, lt, lte, in: [..], is: null, not: { <operator>: value } } } */
  where?: unknown;
};

export type DbOrderByInput = {
  column: string;
  direction?: DbDirection | null | undefined;
};

/** user: your own rows; resource: a resource's rows (roomId: that room alone); type: default rooms across a type (select only). */
export type DbScopeInput = {
  kind: DbScopeKind;
  resourceId?: string | number | null | undefined;
  /** A room of the resource (its own id is the default room). Room-scoped reads and writes touch that room alone. */
  roomId?: string | number | null | undefined;
  type?: string | null | undefined;
};

export type DbScopeKind =
  | 'resource'
  | 'type'
  | 'user';

export type DbSelectInput = {
  cursor?: string | null | undefined;
  ids?: Array<string | number> | null | undefined;
  limit?: number | null | undefined;
  orderBy?: DbOrderByInput | null | undefined;
  scope: DbScopeInput;
  table: string;
  /** { column: value | { eq, neq, gt, gte, lt, lte, in: [..], is: null, not: { <operator>: value } } } */
  where?: unknown;
};

/** insert, update, delete: a row; ready: the snapshot is complete, every later event is a change (row null). */
export type FeedOp =
  | 'delete'
  | 'insert'
  | 'ready'
  | 'update';

export type MembershipState =
  | 'active'
  | 'invited'
  | 'requested';

export type PrincipalKind =
  | 'agent'
  | 'user';

/** Fields to change: a value sets it, null clears it, a field left out stays as it is. */
export type ProfileInput = {
  displayName?: string | null | undefined;
  /** 3-20 letters, digits or underscores, any case (stored lower-case). */
  handle?: string | null | undefined;
};

export type Role =
  | 'admin'
  | 'owner'
  | 'reader'
  | 'writer';

/** Stored visibility: members, or public (unlisted or discoverable). */
export type Visibility =
  | 'members'
  | 'public';

/** A type's declared visibility, chosen at create time. */
export type VisibilityChoice =
  | 'discoverable'
  | 'members'
  | 'unlisted';

export type SdkResourceFragment = { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null };

export type SdkRoomFragment = { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, createdAt: string, currentGrant: { role: Role } | null };

export type SdkTransitionFragment = { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null };

export type SdkUserFragment = { id: string, kind: PrincipalKind, handle: string | null, displayName: string | null, email: string | null, profile: { handle: string | null, displayName: string | null }, owner: { id: string, handle: string | null, displayName: string | null } | null };

export type SdkMeQueryVariables = Exact<{ [key: string]: never; }>;


export type SdkMeQuery = { result: { id: string, kind: PrincipalKind, handle: string | null, displayName: string | null, email: string | null, profile: { handle: string | null, displayName: string | null }, owner: { id: string, handle: string | null, displayName: string | null } | null } };

export type SdkUpdateMyProfileMutationVariables = Exact<{
  input: ProfileInput;
}>;


export type SdkUpdateMyProfileMutation = { result: { id: string, kind: PrincipalKind, handle: string | null, displayName: string | null, email: string | null, profile: { handle: string | null, displayName: string | null }, owner: { id: string, handle: string | null, displayName: string | null } | null } };

export type SdkCreateResourceMutationVariables = Exact<{
  input: CreateResourceInput;
}>;


export type SdkCreateResourceMutation = { result: { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null } };

export type SdkResourcesQueryVariables = Exact<{
  type?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type SdkResourcesQuery = { result: { nextCursor: string | null, resources: Array<{ id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null }> } };

export type SdkResourceByIdQueryVariables = Exact<{
  id: string | number;
}>;


export type SdkResourceByIdQuery = { result: { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null } };

export type SdkBrowseQueryVariables = Exact<{
  type?: string | null | undefined;
  query?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type SdkBrowseQuery = { result: { nextCursor: string | null, resources: Array<{ id: string, type: string, name: string, memberCount: number, createdAt: string }> } };

export type SdkStaticResourceQueryVariables = Exact<{
  type: string;
  slug: string;
}>;


export type SdkStaticResourceQuery = { result: { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null } };

export type SdkInvitationsQueryVariables = Exact<{
  type?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type SdkInvitationsQuery = { result: { nextCursor: string | null, invitations: Array<{ resourceId: string, type: string, name: string, role: Role, invitedBy: string | null, expiresAt: string }> } };

export type SdkMembersQueryVariables = Exact<{
  id: string | number;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type SdkMembersQuery = { result: { nextCursor: string | null, members: Array<{ userId: string, role: Role, state: MembershipState, kind: PrincipalKind, ownerId: string | null, ownerHandle: string | null, ownerDisplayName: string | null }> } };

export type SdkInviteMutationVariables = Exact<{
  id: string | number;
  userId: string | number;
  role?: Role | null | undefined;
}>;


export type SdkInviteMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkCreateInviteLinkMutationVariables = Exact<{
  id: string | number;
  role?: Role | null | undefined;
}>;


export type SdkCreateInviteLinkMutation = { result: { url: string, role: Role, expiresAt: string } };

export type SdkRequestAccessMutationVariables = Exact<{
  id: string | number;
  role?: Role | null | undefined;
}>;


export type SdkRequestAccessMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkAcceptMutationVariables = Exact<{
  id: string | number;
  userId?: string | number | null | undefined;
}>;


export type SdkAcceptMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkRejectMutationVariables = Exact<{
  id: string | number;
  userId?: string | number | null | undefined;
}>;


export type SdkRejectMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkJoinMutationVariables = Exact<{
  id: string | number;
}>;


export type SdkJoinMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkLeaveMutationVariables = Exact<{
  id: string | number;
}>;


export type SdkLeaveMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkSetRoleMutationVariables = Exact<{
  id: string | number;
  userId: string | number;
  role: Role;
}>;


export type SdkSetRoleMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkRemoveMemberMutationVariables = Exact<{
  id: string | number;
  userId: string | number;
}>;


export type SdkRemoveMemberMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SdkClaimInviteLinkMutationVariables = Exact<{
  code: string;
}>;


export type SdkClaimInviteLinkMutation = { result: { ok: boolean, resourceId: string, state: MembershipState, role: Role } };

export type SdkCreateRoomMutationVariables = Exact<{
  id: string | number;
  name: string;
}>;


export type SdkCreateRoomMutation = { result: { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, createdAt: string, currentGrant: { role: Role } | null } };

export type SdkRoomsQueryVariables = Exact<{
  id: string | number;
}>;


export type SdkRoomsQuery = { result: Array<{ id: string, name: string, isDefault: boolean, effectiveRole: Role | null, createdAt: string, currentGrant: { role: Role } | null }> };

export type SdkRoomQueryVariables = Exact<{
  id: string | number;
  roomId: string | number;
}>;


export type SdkRoomQuery = { result: { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, createdAt: string, currentGrant: { role: Role } | null } };

export type SdkRenameRoomMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
  name: string;
}>;


export type SdkRenameRoomMutation = { result: { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, createdAt: string, currentGrant: { role: Role } | null } };

export type SdkDeleteRoomMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
}>;


export type SdkDeleteRoomMutation = { result: { ok: boolean } };

export type SdkRoomGrantsQueryVariables = Exact<{
  id: string | number;
  roomId: string | number;
}>;


export type SdkRoomGrantsQuery = { result: Array<{ principalId: string, role: Role }> };

export type SdkSetRoomGrantMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
  userId: string | number;
  role: Role;
}>;


export type SdkSetRoomGrantMutation = { result: { ok: boolean, resourceId: string, roomId: string, principalId: string, role: Role | null } };

export type SdkRemoveRoomGrantMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
  userId: string | number;
}>;


export type SdkRemoveRoomGrantMutation = { result: { ok: boolean } };

export type SdkMyRoomGrantsQueryVariables = Exact<{ [key: string]: never; }>;


export type SdkMyRoomGrantsQuery = { result: Array<{ resourceId: string, roomId: string, role: Role }> };

export type SdkDbSelectQueryVariables = Exact<{
  input: DbSelectInput;
}>;


export type SdkDbSelectQuery = { result: { rows: Array<unknown>, nextCursor: string | null } };

export type SdkDbQueryMutationVariables = Exact<{
  input: DbOperationInput;
}>;


export type SdkDbQueryMutation = { result: { op: DbOp, ok: boolean, rows: Array<unknown> | null, nextCursor: string | null } };

export type SdkDbBatchMutationVariables = Exact<{
  operations: Array<DbOperationInput> | DbOperationInput;
}>;


export type SdkDbBatchMutation = { result: Array<{ op: DbOp, ok: boolean, rows: Array<unknown> | null, nextCursor: string | null }> };

export type SdkMembersLiveSubscriptionVariables = Exact<{
  resourceId: string | number;
}>;


export type SdkMembersLiveSubscription = { result: { op: FeedOp, snapshot: boolean, row: { id: string, resourceId: string, userId: string, role: Role | null, state: MembershipState | null } | null } };

export type SdkResourcesLiveSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type SdkResourcesLiveSubscription = { result: { op: FeedOp, snapshot: boolean, row: { id: string, resourceId: string, userId: string, role: Role | null, state: MembershipState | null } | null } };

export type SdkRoomsLiveSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type SdkRoomsLiveSubscription = { result: { op: FeedOp, snapshot: boolean, row: { resourceId: string, roomId: string, role: Role | null } | null } };

export type SdkRowsLiveSubscriptionVariables = Exact<{
  input: DbSelectInput;
}>;


export type SdkRowsLiveSubscription = { result: { op: FeedOp, snapshot: boolean, row: unknown } };

export type SdkUserByHandleQueryVariables = Exact<{
  handle: string;
}>;


export type SdkUserByHandleQuery = { result: { id: string, handle: string | null, displayName: string | null } | null };

export type SdkUserProfilesQueryVariables = Exact<{
  ids: Array<string | number> | string | number;
}>;


export type SdkUserProfilesQuery = { result: Array<{ id: string, handle: string | null, displayName: string | null }> };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const SdkResourceFragmentDoc = new TypedDocumentString(`
    fragment SdkResource on Resource {
  id
  type
  name
  visibility
  discoverable
  memberCount
  currentMember {
    role
    state
  }
}
    `, {"fragmentName":"SdkResource"}) as unknown as TypedDocumentString<SdkResourceFragment, unknown>;
export const SdkRoomFragmentDoc = new TypedDocumentString(`
    fragment SdkRoom on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
  createdAt
}
    `, {"fragmentName":"SdkRoom"}) as unknown as TypedDocumentString<SdkRoomFragment, unknown>;
export const SdkTransitionFragmentDoc = new TypedDocumentString(`
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}
    `, {"fragmentName":"SdkTransition"}) as unknown as TypedDocumentString<SdkTransitionFragment, unknown>;
export const SdkUserFragmentDoc = new TypedDocumentString(`
    fragment SdkUser on Principal {
  id
  kind
  handle
  displayName
  email
  profile {
    handle
    displayName
  }
  owner {
    id
    handle
    displayName
  }
}
    `, {"fragmentName":"SdkUser"}) as unknown as TypedDocumentString<SdkUserFragment, unknown>;
export const SdkMeDocument = new TypedDocumentString(`
    query SdkMe {
  result: me {
    ...SdkUser
  }
}
    fragment SdkUser on Principal {
  id
  kind
  handle
  displayName
  email
  profile {
    handle
    displayName
  }
  owner {
    id
    handle
    displayName
  }
}`) as unknown as TypedDocumentString<SdkMeQuery, SdkMeQueryVariables>;
export const SdkUpdateMyProfileDocument = new TypedDocumentString(`
    mutation SdkUpdateMyProfile($input: ProfileInput!) {
  result: updateMyProfile(input: $input) {
    ...SdkUser
  }
}
    fragment SdkUser on Principal {
  id
  kind
  handle
  displayName
  email
  profile {
    handle
    displayName
  }
  owner {
    id
    handle
    displayName
  }
}`) as unknown as TypedDocumentString<SdkUpdateMyProfileMutation, SdkUpdateMyProfileMutationVariables>;
export const SdkCreateResourceDocument = new TypedDocumentString(`
    mutation SdkCreateResource($input: CreateResourceInput!) {
  result: createResource(input: $input) {
    ...SdkResource
  }
}
    fragment SdkResource on Resource {
  id
  type
  name
  visibility
  discoverable
  memberCount
  currentMember {
    role
    state
  }
}`) as unknown as TypedDocumentString<SdkCreateResourceMutation, SdkCreateResourceMutationVariables>;
export const SdkResourcesDocument = new TypedDocumentString(`
    query SdkResources($type: String, $limit: Int, $cursor: String) {
  result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {
    resources {
      ...SdkResource
    }
    nextCursor
  }
}
    fragment SdkResource on Resource {
  id
  type
  name
  visibility
  discoverable
  memberCount
  currentMember {
    role
    state
  }
}`) as unknown as TypedDocumentString<SdkResourcesQuery, SdkResourcesQueryVariables>;
export const SdkResourceByIdDocument = new TypedDocumentString(`
    query SdkResourceById($id: ID!) {
  result: resource(id: $id) {
    ...SdkResource
  }
}
    fragment SdkResource on Resource {
  id
  type
  name
  visibility
  discoverable
  memberCount
  currentMember {
    role
    state
  }
}`) as unknown as TypedDocumentString<SdkResourceByIdQuery, SdkResourceByIdQueryVariables>;
export const SdkBrowseDocument = new TypedDocumentString(`
    query SdkBrowse($type: String, $query: String, $limit: Int, $cursor: String) {
  result: browseResources(
    type: $type
    query: $query
    limit: $limit
    cursor: $cursor
  ) {
    resources {
      id
      type
      name
      memberCount
      createdAt
    }
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<SdkBrowseQuery, SdkBrowseQueryVariables>;
export const SdkStaticResourceDocument = new TypedDocumentString(`
    query SdkStaticResource($type: String!, $slug: String!) {
  result: staticResource(type: $type, slug: $slug) {
    ...SdkResource
  }
}
    fragment SdkResource on Resource {
  id
  type
  name
  visibility
  discoverable
  memberCount
  currentMember {
    role
    state
  }
}`) as unknown as TypedDocumentString<SdkStaticResourceQuery, SdkStaticResourceQueryVariables>;
export const SdkInvitationsDocument = new TypedDocumentString(`
    query SdkInvitations($type: String, $limit: Int, $cursor: String) {
  result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {
    invitations {
      resourceId
      type
      name
      role
      invitedBy
      expiresAt
    }
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<SdkInvitationsQuery, SdkInvitationsQueryVariables>;
export const SdkMembersDocument = new TypedDocumentString(`
    query SdkMembers($id: ID!, $limit: Int, $cursor: String) {
  result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {
    members {
      userId
      role
      state
      kind
      ownerId
      ownerHandle
      ownerDisplayName
    }
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<SdkMembersQuery, SdkMembersQueryVariables>;
export const SdkInviteDocument = new TypedDocumentString(`
    mutation SdkInvite($id: ID!, $userId: ID!, $role: Role) {
  result: invite(resourceId: $id, userId: $userId, role: $role) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkInviteMutation, SdkInviteMutationVariables>;
export const SdkCreateInviteLinkDocument = new TypedDocumentString(`
    mutation SdkCreateInviteLink($id: ID!, $role: Role) {
  result: createInviteLink(resourceId: $id, role: $role) {
    url
    role
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<SdkCreateInviteLinkMutation, SdkCreateInviteLinkMutationVariables>;
export const SdkRequestAccessDocument = new TypedDocumentString(`
    mutation SdkRequestAccess($id: ID!, $role: Role) {
  result: requestAccess(resourceId: $id, role: $role) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkRequestAccessMutation, SdkRequestAccessMutationVariables>;
export const SdkAcceptDocument = new TypedDocumentString(`
    mutation SdkAccept($id: ID!, $userId: ID) {
  result: accept(resourceId: $id, userId: $userId) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkAcceptMutation, SdkAcceptMutationVariables>;
export const SdkRejectDocument = new TypedDocumentString(`
    mutation SdkReject($id: ID!, $userId: ID) {
  result: reject(resourceId: $id, userId: $userId) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkRejectMutation, SdkRejectMutationVariables>;
export const SdkJoinDocument = new TypedDocumentString(`
    mutation SdkJoin($id: ID!) {
  result: join(resourceId: $id) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkJoinMutation, SdkJoinMutationVariables>;
export const SdkLeaveDocument = new TypedDocumentString(`
    mutation SdkLeave($id: ID!) {
  result: leave(resourceId: $id) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkLeaveMutation, SdkLeaveMutationVariables>;
export const SdkSetRoleDocument = new TypedDocumentString(`
    mutation SdkSetRole($id: ID!, $userId: ID!, $role: Role!) {
  result: setRole(resourceId: $id, userId: $userId, role: $role) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkSetRoleMutation, SdkSetRoleMutationVariables>;
export const SdkRemoveMemberDocument = new TypedDocumentString(`
    mutation SdkRemoveMember($id: ID!, $userId: ID!) {
  result: removeMember(resourceId: $id, userId: $userId) {
    ...SdkTransition
  }
}
    fragment SdkTransition on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SdkRemoveMemberMutation, SdkRemoveMemberMutationVariables>;
export const SdkClaimInviteLinkDocument = new TypedDocumentString(`
    mutation SdkClaimInviteLink($code: String!) {
  result: claimInviteLink(code: $code) {
    ok
    resourceId
    state
    role
  }
}
    `) as unknown as TypedDocumentString<SdkClaimInviteLinkMutation, SdkClaimInviteLinkMutationVariables>;
export const SdkCreateRoomDocument = new TypedDocumentString(`
    mutation SdkCreateRoom($id: ID!, $name: String!) {
  result: createRoom(resourceId: $id, name: $name) {
    ...SdkRoom
  }
}
    fragment SdkRoom on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
  createdAt
}`) as unknown as TypedDocumentString<SdkCreateRoomMutation, SdkCreateRoomMutationVariables>;
export const SdkRoomsDocument = new TypedDocumentString(`
    query SdkRooms($id: ID!) {
  result: rooms(resourceId: $id) {
    ...SdkRoom
  }
}
    fragment SdkRoom on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
  createdAt
}`) as unknown as TypedDocumentString<SdkRoomsQuery, SdkRoomsQueryVariables>;
export const SdkRoomDocument = new TypedDocumentString(`
    query SdkRoom($id: ID!, $roomId: ID!) {
  result: room(resourceId: $id, roomId: $roomId) {
    ...SdkRoom
  }
}
    fragment SdkRoom on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
  createdAt
}`) as unknown as TypedDocumentString<SdkRoomQuery, SdkRoomQueryVariables>;
export const SdkRenameRoomDocument = new TypedDocumentString(`
    mutation SdkRenameRoom($id: ID!, $roomId: ID!, $name: String!) {
  result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) {
    ...SdkRoom
  }
}
    fragment SdkRoom on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
  createdAt
}`) as unknown as TypedDocumentString<SdkRenameRoomMutation, SdkRenameRoomMutationVariables>;
export const SdkDeleteRoomDocument = new TypedDocumentString(`
    mutation SdkDeleteRoom($id: ID!, $roomId: ID!) {
  result: deleteRoom(resourceId: $id, roomId: $roomId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<SdkDeleteRoomMutation, SdkDeleteRoomMutationVariables>;
export const SdkRoomGrantsDocument = new TypedDocumentString(`
    query SdkRoomGrants($id: ID!, $roomId: ID!) {
  result: roomGrants(resourceId: $id, roomId: $roomId) {
    principalId
    role
  }
}
    `) as unknown as TypedDocumentString<SdkRoomGrantsQuery, SdkRoomGrantsQueryVariables>;
export const SdkSetRoomGrantDocument = new TypedDocumentString(`
    mutation SdkSetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {
  result: setRoomGrant(
    resourceId: $id
    roomId: $roomId
    userId: $userId
    role: $role
  ) {
    ok
    resourceId
    roomId
    principalId
    role
  }
}
    `) as unknown as TypedDocumentString<SdkSetRoomGrantMutation, SdkSetRoomGrantMutationVariables>;
export const SdkRemoveRoomGrantDocument = new TypedDocumentString(`
    mutation SdkRemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {
  result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<SdkRemoveRoomGrantMutation, SdkRemoveRoomGrantMutationVariables>;
export const SdkMyRoomGrantsDocument = new TypedDocumentString(`
    query SdkMyRoomGrants {
  result: myRoomGrants {
    resourceId
    roomId
    role
  }
}
    `) as unknown as TypedDocumentString<SdkMyRoomGrantsQuery, SdkMyRoomGrantsQueryVariables>;
export const SdkDbSelectDocument = new TypedDocumentString(`
    query SdkDbSelect($input: DbSelectInput!) {
  result: dbSelect(input: $input) {
    rows
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<SdkDbSelectQuery, SdkDbSelectQueryVariables>;
export const SdkDbQueryDocument = new TypedDocumentString(`
    mutation SdkDbQuery($input: DbOperationInput!) {
  result: dbQuery(input: $input) {
    op
    ok
    rows
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<SdkDbQueryMutation, SdkDbQueryMutationVariables>;
export const SdkDbBatchDocument = new TypedDocumentString(`
    mutation SdkDbBatch($operations: [DbOperationInput!]!) {
  result: dbBatch(operations: $operations) {
    op
    ok
    rows
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<SdkDbBatchMutation, SdkDbBatchMutationVariables>;
export const SdkMembersLiveDocument = new TypedDocumentString(`
    subscription SdkMembersLive($resourceId: ID!) {
  result: membersLive(resourceId: $resourceId) {
    op
    snapshot
    row {
      id
      resourceId
      userId
      role
      state
    }
  }
}
    `) as unknown as TypedDocumentString<SdkMembersLiveSubscription, SdkMembersLiveSubscriptionVariables>;
export const SdkResourcesLiveDocument = new TypedDocumentString(`
    subscription SdkResourcesLive {
  result: resourcesLive {
    op
    snapshot
    row {
      id
      resourceId
      userId
      role
      state
    }
  }
}
    `) as unknown as TypedDocumentString<SdkResourcesLiveSubscription, SdkResourcesLiveSubscriptionVariables>;
export const SdkRoomsLiveDocument = new TypedDocumentString(`
    subscription SdkRoomsLive {
  result: roomsLive {
    op
    snapshot
    row {
      resourceId
      roomId
      role
    }
  }
}
    `) as unknown as TypedDocumentString<SdkRoomsLiveSubscription, SdkRoomsLiveSubscriptionVariables>;
export const SdkRowsLiveDocument = new TypedDocumentString(`
    subscription SdkRowsLive($input: DbSelectInput!) {
  result: rowsLive(input: $input) {
    op
    snapshot
    row
  }
}
    `) as unknown as TypedDocumentString<SdkRowsLiveSubscription, SdkRowsLiveSubscriptionVariables>;
export const SdkUserByHandleDocument = new TypedDocumentString(`
    query SdkUserByHandle($handle: String!) {
  result: userByHandle(handle: $handle) {
    id
    handle
    displayName
  }
}
    `) as unknown as TypedDocumentString<SdkUserByHandleQuery, SdkUserByHandleQueryVariables>;
export const SdkUserProfilesDocument = new TypedDocumentString(`
    query SdkUserProfiles($ids: [ID!]!) {
  result: userProfiles(ids: $ids) {
    id
    handle
    displayName
  }
}
    `) as unknown as TypedDocumentString<SdkUserProfilesQuery, SdkUserProfilesQueryVariables>;