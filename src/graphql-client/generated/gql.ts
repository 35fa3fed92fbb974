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
    "\n      query Apps {\n        result: apps { id name origins clientIds environments createdAt }\n      }\n    ": typeof types.AppsDocument,
    "\n      mutation CreateApp($input: CreateAppInput!) {\n        result: createApp(input: $input) { id name origins clientIds environments createdAt }\n      }\n    ": typeof types.CreateAppDocument,
    "\n      mutation Deploy($appId: ID!, $env: String!, $schema: JSON!) {\n        result: deploy(appId: $appId, env: $env, schema: $schema) { deploymentId appId env version resourceTypes tables buckets }\n      }\n    ": typeof types.DeployDocument,
    "\n      mutation CreateTestUser($appId: ID!, $name: String!, $env: String!) {\n        result: createTestUser(appId: $appId, name: $name, env: $env) { userId token expiresAt payer env }\n      }\n    ": typeof types.CreateTestUserDocument,
    "\n      query TestUsers($appId: ID!, $env: String!) {\n        result: testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }\n      }\n    ": typeof types.TestUsersDocument,
    "\n      mutation RemoveAppOrigin($appId: ID!, $origin: String!) {\n        result: removeAppOrigin(appId: $appId, origin: $origin) { id name origins clientIds environments createdAt }\n      }\n    ": typeof types.RemoveAppOriginDocument,
    "\n      query Developer {\n        result: developer { developerId email }\n      }\n    ": typeof types.DeveloperDocument,
    "\n      query DeployedSchema($appId: ID!, $env: String!) {\n        result: deployedSchema(appId: $appId, env: $env) { appId env version schema }\n      }\n    ": typeof types.DeployedSchemaDocument,
    "\n      mutation DeleteApp($appId: ID!, $confirm: String) {\n        result: deleteApp(appId: $appId, confirm: $confirm) { appId environments rows files resources testUsers }\n      }\n    ": typeof types.DeleteAppDocument,
    "mutation DeleteEnvironment($appId: ID!, $env: String!, $confirm: String) { result: deleteEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }": typeof types.DeleteEnvironmentDocument,
    "mutation ResetEnvironment($appId: ID!, $env: String!, $confirm: String) { result: resetEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }": typeof types.ResetEnvironmentDocument,
    "\n      query MyWallet {\n        result: myWallet { balanceUsd entries { id kind amountUsd appId env clientId actorId quantity calls createdAt } }\n      }\n    ": typeof types.MyWalletDocument,
    "\n      query Budgets($appId: ID) {\n        result: budgets(appId: $appId) { period walletUsd apps { appId name envs { env limitUsd spentUsd } users { clientId spentUsd } } }\n      }\n    ": typeof types.BudgetsDocument,
    "\n      mutation SetEnvBudget($appId: ID!, $env: String!, $usd: String!) {\n        result: setEnvBudget(appId: $appId, env: $env, usd: $usd) { appId env limitUsd }\n      }\n    ": typeof types.SetEnvBudgetDocument,
    "\n      query EnvSpendByDay($appId: ID!, $env: String!, $days: Int) {\n        result: envSpendByDay(appId: $appId, env: $env, days: $days) {\n          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n        }\n      }\n    ": typeof types.EnvSpendByDayDocument,
    "\n      query UsersSpendByDay($appId: ID!, $env: String, $days: Int) {\n        result: usersSpendByDay(appId: $appId, env: $env, days: $days) {\n          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n        }\n      }\n    ": typeof types.UsersSpendByDayDocument,
    "\n      mutation MoveFiles($resourceId: ID!, $bucket: String!, $paths: [String!]!, $roomId: ID) {\n        result: moveFiles(resourceId: $resourceId, bucket: $bucket, paths: $paths, roomId: $roomId) { ok moved }\n      }\n    ": typeof types.MoveFilesDocument,
    "\n      mutation LinkFile($resourceId: ID!, $bucket: String!, $fileId: ID!, $path: String) {\n        result: linkFile(resourceId: $resourceId, bucket: $bucket, fileId: $fileId, path: $path) {\n          id bucket path size contentType etag roomId creatorId resourceId linked createdAt updatedAt\n        }\n      }\n    ": typeof types.LinkFileDocument,
    "\n  fragment MeFields on Principal {\n    id\n    kind\n    handle\n    displayName\n    email\n    profile { handle displayName }\n  }\n": typeof types.MeFieldsFragmentDoc,
    "\n  fragment ResourceFields on Resource {\n    id\n    type\n    name\n    visibility\n    discoverable\n    memberCount\n    currentMember { role state }\n  }\n": typeof types.ResourceFieldsFragmentDoc,
    "\n  fragment RoomFields on Room {\n    id\n    name\n    isDefault\n    currentGrant { role }\n    effectiveRole\n  }\n": typeof types.RoomFieldsFragmentDoc,
    "\n  fragment DbResultFields on DbResult {\n    op\n    rows\n    nextCursor\n  }\n": typeof types.DbResultFieldsFragmentDoc,
    "\n  fragment TransitionFields on MembershipResult {\n    ok\n    resourceId\n    state\n    role\n  }\n": typeof types.TransitionFieldsFragmentDoc,
    "\n      mutation CreateResource($input: CreateResourceInput!) {\n        result: createResource(input: $input) { ...ResourceFields }\n      }\n    ": typeof types.CreateResourceDocument,
    "\n      query Resources($type: String, $limit: Int, $cursor: String) {\n        result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {\n          resources { ...ResourceFields }\n          nextCursor\n        }\n      }\n    ": typeof types.ResourcesDocument,
    "\n      query BrowseResources($type: String, $query: String, $limit: Int, $cursor: String) {\n        result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {\n          resources { id type name memberCount createdAt }\n          nextCursor\n        }\n      }\n    ": typeof types.BrowseResourcesDocument,
    "\n      query StaticResource($type: String!, $slug: String!) {\n        result: staticResource(type: $type, slug: $slug) { ...ResourceFields }\n      }\n    ": typeof types.StaticResourceDocument,
    "\n      query Invitations($type: String, $limit: Int, $cursor: String) {\n        result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {\n          invitations { resourceId type name role invitedBy expiresAt }\n          nextCursor\n        }\n      }\n    ": typeof types.InvitationsDocument,
    "\n      query Resource($id: ID!) {\n        result: resource(id: $id) { ...ResourceFields }\n      }\n    ": typeof types.ResourceDocument,
    "\n      query Members($id: ID!, $limit: Int, $cursor: String) {\n        result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {\n          members { userId role state kind ownerId ownerHandle ownerDisplayName }\n          nextCursor\n        }\n      }\n    ": typeof types.MembersDocument,
    "\n      mutation Invite($id: ID!, $userId: ID!, $role: Role) {\n        result: invite(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }\n      }\n    ": typeof types.InviteDocument,
    "\n      mutation CreateInviteLink($id: ID!, $role: Role) {\n        result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }\n      }\n    ": typeof types.CreateInviteLinkDocument,
    "\n      mutation RequestAccess($id: ID!, $role: Role) {\n        result: requestAccess(resourceId: $id, role: $role) { ...TransitionFields }\n      }\n    ": typeof types.RequestAccessDocument,
    "\n      mutation Accept($id: ID!, $userId: ID) {\n        result: accept(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    ": typeof types.AcceptDocument,
    "\n      mutation Reject($id: ID!, $userId: ID) {\n        result: reject(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    ": typeof types.RejectDocument,
    "\n      mutation Join($id: ID!) {\n        result: join(resourceId: $id) { ...TransitionFields }\n      }\n    ": typeof types.JoinDocument,
    "\n      mutation Leave($id: ID!) {\n        result: leave(resourceId: $id) { ...TransitionFields }\n      }\n    ": typeof types.LeaveDocument,
    "\n      mutation SetRole($id: ID!, $userId: ID!, $role: Role!) {\n        result: setRole(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }\n      }\n    ": typeof types.SetRoleDocument,
    "\n      mutation RemoveMember($id: ID!, $userId: ID!) {\n        result: removeMember(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    ": typeof types.RemoveMemberDocument,
    "\n      mutation ClaimInviteLink($code: String!) {\n        result: claimInviteLink(code: $code) { ok resourceId state role }\n      }\n    ": typeof types.ClaimInviteLinkDocument,
    "\n      query MyInvitationsAcrossApps {\n        result: myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n      }\n    ": typeof types.MyInvitationsAcrossAppsDocument,
    "\n      mutation DeleteResourceAsOwner($appId: ID!, $resourceId: ID!) {\n        result: deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n      }\n    ": typeof types.DeleteResourceAsOwnerDocument,
    "\n      mutation CreateAgent($name: String!) {\n        result: createAgent(name: $name) { id name ownerId token }\n      }\n    ": typeof types.CreateAgentDocument,
    "\n      query Agents {\n        result: agents { id name createdAt }\n      }\n    ": typeof types.AgentsDocument,
    "\n      mutation DeleteAgent($id: ID!) {\n        result: deleteAgent(id: $id) { ok transferred { resourceId ownerId } deleted }\n      }\n    ": typeof types.DeleteAgentDocument,
    "\n      query Me {\n        result: me { ...MeFields }\n      }\n    ": typeof types.MeDocument,
    "\n      mutation UpdateMyProfile($input: ProfileInput!) {\n        result: updateMyProfile(input: $input) { ...MeFields }\n      }\n    ": typeof types.UpdateMyProfileDocument,
    "\n      query UserByHandle($handle: String!) {\n        result: userByHandle(handle: $handle) { id handle displayName }\n      }\n    ": typeof types.UserByHandleDocument,
    "\n      query UserProfiles($ids: [ID!]!) {\n        result: userProfiles(ids: $ids) { id handle displayName }\n      }\n    ": typeof types.UserProfilesDocument,
    "\n      mutation BlockUser($userId: ID!) {\n        result: blockUser(userId: $userId) { ok userId }\n      }\n    ": typeof types.BlockUserDocument,
    "\n      query Blocks {\n        result: blocks { userId createdAt }\n      }\n    ": typeof types.BlocksDocument,
    "\n      mutation UnblockUser($userId: ID!) {\n        result: unblockUser(userId: $userId) { ok userId }\n      }\n    ": typeof types.UnblockUserDocument,
    "\n      mutation DeleteMyAccount($confirm: String!) {\n        result: deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n      }\n    ": typeof types.DeleteMyAccountDocument,
    "\n      query MyRoomGrants {\n        result: myRoomGrants { resourceId roomId role }\n      }\n    ": typeof types.MyRoomGrantsDocument,
    "\n      mutation CreateRoom($id: ID!, $name: String!) {\n        result: createRoom(resourceId: $id, name: $name) { ...RoomFields }\n      }\n    ": typeof types.CreateRoomDocument,
    "\n      query Rooms($id: ID!) {\n        result: rooms(resourceId: $id) { ...RoomFields }\n      }\n    ": typeof types.RoomsDocument,
    "\n      query Room($id: ID!, $roomId: ID!) {\n        result: room(resourceId: $id, roomId: $roomId) { ...RoomFields }\n      }\n    ": typeof types.RoomDocument,
    "\n      mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {\n        result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...RoomFields }\n      }\n    ": typeof types.RenameRoomDocument,
    "\n      mutation DeleteRoom($id: ID!, $roomId: ID!) {\n        result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }\n      }\n    ": typeof types.DeleteRoomDocument,
    "\n      query RoomGrants($id: ID!, $roomId: ID!) {\n        result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }\n      }\n    ": typeof types.RoomGrantsDocument,
    "\n      mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {\n        result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }\n      }\n    ": typeof types.SetRoomGrantDocument,
    "\n      mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {\n        result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }\n      }\n    ": typeof types.RemoveRoomGrantDocument,
    "\n      mutation DbQuery($input: DbOperationInput!) {\n        result: dbQuery(input: $input) { ...DbResultFields }\n      }\n    ": typeof types.DbQueryDocument,
    "\n      mutation DbBatch($operations: [DbOperationInput!]!) {\n        result: dbBatch(operations: $operations) { ...DbResultFields }\n      }\n    ": typeof types.DbBatchDocument,
};
const documents: Documents = {
    "\n      query Apps {\n        result: apps { id name origins clientIds environments createdAt }\n      }\n    ": types.AppsDocument,
    "\n      mutation CreateApp($input: CreateAppInput!) {\n        result: createApp(input: $input) { id name origins clientIds environments createdAt }\n      }\n    ": types.CreateAppDocument,
    "\n      mutation Deploy($appId: ID!, $env: String!, $schema: JSON!) {\n        result: deploy(appId: $appId, env: $env, schema: $schema) { deploymentId appId env version resourceTypes tables buckets }\n      }\n    ": types.DeployDocument,
    "\n      mutation CreateTestUser($appId: ID!, $name: String!, $env: String!) {\n        result: createTestUser(appId: $appId, name: $name, env: $env) { userId token expiresAt payer env }\n      }\n    ": types.CreateTestUserDocument,
    "\n      query TestUsers($appId: ID!, $env: String!) {\n        result: testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }\n      }\n    ": types.TestUsersDocument,
    "\n      mutation RemoveAppOrigin($appId: ID!, $origin: String!) {\n        result: removeAppOrigin(appId: $appId, origin: $origin) { id name origins clientIds environments createdAt }\n      }\n    ": types.RemoveAppOriginDocument,
    "\n      query Developer {\n        result: developer { developerId email }\n      }\n    ": types.DeveloperDocument,
    "\n      query DeployedSchema($appId: ID!, $env: String!) {\n        result: deployedSchema(appId: $appId, env: $env) { appId env version schema }\n      }\n    ": types.DeployedSchemaDocument,
    "\n      mutation DeleteApp($appId: ID!, $confirm: String) {\n        result: deleteApp(appId: $appId, confirm: $confirm) { appId environments rows files resources testUsers }\n      }\n    ": types.DeleteAppDocument,
    "mutation DeleteEnvironment($appId: ID!, $env: String!, $confirm: String) { result: deleteEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }": types.DeleteEnvironmentDocument,
    "mutation ResetEnvironment($appId: ID!, $env: String!, $confirm: String) { result: resetEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }": types.ResetEnvironmentDocument,
    "\n      query MyWallet {\n        result: myWallet { balanceUsd entries { id kind amountUsd appId env clientId actorId quantity calls createdAt } }\n      }\n    ": types.MyWalletDocument,
    "\n      query Budgets($appId: ID) {\n        result: budgets(appId: $appId) { period walletUsd apps { appId name envs { env limitUsd spentUsd } users { clientId spentUsd } } }\n      }\n    ": types.BudgetsDocument,
    "\n      mutation SetEnvBudget($appId: ID!, $env: String!, $usd: String!) {\n        result: setEnvBudget(appId: $appId, env: $env, usd: $usd) { appId env limitUsd }\n      }\n    ": types.SetEnvBudgetDocument,
    "\n      query EnvSpendByDay($appId: ID!, $env: String!, $days: Int) {\n        result: envSpendByDay(appId: $appId, env: $env, days: $days) {\n          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n        }\n      }\n    ": types.EnvSpendByDayDocument,
    "\n      query UsersSpendByDay($appId: ID!, $env: String, $days: Int) {\n        result: usersSpendByDay(appId: $appId, env: $env, days: $days) {\n          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n        }\n      }\n    ": types.UsersSpendByDayDocument,
    "\n      mutation MoveFiles($resourceId: ID!, $bucket: String!, $paths: [String!]!, $roomId: ID) {\n        result: moveFiles(resourceId: $resourceId, bucket: $bucket, paths: $paths, roomId: $roomId) { ok moved }\n      }\n    ": types.MoveFilesDocument,
    "\n      mutation LinkFile($resourceId: ID!, $bucket: String!, $fileId: ID!, $path: String) {\n        result: linkFile(resourceId: $resourceId, bucket: $bucket, fileId: $fileId, path: $path) {\n          id bucket path size contentType etag roomId creatorId resourceId linked createdAt updatedAt\n        }\n      }\n    ": types.LinkFileDocument,
    "\n  fragment MeFields on Principal {\n    id\n    kind\n    handle\n    displayName\n    email\n    profile { handle displayName }\n  }\n": types.MeFieldsFragmentDoc,
    "\n  fragment ResourceFields on Resource {\n    id\n    type\n    name\n    visibility\n    discoverable\n    memberCount\n    currentMember { role state }\n  }\n": types.ResourceFieldsFragmentDoc,
    "\n  fragment RoomFields on Room {\n    id\n    name\n    isDefault\n    currentGrant { role }\n    effectiveRole\n  }\n": types.RoomFieldsFragmentDoc,
    "\n  fragment DbResultFields on DbResult {\n    op\n    rows\n    nextCursor\n  }\n": types.DbResultFieldsFragmentDoc,
    "\n  fragment TransitionFields on MembershipResult {\n    ok\n    resourceId\n    state\n    role\n  }\n": types.TransitionFieldsFragmentDoc,
    "\n      mutation CreateResource($input: CreateResourceInput!) {\n        result: createResource(input: $input) { ...ResourceFields }\n      }\n    ": types.CreateResourceDocument,
    "\n      query Resources($type: String, $limit: Int, $cursor: String) {\n        result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {\n          resources { ...ResourceFields }\n          nextCursor\n        }\n      }\n    ": types.ResourcesDocument,
    "\n      query BrowseResources($type: String, $query: String, $limit: Int, $cursor: String) {\n        result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {\n          resources { id type name memberCount createdAt }\n          nextCursor\n        }\n      }\n    ": types.BrowseResourcesDocument,
    "\n      query StaticResource($type: String!, $slug: String!) {\n        result: staticResource(type: $type, slug: $slug) { ...ResourceFields }\n      }\n    ": types.StaticResourceDocument,
    "\n      query Invitations($type: String, $limit: Int, $cursor: String) {\n        result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {\n          invitations { resourceId type name role invitedBy expiresAt }\n          nextCursor\n        }\n      }\n    ": types.InvitationsDocument,
    "\n      query Resource($id: ID!) {\n        result: resource(id: $id) { ...ResourceFields }\n      }\n    ": types.ResourceDocument,
    "\n      query Members($id: ID!, $limit: Int, $cursor: String) {\n        result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {\n          members { userId role state kind ownerId ownerHandle ownerDisplayName }\n          nextCursor\n        }\n      }\n    ": types.MembersDocument,
    "\n      mutation Invite($id: ID!, $userId: ID!, $role: Role) {\n        result: invite(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }\n      }\n    ": types.InviteDocument,
    "\n      mutation CreateInviteLink($id: ID!, $role: Role) {\n        result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }\n      }\n    ": types.CreateInviteLinkDocument,
    "\n      mutation RequestAccess($id: ID!, $role: Role) {\n        result: requestAccess(resourceId: $id, role: $role) { ...TransitionFields }\n      }\n    ": types.RequestAccessDocument,
    "\n      mutation Accept($id: ID!, $userId: ID) {\n        result: accept(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    ": types.AcceptDocument,
    "\n      mutation Reject($id: ID!, $userId: ID) {\n        result: reject(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    ": types.RejectDocument,
    "\n      mutation Join($id: ID!) {\n        result: join(resourceId: $id) { ...TransitionFields }\n      }\n    ": types.JoinDocument,
    "\n      mutation Leave($id: ID!) {\n        result: leave(resourceId: $id) { ...TransitionFields }\n      }\n    ": types.LeaveDocument,
    "\n      mutation SetRole($id: ID!, $userId: ID!, $role: Role!) {\n        result: setRole(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }\n      }\n    ": types.SetRoleDocument,
    "\n      mutation RemoveMember($id: ID!, $userId: ID!) {\n        result: removeMember(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    ": types.RemoveMemberDocument,
    "\n      mutation ClaimInviteLink($code: String!) {\n        result: claimInviteLink(code: $code) { ok resourceId state role }\n      }\n    ": types.ClaimInviteLinkDocument,
    "\n      query MyInvitationsAcrossApps {\n        result: myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n      }\n    ": types.MyInvitationsAcrossAppsDocument,
    "\n      mutation DeleteResourceAsOwner($appId: ID!, $resourceId: ID!) {\n        result: deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n      }\n    ": types.DeleteResourceAsOwnerDocument,
    "\n      mutation CreateAgent($name: String!) {\n        result: createAgent(name: $name) { id name ownerId token }\n      }\n    ": types.CreateAgentDocument,
    "\n      query Agents {\n        result: agents { id name createdAt }\n      }\n    ": types.AgentsDocument,
    "\n      mutation DeleteAgent($id: ID!) {\n        result: deleteAgent(id: $id) { ok transferred { resourceId ownerId } deleted }\n      }\n    ": types.DeleteAgentDocument,
    "\n      query Me {\n        result: me { ...MeFields }\n      }\n    ": types.MeDocument,
    "\n      mutation UpdateMyProfile($input: ProfileInput!) {\n        result: updateMyProfile(input: $input) { ...MeFields }\n      }\n    ": types.UpdateMyProfileDocument,
    "\n      query UserByHandle($handle: String!) {\n        result: userByHandle(handle: $handle) { id handle displayName }\n      }\n    ": types.UserByHandleDocument,
    "\n      query UserProfiles($ids: [ID!]!) {\n        result: userProfiles(ids: $ids) { id handle displayName }\n      }\n    ": types.UserProfilesDocument,
    "\n      mutation BlockUser($userId: ID!) {\n        result: blockUser(userId: $userId) { ok userId }\n      }\n    ": types.BlockUserDocument,
    "\n      query Blocks {\n        result: blocks { userId createdAt }\n      }\n    ": types.BlocksDocument,
    "\n      mutation UnblockUser($userId: ID!) {\n        result: unblockUser(userId: $userId) { ok userId }\n      }\n    ": types.UnblockUserDocument,
    "\n      mutation DeleteMyAccount($confirm: String!) {\n        result: deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n      }\n    ": types.DeleteMyAccountDocument,
    "\n      query MyRoomGrants {\n        result: myRoomGrants { resourceId roomId role }\n      }\n    ": types.MyRoomGrantsDocument,
    "\n      mutation CreateRoom($id: ID!, $name: String!) {\n        result: createRoom(resourceId: $id, name: $name) { ...RoomFields }\n      }\n    ": types.CreateRoomDocument,
    "\n      query Rooms($id: ID!) {\n        result: rooms(resourceId: $id) { ...RoomFields }\n      }\n    ": types.RoomsDocument,
    "\n      query Room($id: ID!, $roomId: ID!) {\n        result: room(resourceId: $id, roomId: $roomId) { ...RoomFields }\n      }\n    ": types.RoomDocument,
    "\n      mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {\n        result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...RoomFields }\n      }\n    ": types.RenameRoomDocument,
    "\n      mutation DeleteRoom($id: ID!, $roomId: ID!) {\n        result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }\n      }\n    ": types.DeleteRoomDocument,
    "\n      query RoomGrants($id: ID!, $roomId: ID!) {\n        result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }\n      }\n    ": types.RoomGrantsDocument,
    "\n      mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {\n        result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }\n      }\n    ": types.SetRoomGrantDocument,
    "\n      mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {\n        result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }\n      }\n    ": types.RemoveRoomGrantDocument,
    "\n      mutation DbQuery($input: DbOperationInput!) {\n        result: dbQuery(input: $input) { ...DbResultFields }\n      }\n    ": types.DbQueryDocument,
    "\n      mutation DbBatch($operations: [DbOperationInput!]!) {\n        result: dbBatch(operations: $operations) { ...DbResultFields }\n      }\n    ": types.DbBatchDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Apps {\n        result: apps { id name origins clientIds environments createdAt }\n      }\n    "): typeof import('./graphql.js').AppsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateApp($input: CreateAppInput!) {\n        result: createApp(input: $input) { id name origins clientIds environments createdAt }\n      }\n    "): typeof import('./graphql.js').CreateAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Deploy($appId: ID!, $env: String!, $schema: JSON!) {\n        result: deploy(appId: $appId, env: $env, schema: $schema) { deploymentId appId env version resourceTypes tables buckets }\n      }\n    "): typeof import('./graphql.js').DeployDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateTestUser($appId: ID!, $name: String!, $env: String!) {\n        result: createTestUser(appId: $appId, name: $name, env: $env) { userId token expiresAt payer env }\n      }\n    "): typeof import('./graphql.js').CreateTestUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query TestUsers($appId: ID!, $env: String!) {\n        result: testUsers(appId: $appId, env: $env) { userId name createdAt hasLiveTokens }\n      }\n    "): typeof import('./graphql.js').TestUsersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RemoveAppOrigin($appId: ID!, $origin: String!) {\n        result: removeAppOrigin(appId: $appId, origin: $origin) { id name origins clientIds environments createdAt }\n      }\n    "): typeof import('./graphql.js').RemoveAppOriginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Developer {\n        result: developer { developerId email }\n      }\n    "): typeof import('./graphql.js').DeveloperDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query DeployedSchema($appId: ID!, $env: String!) {\n        result: deployedSchema(appId: $appId, env: $env) { appId env version schema }\n      }\n    "): typeof import('./graphql.js').DeployedSchemaDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DeleteApp($appId: ID!, $confirm: String) {\n        result: deleteApp(appId: $appId, confirm: $confirm) { appId environments rows files resources testUsers }\n      }\n    "): typeof import('./graphql.js').DeleteAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteEnvironment($appId: ID!, $env: String!, $confirm: String) { result: deleteEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }"): typeof import('./graphql.js').DeleteEnvironmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResetEnvironment($appId: ID!, $env: String!, $confirm: String) { result: resetEnvironment(appId: $appId, env: $env, confirm: $confirm) { appId environments rows files resources testUsers } }"): typeof import('./graphql.js').ResetEnvironmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query MyWallet {\n        result: myWallet { balanceUsd entries { id kind amountUsd appId env clientId actorId quantity calls createdAt } }\n      }\n    "): typeof import('./graphql.js').MyWalletDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Budgets($appId: ID) {\n        result: budgets(appId: $appId) { period walletUsd apps { appId name envs { env limitUsd spentUsd } users { clientId spentUsd } } }\n      }\n    "): typeof import('./graphql.js').BudgetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation SetEnvBudget($appId: ID!, $env: String!, $usd: String!) {\n        result: setEnvBudget(appId: $appId, env: $env, usd: $usd) { appId env limitUsd }\n      }\n    "): typeof import('./graphql.js').SetEnvBudgetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query EnvSpendByDay($appId: ID!, $env: String!, $days: Int) {\n        result: envSpendByDay(appId: $appId, env: $env, days: $days) {\n          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n        }\n      }\n    "): typeof import('./graphql.js').EnvSpendByDayDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query UsersSpendByDay($appId: ID!, $env: String, $days: Int) {\n        result: usersSpendByDay(appId: $appId, env: $env, days: $days) {\n          appId env since until days { day readsUsd writesUsd transferUsd storageUsd totalUsd } total { readsUsd writesUsd transferUsd storageUsd totalUsd }\n        }\n      }\n    "): typeof import('./graphql.js').UsersSpendByDayDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation MoveFiles($resourceId: ID!, $bucket: String!, $paths: [String!]!, $roomId: ID) {\n        result: moveFiles(resourceId: $resourceId, bucket: $bucket, paths: $paths, roomId: $roomId) { ok moved }\n      }\n    "): typeof import('./graphql.js').MoveFilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation LinkFile($resourceId: ID!, $bucket: String!, $fileId: ID!, $path: String) {\n        result: linkFile(resourceId: $resourceId, bucket: $bucket, fileId: $fileId, path: $path) {\n          id bucket path size contentType etag roomId creatorId resourceId linked createdAt updatedAt\n        }\n      }\n    "): typeof import('./graphql.js').LinkFileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MeFields on Principal {\n    id\n    kind\n    handle\n    displayName\n    email\n    profile { handle displayName }\n  }\n"): typeof import('./graphql.js').MeFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ResourceFields on Resource {\n    id\n    type\n    name\n    visibility\n    discoverable\n    memberCount\n    currentMember { role state }\n  }\n"): typeof import('./graphql.js').ResourceFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RoomFields on Room {\n    id\n    name\n    isDefault\n    currentGrant { role }\n    effectiveRole\n  }\n"): typeof import('./graphql.js').RoomFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DbResultFields on DbResult {\n    op\n    rows\n    nextCursor\n  }\n"): typeof import('./graphql.js').DbResultFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TransitionFields on MembershipResult {\n    ok\n    resourceId\n    state\n    role\n  }\n"): typeof import('./graphql.js').TransitionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateResource($input: CreateResourceInput!) {\n        result: createResource(input: $input) { ...ResourceFields }\n      }\n    "): typeof import('./graphql.js').CreateResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Resources($type: String, $limit: Int, $cursor: String) {\n        result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {\n          resources { ...ResourceFields }\n          nextCursor\n        }\n      }\n    "): typeof import('./graphql.js').ResourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query BrowseResources($type: String, $query: String, $limit: Int, $cursor: String) {\n        result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {\n          resources { id type name memberCount createdAt }\n          nextCursor\n        }\n      }\n    "): typeof import('./graphql.js').BrowseResourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query StaticResource($type: String!, $slug: String!) {\n        result: staticResource(type: $type, slug: $slug) { ...ResourceFields }\n      }\n    "): typeof import('./graphql.js').StaticResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Invitations($type: String, $limit: Int, $cursor: String) {\n        result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {\n          invitations { resourceId type name role invitedBy expiresAt }\n          nextCursor\n        }\n      }\n    "): typeof import('./graphql.js').InvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Resource($id: ID!) {\n        result: resource(id: $id) { ...ResourceFields }\n      }\n    "): typeof import('./graphql.js').ResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Members($id: ID!, $limit: Int, $cursor: String) {\n        result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {\n          members { userId role state kind ownerId ownerHandle ownerDisplayName }\n          nextCursor\n        }\n      }\n    "): typeof import('./graphql.js').MembersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Invite($id: ID!, $userId: ID!, $role: Role) {\n        result: invite(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').InviteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateInviteLink($id: ID!, $role: Role) {\n        result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }\n      }\n    "): typeof import('./graphql.js').CreateInviteLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RequestAccess($id: ID!, $role: Role) {\n        result: requestAccess(resourceId: $id, role: $role) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').RequestAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Accept($id: ID!, $userId: ID) {\n        result: accept(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').AcceptDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Reject($id: ID!, $userId: ID) {\n        result: reject(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').RejectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Join($id: ID!) {\n        result: join(resourceId: $id) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').JoinDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation Leave($id: ID!) {\n        result: leave(resourceId: $id) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').LeaveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation SetRole($id: ID!, $userId: ID!, $role: Role!) {\n        result: setRole(resourceId: $id, userId: $userId, role: $role) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').SetRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RemoveMember($id: ID!, $userId: ID!) {\n        result: removeMember(resourceId: $id, userId: $userId) { ...TransitionFields }\n      }\n    "): typeof import('./graphql.js').RemoveMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation ClaimInviteLink($code: String!) {\n        result: claimInviteLink(code: $code) { ok resourceId state role }\n      }\n    "): typeof import('./graphql.js').ClaimInviteLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query MyInvitationsAcrossApps {\n        result: myInvitationsAcrossApps { resourceId type name role invitedBy expiresAt appId appName env }\n      }\n    "): typeof import('./graphql.js').MyInvitationsAcrossAppsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DeleteResourceAsOwner($appId: ID!, $resourceId: ID!) {\n        result: deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) { ok }\n      }\n    "): typeof import('./graphql.js').DeleteResourceAsOwnerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateAgent($name: String!) {\n        result: createAgent(name: $name) { id name ownerId token }\n      }\n    "): typeof import('./graphql.js').CreateAgentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Agents {\n        result: agents { id name createdAt }\n      }\n    "): typeof import('./graphql.js').AgentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DeleteAgent($id: ID!) {\n        result: deleteAgent(id: $id) { ok transferred { resourceId ownerId } deleted }\n      }\n    "): typeof import('./graphql.js').DeleteAgentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Me {\n        result: me { ...MeFields }\n      }\n    "): typeof import('./graphql.js').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation UpdateMyProfile($input: ProfileInput!) {\n        result: updateMyProfile(input: $input) { ...MeFields }\n      }\n    "): typeof import('./graphql.js').UpdateMyProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query UserByHandle($handle: String!) {\n        result: userByHandle(handle: $handle) { id handle displayName }\n      }\n    "): typeof import('./graphql.js').UserByHandleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query UserProfiles($ids: [ID!]!) {\n        result: userProfiles(ids: $ids) { id handle displayName }\n      }\n    "): typeof import('./graphql.js').UserProfilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation BlockUser($userId: ID!) {\n        result: blockUser(userId: $userId) { ok userId }\n      }\n    "): typeof import('./graphql.js').BlockUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Blocks {\n        result: blocks { userId createdAt }\n      }\n    "): typeof import('./graphql.js').BlocksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation UnblockUser($userId: ID!) {\n        result: unblockUser(userId: $userId) { ok userId }\n      }\n    "): typeof import('./graphql.js').UnblockUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DeleteMyAccount($confirm: String!) {\n        result: deleteMyAccount(confirm: $confirm) { ok transferred { resourceId ownerId } deleted }\n      }\n    "): typeof import('./graphql.js').DeleteMyAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query MyRoomGrants {\n        result: myRoomGrants { resourceId roomId role }\n      }\n    "): typeof import('./graphql.js').MyRoomGrantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CreateRoom($id: ID!, $name: String!) {\n        result: createRoom(resourceId: $id, name: $name) { ...RoomFields }\n      }\n    "): typeof import('./graphql.js').CreateRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Rooms($id: ID!) {\n        result: rooms(resourceId: $id) { ...RoomFields }\n      }\n    "): typeof import('./graphql.js').RoomsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query Room($id: ID!, $roomId: ID!) {\n        result: room(resourceId: $id, roomId: $roomId) { ...RoomFields }\n      }\n    "): typeof import('./graphql.js').RoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {\n        result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...RoomFields }\n      }\n    "): typeof import('./graphql.js').RenameRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DeleteRoom($id: ID!, $roomId: ID!) {\n        result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }\n      }\n    "): typeof import('./graphql.js').DeleteRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RoomGrants($id: ID!, $roomId: ID!) {\n        result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }\n      }\n    "): typeof import('./graphql.js').RoomGrantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {\n        result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }\n      }\n    "): typeof import('./graphql.js').SetRoomGrantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {\n        result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }\n      }\n    "): typeof import('./graphql.js').RemoveRoomGrantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DbQuery($input: DbOperationInput!) {\n        result: dbQuery(input: $input) { ...DbResultFields }\n      }\n    "): typeof import('./graphql.js').DbQueryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation DbBatch($operations: [DbOperationInput!]!) {\n        result: dbBatch(operations: $operations) { ...DbResultFields }\n      }\n    "): typeof import('./graphql.js').DbBatchDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
