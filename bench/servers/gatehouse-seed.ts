/**
 * Seeds a running Gatehouse for the benchmark through the same chain the API tests use:
 * developer token (in process) -> app -> dev deployment -> test users -> resources, all over HTTP.
 */
import { randomBytes } from 'node:crypto';
import type { Services } from '../../src/services.js';
import { TEST_SCHEMA } from '../../test/helpers/app.js';

/** The API tests' room type: members-only by default, any visibility allowed. */
const MEMBERS_ONLY = TEST_SCHEMA.resources.room;

const col = (type: string, extra: Record<string, unknown> = {}) => ({ type, notNull: false, unique: false, ...extra });

/**
 * Rooms own `notes`, the row-store write rows' table: `key` is unique (the upsert's conflict key and
 * the update's filter), `seq` numbers the rows the delete row removes one by one.
 */
export const BENCH_SCHEMA = {
  version: 1,
  tables: {
    notes: {
      columns: { key: col('text', { unique: true }), seq: col('integer'), title: col('text', { notNull: true }), body: col('text') },
      timestamps: true,
      indexes: [['key'], ['seq']],
      access: null,
      onOwnerDelete: 'remove',
      ownedBy: 'room',
    },
  },
  resources: { room: { ...MEMBERS_ONLY, owns: [{ table: 'notes', access: null }] }, team: MEMBERS_ONLY },
};

export interface User {
  id: string;
  token: string;
}

/** One owner and one would-be member cycling invite -> accept -> setRole -> remove on their own room. */
export interface Pair {
  resourceId: string;
  owner: User;
  member: User;
}

export interface Seed {
  /** A user who is an active member of `rooms` rooms (and of a few teams the list filter skips). */
  reader: User;
  /** A room `reader` was invited to and accepted (a writer, not the owner): the single-resource read. */
  resourceId: string;
  rooms: number;
  pairs: Pair[];
  /** Creates rooms in the `creates` row (a user of its own, so the reader's list stays 10 rooms). */
  creator: User;
  /** The row-store write rows: `reader` writes `notes` in the default room of `resourceId`. */
  notes: NotesSeed;
}

export interface NotesSeed {
  deploymentId: string;
  /** Rows keyed `update-<connection>`, one per connection: the update-by-filter row's targets. */
  updateKeys: number;
  /** Rows with `seq` from connection x perConnection up, for the delete-by-filter row. */
  deleteRowsPerConnection: number;
  /** How many: `seq` 0 to deletable - 1; `template` is the one written through the API (seq 0). */
  deletable: number;
  template: string;
}

export interface SeedOptions {
  rooms: number;
  teams: number;
  pairs: number;
  /** Notes for the delete row, per connection (0: none). Connections are `pairs` (warmup and measured). */
  deleteRowsPerConnection?: number;
  /** Parallel seeding requests. */
  concurrency?: number;
}

export async function seedGatehouse(url: string, services: Services, options: SeedOptions): Promise<Seed> {
  const tag = randomBytes(4).toString('hex');
  const developer = await services.principals.createDeveloperToken(`bench-${tag}@example.test`);
  const call = client(url);
  const app = await call<{ id: string }>(developer.token, 'POST', '/dev/apps', { name: 'Bench', origins: [`https://bench-${tag}.example.test`] });
  await call(developer.token, 'PUT', `/dev/apps/${app.id}/deployments/dev`, { schema: BENCH_SCHEMA });

  const user = async (name: string): Promise<User> => {
    const minted = await call<{ user_id: string; token: string }>(developer.token, 'POST', `/dev/apps/${app.id}/test-users`, { name, env: 'dev' });
    return { id: minted.user_id, token: minted.token };
  };
  const createResource = async (owner: User, type: string, name: string) =>
    (await call<{ id: string }>(owner.token, 'POST', '/v1/resources', { type, name })).id;

  const [reader, host, creator] = [await user('reader'), await user('host'), await user('creator')];
  const resourceId = await createResource(host, 'room', 'Shared room');
  await call(host.token, 'POST', `/v1/resources/${resourceId}/invite`, { userId: reader.id });
  await call(reader.token, 'POST', `/v1/resources/${resourceId}/accept`, {});
  for (let i = 1; i < options.rooms; i++) await createResource(reader, 'room', `Room ${i}`);
  for (let i = 0; i < options.teams; i++) await createResource(reader, 'team', `Team ${i}`);

  const pairs = await mapLimit(options.pairs, options.concurrency ?? 8, async i => {
    const [owner, member] = [await user(`owner-${i}`), await user(`member-${i}`)];
    return { resourceId: await createResource(owner, 'room', `Pair room ${i}`), owner, member };
  });
  // The write rows' notes: one per connection to update, and numbered rows to delete, 100 per request.
  const writeNotes = (values: Record<string, unknown>[]) =>
    call<{ rows: { id: string }[] }>(reader.token, 'POST', '/v1/db/query', {
      scope: { kind: 'resource', resourceId },
      table: 'notes',
      op: 'insert',
      values,
    });
  const connections = options.pairs;
  for (let i = 0; i < connections; i += 100)
    await writeNotes(Array.from({ length: Math.min(100, connections - i) }, (_, j) => ({ key: `update-${i + j}`, title: 'To edit' })));
  // The delete row's notes: the first through the API, the rest copied from it by the child (thousands; set-based SQL).
  const deletable = connections * (options.deleteRowsPerConnection ?? 0);
  const template = deletable ? (await writeNotes([{ seq: 0, title: 'To delete' }])).rows[0].id : '';
  const notes = { deploymentId: '', updateKeys: connections, deleteRowsPerConnection: options.deleteRowsPerConnection ?? 0, deletable, template };
  return { reader, resourceId, rooms: options.rooms, pairs, creator, notes };
}

/** POSTs and PUTs with a bearer token that must answer 200 (the other benchmark children seed through it too). */
export function client(baseUrl: string) {
  return async function call<T = unknown>(token: string, method: string, path: string, body: unknown): Promise<T> {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`seed: ${method} ${path} -> ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

export async function mapLimit<T>(count: number, limit: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}
