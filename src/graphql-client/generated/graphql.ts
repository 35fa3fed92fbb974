/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type CreateAppInput = {
  name: string;
  origins?: Array<string> | null | undefined;
  redirectUris?: Array<string> | null | undefined;
};

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

export type AppsQueryVariables = Exact<{ [key: string]: never; }>;


export type AppsQuery = { result: Array<{ id: string, name: string, origins: Array<string>, clientIds: Array<string>, environments: Array<string>, createdAt: string }> };

export type CreateAppMutationVariables = Exact<{
  input: CreateAppInput;
}>;


export type CreateAppMutation = { result: { id: string, name: string, origins: Array<string>, clientIds: Array<string>, environments: Array<string>, createdAt: string } };

export type DeployMutationVariables = Exact<{
  appId: string | number;
  env: string;
  schema: unknown;
}>;


export type DeployMutation = { result: { deploymentId: string, appId: string, env: string, version: number, resourceTypes: Array<string>, tables: Array<string>, buckets: Array<string> } };

export type CreateTestUserMutationVariables = Exact<{
  appId: string | number;
  name: string;
  env: string;
}>;


export type CreateTestUserMutation = { result: { userId: string, token: string, expiresAt: string, payer: string, env: string } };

export type TestUsersQueryVariables = Exact<{
  appId: string | number;
  env: string;
}>;


export type TestUsersQuery = { result: Array<{ userId: string, name: string, createdAt: string, hasLiveTokens: boolean }> };

export type RemoveAppOriginMutationVariables = Exact<{
  appId: string | number;
  origin: string;
}>;


export type RemoveAppOriginMutation = { result: { id: string, name: string, origins: Array<string>, clientIds: Array<string>, environments: Array<string>, createdAt: string } };

export type DeveloperQueryVariables = Exact<{ [key: string]: never; }>;


export type DeveloperQuery = { result: { developerId: string, email: string } };

export type DeployedSchemaQueryVariables = Exact<{
  appId: string | number;
  env: string;
}>;


export type DeployedSchemaQuery = { result: { appId: string, env: string, version: number, schema: unknown } };

export type DeleteAppMutationVariables = Exact<{
  appId: string | number;
  confirm?: string | null | undefined;
}>;


export type DeleteAppMutation = { result: { appId: string, environments: Array<string>, rows: number, files: number, resources: number, testUsers: number } };

export type DeleteEnvironmentMutationVariables = Exact<{
  appId: string | number;
  env: string;
  confirm?: string | null | undefined;
}>;


export type DeleteEnvironmentMutation = { result: { appId: string, environments: Array<string>, rows: number, files: number, resources: number, testUsers: number } };

export type ResetEnvironmentMutationVariables = Exact<{
  appId: string | number;
  env: string;
  confirm?: string | null | undefined;
}>;


export type ResetEnvironmentMutation = { result: { appId: string, environments: Array<string>, rows: number, files: number, resources: number, testUsers: number } };

export type MyWalletQueryVariables = Exact<{ [key: string]: never; }>;


export type MyWalletQuery = { result: { balanceUsd: string, entries: Array<{ id: string, kind: string, amountUsd: string, appId: string | null, env: string | null, clientId: string | null, actorId: string | null, quantity: number | null, calls: number | null, createdAt: string }> } };

export type BudgetsQueryVariables = Exact<{
  appId?: string | number | null | undefined;
}>;


export type BudgetsQuery = { result: { period: string, walletUsd: string, apps: Array<{ appId: string, name: string, envs: Array<{ env: string, limitUsd: string, spentUsd: string }>, users: Array<{ clientId: string | null, spentUsd: string }> }> } };

export type SetEnvBudgetMutationVariables = Exact<{
  appId: string | number;
  env: string;
  usd: string;
}>;


export type SetEnvBudgetMutation = { result: { appId: string, env: string, limitUsd: string } };

export type EnvSpendByDayQueryVariables = Exact<{
  appId: string | number;
  env: string;
  days?: number | null | undefined;
}>;


export type EnvSpendByDayQuery = { result: { appId: string, env: string | null, since: string, until: string, days: Array<{ day: string, readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string }>, total: { readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string } } };

export type UsersSpendByDayQueryVariables = Exact<{
  appId: string | number;
  env?: string | null | undefined;
  days?: number | null | undefined;
}>;


