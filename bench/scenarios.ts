/**
 * What each row sends. Baselines answer `GET /resources/:id` (DB rows) or `{ hello }`; the
 * Gatehouse rows are built from the seed its child announced.
 */
import type { Request } from 'autocannon';
import type { LoadOptions } from './load.js';
import type { Seed } from './servers/gatehouse-seed.js';

export const RESOURCE_QUERY =
  'query($id: ID!) { resource(id: $id) { id type name visibility discoverable memberCount currentMember { role state } } }';

/** The cheapest authenticated query: the caller's own id (issue 27, item 2). */
export const ME_QUERY = '{ me { id } }';

export type GatehouseScenario =
  | 'rest-get'
  | 'rest-list'
  | 'graphql-get'
  | 'graphql-me'
  | 'transitions'
  | 'creates'
  | 'row-insert'
  | 'row-update'
  | 'row-delete'
  | 'row-upsert'
  | 'row-insert-100';
export const GATEHOUSE_SCENARIOS: GatehouseScenario[] = [
  'rest-get',
  'rest-list',
  'graphql-get',
  'graphql-me',
  'transitions',
  'creates',
  'row-insert',
  'row-update',
  'row-delete',
  'row-upsert',
  'row-insert-100',
];
export const WRITE_SCENARIOS: GatehouseScenario[] = ['row-insert', 'row-update', 'row-delete', 'row-upsert', 'row-insert-100'];

/** The peers' rows (bench/peers): PostGraphile v5 with RLS on a copy of the same data, Mercurius + graphql-jit. */
export type PeerRow = 'postgraphile-get' | 'postgraphile-create' | 'mercurius-jit';

/** What one note of the write rows holds. */
const NOTE = { title: 'Bench note', body: 'Written by the row-store write rows of npm run bench.' };

