/**
 * The seed chain for API tests: developer -> app -> deployment -> users -> resource, against an
 * in-process server (app.fetch, no port unless asked) on an isolated database, with a clock the test
 * can move.
 */
import { defineSchema, type SchemaDefinition } from 'gatehouse/schema';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { buildApp, type App, type AppOptions } from '../../src/server.js';
import { createTestDatabase } from './db.js';
import { feedAttached, watchBus } from './feeds.js';

/**
 * The resource types the tests need, one per visibility and default-role variant; schemas that
 * add tables or buckets (rows.fixture.ts, files.fixture.ts) start from these.
 */
export const TEST_RESOURCES = {
  team: r => r.visibility('members').defaultRole('writer'),
  room: r => r.visibility({ default: 'members', allow: ['unlisted', 'discoverable'] }).defaultRole('writer'),
  forum: r => r.visibility('discoverable').defaultRole('reader'),
  album: r => r.visibility('unlisted').defaultRole('reader'),
  settings: r => r.visibility('unlisted').defaultRole('reader').static(['global']),
} satisfies SchemaDefinition<never>['resources'];

export const TEST_SCHEMA = defineSchema({ resources: TEST_RESOURCES });

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** How a Client reaches its server: `app.fetch` in-process, or the global fetch over a socket. */
export type Transport = (request: Request) => Promise<Response>;

const overTheNetwork: Transport = request => fetch(request);

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
    readonly transport: Transport = overTheNetwork,
  ) {}

  /** Another caller of the same server (same transport), with `token` or anonymous. */
  as(token?: string): Client {
    return new Client(this.baseUrl, token, this.transport);
  }

  /** A raw request to `path` on this client's server (no token added). */
  fetch(path: string, init?: RequestInit): Promise<Response> {
    return this.transport(new Request(this.baseUrl + path, init));
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const res = await this.fetch(path, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = any>(path: string, body: unknown = {}) {
    return this.request<T>('POST', path, body);
  }

  /** A GraphQL operation; returns the whole response ({ data, errors }), loosely typed for assertions. */
  async gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
    return (await this.request('POST', '/graphql', { query, variables })).body;
  }
}

export interface TestContext {
  app: App;
  /**
   * Where the server answers: `http://gatehouse.test` (its PUBLIC_URL host) in-process, reached only
   * through `app.fetch` (ctx.fetch, clients); a real `http://127.0.0.1:<port>` with `listen: true`.
   */
  url: string;
  /** True when the server listens on a loopback port (`listen: true`). */
  listening: boolean;
  database: Database;
  /** The server's clock; `advance` moves it (pending TTLs, link expiry, token expiry). */
  advance(ms: number): void;
  anonymous: Client;
  /** Resolves when a live feed listens on `topic` (`member:<id>`, `principal:<userId>`); see feedAttached. */
  attached(topic: string, count?: number): Promise<void>;
  /** A client of this server with `token` (anonymous without). */
  client(token?: string): Client;
  /** A raw request to `path` on this server, in-process or over the socket alike. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The in-process base URL: the PUBLIC_URL host, so requests look like ones to the deployed gateway. */
export const IN_PROCESS_URL = 'http://gatehouse.test';

export interface TestAppOptions {
  database?: Database;
  /**
   * Listen on a loopback port the OS picks (WebSocket feeds, raw sockets, child processes); the
   * default runs every request in-process through `app.fetch` and opens no port.
   */
  listen?: boolean;
  /** Extra environment for loadConfig. */
  env?: Record<string, string>;
  /** /graphql's fast path: false turns it off, onServed observes it (AppOptions.graphqlFastPath). */
  graphqlFastPath?: AppOptions['graphqlFastPath'];
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  let offset = 0;
  const config = loadConfig({
    NODE_ENV: 'test',
    // Unexpected errors (500s) print with their stack: a test that meets one says why.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    PORT: '0',
    DATA_DIR: 'memory://',
    PUBLIC_URL: 'https://gatehouse.test',
    ...options.env,
  });
  const app = await buildApp({ config, database, now: () => new Date(Date.now() + offset), graphqlFastPath: options.graphqlFastPath });
  // Subscription tests wait for their feed to attach (feedAttached), not for a fixed time.
  watchBus(app.services.deps.bus);
  const url = options.listen ? (await app.start()).url : IN_PROCESS_URL;
  const anonymous = new Client(url, undefined, options.listen ? undefined : request => app.fetch(request));
  return {
    app,
    url,
    listening: !!options.listen,
    database,
    advance: ms => {
      offset += ms;
    },
    anonymous,
    attached: (topic, count) => feedAttached(app.services.deps.bus, topic, count),
    client: token => anonymous.as(token),
    fetch: (path, init) => anonymous.fetch(path, init),
    async close() {
      await app.stop();
      await database.close();
    },
  };
}

export interface Seed {
  developer: Client;
  developerId: string;
  appId: string;
  origin: string;
  /** Test users minted in `dev`, by name. */
  users: Record<string, Client & { id: string }>;
  user(name: string): Promise<Client & { id: string }>;
}

/** The test users seed mints when not told which. */
export const DEFAULT_TEST_USERS = ['alice', 'bob', 'carol'];

/** developer -> app (with an origin) -> dev deployment -> test users. */
export async function seed(
  ctx: TestContext,
  names: string[] = DEFAULT_TEST_USERS,
  origin = `https://app-${Math.random().toString(36).slice(2, 10)}.example.test`,
): Promise<Seed> {
  const bootstrap = await ctx.app.services.principals.createDeveloperToken(`dev-${Math.random().toString(36).slice(2)}@example.test`);
  const developer = ctx.client(bootstrap.token);
  const app = await developer.post('/dev/apps', { name: 'Test app', origins: [origin] });
  if (app.status !== 200) throw new Error(`create app failed: ${JSON.stringify(app.body)}`);
  const deployed = await developer.request('PUT', `/dev/apps/${app.body.id}/deployments/dev`, { schema: TEST_SCHEMA });
  if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.body)}`);
  const users: Seed['users'] = {};
  const user = async (name: string) => {
    const minted = await developer.post(`/dev/apps/${app.body.id}/test-users`, { name, env: 'dev' });
    if (minted.status !== 200) throw new Error(`mint failed: ${JSON.stringify(minted.body)}`);
    users[name] = Object.assign(ctx.client(minted.body.token), { id: minted.body.user_id as string });
    return users[name];
  };
  for (const name of names) await user(name);
  return { developer, developerId: bootstrap.developerId, appId: app.body.id, origin, users, user };
}

/** Creates a resource as `owner` and returns its id. */
export async function createResource(owner: Client, type: string, name: string, visibility?: string): Promise<string> {
  const res = await owner.post('/v1/resources', { type, name, ...(visibility ? { visibility } : {}) });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** owner invites `member` at `role` and the member accepts. */
export async function addMember(owner: Client, member: Client & { id: string }, resourceId: string, role?: string) {
  const invite = await owner.post(`/v1/resources/${resourceId}/invite`, { userId: member.id, ...(role ? { role } : {}) });
  if (invite.status !== 200) throw new Error(`invite failed: ${JSON.stringify(invite.body)}`);
  const accept = await member.post(`/v1/resources/${resourceId}/accept`);
  if (accept.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accept.body)}`);
}
