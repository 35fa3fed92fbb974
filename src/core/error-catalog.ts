/**
 * Every error code the server answers, declared once: its HTTP status and what it means. A code has
 * one status wherever it is thrown (`fail(code, message)` in ../errors.ts looks it up), so a client
 * can map a code to a status. docs/api.md §8.2 is generated from this table (`npm run docs:errors`)
 * and test/architecture/error-catalog.test.ts fails when they differ.
 *
 * `origin` says who answers a code that no server module throws: `client` (the SDK reports it
 * itself), `parser` (node's HTTP parser refused the request, answered by the edge). The embedded
 * provider's OAuth protocol errors (RFC 6749 §5.2) are the standard's namespace, not this one; the
 * gateway relays the provider's OAuth code on a refused exchange (`ProviderError`), documented here
 * as `invalid_grant` and `invalid_request`.
 */
export interface ErrorEntry {
  readonly status: number;
  /** One line: when a client sees it. Becomes the "When" cell of docs/api.md §8.2. */
  readonly meaning: string;
  readonly origin?: 'client' | 'parser';
}

export const ERROR_CATALOG = {
  // 400: the request itself is wrong
  invalid_argument: {
    status: 400,
    meaning:
      'A malformed or mistyped body, query or argument; the message names the field (`body.visibility: …`). Also a NUL byte in a body, URL or GraphQL document, and a request line or header the HTTP parser refuses',
  },
  invalid_json: { status: 400, meaning: 'The body is not JSON' },
  not_a_developer_token: { status: 400, meaning: '`linkDeveloper` (§4.2): the pasted token is not a valid developer token' },
  request_aborted: {
    status: 400,
    meaning:
      'The client closed the connection before its body arrived: the answer is written to nobody, and the server logs it at debug, not as an error',
  },
  invalid_cursor: {
    status: 400,
    meaning: 'A list (browse, your resources, members) or row-store cursor this server did not issue, or one of another query (§11.3)',
  },
  too_many_results: {
    status: 400,
    meaning:
      "GraphQL `resources`, `members` or `invitations` would return more than 1000 entries: read them a page at a time with `resourcePage` / `memberPage` / `invitationPage` (REST always pages). Lists without pages refuse past 1000 the same way: a room's grants, `myRoomGrants`, `blocks`, `apps`, `myInvitationsAcrossApps`",
  },
  unknown_table: { status: 400, meaning: 'Row store: no such table in the deployed schema (§11.1)' },
  table_not_in_scope: { status: 400, meaning: 'Row store: a table the scope cannot reach (§11.2)' },
  invalid_operation: { status: 400, meaning: 'Row store: an op field that does not belong (§11.1)' },
  unknown_column: { status: 400, meaning: 'Row store: a column the table does not have (§11.3)' },
  invalid_value: { status: 400, meaning: "Row store: a value of another type than its column's (§11.3)" },
  missing_value: { status: 400, meaning: 'Row store: a required column without a value (§11.3)' },
  column_not_writable: { status: 400, meaning: 'Row store: a value for a column the server sets (§11.3)' },
  virtual_room_id: { status: 400, meaning: 'Row store: a room id where the table has no rooms, or one that does not fit it (§11.3)' },
  row_too_large: { status: 400, meaning: 'Row store: a row over the size limit (§11.7)' },
  invalid_filter: { status: 400, meaning: 'Row store: a `where` the table cannot answer (§11.3)' },
  invalid_order: { status: 400, meaning: 'Row store: an `orderBy` the table cannot answer (§11.3)' },
  too_many_rows: {
    status: 400,
    meaning:
      'Row store: an update or delete whose `where` matches more than 1,000 rows (§11.1), or a call that writes more rows than `ROWS_MAX_WRITES_PER_CALL` (§11.7); nothing changed. GraphQL: a document that would read more rows than §9.3 allows',
  },
  invalid_path: { status: 400, meaning: 'Files: a path that breaks §13.3' },
  bucket_not_in_scope: { status: 400, meaning: 'Files: a user bucket named under a resource or the reverse (§13)' },
  confirmation_required: { status: 400, meaning: '`DELETE /v1/me` without `confirm: "delete my account"` exactly (§12.2); nothing changed' },
  invalid_schema: { status: 400, meaning: 'A deployed schema IR fails validation (`issues` lists every problem)' },
  prod_not_allowed: { status: 400, meaning: 'A test user minted for `prod`' },
  prod_confirmation_required: {
    status: 400,
    meaning: 'Deleting or resetting `prod` (or an app that has it) without `confirm=prod` (§3.2)',
  },
  invalid_redirect_uri: { status: 400, meaning: '`createApp`, `setAppRedirectUris`: a redirect URI that is not absolute and exact' },
  origin_reserved: { status: 400, meaning: "`createApp`: an origin that is one of the gateway's own hosts (§4.6)" },
  invalid_site: {
    status: 400,
    meaning:
      'Publishing a site: a file path that is empty, relative (`.`/`..`), reserved (`_osg/`, `_invite/`) or too long, or a manifest that is not `{ path: sha256 }` (§15)',
  },
  site_file_mismatch: { status: 400, meaning: 'A site file upload whose bytes do not hash to the SHA-256 its URL names; nothing was stored (§15)' },
  invalid_room: { status: 400, meaning: 'A room id that is malformed, or a room of another resource, app or environment (§10.1)' },
  default_room_immutable: { status: 400, meaning: 'Rename, delete, grant change or leave on the default room (§10.1)' },
  query_too_large: { status: 400, meaning: 'A GraphQL document over its token limit (§9.3)' },
  query_too_deep: { status: 400, meaning: 'A GraphQL document over its depth limit (§9.3)' },
  too_many_aliases: { status: 400, meaning: 'A GraphQL document over its alias limit (§9.3)' },
  too_many_directives: { status: 400, meaning: 'A GraphQL document over its directive limit (§9.3)' },
  query_too_complex: { status: 400, meaning: 'A GraphQL document over its cost limit (§9.3)' },
  introspection_disabled: { status: 400, meaning: '`__schema`/`__type` with introspection off' },
  GRAPHQL_VALIDATION_FAILED: {
    status: 400,
    meaning:
      "GraphQL: the document fails the schema's validation (an unknown field or argument, a variable declared with another type than its argument's, a missing selection); `extensions: { code, status: 400 }`. The code is graphql-yoga's, the one GraphQL clients know. A variable *value* of the wrong type is `invalid_argument`",
  },
  invalid_grant: {
    status: 400,
    meaning:
      "`POST /auth/token`, `GET /auth/callback`: the provider refused the code exchange (a used, expired or unknown code; a `code_verifier` or `redirect_uri` that does not match). The provider's OAuth code is relayed; other OAuth codes at the provider's 4xx status (§4.1)",
  },
  invalid_request: { status: 400, meaning: 'The provider refused a request as malformed: a code exchange (§4.1), or a consent `challenge`' },
  snapshot_too_large: {
    status: 400,
    meaning: "A live feed's snapshot would hold more than 5,000 rows (§6): narrow the `where`, or subscribe with `snapshot: false`",
  },
  live_protocol_error: {
    status: 400,
    meaning: 'SDK live feeds: the server closed the socket 4400/4406/4409 (a protocol error); the feed ends',
    origin: 'client',
  },

  // 401: who you are is missing or no longer holds
  unauthenticated: { status: 401, meaning: 'No credential where one is needed' },
  metrics_unauthorized: {
    status: 401,
    meaning: '`/metrics` without `Authorization: Bearer <METRICS_TOKEN>` when a token is set, or with another one (README "Metrics")',
  },
  account_deleted: { status: 401, meaning: 'A request whose own account was deleted while it ran (a row write, §12.2)' },
  invalid_token: { status: 401, meaning: 'A bearer token that is unknown or revoked' },
  token_expired: { status: 401, meaning: 'A bearer token past its expiry (the message says how to get a new one)' },
  session_expired: { status: 401, meaning: 'A session cookie that is expired, revoked or signed out: `POST /auth/refresh` or sign in again' },
  deployment_gone: { status: 401, meaning: 'The deployment a credential was issued for no longer exists' },
  invalid_refresh_token: { status: 401, meaning: '`POST /auth/refresh` without a usable refresh token (cookies cleared)' },
  app_unknown: { status: 401, meaning: 'A userinfo-checked token that names no app (send `X-Client-Id`)' },
  invalid_credentials: { status: 401, meaning: 'Embedded provider sign-in: wrong email or password' },

  // 402
  payment_required: {
    status: 402,
    meaning:
      "A metered operation the payer cannot afford: `reason` is `wallet`, `env_budget` or `app_budget`, or `storage` for an upload into a resource whose owner's wallet cannot pay for more bytes at rest; nothing changed (§14)",
  },

  // 403: you are known, and not allowed
  wrong_credential: { status: 403, meaning: 'A developer token on an app route, or the reverse (§1.1)' },
  reserved_type: { status: 403, meaning: 'Create (or another change through the API) of a `_` type' },
  visibility_not_allowed: { status: 403, meaning: "Create: a visibility outside the type's allow list" },
  members_only: { status: 403, meaning: 'Join on a members-only resource (§5.2)' },
  not_resource_member: { status: 403, meaning: 'The caller is not an active member of the resource (§5.2, §5.3)' },
  not_admin: { status: 403, meaning: 'The change needs admin or above' },
  outranked: { status: 403, meaning: 'The target is a peer, a superior or the owner' },
  grant_ceiling: { status: 403, meaning: 'A role above your own ceiling' },
  access_denied: { status: 403, meaning: 'Row store: the access rule does not admit your effective role in the default room (§11.4)' },
  room_forbidden: { status: 403, meaning: 'Row store: the access rule does not admit your effective role in a room record (§11.4)' },
  blocked: { status: 403, meaning: 'Invite or link claim across a block (either direction)' },
  agent_cannot_accept: { status: 403, meaning: 'An agent accepting an invitation (§5.2)' },
  not_invitee: { status: 403, meaning: 'Accept or reject of an invitation to someone else (§5.2)' },
  owner_cannot_leave: { status: 403, meaning: 'The owner leaving their own resource (§5.2)' },
  use_leave: { status: 403, meaning: 'Removing yourself: use leave (§5.2)' },
  invite_link_inactive: { status: 403, meaning: 'An invite link whose creator no longer exists or is no longer admin (§5.2)' },
  agents_cannot_block: { status: 403, meaning: 'An agent blocking (§5.4)' },
  agents_cannot_create_agents: { status: 403, meaning: 'An agent creating agents (§5.4)' },
  agents_cannot_delete_accounts: {
    status: 403,
    meaning:
      "Account deletion asked for an agent: the agent goes when its owner deletes their account (§12.2). A dashboard session is always a person's, so the route never answers it",
  },
  agents_cannot_edit_profiles: { status: 403, meaning: '`PATCH /v1/users/me` by an agent (§5.6)' },
  csrf_required: { status: 403, meaning: 'A cookie-authenticated state change without `X-Service-Csrf: 1`' },
  audience_mismatch: { status: 403, meaning: 'A token or session of another app (hosted origin, `/_osg/graphql`, registered `Origin`)' },
  dashboard_session_required: { status: 403, meaning: 'Dashboard routes (§4.2) without a dashboard session' },
  owner_only: { status: 403, meaning: 'Dashboard routes (§4.2): only the owner of a resource can delete it' },
  reserved_resource: { status: 403, meaning: 'Dashboard routes (§4.2): the reserved resource of an app cannot be deleted' },
  subject_reserved: { status: 403, meaning: "The provider's subject is not a valid person id" },
  loopback_only: {
    status: 403,
    meaning:
      'The `/dev/bootstrap/*` routes (§3) from another address than loopback; `/metrics` without `METRICS_TOKEN` from another address (README "Metrics")',
  },
  metrics_token_required: {
    status: 403,
    meaning: '`/metrics` on the public port in production without `METRICS_TOKEN` set: use `METRICS_PORT` or set a token (README "Metrics")',
  },
  bootstrap_secret_mismatch: { status: 403, meaning: 'The `/dev/bootstrap/*` routes (§3) without the bootstrap secret' },

  // 404: nothing there that you can see
  not_found: { status: 404, meaning: 'No such route' },
  row_not_found: {
    status: 404,
    meaning: 'Row store: `link` names an id that is not one of your own rows of the table (§11.1); other writes by id change what is there instead',
  },
  file_not_found: { status: 404, meaning: 'Files: no file you can see at the path (a file in a room you hold nothing in, never 403) (§13)' },
  unknown_bucket: { status: 404, meaning: 'Files: a bucket the deployed schema lacks (§13)' },
  blob_missing: { status: 404, meaning: 'Files: a file whose bytes are missing from the store (§13)' },
  developer_not_found: { status: 404, meaning: '`gatehouse wallet credit` for an email no developer has' },
  sdk_version_unavailable: {
    status: 404,
    meaning: '`/sdk/client@<version>.js` names a version this gateway does not serve (the message names the one it does) (§4.4)',
  },
  sdk_not_built: { status: 404, meaning: 'The server has no build of the client SDK (`npm run build:sdk`) (§4.4)' },
  console_not_built: { status: 404, meaning: 'The server has no build of the web console (`npm run build:console`) (§4.2)' },
  resource_not_found: {
    status: 404,
    meaning: 'Unknown resource; a members-only resource viewed by a non-member; a transition on a resource the caller cannot see (§5.3)',
  },
  unknown_type: { status: 404, meaning: 'A resource type the app does not declare' },
  static_not_found: { status: 404, meaning: 'No static resource of that slug and type' },
  user_not_found: { status: 404, meaning: 'No such user' },
  app_not_found: { status: 404, meaning: 'No such app (or not yours)' },
  env_not_found: { status: 404, meaning: 'Deleting, resetting or reading an environment the app has no deployment in (§3.2)' },
  invite_link_not_found: { status: 404, meaning: 'No such invite code' },
  no_pending_invite: { status: 404, meaning: 'Accept/reject of your invitation without a pending row' },
  no_pending_membership: { status: 404, meaning: "Accept/reject of someone else's request without a pending row" },
  not_member: { status: 404, meaning: 'setRole/remove/leave of a non-member' },
  room_not_found: { status: 404, meaning: 'No such room in the resource, or one you hold no grant in and do not administer (§10.2)' },
  consent_request_not_found: { status: 404, meaning: 'Unknown or expired consent challenge' },
  flow_not_found: { status: 404, meaning: 'Unknown or expired identity flow' },
  bootstrap_unavailable: { status: 404, meaning: 'Developer-token bootstrap on a server without an embedded `DATA_DIR`' },
  site_not_found: { status: 404, meaning: 'A hosted origin or site route of an environment with no published site (§15)' },
  site_version_not_found: { status: 404, meaning: 'Activating a site version number the environment does not have (§15)' },

  // 405, 406, 408
  method_not_allowed: { status: 405, meaning: 'A known path with another method' },
  not_acceptable: {
    status: 406,
    meaning:
      '`/graphql` with an `Accept` header it cannot answer: it serves `application/json`, `application/graphql-response+json`, and `text/event-stream` for subscriptions (the error body is JSON all the same)',
  },
  request_timeout: { status: 408, meaning: 'The request did not arrive in full in time; the connection is closed', origin: 'parser' },

  // 409: the state of things refuses the change
  already_member: { status: 409, meaning: 'Invite, request or join of someone already a member (§5.2)' },
  backup_in_progress: { status: 409, meaning: '`POST /dev/bootstrap/backup` while this server is writing another backup (README "Backups")' },
  already_invited: { status: 409, meaning: 'Invite of someone already invited (§5.2)' },
  pending_request: { status: 409, meaning: 'The person has a pending request to join: accept or reject it (§5.2)' },
  pending_limit: { status: 409, meaning: '50 pending invites by one member on one resource' },
  invite_link_limit: { status: 409, meaning: '50 live links by one person on one resource' },
  grantee_not_member: { status: 409, meaning: 'A room grant to someone who is not an active member of the resource: invite them first (§10.3)' },
  room_not_empty: { status: 409, meaning: 'Room delete while rows, row links or files remain in it (§10.2)' },
  room_limit: { status: 409, meaning: 'A resource already holding 1000 rooms (§10.2)' },
  file_exists: { status: 409, meaning: 'Files: `If-None-Match: *` on a taken path; a link onto a taken path (§13)' },
  file_is_mounted: { status: 409, meaning: 'Files: moving or replacing a mount (§13)' },
  unique_violation: { status: 409, meaning: "Row store: a `unique` column's value is taken in the scope (§11.3)" },
  env_not_deployed: { status: 409, meaning: "The app has no deployment in the credential's (or `GATEWAY_ENV`'s) environment" },
  site_files_missing: { status: 409, meaning: 'Publishing a site version naming files not uploaded yet: `missing` lists their SHA-256s (§15)' },
  no_previous_version: { status: 409, meaning: 'A site rollback with no version older than the active one (§15)' },
  schema_drops_data: {
    status: 409,
    meaning: 'A deploy drops a table or column that still holds data (§5.5); the answer lists `tables` and `columns`',
  },
  origin_taken: { status: 409, meaning: '`createApp`: an origin another app registered' },
  developer_already_linked: { status: 409, meaning: '`linkDeveloper` (§4.2): the developer is linked to another person; nothing changed' },
  handle_taken: { status: 409, meaning: 'A handle someone else holds, in any case (§5.6); nothing changed' },
  conflict: { status: 409, meaning: 'A concurrent request changed the same record; retry' },

  // 410: it was there, and is used up
  invite_link_used: { status: 410, meaning: 'An invite link already used (§5.2)' },
  invite_link_expired: { status: 410, meaning: 'An invite link past its expiry (§5.2)' },
  consent_request_handled: { status: 410, meaning: 'The consent request was already accepted or rejected (gateway)' },
  request_handled: { status: 410, meaning: "The consent request was already accepted or rejected (embedded provider's admin API)" },

  // 412, 413, 415, 416
  precondition_failed: { status: 412, meaning: 'Files: `If-Match` names another version than the stored one (§13)' },
  body_too_large: {
    status: 413,
    meaning: 'A body over `MAX_BODY_BYTES` (§9.1); the rest of the body is read and discarded so the client reads the answer (§9.1)',
  },
  file_too_large: {
    status: 413,
    meaning: "A file over its bucket's `maxBytes` (or `MAX_FILE_BYTES`), declared or counted while streaming; nothing is stored (§13)",
  },
  unsupported_media_type: {
    status: 415,
    meaning: '`POST /auth/token` or `POST /graphql` without a JSON body; a file whose `Content-Type` its bucket does not accept (§13)',
  },
  range_not_satisfiable: { status: 416, meaning: "Files: a `Range` beyond the file's end; `Content-Range: bytes */<size>` (§13)" },

  // 429: over a rate or a cap; nothing changed
  too_many_attempts: { status: 429, meaning: 'Embedded provider sign-in/sign-up over a limit of §9.2, with `Retry-After`' },
  too_many_subscriptions: {
    status: 429,
    meaning: "A subscribe past the per-socket or per-person cap (§9.4), as the operation's GraphQL error; the socket stays open",
  },
  too_many_sockets: {
    status: 429,
    meaning:
      'An SSE stream past `WS_MAX_SOCKETS_PER_PRINCIPAL` open streams of one person (§9.4). SDK live feeds (`gatehouse/client`) report it too when the socket was closed 4429; the feed ends',
  },
  too_many_lookups: { status: 429, meaning: 'Profile lookups past `PROFILE_LOOKUPS_PER_MINUTE` for one person and app (§5.6), with `Retry-After`' },
  too_many_resources: {
    status: 429,
    meaning: 'A create past `MAX_RESOURCES_PER_PERSON` for one person and app (§9.6); `limit` names it; nothing changed',
  },
  too_many_agents: { status: 429, meaning: 'A create past `MAX_AGENTS_PER_PERSON` for one person and app (§9.6); `limit` names it; nothing changed' },
  too_many_row_feeds: {
    status: 429,
    meaning: 'A `rowsLive` subscribe past `ROWS_LIVE_MAX_PER_RESOURCE` feeds on one resource on this server (§6, §9.4)',
  },

  // 431
  headers_too_large: {
    status: 431,
    meaning: 'A request line and headers past 16 KiB, refused by the HTTP parser. The connection is closed',
    origin: 'parser',
  },

  // 5xx: the server or what it depends on
  internal: { status: 500, meaning: 'Unexpected; logged with a request id the answer names' },
  introspection_unavailable: { status: 500, meaning: 'The gateway needs token introspection but has no credential for it' },
  provider_unavailable: { status: 502, meaning: 'The identity provider did not answer' },
  provider_error: { status: 502, meaning: 'The identity provider answered nonsense' },
  provider_admin_refused: { status: 502, meaning: "The identity provider's admin API refused the gateway's credential" },
  consent_request_invalid: { status: 502, meaning: 'The identity provider returned a consent request without a subject' },
  busy: { status: 503, meaning: 'The database had no capacity within its waits (§9.5); nothing changed; `Retry-After: 1`' },
  outcome_unknown: {
    status: 503,
    meaning:
      'The database connection was lost after a write was sent and before it was answered: it may or may not have been applied, and it was not retried. Read before writing again',
  },
  slow_consumer: { status: 503, meaning: 'A live feed fell more than 1000 events behind' },
  feed_failed: { status: 503, meaning: 'A live row feed stopped on a server error while judging a change (logged); subscribe again' },
  issuer_not_configured: { status: 503, meaning: 'No identity provider: no issuer configured' },
  consent_unavailable: { status: 503, meaning: 'No provider admin API (`OIDC_ADMIN_URL`) for the consent step' },
  identity_flows_unavailable: { status: 503, meaning: 'No provider self-service API (`OIDC_IDENTITY_URL`)' },
  temporarily_unavailable: {
    status: 503,
    meaning: '`gatehouse idp` with `IDP_PORT=0`: the provider is still starting (it takes its issuer from the port it bound); retry',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCatalog = typeof ERROR_CATALOG;
/** A code of the catalog: a typo does not compile. */
export type ErrorCode = keyof ErrorCatalog;
/** The one status of `C`. */
export type StatusOf<C extends ErrorCode> = ErrorCatalog[C]['status'];
/** The codes answered with status `S`. */
export type CodeWithStatus<S extends number> = { [C in ErrorCode]: StatusOf<C> extends S ? C : never }[ErrorCode];

export function statusOf<C extends ErrorCode>(code: C): StatusOf<C> {
  return ERROR_CATALOG[code].status;
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, code);
}
