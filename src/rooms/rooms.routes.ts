/**
 * Rooms and room grants (docs/api.md §10): REST routes that each run a stored GraphQL operation (src/http/stored-operations.ts).
 */
import { z } from 'zod';
import { graphql } from '../graphql-client/generated/index.js';
import { type StoredOperationEndpoint, storedOperation } from '../http/stored-operations.js';
import { ok, okOut, role, roleOut, roomBody, roomOut } from '../http/rest-shapes.js';

export const roomsEndpoints: StoredOperationEndpoint[] = [
  storedOperation({
    method: 'GET',
    path: '/v1/resources/grants',
    response: z.object({ grants: z.array(z.object({ resourceId: z.string(), roomId: z.string(), role: roleOut })) }),
    errors: [],
    operation: graphql(`
      query MyRoomGrants {
        result: myRoomGrants { resourceId roomId role }
      }
    `),
    variables: () => ({}),
    respond: grants => ({ grants }),
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/resources/:id/rooms',
    response: roomOut,
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'room_limit'],
    operation: graphql(`
      mutation CreateRoom($id: ID!, $name: String!) {
        result: createRoom(resourceId: $id, name: $name) { ...RoomFields }
      }
    `),
    body: roomBody,
    variables: ({ params, body }) => ({ id: params.id, name: body.name }),
    respond: room => room,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/rooms',
    response: z.object({ rooms: z.array(roomOut) }),
    errors: ['resource_not_found', 'not_resource_member'],
    operation: graphql(`
      query Rooms($id: ID!) {
        result: rooms(resourceId: $id) { ...RoomFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id }),
    respond: rooms => ({ rooms }),
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/rooms/:roomId',
    response: roomOut,
    errors: ['resource_not_found', 'not_resource_member', 'invalid_room', 'room_not_found'],
    operation: graphql(`
      query Room($id: ID!, $roomId: ID!) {
        result: room(resourceId: $id, roomId: $roomId) { ...RoomFields }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: room => room,
  }),
  storedOperation({
    method: 'PATCH',
    path: '/v1/resources/:id/rooms/:roomId',
    response: roomOut,
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'invalid_room', 'room_not_found', 'default_room_immutable'],
    operation: graphql(`
      mutation RenameRoom($id: ID!, $roomId: ID!, $name: String!) {
        result: renameRoom(resourceId: $id, roomId: $roomId, name: $name) { ...RoomFields }
      }
    `),
    body: roomBody,
    variables: ({ params, body }) => ({ id: params.id, roomId: params.roomId, name: body.name }),
    respond: room => room,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/resources/:id/rooms/:roomId',
    response: okOut,
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'invalid_room', 'room_not_found', 'default_room_immutable', 'room_not_empty'],
    operation: graphql(`
      mutation DeleteRoom($id: ID!, $roomId: ID!) {
        result: deleteRoom(resourceId: $id, roomId: $roomId) { ok }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: ok,
  }),
  storedOperation({
    method: 'GET',
    path: '/v1/resources/:id/rooms/:roomId/grants',
    response: z.object({ grants: z.array(z.object({ principalId: z.string(), role: roleOut })) }),
    errors: ['resource_not_found', 'not_resource_member', 'not_admin', 'invalid_room', 'room_not_found'],
    operation: graphql(`
      query RoomGrants($id: ID!, $roomId: ID!) {
        result: roomGrants(resourceId: $id, roomId: $roomId) { principalId role }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId }),
    respond: grants => ({ grants }),
  }),
  storedOperation({
    method: 'PUT',
    path: '/v1/resources/:id/rooms/:roomId/grants/:principal',
    response: z.object({ ok: z.literal(true), resourceId: z.string(), roomId: z.string(), principalId: z.string(), role: roleOut.nullable() }),
    errors: [
      'resource_not_found',
      'not_admin',
      'outranked',
      'grant_ceiling',
      'invalid_room',
      'room_not_found',
      'default_room_immutable',
      'not_resource_member',
      'grantee_not_member',
    ],
    operation: graphql(`
      mutation SetRoomGrant($id: ID!, $roomId: ID!, $userId: ID!, $role: Role!) {
        result: setRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId, role: $role) { ok resourceId roomId principalId role }
      }
    `),
    body: z.strictObject({ role }),
    variables: ({ params, body }) => ({ id: params.id, roomId: params.roomId, userId: params.principal, role: body.role }),
    respond: r => r,
  }),
  storedOperation({
    method: 'DELETE',
    path: '/v1/resources/:id/rooms/:roomId/grants/:principal',
    response: okOut,
    errors: ['resource_not_found', 'not_admin', 'outranked', 'invalid_room', 'room_not_found', 'default_room_immutable', 'not_resource_member'],
    operation: graphql(`
      mutation RemoveRoomGrant($id: ID!, $roomId: ID!, $userId: ID!) {
        result: removeRoomGrant(resourceId: $id, roomId: $roomId, userId: $userId) { ok }
      }
    `),
    variables: ({ params }) => ({ id: params.id, roomId: params.roomId, userId: params.principal }),
    respond: ok,
  }),
];
