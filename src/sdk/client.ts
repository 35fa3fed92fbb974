/**
 * createClient: the app developer's entry to Gatehouse (docs/api.md §2, §4, §6, §10, §11). Auth
 * calls go to the gateway's REST routes (`/auth/*`); everything else is a typed GraphQL document
 * (./operations.ts) on `/graphql`; live feeds share one graphql-ws connection made on first use.
 */
import { Auth, defaultStorage, type KeyValueStorage } from './auth.js';
import { GatehouseError } from './errors.js';
import type {
  Role,
  SdkBrowseQuery,
  SdkClaimInviteLinkMutation,
  SdkCreateInviteLinkMutation,
  SdkInvitationsQuery,
  SdkMembersQuery,
  SdkMyRoomGrantsQuery,
  SdkResourceFragment,
  SdkRoomFragment,
  SdkRoomGrantsQuery,
  SdkSetRoomGrantMutation,
  SdkTransitionFragment,
  VisibilityChoice,
} from './generated/graphql.js';
import { GRANT_IDENTITY, MEMBER_IDENTITY, createLiveConnection, type LiveConnection, type LiveHandle, type LiveKeepAlive } from './live.js';
import {
  AcceptDocument,
  BrowseDocument,
  ClaimInviteLinkDocument,
  CreateInviteLinkDocument,
  CreateResourceDocument,
  CreateRoomDocument,
  DeleteRoomDocument,
  InvitationsDocument,
  InviteDocument,
  JoinDocument,
  LeaveDocument,
  MembersDocument,
  MembersLiveDocument,
  MyRoomGrantsDocument,
  RejectDocument,
  RemoveMemberDocument,
  RemoveRoomGrantDocument,
  RenameRoomDocument,
  RequestAccessDocument,
  ResourceDocument,
  ResourcesDocument,
  ResourcesLiveDocument,
  RoomDocument,
  RoomGrantsDocument,
  RoomsDocument,
  RoomsLiveDocument,
  SetRoleDocument,
  SetRoomGrantDocument,
  StaticResourceDocument,
} from './operations.js';
import { Bucket } from './files.js';
import { type LiveFeeds, type Row, type RowType, Table, type TableOf, type TableTypes, type Untyped } from './table.js';
import { type TokenSource, Transport } from './transport.js';
import { usersOf } from './users.js';

export type { Role, VisibilityChoice };
export type Resource = SdkResourceFragment;
export type BrowseRow = SdkBrowseQuery['result']['resources'][number];
export type Invitation = SdkInvitationsQuery['result']['invitations'][number];
export type RosterEntry = SdkMembersQuery['result']['members'][number];
export type Transition = SdkTransitionFragment;
export type InviteLink = SdkCreateInviteLinkMutation['result'];
export type InviteLinkClaim = SdkClaimInviteLinkMutation['result'];
/** A room entry (§10.2), with the id of the resource it belongs to. */
export type Room = SdkRoomFragment & { resourceId: string };
export type RoomGrant = SdkRoomGrantsQuery['result'][number];
export type RoomGrantRow = SdkMyRoomGrantsQuery['result'][number];
export type RoomGrantResult = SdkSetRoomGrantMutation['result'];
/** A page request: `limit` entries after `cursor` (a previous page's `nextCursor`). */
export interface PageOptions {
  limit?: number;
  cursor?: string | null;
}

/** Every entry of a paged list, a page per request, in order. */
async function everyPage<T>(page: (cursor: string | null) => Promise<{ rows: T[]; nextCursor: string | null }>): Promise<T[]> {
  const all: T[] = [];
  for (let cursor: string | null = null; ; ) {
    const next = await page(cursor);
    all.push(...next.rows);
    if (next.nextCursor === null) return all;
    cursor = next.nextCursor;
  }
}

/** A live membership row (§6): `{ id: '<resourceId>:<userId>', resourceId, userId, role, state }`. */
export type MemberRow = { id: string; resourceId: string; userId: string; role: Role; state: 'active' | 'invited' | 'requested' };

export interface ClientOptions {
  /**
   * The gateway, e.g. `https://gatehouse.example`. Default: on a hosted app origin (or `gatehouse
   * dev`), the one its `/_osg/config.js` names, else this page's origin + `/_osg`.
   */
  gatewayUrl?: string;
  /**
   * Browser apps: the app's OAuth client id (sign-in and refresh); the session lives in httpOnly
   * cookies. Default on a hosted origin: the one its config names.
   */
  clientId?: string;
  /** Scripts, servers, tests: a bearer token (test-session, agent or provider token), or a function answering one. */
  accessToken?: TokenSource;
  /** The redirect URI auth.signIn() sends (registered for the app). Default: the current page without query. */
  redirectUri?: string;
  /** Where the pending sign-in waits (default sessionStorage, else memory). */
  storage?: KeyValueStorage;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * Live feeds' heartbeat: a ping every `intervalMs` (default 10 s); no pong within `timeoutMs`
   * (default 5 s) reconnects the feeds (status 'offline', then 'live'). false: no pings.
   */
  keepAlive?: LiveKeepAlive | false;
}

