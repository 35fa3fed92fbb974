/**
 * The SDK's GraphQL documents. `npm run codegen` checks each against schema/schema.graphql and
 * types it into ./generated/ (its own codegen target, so the browser bundle carries only these).
 * Every operation selects its root field as `result`.
 */
import { graphql } from './generated/index.js';

graphql(`
  fragment SdkResource on Resource {
    id
    type
    name
    visibility
    discoverable
    memberCount
    currentMember { role state }
  }
`);

graphql(`
  fragment SdkRoom on Room {
    id
    name
    isDefault
    currentGrant { role }
    effectiveRole
    createdAt
  }
`);

graphql(`
  fragment SdkTransition on MembershipResult {
    ok
    resourceId
    state
    role
  }
`);

graphql(`
  fragment SdkUser on Principal {
    id
    kind
    handle
    displayName
    email
    profile { handle displayName }
    owner { id handle displayName }
  }
`);

export const MeDocument = graphql(`
  query SdkMe {
    result: me { ...SdkUser }
  }
`);

export const UpdateMyProfileDocument = graphql(`
  mutation SdkUpdateMyProfile($input: ProfileInput!) {
    result: updateMyProfile(input: $input) { ...SdkUser }
  }
`);

export const CreateResourceDocument = graphql(`
  mutation SdkCreateResource($input: CreateResourceInput!) {
    result: createResource(input: $input) { ...SdkResource }
  }
`);

export const ResourcesDocument = graphql(`
  query SdkResources($type: String, $limit: Int, $cursor: String) {
    result: resourcePage(type: $type, limit: $limit, cursor: $cursor) {
      resources { ...SdkResource }
      nextCursor
    }
  }
`);

export const ResourceDocument = graphql(`
  query SdkResourceById($id: ID!) {
    result: resource(id: $id) { ...SdkResource }
  }
`);

export const BrowseDocument = graphql(`
  query SdkBrowse($type: String, $query: String, $limit: Int, $cursor: String) {
    result: browseResources(type: $type, query: $query, limit: $limit, cursor: $cursor) {
      resources { id type name memberCount createdAt }
      nextCursor
    }
  }
`);

export const StaticResourceDocument = graphql(`
  query SdkStaticResource($type: String!, $slug: String!) {
    result: staticResource(type: $type, slug: $slug) { ...SdkResource }
  }
`);

export const InvitationsDocument = graphql(`
  query SdkInvitations($type: String, $limit: Int, $cursor: String) {
    result: invitationPage(type: $type, limit: $limit, cursor: $cursor) {
      invitations { resourceId type name role invitedBy expiresAt }
      nextCursor
    }
  }
`);

export const MembersDocument = graphql(`
  query SdkMembers($id: ID!, $limit: Int, $cursor: String) {
    result: memberPage(resourceId: $id, limit: $limit, cursor: $cursor) {
      members { userId role state kind ownerId ownerHandle ownerDisplayName }
      nextCursor
    }
  }
`);

export const InviteDocument = graphql(`
  mutation SdkInvite($id: ID!, $userId: ID!, $role: Role) {
    result: invite(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }
  }
`);

export const CreateInviteLinkDocument = graphql(`
  mutation SdkCreateInviteLink($id: ID!, $role: Role) {
    result: createInviteLink(resourceId: $id, role: $role) { url role expiresAt }
  }
`);

export const RequestAccessDocument = graphql(`
  mutation SdkRequestAccess($id: ID!, $role: Role) {
    result: requestAccess(resourceId: $id, role: $role) { ...SdkTransition }
  }
`);

export const AcceptDocument = graphql(`
  mutation SdkAccept($id: ID!, $userId: ID) {
    result: accept(resourceId: $id, userId: $userId) { ...SdkTransition }
  }
`);

export const RejectDocument = graphql(`
  mutation SdkReject($id: ID!, $userId: ID) {
    result: reject(resourceId: $id, userId: $userId) { ...SdkTransition }
  }
`);