export type UsersSpendByDayQuery = { result: { appId: string, env: string | null, since: string, until: string, days: Array<{ day: string, readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string }>, total: { readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string } } };

export type MoveFilesMutationVariables = Exact<{
  resourceId: string | number;
  bucket: string;
  paths: Array<string> | string;
  roomId?: string | number | null | undefined;
}>;


export type MoveFilesMutation = { result: { ok: boolean, moved: number } };

export type LinkFileMutationVariables = Exact<{
  resourceId: string | number;
  bucket: string;
  fileId: string | number;
  path?: string | null | undefined;
}>;


export type LinkFileMutation = { result: { id: string, bucket: string, path: string, size: number, contentType: string, etag: string, roomId: string | null, creatorId: string | null, resourceId: string | null, linked: boolean, createdAt: string, updatedAt: string } };

export type MeFieldsFragment = { id: string, kind: PrincipalKind, handle: string | null, displayName: string | null, email: string | null, profile: { handle: string | null, displayName: string | null } };

export type ResourceFieldsFragment = { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null };

export type RoomFieldsFragment = { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, currentGrant: { role: Role } | null };

export type DbResultFieldsFragment = { op: DbOp, rows: Array<unknown> | null, nextCursor: string | null };

export type TransitionFieldsFragment = { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null };

export type CreateResourceMutationVariables = Exact<{
  input: CreateResourceInput;
}>;


export type CreateResourceMutation = { result: { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null } };

