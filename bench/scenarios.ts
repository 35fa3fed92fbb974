/**
 * What each row sends. Baselines answer `GET /resources/:id` (DB rows) or `{ hello }`; the
 * Gatehouse rows are built from the seed its child announced.
 */
import type { Request } from 'autocannon';
import type { LoadOptions } from './load.js';
import type { Seed } from './servers/gatehouse-seed.js';

export const RESOURCE_QUERY =
  'query($id: ID!) { resource(id: $id) { id type name visibility discoverable memberCount currentMember { role state } } }';

export type GatehouseScenario = 'rest-get' | 'rest-list' | 'graphql-get' | 'transitions' | 'creates';
export const GATEHOUSE_SCENARIOS: GatehouseScenario[] = ['rest-get', 'rest-list', 'graphql-get', 'transitions', 'creates'];

type Workload = Pick<LoadOptions, 'requests' | 'requestsFor'>;

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const post = (path: string, body: unknown, headers: Record<string, string> = {}): Request => ({
  method: 'POST',
  path,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const helloWorkload = (): Workload => ({ requests: [{ method: 'GET', path: '/' }] });

export const graphqlHelloWorkload = (): Workload => ({ requests: [post('/graphql', { query: '{ hello }' })] });

/** The DB-floor and Prisma baselines read the same row the Gatehouse single-resource reads do. */
export const resourceRowWorkload = (resourceId: string): Workload => ({
  requests: [{ method: 'GET', path: `/resources/${encodeURIComponent(resourceId)}` }],
});

export function gatehouseWorkload(scenario: GatehouseScenario, seed: Seed): Workload {
  const reader = seed.reader.token;
  switch (scenario) {
    case 'rest-get':
      return { requests: [{ method: 'GET', path: `/v1/resources/${seed.resourceId}`, headers: auth(reader) }] };
    case 'rest-list':
      return { requests: [{ method: 'GET', path: '/v1/resources?type=room', headers: auth(reader) }] };
    case 'graphql-get':
      return { requests: [post('/graphql', { query: RESOURCE_QUERY, variables: { id: seed.resourceId } }, auth(reader))] };
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
  }
}