/** A client; \`GatehouseClient<Tables>\` with the map \`gatehouse typegen\` writes types its tables. */
export type GatehouseClient<S extends TableTypes = Untyped> = ReturnType<typeof createClient<S>>;

function hostedGateway(): string {
  if (typeof location === 'undefined' || !location.origin || location.origin === 'null') {
    throw new GatehouseError({
      status: 400,
      code: 'gateway_url_required',
      message: 'createClient() without gatewayUrl works only on a hosted app origin: pass { gatewayUrl }.',
    });
  }
  return `${location.origin}/_osg`;
}

/** What a hosted page's `/_osg/config.js` sets (docs/api.md §15): its gateway and the app's client id. */
export interface HostedConfig {
  gateway: string;
  clientId: string | null;
  appId: string;
  env: string;
}

/** The config a hosted origin injected into this page, if it did. */
function injectedConfig(): HostedConfig | null {
  const config = (globalThis as { __GATEHOUSE_CONFIG__?: Partial<HostedConfig> }).__GATEHOUSE_CONFIG__;
  return config && typeof config.gateway === 'string' ? (config as HostedConfig) : null;
}

/** `/_invite/<code>` URLs and bare codes alike. */
function inviteCode(codeOrUrl: string): string {
  const match = /\/_invite\/([^/?#]+)/.exec(codeOrUrl);
  return match ? decodeURIComponent(match[1]) : codeOrUrl;
}

/**
 * A client of the gateway. \`createClient<Tables>(...)\`, with the \`Tables\` map \`gatehouse typegen\`
 * writes, types \`table(name)\` by the schema: known names only, rows as the schema declares them.
 */
export function createClient<S extends TableTypes = Untyped>(options: ClientOptions = {}) {
  // On a hosted origin (or under `gatehouse dev`) the page's injected config names the gateway and
  // client; without it the client id is fetched from `<gateway>/config.json` when sign-in needs it.
  const hosted = options.gatewayUrl === undefined ? injectedConfig() : null;
  const transport = new Transport({
    baseUrl: options.gatewayUrl ?? hosted?.gateway ?? hostedGateway(),
    clientId: options.clientId ?? hosted?.clientId ?? undefined,
    hostedConfig: options.gatewayUrl === undefined,
    accessToken: options.accessToken,
    fetch: options.fetch,
  });

  let live: LiveConnection | null = null;
  const closeLive = () => {
    live?.close();
    live = null;
  };
  /** One graphql-ws connection for every feed of this client, opened on the first `.live()`. */
  function connection(): LiveConnection {
    if (!live) {
      live = createLiveConnection({
        url: `${transport.baseUrl.replace(/^http/, 'ws')}/graphql`,
        connectionParams: async () => {
          const token = await transport.bearer();
          return token ? { authorization: `Bearer ${token}` } : {};
        },
        refresh: () => transport.refresh(),
        keepAlive: options.keepAlive,
      });
    }
    return live;
  }

  /** Row feeds share the client's one connection with the other feeds. */
  const feeds: LiveFeeds = (query, variables) => connection().subscribe(query, variables);
  /** `table(name)` in `scope`, typed by the client's table map (TableOf). */
  const tableIn = (scope: ConstructorParameters<typeof Table>[1]) =>
    ((name: string) => new Table<Row>(transport, scope, name, feeds)) as unknown as TableOf<S>;

  const resourcesPage = async (opts: PageOptions & { type?: string } = {}): Promise<{ rows: Resource[]; nextCursor: string | null }> => {
    const page = await transport.graphql(ResourcesDocument, { type: opts.type, limit: opts.limit, cursor: opts.cursor });
    return { rows: page.resources, nextCursor: page.nextCursor ?? null };
  };

  const invitationPage = async (opts: PageOptions & { type?: string } = {}): Promise<{ rows: Invitation[]; nextCursor: string | null }> => {
    const page = await transport.graphql(InvitationsDocument, { type: opts.type, limit: opts.limit, cursor: opts.cursor });
    return { rows: page.invitations, nextCursor: page.nextCursor ?? null };
  };

  const auth = new Auth(transport, options.storage ?? defaultStorage(), { redirectUri: options.redirectUri, onSignOut: closeLive });

  function members(id: string) {
    const membersPage = async (opts: PageOptions = {}): Promise<{ rows: RosterEntry[]; nextCursor: string | null }> => {
      const page = await transport.graphql(MembersDocument, { id, limit: opts.limit, cursor: opts.cursor });
      return { rows: page.members, nextCursor: page.nextCursor ?? null };
    };
    return {
      /** Active and pending rows, owner first (active members only): every page. */
      list: (): Promise<RosterEntry[]> => everyPage(cursor => membersPage({ cursor })),
      /** One page of `list()` (`limit` up to 1000); pass `nextCursor` back as `cursor` for the next. */
      page: membersPage,
      invite: async (userId: string, opts: { role?: Role } = {}): Promise<Transition> =>
        transport.graphql(InviteDocument, { id, userId, role: opts.role }),
      /** An invite link (admin+): `url` is `{app origin}/_invite/<code>`. */
      createInviteLink: async (opts: { role?: Role } = {}): Promise<InviteLink> =>
        transport.graphql(CreateInviteLinkDocument, { id, role: opts.role }),
      /** Accept your invite, or (admin+) someone's request. */
      accept: async (userId?: string): Promise<Transition> => transport.graphql(AcceptDocument, { id, userId }),
      /** Decline your invite, or (admin+) someone's request or invite. */
      reject: async (userId?: string): Promise<Transition> => transport.graphql(RejectDocument, { id, userId }),
      request: async (opts: { role?: Role } = {}): Promise<Transition> => transport.graphql(RequestAccessDocument, { id, role: opts.role }),
      join: async (): Promise<Transition> => transport.graphql(JoinDocument, { id }),
      leave: async (): Promise<Transition> => transport.graphql(LeaveDocument, { id }),
      setRole: async (userId: string, role: Role): Promise<Transition> => transport.graphql(SetRoleDocument, { id, userId, role }),
      remove: async (userId: string): Promise<Transition> => transport.graphql(RemoveMemberDocument, { id, userId }),
      /** The roster feed (§6): its snapshot, then insert/update/delete of `MemberRow`s; re-fetch `list()` for display data. */
      live: (): LiveHandle<MemberRow> => connection().subscribe<MemberRow>(MembersLiveDocument.toString(), { resourceId: id }, MEMBER_IDENTITY),
    };
  }

  function room(roomId: string, resourceId?: string) {
    const owner = resourceId ?? (roomId.startsWith('room_') ? null : roomId);
    if (!owner) {
      throw new GatehouseError({
        status: 400,
        code: 'resource_id_required',
        message: `room('${roomId}') needs its resource: room(roomId, resourceId) or resource(resourceId).room(roomId).`,
      });
    }
    const ids = { id: owner, roomId };
    const withResource = (entry: SdkRoomFragment): Room => ({ ...entry, resourceId: owner });
    return {
      id: roomId,
      resourceId: owner,
      get: async (): Promise<Room> => withResource(await transport.graphql(RoomDocument, ids)),
      rename: async (name: string): Promise<Room> => withResource(await transport.graphql(RenameRoomDocument, { ...ids, name })),
      /** Admin+; 409 `room_not_empty` while rows remain (move them with `table(name).moveRoom`). */
      delete: async (): Promise<{ ok: boolean }> => transport.graphql(DeleteRoomDocument, ids),
      grants: {
        list: async (): Promise<RoomGrant[]> => transport.graphql(RoomGrantsDocument, ids),
        set: async (userId: string, role: Role): Promise<RoomGrantResult> => transport.graphql(SetRoomGrantDocument, { ...ids, userId, role }),
        remove: async (userId: string): Promise<{ ok: boolean }> => transport.graphql(RemoveRoomGrantDocument, { ...ids, userId }),
      },
      /** The room's rows of `name` (reads and writes touch this room alone, §11.5 rule 6). */
      table: tableIn({ kind: 'resource', resourceId: owner, roomId }),
      /** The room's files of bucket `name` (this room alone). */
      files: (name: string) => new Bucket(transport, { kind: 'resource', resourceId: owner, roomId }, name),
    };
  }

  function resourceHandle(id: string) {
    return {
      id,
      /** The resource view; `currentMember` only when you are an active member. */
      get: async (): Promise<Resource> => transport.graphql(ResourceDocument, { id }),
      members: members(id),
      rooms: {
        create: async (input: { name: string }): Promise<Room> => ({
          ...(await transport.graphql(CreateRoomDocument, { id, name: input.name })),
          resourceId: id,
        }),
        /** The default room first (`isDefault`), then rooms you hold (admin+: every room). */
        list: async (): Promise<Room[]> => (await transport.graphql(RoomsDocument, { id })).map(entry => ({ ...entry, resourceId: id })),
      },
      room: (roomId: string) => room(roomId, id),
      /** The resource's rows of `name` (§11.2); reads span the rooms you may read, writes go to the default room. */
      table: tableIn({ kind: 'resource', resourceId: id }),
      /** The resource's files of bucket `name`: reads span the rooms you may read and mounts; uploads go to the default room. */
      files: (name: string) => new Bucket(transport, { kind: 'resource', resourceId: id }, name),
    };
  }

  const resource = Object.assign(resourceHandle, {
    create: async (type: string, input: { name: string; visibility?: VisibilityChoice }): Promise<Resource> =>
      transport.graphql(CreateResourceDocument, { input: { type, name: input.name, visibility: input.visibility } }),
    /** Resources where you are an active member, newest first; each entry carries `currentMember`. Every page. */
    list: (opts: { type?: string } = {}): Promise<Resource[]> => everyPage(cursor => resourcesPage({ ...opts, cursor })),
    /** One page of `list()` (`limit` up to 1000); pass `nextCursor` back as `cursor` for the next. */
    page: resourcesPage,
    /** Discoverable resources, newest first; pass `nextCursor` back as `cursor` for the next page. */
    browse: async (opts: {
      type: string;
      query?: string;
      limit?: number;
      cursor?: string | null;
    }): Promise<{ rows: BrowseRow[]; nextCursor: string | null }> => {
      const page = await transport.graphql(BrowseDocument, {
        type: opts.type,
        query: opts.query,
        limit: opts.limit,
        cursor: opts.cursor ?? undefined,
      });
      return { rows: page.resources, nextCursor: page.nextCursor ?? null };
    },
    static: async (type: string, slug: string): Promise<Resource> => transport.graphql(StaticResourceDocument, { type, slug }),
    /** Your unexpired invitations in this app environment, newest first: every page. */
    invitations: (opts: { type?: string } = {}): Promise<Invitation[]> => everyPage(cursor => invitationPage({ ...opts, cursor })),
    /** One page of `invitations()` (`limit` up to 1000); pass `nextCursor` back as `cursor` for the next. */
    invitationPage,
  });

  /** Your own membership rows across every resource (§6). */
  const membershipLive = (): LiveHandle<MemberRow> => connection().subscribe<MemberRow>(ResourcesLiveDocument.toString(), undefined, MEMBER_IDENTITY);

  return {
    /** The gateway base URL this client talks to. */
    gatewayUrl: transport.baseUrl,
    /** `cookie` (browser session) or `bearer` (accessToken). */
    mode: transport.mode,
    auth,
    /** Profiles within your app: `users.byHandle(handle)`, `users(ids).profiles()` (§5.6). */
    users: usersOf(transport),
    resource,
    resources: { live: membershipLive },
    membership: { live: membershipLive },
    invites: {
      /** Claims an invite link (a code or the whole `/_invite/<code>` URL): you become an active member. */
      claim: async (codeOrUrl: string): Promise<InviteLinkClaim> => transport.graphql(ClaimInviteLinkDocument, { code: inviteCode(codeOrUrl) }),
    },
    room,
    rooms: {
      /** Every room grant you hold, app environment wide: the snapshot `live()` updates (§10.4). */
      grants: async (): Promise<RoomGrantRow[]> => transport.graphql(MyRoomGrantsDocument),
      live: (): LiveHandle<RoomGrantRow> => connection().subscribe<RoomGrantRow>(RoomsLiveDocument.toString(), undefined, GRANT_IDENTITY),
    },
    /** Your own rows of a top-level table (`{ kind: 'user' }` scope, §11.2). */
    table: tableIn({ kind: 'user' }),
    /** Your own files in a user bucket (`files(name, ...)` at the top of the schema). */
    files: (name: string) => new Bucket(transport, { kind: 'user' }, name),
    /** Rows of a table across every resource of `type` you can read (default rooms only, §11.5 rule 8): select only. */
    typeTable: <T extends RowType = Row>(type: string, name: string) => new Table<T>(transport, { kind: 'type', type }, name),
    /** Refresh the session now (cookie mode); concurrent callers share one refresh. */
    refresh: () => transport.refresh(),
    /** How many refreshes this client has started (diagnostics). */
    get refreshCount() {
      return transport.refreshCount;
    },
    /**
     * Live feeds that lost their connection ('offline') try again now instead of after their
     * backoff: call it when the network is back (a browser's `online` event). Otherwise nothing.
     */
    reconnect: () => live?.reconnect(),
    /** Closes the live connection (every feed). */
    close: closeLive,
  };
}