export const JoinDocument = graphql(`
  mutation SdkJoin($id: ID!) {
    result: join(resourceId: $id) { ...SdkTransition }
  }
`);

export const LeaveDocument = graphql(`
  mutation SdkLeave($id: ID!) {
    result: leave(resourceId: $id) { ...SdkTransition }
  }
`);

export const SetRoleDocument = graphql(`
  mutation SdkSetRole($id: ID!, $userId: ID!, $role: Role!) {
    result: setRole(resourceId: $id, userId: $userId, role: $role) { ...SdkTransition }
  }
`);

export const RemoveMemberDocument = graphql(`
  mutation SdkRemoveMember($id: ID!, $userId: ID!) {
    result: removeMember(resourceId: $id, userId: $userId) { ...SdkTransition }
  }
`);

export const ClaimInviteLinkDocument = graphql(`
  mutation SdkClaimInviteLink($code: String!) {
    result: claimInviteLink(code: $code) { ok resourceId state role }
  }
`);

export const CreateRoomDocument = graphql(`
  mutation SdkCreateRoom($id: ID!, $name: String!) {
    result: createRoom(resourceId: $id, name: $name) { ...SdkRoom }
  }
`);

export const RoomsDocument = graphql(`
  query SdkRooms($id: ID!) {
    result: rooms(resourceId: $id) { ...SdkRoom }
  }
`);

export const RoomDocument = graphql(`
  query SdkRoom($id: ID!, $roomId: ID!) {
    result: room(resourceId: $id, roomId: $roomId) { ...SdkRoom }
  }
`);

export const RenameRoomDocument = graphql(`
  mutation SdkRenameRoom($id: ID!, $roomId: ID!, $name: String!) {
    result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...SdkRoom }
  }
`);

export const DeleteRoomDocument = graphql(`
  mutation SdkDeleteRoom($id: ID!, $roomId: ID!) {
    result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }
  }
`);

export const RoomGrantsDocument = graphql(`
  query SdkRoomGrants($id: ID!, $roomId: ID!) {
    result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }
  }
`);

export const SetRoomGrantDocument = graphql(`
  mutation SdkSetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {
    result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }
  }
`);

export const RemoveRoomGrantDocument = graphql(`
  mutation SdkRemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {
    result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }
  }
`);

export const MyRoomGrantsDocument = graphql(`
  query SdkMyRoomGrants {
    result: myRoomGrants { resourceId roomId role }
  }
`);

export const DbSelectDocument = graphql(`
  query SdkDbSelect($input: DbSelectInput!) {
    result: dbSelect(input: $input) { rows nextCursor }
  }
`);

export const DbQueryDocument = graphql(`
  mutation SdkDbQuery($input: DbOperationInput!) {
    result: dbQuery(input: $input) { op ok rows nextCursor }
  }
`);

export const DbBatchDocument = graphql(`
  mutation SdkDbBatch($operations: [DbOperationInput!]!) {
    result: dbBatch(operations: $operations) { op ok rows nextCursor }
  }
`);

// Live feeds (docs/api.md §6, §10.4): each yields the snapshot (`insert`s marked `snapshot`), `ready`,
// then `{ op, row }` changes; the live connection reconciles them and hands rows to the handle's listeners.
export const MembersLiveDocument = graphql(`
  subscription SdkMembersLive($resourceId: ID!) {
    result: membersLive(resourceId: $resourceId) { op snapshot row { id resourceId userId role state } }
  }
`);

export const ResourcesLiveDocument = graphql(`
  subscription SdkResourcesLive {
    result: resourcesLive { op snapshot row { id resourceId userId role state } }
  }
`);

export const RoomsLiveDocument = graphql(`
  subscription SdkRoomsLive {
    result: roomsLive { op snapshot row { resourceId roomId role } }
  }
`);

export const RowsLiveDocument = graphql(`
  subscription SdkRowsLive($input: DbSelectInput!) {
    result: rowsLive(input: $input) { op snapshot row }
  }
`);
