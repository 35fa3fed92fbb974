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
    "\n  mutation ConsoleDeleteAccount($confirm: String!) {\n    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n  }\n": typeof types.ConsoleDeleteAccountDocument,
    "\n  query ConsoleInvitations {\n    myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n  }\n": typeof types.ConsoleInvitationsDocument,
    "\n  mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {\n    answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) { resourceId state role }\n  }\n": typeof types.ConsoleAnswerInvitationDocument,
    "\n  query ConsoleOwnedResources {\n    myOwnedResources { resourceId type name memberCount appId appName env createdAt }\n  }\n": typeof types.ConsoleOwnedResourcesDocument,
    "\n  mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {\n    deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n  }\n": typeof types.ConsoleDeleteResourceDocument,
    "\n  query ConsoleMySpend($days: Int) {\n    mySpendByDay(days: $days) {\n      appId\n      appName\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n": typeof types.ConsoleMySpendDocument,
    "\n  query ConsoleWallet {\n    myWallet { balanceUsd entries { id kind amountUsd appId env quantity createdAt } }\n  }\n": typeof types.ConsoleWalletDocument,
};
const documents: Documents = {
    "\n  query ConsoleAccount {\n    myDashboardAccount { id displayName handle email createdAt }\n  }\n": types.ConsoleAccountDocument,
    "\n  mutation ConsoleDeleteAccount($confirm: String!) {\n    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n  }\n": types.ConsoleDeleteAccountDocument,
    "\n  query ConsoleInvitations {\n    myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n  }\n": types.ConsoleInvitationsDocument,
    "\n  mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {\n    answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) { resourceId state role }\n  }\n": types.ConsoleAnswerInvitationDocument,
    "\n  query ConsoleOwnedResources {\n    myOwnedResources { resourceId type name memberCount appId appName env createdAt }\n  }\n": types.ConsoleOwnedResourcesDocument,
    "\n  mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {\n    deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n  }\n": types.ConsoleDeleteResourceDocument,
    "\n  query ConsoleMySpend($days: Int) {\n    mySpendByDay(days: $days) {\n      appId\n      appName\n      since\n      until\n      days { day readsUsd writesUsd transferUsd storageUsd totalUsd }\n      total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n    }\n  }\n": types.ConsoleMySpendDocument,
    "\n  query ConsoleWallet {\n    myWallet { balanceUsd entries { id kind amountUsd appId env quantity createdAt } }\n  }\n": types.ConsoleWalletDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConsoleAccount {\n    myDashboardAccount { id displayName handle email createdAt }\n  }\n"): typeof import('./graphql.js').ConsoleAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConsoleDeleteAccount($confirm: String!) {\n    deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n  }\n"): typeof import('./graphql.js').ConsoleDeleteAccountDocument;
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
export function graphql(source: "\n  query ConsoleWallet {\n    myWallet { balanceUsd entries { id kind amountUsd appId env quantity createdAt } }\n  }\n"): typeof import('./graphql.js').ConsoleWalletDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