type Workload = Pick<LoadOptions, 'requests' | 'requestsFor'>;

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const post = (path: string, body: unknown, headers: Record<string, string> = {}): Request => ({
  method: 'POST',
  path,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const notesQuery = (seed: Seed, operation: Record<string, unknown>) => ({
  scope: { kind: 'resource', resourceId: seed.resourceId },
  table: 'notes',
  ...operation,
});

export const helloWorkload = (): Workload => ({ requests: [{ method: 'GET', path: '/' }] });

export const graphqlHelloWorkload = (): Workload => ({ requests: [post('/graphql', { query: '{ hello }' })] });

/** The DB-floor and Prisma baselines read the same row the Gatehouse single-resource reads do. */
export const resourceRowWorkload = (resourceId: string): Workload => ({
  requests: [{ method: 'GET', path: `/resources/${encodeURIComponent(resourceId)}` }],
});

/**
 * Baseline (b'): one prepared INSERT of the same row Gatehouse's `row-insert` writes; with `rows`,
 * (b'''), that many in one statement, as `row-insert-100` writes them (servers/db-floor.ts).
 */
export const floorInsertWorkload = (seed: Seed, rows?: number): Workload => ({
  requests: [
    post('/rows', {
      deploymentId: seed.notes.deploymentId,
      tableName: 'notes',
      creatorId: seed.reader.id,
      resourceId: seed.resourceId,
      data: rows === undefined ? NOTE : Array.from({ length: rows }, () => NOTE),
    }),
  ],
});

/** Baseline (b''): one prepared query of the same page of the reader's rooms Gatehouse's `rest-list` reads (servers/db-floor.ts). */
export const floorListWorkload = (seed: Seed): Workload => ({
  requests: [
    {
      method: 'GET',
      path: `/resources?${new URLSearchParams({ principal: seed.reader.id, deployment: seed.notes.deploymentId, type: 'room' })}`,
    },
  ],
});

/** PostGraphile's read of the same resource, and its create of the same note, as the same member (peers/postgraphile.mjs). */
export function peerWorkload(row: Exclude<PeerRow, 'mercurius-jit'>, seed: Seed): Workload {
  const caller = { 'x-principal': seed.reader.id };
  switch (row) {
    case 'postgraphile-get':
      return {
        requests: [
          post(
            '/graphql',
            {
              query: 'query($id: String!) { resourceByRowId(rowId: $id) { rowId type name membershipsByResourceId { nodes { role state } } } }',
              variables: { id: seed.resourceId },
            },
            caller,
          ),
        ],
      };
    case 'postgraphile-create':
      return {
        requests: [
          post(
            '/graphql',
            {
              query: 'mutation($row: RowInput!) { createRow(input: { row: $row }) { row { id } } }',
              variables: { row: { resourceId: seed.resourceId, tableName: 'notes', data: NOTE } },
            },
            caller,
          ),
        ],
      };
  }
}

export function gatehouseWorkload(scenario: GatehouseScenario, seed: Seed): Workload {
  const reader = seed.reader.token;
  switch (scenario) {
    case 'rest-get':
      return { requests: [{ method: 'GET', path: `/v1/resources/${seed.resourceId}`, headers: auth(reader) }] };
    case 'rest-list':
      return { requests: [{ method: 'GET', path: '/v1/resources?type=room', headers: auth(reader) }] };
    case 'graphql-get':
      return { requests: [post('/graphql', { query: RESOURCE_QUERY, variables: { id: seed.resourceId } }, auth(reader))] };
    case 'graphql-me':
      return { requests: [post('/graphql', { query: ME_QUERY }, auth(reader))] };
    case 'transitions':
      // One pair per connection (warmup connections get pairs of their own), cycling on its room:
      // every request is one transition, so 2xx/s is transitions/s. setRole moves the member off the
      // type's default (writer), so it writes.
      return {
        requestsFor: connection => {
          const pair = seed.pairs[connection];
          if (!pair) throw new Error(`transitions: only ${seed.pairs.length} seeded pairs for connection ${connection + 1}`);
          const room = `/v1/resources/${pair.resourceId}`;
          return [
            post(`${room}/invite`, { userId: pair.member.id }, auth(pair.owner.token)),
            post(`${room}/accept`, {}, auth(pair.member.token)),
            post(`${room}/setRole`, { userId: pair.member.id, role: 'reader' }, auth(pair.owner.token)),
            post(`${room}/remove`, { userId: pair.member.id }, auth(pair.owner.token)),
          ];
        },
      };
    case 'creates':
      // A user of its own, so the rooms it piles up stay out of the reader's list.
      return { requests: [post('/v1/resources', { type: 'room', name: 'Bench room' }, auth(seed.creator.token))] };
    // The row-store writes: the reader (a writer member) writes notes in the room's default room.
    case 'row-insert':
      return { requests: [post('/v1/db/query', notesQuery(seed, { op: 'insert', values: NOTE }), auth(reader))] };
    case 'row-insert-100':
      return { requests: [post('/v1/db/query', notesQuery(seed, { op: 'insert', values: Array.from({ length: 100 }, () => NOTE) }), auth(reader))] };
    case 'row-update':
      // Each connection edits a note of its own, found by filter: no two wait on one row's lock.
      return {
        requestsFor: connection => [
          post('/v1/db/query', notesQuery(seed, { op: 'update', where: { key: `update-${connection}` }, values: { title: 'Edited' } }), auth(reader)),
        ],
      };
    case 'row-upsert':
      // Presence-like: each connection upserts one row of its own by its unique key (the first inserts, the rest update).
      return {
        requestsFor: connection => [
          post(
            '/v1/db/query',
            notesQuery(seed, { op: 'upsert', values: { key: `upsert-${connection}`, title: 'Here' }, onConflict: 'key' }),
            auth(reader),
          ),
        ],
      };
    case 'row-delete': {
      // Each connection deletes the next of its own numbered notes, by filter: one row per request.
      const { deleteRowsPerConnection: per } = seed.notes;
      return {
        requestsFor: connection => {
          const end = (connection + 1) * per;
          let cursor: number | undefined;
          const request = post('/v1/db/query', {}, auth(reader));
          return [
            {
              ...request,
              // Past its seeded notes a connection asks for a path that answers 404: counted as failed, not as a delete.
              setupRequest: req => {
                const seq = cursor ?? connection * per;
                if (seq >= end) return { ...req, path: '/v1/db/query/out-of-seeded-notes' };
                cursor = seq + 1;
                return { ...req, body: JSON.stringify(notesQuery(seed, { op: 'delete', where: { seq } })) };
              },
            },
          ];
        },
      };
    }
  }
}
