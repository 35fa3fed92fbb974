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
    "\n  fragment SdkResource on Resource {\n    id\n    type\n    name\n    visibility\n    discoverable\n    memberCount\n    currentMember { role state }\n  }\n": typeof types.SdkResourceFragmentDoc,
    "\n  fragment SdkRoom on Room {\n    id\n    name\n    isDefault\n    currentGrant { role }\n    effectiveRole\n    createdAt\n  }\n": typeof types.SdkRoomFragmentDoc,
    "\n  fragment SdkTransition on MembershipResult {\n    ok\n    resourceId\n    state\n    role\n  }\n": typeof types.SdkTransitionFragmentDoc,
    "\n  fragment SdkUser on Principal {\n    id\n    kind\n    handle\n    displayName\n    email\n    profile { handle displayName }\n    owner { id handle displayName }\n  }\n": typeof types.SdkUserFragmentDoc,
    "\n  query SdkMe {\n    result: me { ...SdkUser }\n  }\n": typeof types.SdkMeDocument,
    "\n  mutation SdkUpdateMyProfile($input: ProfileInput!) {\n    result: updateMyProfile(input: $input) { ...SdkUser }\n  }\n": typeof types.SdkUpdateMyProfileDocument,
    "\n  mutation SdkCreateResource($input: CreateResourceInput!) {\n    result: createResource(input: $input) { ...SdkResource }\n  }\n": typeof types.SdkCreateResourceDocument,
    "\n  query SdkResources($type: String, $limit: Int, $cursor: String) {\n    result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {\n      resources { ...SdkResource }\n      nextCursor\n    }\n  }\n": typeof types.SdkResourcesDocument,
    "\n  query SdkResourceById($id: ID!) {\n    result: resource(id: $id) { ...SdkResource }\n  }\n": typeof types.SdkResourceByIdDocument,
    "\n  query SdkBrowse($type: String, $query: String, $limit: Int, $cursor: String) {\n    result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {\n      resources { id type name memberCount createdAt }\n      nextCursor\n    }\n  }\n": typeof types.SdkBrowseDocument,
    "\n  query SdkStaticResource($type: String!, $slug: String!) {\n    result: staticResource(type: $type, slug: $slug) { ...SdkResource }\n  }\n": typeof types.SdkStaticResourceDocument,
    "\n  query SdkInvitations($type: String, $limit: Int, $cursor: String) {\n    result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {\n      invitations { resourceId type name role invitedBy expiresAt }\n      nextCursor\n    }\n  }\n": typeof types.SdkInvitationsDocument,
    "\n  query SdkMembers($id: ID!, $limit: Int, $cursor: String) {\n    result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {\n      members { userId role state kind ownerId ownerHandle ownerDisplayName }\n      nextCursor\n    }\n  }\n": typeof types.SdkMembersDocument,
    "\n  mutation SdkInvite($id: ID!, $userId: ID!, $role: Role) {\n    result: invite(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }\n  }\n": typeof types.SdkInviteDocument,
    "\n  mutation SdkCreateInviteLink($id: ID!, $role: Role) {\n    result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }\n  }\n": typeof types.SdkCreateInviteLinkDocument,
    "\n  mutation SdkRequestAccess($id: ID!, $role: Role) {\n    result: requestAccess(resourceId: $id, role: $role) { ...SdkTransition }\n  }\n": typeof types.SdkRequestAccessDocument,
    "\n  mutation SdkAccept($id: ID!, $userId: ID) {\n    result: accept(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n": typeof types.SdkAcceptDocument,
    "\n  mutation SdkReject($id: ID!, $userId: ID) {\n    result: reject(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n": typeof types.SdkRejectDocument,
    "\n  mutation SdkJoin($id: ID!) {\n    result: join(resourceId: $id) { ...SdkTransition }\n  }\n": typeof types.SdkJoinDocument,
    "\n  mutation SdkLeave($id: ID!) {\n    result: leave(resourceId: $id) { ...SdkTransition }\n  }\n": typeof types.SdkLeaveDocument,
    "\n  mutation SdkSetRole($id: ID!, $userId: ID!, $role: Role!) {\n    result: setRole(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }\n  }\n": typeof types.SdkSetRoleDocument,
    "\n  mutation SdkRemoveMember($id: ID!, $userId: ID!) {\n    result: removeMember(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n": typeof types.SdkRemoveMemberDocument,
    "\n  mutation SdkClaimInviteLink($code: String!) {\n    result: claimInviteLink(code: $code) { ok resourceId state role }\n  }\n": typeof types.SdkClaimInviteLinkDocument,
    "\n  mutation SdkCreateRoom($id: ID!, $name: String!) {\n    result: createRoom(resourceId: $id, name: $name) { ...SdkRoom }\n  }\n": typeof types.SdkCreateRoomDocument,
    "\n  query SdkRooms($id: ID!) {\n    result: rooms(resourceId: $id) { ...SdkRoom }\n  }\n": typeof types.SdkRoomsDocument,
    "\n  query SdkRoom($id: ID!, $roomId: ID!) {\n    result: room(resourceId: $id, roomId: $roomId) { ...SdkRoom }\n  }\n": typeof types.SdkRoomDocument,
    "\n  mutation SdkRenameRoom($id: ID!, $roomId: ID!, $name: String!) {\n    result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...SdkRoom }\n  }\n": typeof types.SdkRenameRoomDocument,
    "\n  mutation SdkDeleteRoom($id: ID!, $roomId: ID!) {\n    result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }\n  }\n": typeof types.SdkDeleteRoomDocument,
    "\n  query SdkRoomGrants($id: ID!, $roomId: ID!) {\n    result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }\n  }\n": typeof types.SdkRoomGrantsDocument,
    "\n  mutation SdkSetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {\n    result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }\n  }\n": typeof types.SdkSetRoomGrantDocument,
    "\n  mutation SdkRemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {\n    result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }\n  }\n": typeof types.SdkRemoveRoomGrantDocument,
    "\n  query SdkMyRoomGrants {\n    result: myRoomGrants { resourceId roomId role }\n  }\n": typeof types.SdkMyRoomGrantsDocument,
    "\n  query SdkDbSelect($input: DbSelectInput!) {\n    result: dbSelect(input: $input) { rows nextCursor }\n  }\n": typeof types.SdkDbSelectDocument,
    "\n  mutation SdkDbQuery($input: DbOperationInput!) {\n    result: dbQuery(input: $input) { op ok rows nextCursor }\n  }\n": typeof types.SdkDbQueryDocument,
    "\n  mutation SdkDbBatch($operations: [DbOperationInput!]!) {\n    result: dbBatch(operations: $operations) { op ok rows nextCursor }\n  }\n": typeof types.SdkDbBatchDocument,
    "\n  subscription SdkMembersLive($resourceId: ID!) {\n    result: membersLive(resourceId: $resourceId) { op snapshot row { id resourceId userId role state } }\n  }\n": typeof types.SdkMembersLiveDocument,
    "\n  subscription SdkResourcesLive {\n    result: resourcesLive { op snapshot row { id resourceId userId role state } }\n  }\n": typeof types.SdkResourcesLiveDocument,
    "\n  subscription SdkRoomsLive {\n    result: roomsLive { op snapshot row { resourceId roomId role } }\n  }\n": typeof types.SdkRoomsLiveDocument,
    "\n  subscription SdkRowsLive($input: DbSelectInput!) {\n    result: rowsLive(input: $input) { op snapshot row }\n  }\n": typeof types.SdkRowsLiveDocument,
    "\n  query SdkUserByHandle($handle: String!) {\n    result: userByHandle(handle: $handle) { id handle displayName }\n  }\n": typeof types.SdkUserByHandleDocument,
    "\n  query SdkUserProfiles($ids: [ID!]!) {\n    result: userProfiles(ids: $ids) { id handle displayName }\n  }\n": typeof types.SdkUserProfilesDocument,
};
const documents: Documents = {
    "\n  fragment SdkResource on Resource {\n    id\n    type\n    name\n    visibility\n    discoverable\n    memberCount\n    currentMember { role state }\n  }\n": types.SdkResourceFragmentDoc,
    "\n  fragment SdkRoom on Room {\n    id\n    name\n    isDefault\n    currentGrant { role }\n    effectiveRole\n    createdAt\n  }\n": types.SdkRoomFragmentDoc,
    "\n  fragment SdkTransition on MembershipResult {\n    ok\n    resourceId\n    state\n    role\n  }\n": types.SdkTransitionFragmentDoc,
    "\n  fragment SdkUser on Principal {\n    id\n    kind\n    handle\n    displayName\n    email\n    profile { handle displayName }\n    owner { id handle displayName }\n  }\n": types.SdkUserFragmentDoc,
    "\n  query SdkMe {\n    result: me { ...SdkUser }\n  }\n": types.SdkMeDocument,
    "\n  mutation SdkUpdateMyProfile($input: ProfileInput!) {\n    result: updateMyProfile(input: $input) { ...SdkUser }\n  }\n": types.SdkUpdateMyProfileDocument,
    "\n  mutation SdkCreateResource($input: CreateResourceInput!) {\n    result: createResource(input: $input) { ...SdkResource }\n  }\n": types.SdkCreateResourceDocument,
    "\n  query SdkResources($type: String, $limit: Int, $cursor: String) {\n    result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {\n      resources { ...SdkResource }\n      nextCursor\n    }\n  }\n": types.SdkResourcesDocument,
    "\n  query SdkResourceById($id: ID!) {\n    result: resource(id: $id) { ...SdkResource }\n  }\n": types.SdkResourceByIdDocument,
    "\n  query SdkBrowse($type: String, $query: String, $limit: Int, $cursor: String) {\n    result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {\n      resources { id type name memberCount createdAt }\n      nextCursor\n    }\n  }\n": types.SdkBrowseDocument,
    "\n  query SdkStaticResource($type: String!, $slug: String!) {\n    result: staticResource(type: $type, slug: $slug) { ...SdkResource }\n  }\n": types.SdkStaticResourceDocument,
    "\n  query SdkInvitations($type: String, $limit: Int, $cursor: String) {\n    result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {\n      invitations { resourceId type name role invitedBy expiresAt }\n      nextCursor\n    }\n  }\n": types.SdkInvitationsDocument,
    "\n  query SdkMembers($id: ID!, $limit: Int, $cursor: String) {\n    result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {\n      members { userId role state kind ownerId ownerHandle ownerDisplayName }\n      nextCursor\n    }\n  }\n": types.SdkMembersDocument,
    "\n  mutation SdkInvite($id: ID!, $userId: ID!, $role: Role) {\n    result: invite(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }\n  }\n": types.SdkInviteDocument,
    "\n  mutation SdkCreateInviteLink($id: ID!, $role: Role) {\n    result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }\n  }\n": types.SdkCreateInviteLinkDocument,
    "\n  mutation SdkRequestAccess($id: ID!, $role: Role) {\n    result: requestAccess(resourceId: $id, role: $role) { ...SdkTransition }\n  }\n": types.SdkRequestAccessDocument,
    "\n  mutation SdkAccept($id: ID!, $userId: ID) {\n    result: accept(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n": types.SdkAcceptDocument,
    "\n  mutation SdkReject($id: ID!, $userId: ID) {\n    result: reject(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n": types.SdkRejectDocument,
    "\n  mutation SdkJoin($id: ID!) {\n    result: join(resourceId: $id) { ...SdkTransition }\n  }\n": types.SdkJoinDocument,
    "\n  mutation SdkLeave($id: ID!) {\n    result: leave(resourceId: $id) { ...SdkTransition }\n  }\n": types.SdkLeaveDocument,
    "\n  mutation SdkSetRole($id: ID!, $userId: ID!, $role: Role!) {\n    result: setRole(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }\n  }\n": types.SdkSetRoleDocument,
    "\n  mutation SdkRemoveMember($id: ID!, $userId: ID!) {\n    result: removeMember(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n": types.SdkRemoveMemberDocument,
    "\n  mutation SdkClaimInviteLink($code: String!) {\n    result: claimInviteLink(code: $code) { ok resourceId state role }\n  }\n": types.SdkClaimInviteLinkDocument,
    "\n  mutation SdkCreateRoom($id: ID!, $name: String!) {\n    result: createRoom(resourceId: $id, name: $name) { ...SdkRoom }\n  }\n": types.SdkCreateRoomDocument,
    "\n  query SdkRooms($id: ID!) {\n    result: rooms(resourceId: $id) { ...SdkRoom }\n  }\n": types.SdkRoomsDocument,
    "\n  query SdkRoom($id: ID!, $roomId: ID!) {\n    result: room(resourceId: $id, roomId: $roomId) { ...SdkRoom }\n  }\n": types.SdkRoomDocument,
    "\n  mutation SdkRenameRoom($id: ID!, $roomId: ID!, $name: String!) {\n    result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...SdkRoom }\n  }\n": types.SdkRenameRoomDocument,
    "\n  mutation SdkDeleteRoom($id: ID!, $roomId: ID!) {\n    result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }\n  }\n": types.SdkDeleteRoomDocument,
    "\n  query SdkRoomGrants($id: ID!, $roomId: ID!) {\n    result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }\n  }\n": types.SdkRoomGrantsDocument,
    "\n  mutation SdkSetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {\n    result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }\n  }\n": types.SdkSetRoomGrantDocument,
    "\n  mutation SdkRemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {\n    result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }\n  }\n": types.SdkRemoveRoomGrantDocument,
    "\n  query SdkMyRoomGrants {\n    result: myRoomGrants { resourceId roomId role }\n  }\n": types.SdkMyRoomGrantsDocument,
    "\n  query SdkDbSelect($input: DbSelectInput!) {\n    result: dbSelect(input: $input) { rows nextCursor }\n  }\n": types.SdkDbSelectDocument,
    "\n  mutation SdkDbQuery($input: DbOperationInput!) {\n    result: dbQuery(input: $input) { op ok rows nextCursor }\n  }\n": types.SdkDbQueryDocument,
    "\n  mutation SdkDbBatch($operations: [DbOperationInput!]!) {\n    result: dbBatch(operations: $operations) { op ok rows nextCursor }\n  }\n": types.SdkDbBatchDocument,
    "\n  subscription SdkMembersLive($resourceId: ID!) {\n    result: membersLive(resourceId: $resourceId) { op snapshot row { id resourceId userId role state } }\n  }\n": types.SdkMembersLiveDocument,
    "\n  subscription SdkResourcesLive {\n    result: resourcesLive { op snapshot row { id resourceId userId role state } }\n  }\n": types.SdkResourcesLiveDocument,
    "\n  subscription SdkRoomsLive {\n    result: roomsLive { op snapshot row { resourceId roomId role } }\n  }\n": types.SdkRoomsLiveDocument,
    "\n  subscription SdkRowsLive($input: DbSelectInput!) {\n    result: rowsLive(input: $input) { op snapshot row }\n  }\n": types.SdkRowsLiveDocument,
    "\n  query SdkUserByHandle($handle: String!) {\n    result: userByHandle(handle: $handle) { id handle displayName }\n  }\n": types.SdkUserByHandleDocument,
    "\n  query SdkUserProfiles($ids: [ID!]!) {\n    result: userProfiles(ids: $ids) { id handle displayName }\n  }\n": types.SdkUserProfilesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SdkResource on Resource {\n    id\n    type\n    name\n    visibility\n    discoverable\n    memberCount\n    currentMember { role state }\n  }\n"): typeof import('./graphql.js').SdkResourceFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SdkRoom on Room {\n    id\n    name\n    isDefault\n    currentGrant { role }\n    effectiveRole\n    createdAt\n  }\n"): typeof import('./graphql.js').SdkRoomFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SdkTransition on MembershipResult {\n    ok\n    resourceId\n    state\n    role\n  }\n"): typeof import('./graphql.js').SdkTransitionFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SdkUser on Principal {\n    id\n    kind\n    handle\n    displayName\n    email\n    profile { handle displayName }\n    owner { id handle displayName }\n  }\n"): typeof import('./graphql.js').SdkUserFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkMe {\n    result: me { ...SdkUser }\n  }\n"): typeof import('./graphql.js').SdkMeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkUpdateMyProfile($input: ProfileInput!) {\n    result: updateMyProfile(input: $input) { ...SdkUser }\n  }\n"): typeof import('./graphql.js').SdkUpdateMyProfileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkCreateResource($input: CreateResourceInput!) {\n    result: createResource(input: $input) { ...SdkResource }\n  }\n"): typeof import('./graphql.js').SdkCreateResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkResources($type: String, $limit: Int, $cursor: String) {\n    result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {\n      resources { ...SdkResource }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.js').SdkResourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkResourceById($id: ID!) {\n    result: resource(id: $id) { ...SdkResource }\n  }\n"): typeof import('./graphql.js').SdkResourceByIdDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkBrowse($type: String, $query: String, $limit: Int, $cursor: String) {\n    result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {\n      resources { id type name memberCount createdAt }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.js').SdkBrowseDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkStaticResource($type: String!, $slug: String!) {\n    result: staticResource(type: $type, slug: $slug) { ...SdkResource }\n  }\n"): typeof import('./graphql.js').SdkStaticResourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkInvitations($type: String, $limit: Int, $cursor: String) {\n    result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {\n      invitations { resourceId type name role invitedBy expiresAt }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.js').SdkInvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkMembers($id: ID!, $limit: Int, $cursor: String) {\n    result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {\n      members { userId role state kind ownerId ownerHandle ownerDisplayName }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.js').SdkMembersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkInvite($id: ID!, $userId: ID!, $role: Role) {\n    result: invite(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkInviteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkCreateInviteLink($id: ID!, $role: Role) {\n    result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }\n  }\n"): typeof import('./graphql.js').SdkCreateInviteLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkRequestAccess($id: ID!, $role: Role) {\n    result: requestAccess(resourceId: $id, role: $role) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkRequestAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkAccept($id: ID!, $userId: ID) {\n    result: accept(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkAcceptDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkReject($id: ID!, $userId: ID) {\n    result: reject(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkRejectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkJoin($id: ID!) {\n    result: join(resourceId: $id) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkJoinDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkLeave($id: ID!) {\n    result: leave(resourceId: $id) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkLeaveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkSetRole($id: ID!, $userId: ID!, $role: Role!) {\n    result: setRole(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkSetRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkRemoveMember($id: ID!, $userId: ID!) {\n    result: removeMember(resourceId: $id, userId: $userId) { ...SdkTransition }\n  }\n"): typeof import('./graphql.js').SdkRemoveMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkClaimInviteLink($code: String!) {\n    result: claimInviteLink(code: $code) { ok resourceId state role }\n  }\n"): typeof import('./graphql.js').SdkClaimInviteLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkCreateRoom($id: ID!, $name: String!) {\n    result: createRoom(resourceId: $id, name: $name) { ...SdkRoom }\n  }\n"): typeof import('./graphql.js').SdkCreateRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkRooms($id: ID!) {\n    result: rooms(resourceId: $id) { ...SdkRoom }\n  }\n"): typeof import('./graphql.js').SdkRoomsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkRoom($id: ID!, $roomId: ID!) {\n    result: room(resourceId: $id, roomId: $roomId) { ...SdkRoom }\n  }\n"): typeof import('./graphql.js').SdkRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkRenameRoom($id: ID!, $roomId: ID!, $name: String!) {\n    result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...SdkRoom }\n  }\n"): typeof import('./graphql.js').SdkRenameRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkDeleteRoom($id: ID!, $roomId: ID!) {\n    result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }\n  }\n"): typeof import('./graphql.js').SdkDeleteRoomDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkRoomGrants($id: ID!, $roomId: ID!) {\n    result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }\n  }\n"): typeof import('./graphql.js').SdkRoomGrantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkSetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {\n    result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }\n  }\n"): typeof import('./graphql.js').SdkSetRoomGrantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkRemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {\n    result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }\n  }\n"): typeof import('./graphql.js').SdkRemoveRoomGrantDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkMyRoomGrants {\n    result: myRoomGrants { resourceId roomId role }\n  }\n"): typeof import('./graphql.js').SdkMyRoomGrantsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkDbSelect($input: DbSelectInput!) {\n    result: dbSelect(input: $input) { rows nextCursor }\n  }\n"): typeof import('./graphql.js').SdkDbSelectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkDbQuery($input: DbOperationInput!) {\n    result: dbQuery(input: $input) { op ok rows nextCursor }\n  }\n"): typeof import('./graphql.js').SdkDbQueryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SdkDbBatch($operations: [DbOperationInput!]!) {\n    result: dbBatch(operations: $operations) { op ok rows nextCursor }\n  }\n"): typeof import('./graphql.js').SdkDbBatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SdkMembersLive($resourceId: ID!) {\n    result: membersLive(resourceId: $resourceId) { op snapshot row { id resourceId userId role state } }\n  }\n"): typeof import('./graphql.js').SdkMembersLiveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SdkResourcesLive {\n    result: resourcesLive { op snapshot row { id resourceId userId role state } }\n  }\n"): typeof import('./graphql.js').SdkResourcesLiveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SdkRoomsLive {\n    result: roomsLive { op snapshot row { resourceId roomId role } }\n  }\n"): typeof import('./graphql.js').SdkRoomsLiveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SdkRowsLive($input: DbSelectInput!) {\n    result: rowsLive(input: $input) { op snapshot row }\n  }\n"): typeof import('./graphql.js').SdkRowsLiveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkUserByHandle($handle: String!) {\n    result: userByHandle(handle: $handle) { id handle displayName }\n  }\n"): typeof import('./graphql.js').SdkUserByHandleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SdkUserProfiles($ids: [ID!]!) {\n    result: userProfiles(ids: $ids) { id handle displayName }\n  }\n"): typeof import('./graphql.js').SdkUserProfilesDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
