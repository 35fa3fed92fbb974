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

export type DbDirection =
  | 'asc'
  | 'desc';

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

export type MembershipState =
  | 'active'
  | 'invited'
  | 'requested';

export type PrincipalKind =
  | 'agent'
  | 'user';

export type Role =
  | 'admin'
  | 'owner'
  | 'reader'
  | 'writer';

/** Stored visibility: members, or public (unlisted or discoverable). */
export type Visibility =
  | 'members'
  | 'public';

export type ConsoleAccountQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAccountQuery = { myDashboardAccount: { id: string, displayName: string | null, handle: string | null, email: string | null, createdAt: string } };

export type ConsoleDeploymentVersionsQueryVariables = Exact<{
  appId: string | number;
  env: string;
}>;


export type ConsoleDeploymentVersionsQuery = { deploymentVersions: Array<{ version: number, schema: unknown, createdAt: string }> };

export type ConsoleDeployedSchemaQueryVariables = Exact<{
  appId: string | number;
  env: string;
}>;


export type ConsoleDeployedSchemaQuery = { deployedSchema: { env: string, version: number, schema: unknown } };

export type ConsoleDeployMutationVariables = Exact<{
  appId: string | number;
  env: string;
  schema: unknown;
}>;


export type ConsoleDeployMutation = { deploy: { env: string, version: number, tables: Array<string>, buckets: Array<string>, resourceTypes: Array<string> } };

export type ConsoleBudgetsQueryVariables = Exact<{
  appId: string | number;
}>;


export type ConsoleBudgetsQuery = { budgets: { period: string, walletUsd: string, apps: Array<{ appId: string, envs: Array<{ env: string, limitUsd: string, spentUsd: string }> }> } };

export type ConsoleSetBudgetMutationVariables = Exact<{
  appId: string | number;
  env: string;
  usd: string;
}>;


export type ConsoleSetBudgetMutation = { setEnvBudget: { env: string, limitUsd: string } };

export type ConsoleRevokeTestUserMutationVariables = Exact<{
  appId: string | number;
  env: string;
  name: string;
}>;


export type ConsoleRevokeTestUserMutation = { revokeTestUser: { userId: string, env: string, revoked: number } };

export type ConsoleTestUsersQueryVariables = Exact<{
  appId: string | number;
  env: string;
}>;


export type ConsoleTestUsersQuery = { testUsers: Array<{ userId: string, name: string, createdAt: string, hasLiveTokens: boolean }> };

export type ConsoleMintTestUserMutationVariables = Exact<{
  appId: string | number;
  env: string;
  name: string;
}>;


export type ConsoleMintTestUserMutation = { createTestUser: { userId: string, token: string, expiresAt: string, env: string } };

export type ConsoleAddAppOriginMutationVariables = Exact<{
  appId: string | number;
  origin: string;
}>;


export type ConsoleAddAppOriginMutation = { addAppOrigin: { id: string } };

export type ConsoleRemoveAppOriginMutationVariables = Exact<{
  appId: string | number;
  origin: string;
}>;


export type ConsoleRemoveAppOriginMutation = { removeAppOrigin: { id: string } };

export type ConsoleSetAppRedirectUrisMutationVariables = Exact<{
  appId: string | number;
  redirectUris: Array<string> | string;
}>;


export type ConsoleSetAppRedirectUrisMutation = { setAppRedirectUris: { id: string } };

export type ConsoleAppsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAppsQuery = { apps: Array<{ id: string, name: string, origins: Array<string>, redirectUris: Array<string>, clientIds: Array<string>, environments: Array<string>, createdAt: string }> };

export type ConsoleCreateAppMutationVariables = Exact<{
  input: CreateAppInput;
}>;


export type ConsoleCreateAppMutation = { createApp: { id: string, name: string, clientIds: Array<string> } };

export type ConsoleBrowseAsMutationVariables = Exact<{
  appId: string | number;
  env: string;
  name: string;
}>;


export type ConsoleBrowseAsMutation = { createTestUser: { userId: string, token: string } };

export type ConsoleBrowserResourcesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleBrowserResourcesQuery = { resources: Array<{ id: string, type: string, name: string, memberCount: number, visibility: Visibility, createdAt: string }> };

export type ConsoleBrowserResourceQueryVariables = Exact<{
  resourceId: string | number;
}>;


export type ConsoleBrowserResourceQuery = { members: Array<{ userId: string, kind: PrincipalKind, role: Role, state: MembershipState }>, rooms: Array<{ id: string, name: string, isDefault: boolean, effectiveRole: Role | null }> };