export type ResourcesQueryVariables = Exact<{
  type?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type ResourcesQuery = { result: { nextCursor: string | null, resources: Array<{ id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null }> } };

export type BrowseResourcesQueryVariables = Exact<{
  type?: string | null | undefined;
  query?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type BrowseResourcesQuery = { result: { nextCursor: string | null, resources: Array<{ id: string, type: string, name: string, memberCount: number, createdAt: string }> } };

export type StaticResourceQueryVariables = Exact<{
  type: string;
  slug: string;
}>;


export type StaticResourceQuery = { result: { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null } };

export type InvitationsQueryVariables = Exact<{
  type?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type InvitationsQuery = { result: { nextCursor: string | null, invitations: Array<{ resourceId: string, type: string, name: string, role: Role, invitedBy: string | null, expiresAt: string }> } };

export type ResourceQueryVariables = Exact<{
  id: string | number;
}>;


export type ResourceQuery = { result: { id: string, type: string, name: string, visibility: Visibility, discoverable: boolean, memberCount: number, currentMember: { role: Role, state: MembershipState } | null } };

export type MembersQueryVariables = Exact<{
  id: string | number;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type MembersQuery = { result: { nextCursor: string | null, members: Array<{ userId: string, role: Role, state: MembershipState, kind: PrincipalKind, ownerId: string | null, ownerHandle: string | null, ownerDisplayName: string | null }> } };

export type InviteMutationVariables = Exact<{
  id: string | number;
  userId: string | number;
  role?: Role | null | undefined;
}>;


export type InviteMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type CreateInviteLinkMutationVariables = Exact<{
  id: string | number;
  role?: Role | null | undefined;
}>;


export type CreateInviteLinkMutation = { result: { url: string, role: Role, expiresAt: string } };

export type RequestAccessMutationVariables = Exact<{
  id: string | number;
  role?: Role | null | undefined;
}>;


export type RequestAccessMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type AcceptMutationVariables = Exact<{
  id: string | number;
  userId?: string | number | null | undefined;
}>;


export type AcceptMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type RejectMutationVariables = Exact<{
  id: string | number;
  userId?: string | number | null | undefined;
}>;


export type RejectMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type JoinMutationVariables = Exact<{
  id: string | number;
}>;


export type JoinMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type LeaveMutationVariables = Exact<{
  id: string | number;
}>;


export type LeaveMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type SetRoleMutationVariables = Exact<{
  id: string | number;
  userId: string | number;
  role: Role;
}>;


export type SetRoleMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type RemoveMemberMutationVariables = Exact<{
  id: string | number;
  userId: string | number;
}>;


export type RemoveMemberMutation = { result: { ok: boolean, resourceId: string, state: MembershipState | null, role: Role | null } };

export type ClaimInviteLinkMutationVariables = Exact<{
  code: string;
}>;


export type ClaimInviteLinkMutation = { result: { ok: boolean, resourceId: string, state: MembershipState, role: Role } };

export type MyInvitationsAcrossAppsQueryVariables = Exact<{ [key: string]: never; }>;


export type MyInvitationsAcrossAppsQuery = { result: Array<{ resourceId: string, type: string, name: string, role: Role, invitedBy: string | null, expiresAt: string, appId: string, appName: string, env: string }> };

export type DeleteResourceAsOwnerMutationVariables = Exact<{
  appId: string | number;
  resourceId: string | number;
}>;


export type DeleteResourceAsOwnerMutation = { result: { ok: boolean } };

export type CreateAgentMutationVariables = Exact<{
  name: string;
}>;


export type CreateAgentMutation = { result: { id: string, name: string, ownerId: string, token: string } };

export type AgentsQueryVariables = Exact<{ [key: string]: never; }>;


export type AgentsQuery = { result: Array<{ id: string, name: string, createdAt: string }> };

export type DeleteAgentMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteAgentMutation = { result: { ok: boolean, deleted: Array<string>, transferred: Array<{ resourceId: string, ownerId: string }> } };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { result: { id: string, kind: PrincipalKind, handle: string | null, displayName: string | null, email: string | null, profile: { handle: string | null, displayName: string | null } } };

export type UpdateMyProfileMutationVariables = Exact<{
  input: ProfileInput;
}>;


export type UpdateMyProfileMutation = { result: { id: string, kind: PrincipalKind, handle: string | null, displayName: string | null, email: string | null, profile: { handle: string | null, displayName: string | null } } };

export type UserByHandleQueryVariables = Exact<{
  handle: string;
}>;


export type UserByHandleQuery = { result: { id: string, handle: string | null, displayName: string | null } | null };

export type UserProfilesQueryVariables = Exact<{
  ids: Array<string | number> | string | number;
}>;


export type UserProfilesQuery = { result: Array<{ id: string, handle: string | null, displayName: string | null }> };

export type BlockUserMutationVariables = Exact<{
  userId: string | number;
}>;


export type BlockUserMutation = { result: { ok: boolean, userId: string } };

export type BlocksQueryVariables = Exact<{ [key: string]: never; }>;


export type BlocksQuery = { result: Array<{ userId: string, createdAt: string }> };

export type UnblockUserMutationVariables = Exact<{
  userId: string | number;
}>;


export type UnblockUserMutation = { result: { ok: boolean, userId: string } };

export type DeleteMyAccountMutationVariables = Exact<{
  confirm: string;
}>;


export type DeleteMyAccountMutation = { result: { ok: boolean, deleted: Array<string>, transferred: Array<{ resourceId: string, ownerId: string }> } };

export type MyRoomGrantsQueryVariables = Exact<{ [key: string]: never; }>;


export type MyRoomGrantsQuery = { result: Array<{ resourceId: string, roomId: string, role: Role }> };

export type CreateRoomMutationVariables = Exact<{
  id: string | number;
  name: string;
}>;


export type CreateRoomMutation = { result: { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, currentGrant: { role: Role } | null } };

export type RoomsQueryVariables = Exact<{
  id: string | number;
}>;


export type RoomsQuery = { result: Array<{ id: string, name: string, isDefault: boolean, effectiveRole: Role | null, currentGrant: { role: Role } | null }> };

export type RoomQueryVariables = Exact<{
  id: string | number;
  roomId: string | number;
}>;


export type RoomQuery = { result: { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, currentGrant: { role: Role } | null } };

export type RenameRoomMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
  name: string;
}>;


export type RenameRoomMutation = { result: { id: string, name: string, isDefault: boolean, effectiveRole: Role | null, currentGrant: { role: Role } | null } };

export type DeleteRoomMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
}>;


export type DeleteRoomMutation = { result: { ok: boolean } };

export type RoomGrantsQueryVariables = Exact<{
  id: string | number;
  roomId: string | number;
}>;


export type RoomGrantsQuery = { result: Array<{ principalId: string, role: Role }> };

export type SetRoomGrantMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
  userId: string | number;
  role: Role;
}>;


export type SetRoomGrantMutation = { result: { ok: boolean, resourceId: string, roomId: string, principalId: string, role: Role | null } };

export type RemoveRoomGrantMutationVariables = Exact<{
  id: string | number;
  roomId: string | number;
  userId: string | number;
}>;


export type RemoveRoomGrantMutation = { result: { ok: boolean } };

export type DbQueryMutationVariables = Exact<{
  input: DbOperationInput;
}>;


export type DbQueryMutation = { result: { op: DbOp, rows: Array<unknown> | null, nextCursor: string | null } };

export type DbBatchMutationVariables = Exact<{
  operations: Array<DbOperationInput> | DbOperationInput;
}>;


export type DbBatchMutation = { result: Array<{ op: DbOp, rows: Array<unknown> | null, nextCursor: string | null }> };

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
export const MeFieldsFragmentDoc = new TypedDocumentString(`
    fragment MeFields on Principal {
  id
  kind
  handle
  displayName
  email
  profile {
    handle
    displayName
  }
}
    `, {"fragmentName":"MeFields"}) as unknown as TypedDocumentString<MeFieldsFragment, unknown>;
export const ResourceFieldsFragmentDoc = new TypedDocumentString(`
    fragment ResourceFields on Resource {
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
    `, {"fragmentName":"ResourceFields"}) as unknown as TypedDocumentString<ResourceFieldsFragment, unknown>;
export const RoomFieldsFragmentDoc = new TypedDocumentString(`
    fragment RoomFields on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
}
    `, {"fragmentName":"RoomFields"}) as unknown as TypedDocumentString<RoomFieldsFragment, unknown>;
export const DbResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment DbResultFields on DbResult {
  op
  rows
  nextCursor
}
    `, {"fragmentName":"DbResultFields"}) as unknown as TypedDocumentString<DbResultFieldsFragment, unknown>;
export const TransitionFieldsFragmentDoc = new TypedDocumentString(`
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}
    `, {"fragmentName":"TransitionFields"}) as unknown as TypedDocumentString<TransitionFieldsFragment, unknown>;
export const AppsDocument = new TypedDocumentString(`
    query Apps {
  result: apps {
    id
    name
    origins
    clientIds
    environments
    createdAt
  }
}
    `) as unknown as TypedDocumentString<AppsQuery, AppsQueryVariables>;
export const CreateAppDocument = new TypedDocumentString(`
    mutation CreateApp($input: CreateAppInput!) {
  result: createApp(input: $input) {
    id
    name
    origins
    clientIds
    environments
    createdAt
  }
}
    `) as unknown as TypedDocumentString<CreateAppMutation, CreateAppMutationVariables>;
export const DeployDocument = new TypedDocumentString(`
    mutation Deploy($appId: ID!, $env: String!, $schema: JSON!) {
  result: deploy(appId: $appId, env: $env, schema: $schema) {
    deploymentId
    appId
    env
    version
    resourceTypes
    tables
    buckets
  }
}
    `) as unknown as TypedDocumentString<DeployMutation, DeployMutationVariables>;
export const CreateTestUserDocument = new TypedDocumentString(`
    mutation CreateTestUser($appId: ID!, $name: String!, $env: String!) {
  result: createTestUser(appId: $appId, name: $name, env: $env) {
    userId
    token
    expiresAt
    payer
    env
  }
}
    `) as unknown as TypedDocumentString<CreateTestUserMutation, CreateTestUserMutationVariables>;
export const TestUsersDocument = new TypedDocumentString(`
    query TestUsers($appId: ID!, $env: String!) {
  result: testUsers(appId: $appId, env: $env) {
    userId
    name
    createdAt
    hasLiveTokens
  }
}
    `) as unknown as TypedDocumentString<TestUsersQuery, TestUsersQueryVariables>;
export const RemoveAppOriginDocument = new TypedDocumentString(`
    mutation RemoveAppOrigin($appId: ID!, $origin: String!) {
  result: removeAppOrigin(appId: $appId, origin: $origin) {
    id
    name
    origins
    clientIds
    environments
    createdAt
  }
}
    `) as unknown as TypedDocumentString<RemoveAppOriginMutation, RemoveAppOriginMutationVariables>;
export const DeveloperDocument = new TypedDocumentString(`
    query Developer {
  result: developer {
    developerId
    email
  }
}
    `) as unknown as TypedDocumentString<DeveloperQuery, DeveloperQueryVariables>;
export const DeployedSchemaDocument = new TypedDocumentString(`
    query DeployedSchema($appId: ID!, $env: String!) {
  result: deployedSchema(appId: $appId, env: $env) {
    appId
    env
    version
    schema
  }
}
    `) as unknown as TypedDocumentString<DeployedSchemaQuery, DeployedSchemaQueryVariables>;
export const DeleteAppDocument = new TypedDocumentString(`
    mutation DeleteApp($appId: ID!, $confirm: String) {
  result: deleteApp(appId: $appId, confirm: $confirm) {
    appId
    environments
    rows
    files
    resources
    testUsers
  }
}
    `) as unknown as TypedDocumentString<DeleteAppMutation, DeleteAppMutationVariables>;
export const DeleteEnvironmentDocument = new TypedDocumentString(`
    mutation DeleteEnvironment($appId: ID!, $env: String!, $confirm: String) {
  result: deleteEnvironment(appId: $appId, env: $env, confirm: $confirm) {
    appId
    environments
    rows
    files
    resources
    testUsers
  }
}
    `) as unknown as TypedDocumentString<DeleteEnvironmentMutation, DeleteEnvironmentMutationVariables>;
export const ResetEnvironmentDocument = new TypedDocumentString(`
    mutation ResetEnvironment($appId: ID!, $env: String!, $confirm: String) {
  result: resetEnvironment(appId: $appId, env: $env, confirm: $confirm) {
    appId
    environments
    rows
    files
    resources
    testUsers
  }
}
    `) as unknown as TypedDocumentString<ResetEnvironmentMutation, ResetEnvironmentMutationVariables>;
export const MyWalletDocument = new TypedDocumentString(`
    query MyWallet {
  result: myWallet {
    balanceUsd
    entries {
      id
      kind
      amountUsd
      appId
      env
      clientId
      actorId
      quantity
      calls
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<MyWalletQuery, MyWalletQueryVariables>;
export const BudgetsDocument = new TypedDocumentString(`
    query Budgets($appId: ID) {
  result: budgets(appId: $appId) {
    period
    walletUsd
    apps {
      appId
      name
      envs {
        env
        limitUsd
        spentUsd
      }
      users {
        clientId
        spentUsd
      }
    }
  }
}
    `) as unknown as TypedDocumentString<BudgetsQuery, BudgetsQueryVariables>;
export const SetEnvBudgetDocument = new TypedDocumentString(`
    mutation SetEnvBudget($appId: ID!, $env: String!, $usd: String!) {
  result: setEnvBudget(appId: $appId, env: $env, usd: $usd) {
    appId
    env
    limitUsd
  }
}
    `) as unknown as TypedDocumentString<SetEnvBudgetMutation, SetEnvBudgetMutationVariables>;
export const EnvSpendByDayDocument = new TypedDocumentString(`
    query EnvSpendByDay($appId: ID!, $env: String!, $days: Int) {
  result: envSpendByDay(appId: $appId, env: $env, days: $days) {
    appId
    env
    since
    until
    days {
      day
      readsUsd
      writesUsd
      transferUsd
      storageUsd
      totalUsd
    }
    total {
      readsUsd
      writesUsd
      transferUsd
      storageUsd
      totalUsd
    }
  }
}
    `) as unknown as TypedDocumentString<EnvSpendByDayQuery, EnvSpendByDayQueryVariables>;
export const UsersSpendByDayDocument = new TypedDocumentString(`
    query UsersSpendByDay($appId: ID!, $env: String, $days: Int) {
  result: usersSpendByDay(appId: $appId, env: $env, days: $days) {
    appId
    env
    since
    until
    days {
      day
      readsUsd
      writesUsd
      transferUsd
      storageUsd
      totalUsd
    }
    total {
      readsUsd
      writesUsd
      transferUsd
      storageUsd
      totalUsd
    }
  }
}
    `) as unknown as TypedDocumentString<UsersSpendByDayQuery, UsersSpendByDayQueryVariables>;
export const MoveFilesDocument = new TypedDocumentString(`
    mutation MoveFiles($resourceId: ID!, $bucket: String!, $paths: [String!]!, $roomId: ID) {
  result: moveFiles(
    resourceId: $resourceId
    bucket: $bucket
    paths: $paths
    roomId: $roomId
  ) {
    ok
    moved
  }
}
    `) as unknown as TypedDocumentString<MoveFilesMutation, MoveFilesMutationVariables>;
export const LinkFileDocument = new TypedDocumentString(`
    mutation LinkFile($resourceId: ID!, $bucket: String!, $fileId: ID!, $path: String) {
  result: linkFile(
    resourceId: $resourceId
    bucket: $bucket
    fileId: $fileId
    path: $path
  ) {
    id
    bucket
    path
    size
    contentType
    etag
    roomId
    creatorId
    resourceId
    linked
    createdAt
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<LinkFileMutation, LinkFileMutationVariables>;
export const CreateResourceDocument = new TypedDocumentString(`
    mutation CreateResource($input: CreateResourceInput!) {
  result: createResource(input: $input) {
    ...ResourceFields
  }
}
    fragment ResourceFields on Resource {
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
}`) as unknown as TypedDocumentString<CreateResourceMutation, CreateResourceMutationVariables>;
export const ResourcesDocument = new TypedDocumentString(`
    query Resources($type: String, $limit: Int, $cursor: String) {
  result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {
    resources {
      ...ResourceFields
    }
    nextCursor
  }
}
    fragment ResourceFields on Resource {
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
}`) as unknown as TypedDocumentString<ResourcesQuery, ResourcesQueryVariables>;
export const BrowseResourcesDocument = new TypedDocumentString(`
    query BrowseResources($type: String, $query: String, $limit: Int, $cursor: String) {
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
    `) as unknown as TypedDocumentString<BrowseResourcesQuery, BrowseResourcesQueryVariables>;
export const StaticResourceDocument = new TypedDocumentString(`
    query StaticResource($type: String!, $slug: String!) {
  result: staticResource(type: $type, slug: $slug) {
    ...ResourceFields
  }
}
    fragment ResourceFields on Resource {
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
}`) as unknown as TypedDocumentString<StaticResourceQuery, StaticResourceQueryVariables>;
export const InvitationsDocument = new TypedDocumentString(`
    query Invitations($type: String, $limit: Int, $cursor: String) {
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
    `) as unknown as TypedDocumentString<InvitationsQuery, InvitationsQueryVariables>;
export const ResourceDocument = new TypedDocumentString(`
    query Resource($id: ID!) {
  result: resource(id: $id) {
    ...ResourceFields
  }
}
    fragment ResourceFields on Resource {
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
}`) as unknown as TypedDocumentString<ResourceQuery, ResourceQueryVariables>;
export const MembersDocument = new TypedDocumentString(`
    query Members($id: ID!, $limit: Int, $cursor: String) {
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
    `) as unknown as TypedDocumentString<MembersQuery, MembersQueryVariables>;
export const InviteDocument = new TypedDocumentString(`
    mutation Invite($id: ID!, $userId: ID!, $role: Role) {
  result: invite(resourceId: $id, userId: $userId, role: $role) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<InviteMutation, InviteMutationVariables>;
export const CreateInviteLinkDocument = new TypedDocumentString(`
    mutation CreateInviteLink($id: ID!, $role: Role) {
  result: createInviteLink(resourceId: $id, role: $role) {
    url
    role
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<CreateInviteLinkMutation, CreateInviteLinkMutationVariables>;
export const RequestAccessDocument = new TypedDocumentString(`
    mutation RequestAccess($id: ID!, $role: Role) {
  result: requestAccess(resourceId: $id, role: $role) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<RequestAccessMutation, RequestAccessMutationVariables>;
export const AcceptDocument = new TypedDocumentString(`
    mutation Accept($id: ID!, $userId: ID) {
  result: accept(resourceId: $id, userId: $userId) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<AcceptMutation, AcceptMutationVariables>;
export const RejectDocument = new TypedDocumentString(`
    mutation Reject($id: ID!, $userId: ID) {
  result: reject(resourceId: $id, userId: $userId) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<RejectMutation, RejectMutationVariables>;
export const JoinDocument = new TypedDocumentString(`
    mutation Join($id: ID!) {
  result: join(resourceId: $id) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<JoinMutation, JoinMutationVariables>;
export const LeaveDocument = new TypedDocumentString(`
    mutation Leave($id: ID!) {
  result: leave(resourceId: $id) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<LeaveMutation, LeaveMutationVariables>;
export const SetRoleDocument = new TypedDocumentString(`
    mutation SetRole($id: ID!, $userId: ID!, $role: Role!) {
  result: setRole(resourceId: $id, userId: $userId, role: $role) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<SetRoleMutation, SetRoleMutationVariables>;
export const RemoveMemberDocument = new TypedDocumentString(`
    mutation RemoveMember($id: ID!, $userId: ID!) {
  result: removeMember(resourceId: $id, userId: $userId) {
    ...TransitionFields
  }
}
    fragment TransitionFields on MembershipResult {
  ok
  resourceId
  state
  role
}`) as unknown as TypedDocumentString<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const ClaimInviteLinkDocument = new TypedDocumentString(`
    mutation ClaimInviteLink($code: String!) {
  result: claimInviteLink(code: $code) {
    ok
    resourceId
    state
    role
  }
}
    `) as unknown as TypedDocumentString<ClaimInviteLinkMutation, ClaimInviteLinkMutationVariables>;
export const MyInvitationsAcrossAppsDocument = new TypedDocumentString(`
    query MyInvitationsAcrossApps {
  result: myInvitationsAcrossApps {
    resourceId
    type
    name
    role
    invitedBy
    expiresAt
    appId
    appName
    env
  }
}
    `) as unknown as TypedDocumentString<MyInvitationsAcrossAppsQuery, MyInvitationsAcrossAppsQueryVariables>;
export const DeleteResourceAsOwnerDocument = new TypedDocumentString(`
    mutation DeleteResourceAsOwner($appId: ID!, $resourceId: ID!) {
  result: deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<DeleteResourceAsOwnerMutation, DeleteResourceAsOwnerMutationVariables>;
export const CreateAgentDocument = new TypedDocumentString(`
    mutation CreateAgent($name: String!) {
  result: createAgent(name: $name) {
    id
    name
    ownerId
    token
  }
}
    `) as unknown as TypedDocumentString<CreateAgentMutation, CreateAgentMutationVariables>;
export const AgentsDocument = new TypedDocumentString(`
    query Agents {
  result: agents {
    id
    name
    createdAt
  }
}
    `) as unknown as TypedDocumentString<AgentsQuery, AgentsQueryVariables>;
export const DeleteAgentDocument = new TypedDocumentString(`
    mutation DeleteAgent($id: ID!) {
  result: deleteAgent(id: $id) {
    ok
    transferred {
      resourceId
      ownerId
    }
    deleted
  }
}
    `) as unknown as TypedDocumentString<DeleteAgentMutation, DeleteAgentMutationVariables>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  result: me {
    ...MeFields
  }
}
    fragment MeFields on Principal {
  id
  kind
  handle
  displayName
  email
  profile {
    handle
    displayName
  }
}`) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const UpdateMyProfileDocument = new TypedDocumentString(`
    mutation UpdateMyProfile($input: ProfileInput!) {
  result: updateMyProfile(input: $input) {
    ...MeFields
  }
}
    fragment MeFields on Principal {
  id
  kind
  handle
  displayName
  email
  profile {
    handle
    displayName
  }
}`) as unknown as TypedDocumentString<UpdateMyProfileMutation, UpdateMyProfileMutationVariables>;
export const UserByHandleDocument = new TypedDocumentString(`
    query UserByHandle($handle: String!) {
  result: userByHandle(handle: $handle) {
    id
    handle
    displayName
  }
}
    `) as unknown as TypedDocumentString<UserByHandleQuery, UserByHandleQueryVariables>;
export const UserProfilesDocument = new TypedDocumentString(`
    query UserProfiles($ids: [ID!]!) {
  result: userProfiles(ids: $ids) {
    id
    handle
    displayName
  }
}
    `) as unknown as TypedDocumentString<UserProfilesQuery, UserProfilesQueryVariables>;
export const BlockUserDocument = new TypedDocumentString(`
    mutation BlockUser($userId: ID!) {
  result: blockUser(userId: $userId) {
    ok
    userId
  }
}
    `) as unknown as TypedDocumentString<BlockUserMutation, BlockUserMutationVariables>;
export const BlocksDocument = new TypedDocumentString(`
    query Blocks {
  result: blocks {
    userId
    createdAt
  }
}
    `) as unknown as TypedDocumentString<BlocksQuery, BlocksQueryVariables>;
export const UnblockUserDocument = new TypedDocumentString(`
    mutation UnblockUser($userId: ID!) {
  result: unblockUser(userId: $userId) {
    ok
    userId
  }
}
    `) as unknown as TypedDocumentString<UnblockUserMutation, UnblockUserMutationVariables>;
export const DeleteMyAccountDocument = new TypedDocumentString(`
    mutation DeleteMyAccount($confirm: String!) {
  result: deleteMyAccount(confirm: $confirm) {
    ok
    transferred {
      resourceId
      ownerId
    }
    deleted
  }
}
    `) as unknown as TypedDocumentString<DeleteMyAccountMutation, DeleteMyAccountMutationVariables>;
export const MyRoomGrantsDocument = new TypedDocumentString(`
    query MyRoomGrants {
  result: myRoomGrants {
    resourceId
    roomId
    role
  }
}
    `) as unknown as TypedDocumentString<MyRoomGrantsQuery, MyRoomGrantsQueryVariables>;
export const CreateRoomDocument = new TypedDocumentString(`
    mutation CreateRoom($id: ID!, $name: String!) {
  result: createRoom(resourceId: $id, name: $name) {
    ...RoomFields
  }
}
    fragment RoomFields on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
}`) as unknown as TypedDocumentString<CreateRoomMutation, CreateRoomMutationVariables>;
export const RoomsDocument = new TypedDocumentString(`
    query Rooms($id: ID!) {
  result: rooms(resourceId: $id) {
    ...RoomFields
  }
}
    fragment RoomFields on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
}`) as unknown as TypedDocumentString<RoomsQuery, RoomsQueryVariables>;
export const RoomDocument = new TypedDocumentString(`
    query Room($id: ID!, $roomId: ID!) {
  result: room(resourceId: $id, roomId: $roomId) {
    ...RoomFields
  }
}
    fragment RoomFields on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
}`) as unknown as TypedDocumentString<RoomQuery, RoomQueryVariables>;
export const RenameRoomDocument = new TypedDocumentString(`
    mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {
  result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) {
    ...RoomFields
  }
}
    fragment RoomFields on Room {
  id
  name
  isDefault
  currentGrant {
    role
  }
  effectiveRole
}`) as unknown as TypedDocumentString<RenameRoomMutation, RenameRoomMutationVariables>;
export const DeleteRoomDocument = new TypedDocumentString(`
    mutation DeleteRoom($id: ID!, $roomId: ID!) {
  result: deleteRoom(resourceId: $id, roomId: $roomId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<DeleteRoomMutation, DeleteRoomMutationVariables>;
export const RoomGrantsDocument = new TypedDocumentString(`
    query RoomGrants($id: ID!, $roomId: ID!) {
  result: roomGrants(resourceId: $id, roomId: $roomId) {
    principalId
    role
  }
}
    `) as unknown as TypedDocumentString<RoomGrantsQuery, RoomGrantsQueryVariables>;
export const SetRoomGrantDocument = new TypedDocumentString(`
    mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {
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
    `) as unknown as TypedDocumentString<SetRoomGrantMutation, SetRoomGrantMutationVariables>;
export const RemoveRoomGrantDocument = new TypedDocumentString(`
    mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {
  result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<RemoveRoomGrantMutation, RemoveRoomGrantMutationVariables>;
export const DbQueryDocument = new TypedDocumentString(`
    mutation DbQuery($input: DbOperationInput!) {
  result: dbQuery(input: $input) {
    ...DbResultFields
  }
}
    fragment DbResultFields on DbResult {
  op
  rows
  nextCursor
}`) as unknown as TypedDocumentString<DbQueryMutation, DbQueryMutationVariables>;
export const DbBatchDocument = new TypedDocumentString(`
    mutation DbBatch($operations: [DbOperationInput!]!) {
  result: dbBatch(operations: $operations) {
    ...DbResultFields
  }
}
    fragment DbResultFields on DbResult {
  op
  rows
  nextCursor
}`) as unknown as TypedDocumentString<DbBatchMutation, DbBatchMutationVariables>;