/**
 * `gatehouse/client`: the Gatehouse SDK for browser apps, scripts and servers (one ESM module; its
 * only dependency is graphql-ws). README "Client SDK" is the guide; docs/api.md the contract.
 */
export type { KeyValueStorage, ProfileChange, Session, SignInOptions, User } from './auth.js';
export { pkceChallenge } from './auth.js';
export type {
  BrowseRow,
  ClientOptions,
  GatehouseClient,
  Invitation,
  InviteLink,
  InviteLinkClaim,
  PageOptions,
  MemberRow,
  Resource,
  Role,
  Room,
  RoomGrant,
  RoomGrantResult,
  RoomGrantRow,
  RosterEntry,
  Transition,
  VisibilityChoice,
} from './client.js';
export { createClient } from './client.js';
export type { HostedConfig } from './client.js';
export { GatehouseError } from './errors.js';
export type { LiveConnection, LiveEventInfo, LiveHandle, LiveKeepAlive, LiveOp, LiveRowIdentity, LiveStatus } from './live.js';
export type {
  InsertQuery,
  Operator,
  Page,
  Row,
  RowType,
  RowValues,
  SelectQuery,
  Table,
  TableOf,
  TableTypes,
  Untyped,
  UpsertOptions,
  WriteQuery,
} from './table.js';
export type { Bucket, ByteRange, FileBody, FileEntry, FileScope, UploadOptions } from './files.js';
export type { UserProfile, Users } from './users.js';
