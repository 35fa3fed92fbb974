/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ConsoleAccount {\n    myDashboardAccount { id displayName handle email createdAt }\n  }\n": typeof types.ConsoleAccountDocument,
    "\n  query ConsoleDeploymentVersions($appId: ID!, $env: String!) {\n    deploymentVersions(appId: $appId, env: $env) { version schema createdAt }\n  }\n": typeof types.ConsoleDeploymentVersionsDocument,
    "\n  query ConsoleDeployedSchema($appId: ID!, $env: String!) {\n    deployedSchema(appId: $appId, env: $env) { env version schema }\n  }\n": typeof types.ConsoleDeployedSchemaDocument,
    "\n  mutation ConsoleDeploy($appId: ID!, $env: String!, $schema: JSON!) {\n    deploy(appId: $appId, env: $env, schema: $schema) { env version tables buckets resourceTypes }\n  }\n": typeof types.ConsoleDeployDocument,
    "\n  query ConsoleBudgets($appId: ID!) {\n    budgets(appId: $appId) { period walletUsd apps { appId envs { env limitUsd spentUsd } } }\n  }\n": typeof types.ConsoleBudgetsDocument,
    "\n  mutation ConsoleSetBudget($appId: ID!, $env: String!, $usd: String!) {\n    setEnvBudget(appId: $appId, env: $env, usd: $usd) { env limitUsd }\n  }\n": typeof types.ConsoleSetBudgetDocument,
    "\n  mutation ConsoleRevokeTestUser($appId: ID!, $env: String!, $name: String!) {\n    revokeTestUser(appId: $appId, env: $env, name: $name) { userId env revoked }\n  }\n": typeof types.ConsoleRevokeTestUserDocument,
    "\n  query ConsoleTestUsers($appId: ID!, $env: String!) {\n    testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }\n  }\n": typeof types.ConsoleTestUsersDocument,
    "\n  mutation ConsoleMintTestUser($appId: ID!, $env: String!, $name: String!) {\n    createTestUser(appId: $appId, env: $env, name: $name) { userId token expiresAt env }\n  }\n": typeof types.ConsoleMintTestUserDocument,
    "\n  mutation ConsoleAddAppOrigin($appId: ID!, $origin: String!) {\n    addAppOrigin(appId: $appId, origin: $origin) { id }\n  }\n": typeof types.ConsoleAddAppOriginDocument,
    "\n  mutation ConsoleRemoveAppOrigin($appId: ID!, $origin: String!) {\n    removeAppOrigin(appId: $appId, origin: $origin) { id }\n  }\n": typeof types.ConsoleRemoveAppOriginDocument,
    "\n  mutation ConsoleSetAppRedirectUris($appId: ID!, $redirectUris: [String!]!) {\n    setAppRedirectUris(appId: $appId, redirectUris: $redirectUris) { id }\n  }\n": typeof types.ConsoleSetAppRedirectUrisDocument,
    "\n  query ConsoleApps {\n    apps { id name origins redirectUris clientIds environments createdAt }\n  }\n": typeof types.ConsoleAppsDocument,
    "\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) { id name clientIds }\n  }\n": typeof types.ConsoleCreateAppDocument,
    "\n  mutation ConsoleBrowseAs($appId: ID!, $env: String!, $name: String!) {\n    createTestUser(appId: $appId, env: $env, name: $name) { userId token }\n  }\n": typeof types.ConsoleBrowseAsDocument,
    "\n  query ConsoleBrowserResources {\n    resources { id type name memberCount visibility createdAt }\n  }\n": typeof types.ConsoleBrowserResourcesDocument,
    "\n  query ConsoleBrowserResource($resourceId: ID!) {\n    members(resourceId: $resourceId) { userId kind role state }\n    rooms(resourceId: $resourceId) { id name isDefault effectiveRole }\n  }\n": typeof types.ConsoleBrowserResourceDocument,
    "\n  query ConsoleBrowserGrants($resourceId: ID!, $roomId: ID!) {\n    roomGrants(resourceId: $resourceId, roomId: $roomId) { principalId role }\n  }\n": typeof types.ConsoleBrowserGrantsDocument,
    "\n  query ConsoleBrowserRows($input: DbSelectInput!) {\n    dbSelect(input: $input) { rows nextCursor }\n  }\n": typeof types.ConsoleBrowserRowsDocument,
    "\n  query ConsoleBrowserFiles($bucket: String!, $resourceId: ID, $cursor: String) {\n    files(bucket: $bucket, resourceId: $resourceId, cursor: $cursor, limit: 50) { files { id path size contentType updatedAt } nextCursor }\n  }\n": typeof types.ConsoleBrowserFilesDocument,
    "\n  mutation ConsoleDeleteAccount($confirm: String!) {\n    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n  }\n": typeof types.ConsoleDeleteAccountDocument,
    "\n  query ConsoleDeveloper {\n    consoleDeveloper { developerId email linkedAt }\n  }\n": typeof types.ConsoleDeveloperDocument,
    "\n  mutation ConsoleLinkDeveloper($token: String!) {\n    linkDeveloper(token: $token) { developerId email linkedAt }\n  }\n": typeof types.ConsoleLinkDeveloperDocument,
    "\n  mutation ConsoleUnlinkDeveloper {\n    unlinkDeveloper { ok }\n  }\n": typeof types.ConsoleUnlinkDeveloperDocument,
    "\n  query ConsoleInvitations {\n    myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n  }\n": typeof types.ConsoleInvitationsDocument,
    "\n  mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {\n    answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) { resourceId state role }\n  }\n": typeof types.ConsoleAnswerInvitationDocument,
    "\n  query ConsoleOwnedResources {\n    myOwnedResources { resourceId type name memberCount appId appName env createdAt }\n  }\n": typeof types.ConsoleOwnedResourcesDocument,
    "\n  mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {\n    deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n  }\n": typeof types.ConsoleDeleteResourceDocument,
    "\n  query ConsoleMySpend($days: Int) {\n    mySpendByDay(days: $days) {\n      appId\n      appName\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n": typeof types.ConsoleMySpendDocument,
    "\n  query ConsoleEnvSpend($appId: ID!, $env: String!, $days: Int) {\n    envSpendByDay(appId: $appId, env: $env, days: $days) {\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n    usersSpendByDay(appId: $appId, env: $env, days: $days) {\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n": typeof types.ConsoleEnvSpendDocument,
    "\n  query ConsoleWallet {\n    myWallet { balanceUsd entries { id kind amountUsd appId env quantity calls createdAt } }\n  }\n": typeof types.ConsoleWalletDocument,
};
const documents: Documents = {
    "\n  query ConsoleAccount {\n    myDashboardAccount { id displayName handle email createdAt }\n  }\n": types.ConsoleAccountDocument,
    "\n  query ConsoleDeploymentVersions($appId: ID!, $env: String!) {\n    deploymentVersions(appId: $appId, env: $env) { version schema createdAt }\n  }\n": types.ConsoleDeploymentVersionsDocument,
    "\n  query ConsoleDeployedSchema($appId: ID!, $env: String!) {\n    deployedSchema(appId: $appId, env: $env) { env version schema }\n  }\n": types.ConsoleDeployedSchemaDocument,
    "\n  mutation ConsoleDeploy($appId: ID!, $env: String!, $schema: JSON!) {\n    deploy(appId: $appId, env: $env, schema: $schema) { env version tables buckets resourceTypes }\n  }\n": types.ConsoleDeployDocument,
    "\n  query ConsoleBudgets($appId: ID!) {\n    budgets(appId: $appId) { period walletUsd apps { appId envs { env limitUsd spentUsd } } }\n  }\n": types.ConsoleBudgetsDocument,
    "\n  mutation ConsoleSetBudget($appId: ID!, $env: String!, $usd: String!) {\n    setEnvBudget(appId: $appId, env: $env, usd: $usd) { env limitUsd }\n  }\n": types.ConsoleSetBudgetDocument,
    "\n  mutation ConsoleRevokeTestUser($appId: ID!, $env: String!, $name: String!) {\n    revokeTestUser(appId: $appId, env: $env, name: $name) { userId env revoked }\n  }\n": types.ConsoleRevokeTestUserDocument,
    "\n  query ConsoleTestUsers($appId: ID!, $env: String!) {\n    testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }\n  }\n": types.ConsoleTestUsersDocument,
    "\n  mutation ConsoleMintTestUser($appId: ID!, $env: String!, $name: String!) {\n    createTestUser(appId: $appId, env: $env, name: $name) { userId token expiresAt env }\n  }\n": types.ConsoleMintTestUserDocument,
    "\n  mutation ConsoleAddAppOrigin($appId: ID!, $origin: String!) {\n    addAppOrigin(appId: $appId, origin: $origin) { id }\n  }\n": types.ConsoleAddAppOriginDocument,
    "\n  mutation ConsoleRemoveAppOrigin($appId: ID!, $origin: String!) {\n    removeAppOrigin(appId: $appId, origin: $origin) { id }\n  }\n": types.ConsoleRemoveAppOriginDocument,
    "\n  mutation ConsoleSetAppRedirectUris($appId: ID!, $redirectUris: [String!]!) {\n    setAppRedirectUris(appId: $appId, redirectUris: $redirectUris) { id }\n  }\n": types.ConsoleSetAppRedirectUrisDocument,
    "\n  query ConsoleApps {\n    apps { id name origins redirectUris clientIds environments createdAt }\n  }\n": types.ConsoleAppsDocument,
    "\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) { id name clientIds }\n  }\n": types.ConsoleCreateAppDocument,
    "\n  mutation ConsoleBrowseAs($appId: ID!, $env: String!, $name: String!) {\n    createTestUser(appId: $appId, env: $env, name: $name) { userId token }\n  }\n": types.ConsoleBrowseAsDocument,
    "\n  query ConsoleBrowserResources {\n    resources { id type name memberCount visibility createdAt }\n  }\n": types.ConsoleBrowserResourcesDocument,
    "\n  query ConsoleBrowserResource($resourceId: ID!) {\n    members(resourceId: $resourceId) { userId kind role state }\n    rooms(resourceId: $resourceId) { id name isDefault effectiveRole }\n  }\n": types.ConsoleBrowserResourceDocument,
    "\n  query ConsoleBrowserGrants($resourceId: ID!, $roomId: ID!) {\n    roomGrants(resourceId: $resourceId, roomId: $roomId) { principalId role }\n  }\n": types.ConsoleBrowserGrantsDocument,
    "\n  query ConsoleBrowserRows($input: DbSelectInput!) {\n    dbSelect(input: $input) { rows nextCursor }\n  }\n": types.ConsoleBrowserRowsDocument,
    "\n  query ConsoleBrowserFiles($bucket: String!, $resourceId: ID, $cursor: String) {\n    files(bucket: $bucket, resourceId: $resourceId, cursor: $cursor, limit: 50) { files { id path size contentType updatedAt } nextCursor }\n  }\n": types.ConsoleBrowserFilesDocument,
    "\n  mutation ConsoleDeleteAccount($confirm: String!) {\n    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n  }\n": types.ConsoleDeleteAccountDocument,
    "\n  query ConsoleDeveloper {\n    consoleDeveloper { developerId email linkedAt }\n  }\n": types.ConsoleDeveloperDocument,
    "\n  mutation ConsoleLinkDeveloper($token: String!) {\n    linkDeveloper(token: $token) { developerId email linkedAt }\n  }\n": types.ConsoleLinkDeveloperDocument,
    "\n  mutation ConsoleUnlinkDeveloper {\n    unlinkDeveloper { ok }\n  }\n": types.ConsoleUnlinkDeveloperDocument,
    "\n  query ConsoleInvitations {\n    myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n  }\n": types.ConsoleInvitationsDocument,
    "\n  mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {\n    answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) { resourceId state role }\n  }\n": types.ConsoleAnswerInvitationDocument,
    "\n  query ConsoleOwnedResources {\n    myOwnedResources { resourceId type name memberCount appId appName env createdAt }\n  }\n": types.ConsoleOwnedResourcesDocument,
    "\n  mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {\n    deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n  }\n": types.ConsoleDeleteResourceDocument,
    "\n  query ConsoleMySpend($days: Int) {\n    mySpendByDay(days: $days) {\n      appId\n      appName\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n": types.ConsoleMySpendDocument,
    "\n  query ConsoleEnvSpend($appId: ID!, $env: String!, $days: Int) {\n    envSpendByDay(appId: $appId, env: $env, days: $days) {\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n    usersSpendByDay(appId: $appId, env: $env, days: $days) {\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n": types.ConsoleEnvSpendDocument,
    "\n  query ConsoleWallet {\n    myWallet { balanceUsd entries { id kind amountUsd appId env quantity calls createdAt } }\n  }\n": types.ConsoleWalletDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAccount {\n    myDashboardAccount { id displayName handle email createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDeploymentVersions($appId: ID!, $env: String!) {\n    deploymentVersions(appId: $appId, env: $env) { version schema createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleDeploymentVersionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDeployedSchema($appId: ID!, $env: String!) {\n    deployedSchema(appId: $appId, env: $env) { env version schema }\n  }\n"): typeof import('./graphql.js').ConsoleDeployedSchemaDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeploy($appId: ID!, $env: String!, $schema: JSON!) {\n    deploy(appId: $appId, env: $env, schema: $schema) { env version tables buckets resourceTypes }\n  }\n"): typeof import('./graphql.js').ConsoleDeployDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBudgets($appId: ID!) {\n    budgets(appId: $appId) { period walletUsd apps { appId envs { env limitUsd spentUsd } } }\n  }\n"): typeof import('./graphql.js').ConsoleBudgetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSetBudget($appId: ID!, $env: String!, $usd: String!) {\n    setEnvBudget(appId: $appId, env: $env, usd: $usd) { env limitUsd }\n  }\n"): typeof import('./graphql.js').ConsoleSetBudgetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRevokeTestUser($appId: ID!, $env: String!, $name: String!) {\n    revokeTestUser(appId: $appId, env: $env, name: $name) { userId env revoked }\n  }\n"): typeof import('./graphql.js').ConsoleRevokeTestUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleTestUsers($appId: ID!, $env: String!) {\n    testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }\n  }\n"): typeof import('./graphql.js').ConsoleTestUsersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleMintTestUser($appId: ID!, $env: String!, $name: String!) {\n    createTestUser(appId: $appId, env: $env, name: $name) { userId token expiresAt env }\n  }\n"): typeof import('./graphql.js').ConsoleMintTestUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAddAppOrigin($appId: ID!, $origin: String!) {\n    addAppOrigin(appId: $appId, origin: $origin) { id }\n  }\n"): typeof import('./graphql.js').ConsoleAddAppOriginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleRemoveAppOrigin($appId: ID!, $origin: String!) {\n    removeAppOrigin(appId: $appId, origin: $origin) { id }\n  }\n"): typeof import('./graphql.js').ConsoleRemoveAppOriginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleSetAppRedirectUris($appId: ID!, $redirectUris: [String!]!) {\n    setAppRedirectUris(appId: $appId, redirectUris: $redirectUris) { id }\n  }\n"): typeof import('./graphql.js').ConsoleSetAppRedirectUrisDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleApps {\n    apps { id name origins redirectUris clientIds environments createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleAppsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleCreateApp($input: CreateAppInput!) {\n    createApp(input: $input) { id name clientIds }\n  }\n"): typeof import('./graphql.js').ConsoleCreateAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleBrowseAs($appId: ID!, $env: String!, $name: String!) {\n    createTestUser(appId: $appId, env: $env, name: $name) { userId token }\n  }\n"): typeof import('./graphql.js').ConsoleBrowseAsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBrowserResources {\n    resources { id type name memberCount visibility createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleBrowserResourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBrowserResource($resourceId: ID!) {\n    members(resourceId: $resourceId) { userId kind role state }\n    rooms(resourceId: $resourceId) { id name isDefault effectiveRole }\n  }\n"): typeof import('./graphql.js').ConsoleBrowserResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBrowserGrants($resourceId: ID!, $roomId: ID!) {\n    roomGrants(resourceId: $resourceId, roomId: $roomId) { principalId role }\n  }\n"): typeof import('./graphql.js').ConsoleBrowserGrantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBrowserRows($input: DbSelectInput!) {\n    dbSelect(input: $input) { rows nextCursor }\n  }\n"): typeof import('./graphql.js').ConsoleBrowserRowsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleBrowserFiles($bucket: String!, $resourceId: ID, $cursor: String) {\n    files(bucket: $bucket, resourceId: $resourceId, cursor: $cursor, limit: 50) { files { id path size contentType updatedAt } nextCursor }\n  }\n"): typeof import('./graphql.js').ConsoleBrowserFilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteAccount($confirm: String!) {\n    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n  }\n"): typeof import('./graphql.js').ConsoleDeleteAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleDeveloper {\n    consoleDeveloper { developerId email linkedAt }\n  }\n"): typeof import('./graphql.js').ConsoleDeveloperDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleLinkDeveloper($token: String!) {\n    linkDeveloper(token: $token) { developerId email linkedAt }\n  }\n"): typeof import('./graphql.js').ConsoleLinkDeveloperDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleUnlinkDeveloper {\n    unlinkDeveloper { ok }\n  }\n"): typeof import('./graphql.js').ConsoleUnlinkDeveloperDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleInvitations {\n    myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n  }\n"): typeof import('./graphql.js').ConsoleInvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {\n    answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) { resourceId state role }\n  }\n"): typeof import('./graphql.js').ConsoleAnswerInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleOwnedResources {\n    myOwnedResources { resourceId type name memberCount appId appName env createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleOwnedResourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {\n    deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n  }\n"): typeof import('./graphql.js').ConsoleDeleteResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleMySpend($days: Int) {\n    mySpendByDay(days: $days) {\n      appId\n      appName\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleMySpendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleEnvSpend($appId: ID!, $env: String!, $days: Int) {\n    envSpendByDay(appId: $appId, env: $env, days: $days) {\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n    usersSpendByDay(appId: $appId, env: $env, days: $days) {\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n"): typeof import('./graphql.js').ConsoleEnvSpendDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleWallet {\n    myWallet { balanceUsd entries { id kind amountUsd appId env quantity calls createdAt } }\n  }\n"): typeof import('./graphql.js').ConsoleWalletDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