export type ConsoleBrowserGrantsQueryVariables = Exact<{
  resourceId: string | number;
  roomId: string | number;
}>;


export type ConsoleBrowserGrantsQuery = { roomGrants: Array<{ principalId: string, role: Role }> };

export type ConsoleBrowserRowsQueryVariables = Exact<{
  input: DbSelectInput;
}>;


export type ConsoleBrowserRowsQuery = { dbSelect: { rows: Array<unknown>, nextCursor: string | null } };

export type ConsoleBrowserFilesQueryVariables = Exact<{
  bucket: string;
  resourceId?: string | number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type ConsoleBrowserFilesQuery = { files: { nextCursor: string | null, files: Array<{ id: string, path: string, size: number, contentType: string, updatedAt: string }> } };

export type ConsoleDeleteAccountMutationVariables = Exact<{
  confirm: string;
}>;


export type ConsoleDeleteAccountMutation = { deleteMyAccount: { ok: boolean, deleted: Array<string>, transferred: Array<{ resourceId: string, ownerId: string }> } };

export type ConsoleDeveloperQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleDeveloperQuery = { consoleDeveloper: { developerId: string, email: string, linkedAt: string } | null };

export type ConsoleLinkDeveloperMutationVariables = Exact<{
  token: string;
}>;


export type ConsoleLinkDeveloperMutation = { linkDeveloper: { developerId: string, email: string, linkedAt: string } };

export type ConsoleUnlinkDeveloperMutationVariables = Exact<{ [key: string]: never; }>;


export type ConsoleUnlinkDeveloperMutation = { unlinkDeveloper: { ok: boolean } };

export type ConsoleInvitationsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleInvitationsQuery = { myInvitationsAcrossApps: Array<{ resourceId: string, type: string, name: string, role: Role, invitedBy: string | null, expiresAt: string, appId: string, appName: string, env: string }> };

export type ConsoleAnswerInvitationMutationVariables = Exact<{
  resourceId: string | number;
  accept: boolean;
}>;


export type ConsoleAnswerInvitationMutation = { answerInvitationAcrossApps: { resourceId: string, state: MembershipState | null, role: Role | null } };

export type ConsoleOwnedResourcesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleOwnedResourcesQuery = { myOwnedResources: Array<{ resourceId: string, type: string, name: string, memberCount: number, appId: string, appName: string, env: string, createdAt: string }> };

export type ConsoleDeleteResourceMutationVariables = Exact<{
  appId: string | number;
  resourceId: string | number;
}>;


export type ConsoleDeleteResourceMutation = { deleteResourceAsOwner: { ok: boolean } };

export type ConsoleMySpendQueryVariables = Exact<{
  days?: number | null | undefined;
}>;


export type ConsoleMySpendQuery = { mySpendByDay: Array<{ appId: string, appName: string | null, since: string, until: string, days: Array<{ day: string, readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string }>, total: { readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string } }> };

export type ConsoleEnvSpendQueryVariables = Exact<{
  appId: string | number;
  env: string;
  days?: number | null | undefined;
}>;


export type ConsoleEnvSpendQuery = { envSpendByDay: { since: string, until: string, days: Array<{ day: string, readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string }>, total: { readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string } }, usersSpendByDay: { since: string, until: string, days: Array<{ day: string, readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string }>, total: { readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string } } };

export type ConsoleWalletQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleWalletQuery = { myWallet: { balanceUsd: string, entries: Array<{ id: string, kind: string, amountUsd: string, appId: string | null, env: string | null, quantity: number | null, calls: number | null, createdAt: string }> } };

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

export const ConsoleAccountDocument = new TypedDocumentString(`
    query ConsoleAccount {
  myDashboardAccount {
    id
    displayName
    handle
    email
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleAccountQuery, ConsoleAccountQueryVariables>;
export const ConsoleDeploymentVersionsDocument = new TypedDocumentString(`
    query ConsoleDeploymentVersions($appId: ID!, $env: String!) {
  deploymentVersions(appId: $appId, env: $env) {
    version
    schema
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeploymentVersionsQuery, ConsoleDeploymentVersionsQueryVariables>;
export const ConsoleDeployedSchemaDocument = new TypedDocumentString(`
    query ConsoleDeployedSchema($appId: ID!, $env: String!) {
  deployedSchema(appId: $appId, env: $env) {
    env
    version
    schema
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeployedSchemaQuery, ConsoleDeployedSchemaQueryVariables>;
export const ConsoleDeployDocument = new TypedDocumentString(`
    mutation ConsoleDeploy($appId: ID!, $env: String!, $schema: JSON!) {
  deploy(appId: $appId, env: $env, schema: $schema) {
    env
    version
    tables
    buckets
    resourceTypes
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeployMutation, ConsoleDeployMutationVariables>;
export const ConsoleBudgetsDocument = new TypedDocumentString(`
    query ConsoleBudgets($appId: ID!) {
  budgets(appId: $appId) {
    period
    walletUsd
    apps {
      appId
      envs {
        env
        limitUsd
        spentUsd
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleBudgetsQuery, ConsoleBudgetsQueryVariables>;
export const ConsoleSetBudgetDocument = new TypedDocumentString(`
    mutation ConsoleSetBudget($appId: ID!, $env: String!, $usd: String!) {
  setEnvBudget(appId: $appId, env: $env, usd: $usd) {
    env
    limitUsd
  }
}
    `) as unknown as TypedDocumentString<ConsoleSetBudgetMutation, ConsoleSetBudgetMutationVariables>;
export const ConsoleRevokeTestUserDocument = new TypedDocumentString(`
    mutation ConsoleRevokeTestUser($appId: ID!, $env: String!, $name: String!) {
  revokeTestUser(appId: $appId, env: $env, name: $name) {
    userId
    env
    revoked
  }
}
    `) as unknown as TypedDocumentString<ConsoleRevokeTestUserMutation, ConsoleRevokeTestUserMutationVariables>;
export const ConsoleTestUsersDocument = new TypedDocumentString(`
    query ConsoleTestUsers($appId: ID!, $env: String!) {
  testUsers(appId: $appId, env: $env) {
    userId
    name
    createdAt
    hasLiveTokens
  }
}
    `) as unknown as TypedDocumentString<ConsoleTestUsersQuery, ConsoleTestUsersQueryVariables>;
export const ConsoleMintTestUserDocument = new TypedDocumentString(`
    mutation ConsoleMintTestUser($appId: ID!, $env: String!, $name: String!) {
  createTestUser(appId: $appId, env: $env, name: $name) {
    userId
    token
    expiresAt
    env
  }
}
    `) as unknown as TypedDocumentString<ConsoleMintTestUserMutation, ConsoleMintTestUserMutationVariables>;
export const ConsoleAddAppOriginDocument = new TypedDocumentString(`
    mutation ConsoleAddAppOrigin($appId: ID!, $origin: String!) {
  addAppOrigin(appId: $appId, origin: $origin) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleAddAppOriginMutation, ConsoleAddAppOriginMutationVariables>;
export const ConsoleRemoveAppOriginDocument = new TypedDocumentString(`
    mutation ConsoleRemoveAppOrigin($appId: ID!, $origin: String!) {
  removeAppOrigin(appId: $appId, origin: $origin) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleRemoveAppOriginMutation, ConsoleRemoveAppOriginMutationVariables>;
export const ConsoleSetAppRedirectUrisDocument = new TypedDocumentString(`
    mutation ConsoleSetAppRedirectUris($appId: ID!, $redirectUris: [String!]!) {
  setAppRedirectUris(appId: $appId, redirectUris: $redirectUris) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleSetAppRedirectUrisMutation, ConsoleSetAppRedirectUrisMutationVariables>;
export const ConsoleAppsDocument = new TypedDocumentString(`
    query ConsoleApps {
  apps {
    id
    name
    origins
    redirectUris
    clientIds
    environments
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleAppsQuery, ConsoleAppsQueryVariables>;
export const ConsoleCreateAppDocument = new TypedDocumentString(`
    mutation ConsoleCreateApp($input: CreateAppInput!) {
  createApp(input: $input) {
    id
    name
    clientIds
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateAppMutation, ConsoleCreateAppMutationVariables>;
export const ConsoleBrowseAsDocument = new TypedDocumentString(`
    mutation ConsoleBrowseAs($appId: ID!, $env: String!, $name: String!) {
  createTestUser(appId: $appId, env: $env, name: $name) {
    userId
    token
  }
}
    `) as unknown as TypedDocumentString<ConsoleBrowseAsMutation, ConsoleBrowseAsMutationVariables>;
export const ConsoleBrowserResourcesDocument = new TypedDocumentString(`
    query ConsoleBrowserResources {
  resources {
    id
    type
    name
    memberCount
    visibility
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleBrowserResourcesQuery, ConsoleBrowserResourcesQueryVariables>;
export const ConsoleBrowserResourceDocument = new TypedDocumentString(`
    query ConsoleBrowserResource($resourceId: ID!) {
  members(resourceId: $resourceId) {
    userId
    kind
    role
    state
  }
  rooms(resourceId: $resourceId) {
    id
    name
    isDefault
    effectiveRole
  }
}
    `) as unknown as TypedDocumentString<ConsoleBrowserResourceQuery, ConsoleBrowserResourceQueryVariables>;
export const ConsoleBrowserGrantsDocument = new TypedDocumentString(`
    query ConsoleBrowserGrants($resourceId: ID!, $roomId: ID!) {
  roomGrants(resourceId: $resourceId, roomId: $roomId) {
    principalId
    role
  }
}
    `) as unknown as TypedDocumentString<ConsoleBrowserGrantsQuery, ConsoleBrowserGrantsQueryVariables>;
export const ConsoleBrowserRowsDocument = new TypedDocumentString(`
    query ConsoleBrowserRows($input: DbSelectInput!) {
  dbSelect(input: $input) {
    rows
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<ConsoleBrowserRowsQuery, ConsoleBrowserRowsQueryVariables>;
export const ConsoleBrowserFilesDocument = new TypedDocumentString(`
    query ConsoleBrowserFiles($bucket: String!, $resourceId: ID, $cursor: String) {
  files(bucket: $bucket, resourceId: $resourceId, cursor: $cursor, limit: 50) {
    files {
      id
      path
      size
      contentType
      updatedAt
    }
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<ConsoleBrowserFilesQuery, ConsoleBrowserFilesQueryVariables>;
export const ConsoleDeleteAccountDocument = new TypedDocumentString(`
    mutation ConsoleDeleteAccount($confirm: String!) {
  deleteMyAccount(confirm: $confirm) {
    ok
    transferred {
      resourceId
      ownerId
    }
    deleted
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteAccountMutation, ConsoleDeleteAccountMutationVariables>;
export const ConsoleDeveloperDocument = new TypedDocumentString(`
    query ConsoleDeveloper {
  consoleDeveloper {
    developerId
    email
    linkedAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeveloperQuery, ConsoleDeveloperQueryVariables>;
export const ConsoleLinkDeveloperDocument = new TypedDocumentString(`
    mutation ConsoleLinkDeveloper($token: String!) {
  linkDeveloper(token: $token) {
    developerId
    email
    linkedAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleLinkDeveloperMutation, ConsoleLinkDeveloperMutationVariables>;
export const ConsoleUnlinkDeveloperDocument = new TypedDocumentString(`
    mutation ConsoleUnlinkDeveloper {
  unlinkDeveloper {
    ok
  }
}
    `) as unknown as TypedDocumentString<ConsoleUnlinkDeveloperMutation, ConsoleUnlinkDeveloperMutationVariables>;
export const ConsoleInvitationsDocument = new TypedDocumentString(`
    query ConsoleInvitations {
  myInvitationsAcrossApps {
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
    `) as unknown as TypedDocumentString<ConsoleInvitationsQuery, ConsoleInvitationsQueryVariables>;
export const ConsoleAnswerInvitationDocument = new TypedDocumentString(`
    mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {
  answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) {
    resourceId
    state
    role
  }
}
    `) as unknown as TypedDocumentString<ConsoleAnswerInvitationMutation, ConsoleAnswerInvitationMutationVariables>;
export const ConsoleOwnedResourcesDocument = new TypedDocumentString(`
    query ConsoleOwnedResources {
  myOwnedResources {
    resourceId
    type
    name
    memberCount
    appId
    appName
    env
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleOwnedResourcesQuery, ConsoleOwnedResourcesQueryVariables>;
export const ConsoleDeleteResourceDocument = new TypedDocumentString(`
    mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {
  deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteResourceMutation, ConsoleDeleteResourceMutationVariables>;
export const ConsoleMySpendDocument = new TypedDocumentString(`
    query ConsoleMySpend($days: Int) {
  mySpendByDay(days: $days) {
    appId
    appName
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
    `) as unknown as TypedDocumentString<ConsoleMySpendQuery, ConsoleMySpendQueryVariables>;
export const ConsoleEnvSpendDocument = new TypedDocumentString(`
    query ConsoleEnvSpend($appId: ID!, $env: String!, $days: Int) {
  envSpendByDay(appId: $appId, env: $env, days: $days) {
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
  usersSpendByDay(appId: $appId, env: $env, days: $days) {
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
    `) as unknown as TypedDocumentString<ConsoleEnvSpendQuery, ConsoleEnvSpendQueryVariables>;
export const ConsoleWalletDocument = new TypedDocumentString(`
    query ConsoleWallet {
  myWallet {
    balanceUsd
    entries {
      id
      kind
      amountUsd
      appId
      env
      quantity
      calls
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleWalletQuery, ConsoleWalletQueryVariables>;