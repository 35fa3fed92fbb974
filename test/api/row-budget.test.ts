/**
 * The row budget (src/graphql/row-budget.ts): one GraphQL operation may ask the store for at most
 * `maxRows` rows, the sum of its list fields' limits (variables counted at their values). A cheap
 * document of 20 aliases of `memberPage(limit: 1000)` is refused before anything runs, on Yoga and
 * on the fast path alike; ordinary documents, and the same fields with small pages, pass.
 */
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/graphql/limits.js';
import { operationRows } from '../../src/graphql/row-budget.js';
import { schema } from '../../src/graphql/schema.js';
import { storedOperationEndpoints as routes } from '../../src/http/routes.js';
import { createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const { maxRows } = DEFAULT_GRAPHQL_LIMITS;

/** `count` aliases of `field` selecting `selection`. */
const aliases = (count: number, field: string, selection: string) =>
  Array.from({ length: count }, (_, i) => `a${i}: ${field} { ${selection} }`).join('\n');

describe('operationRows: what an operation may read', () => {
  const rows = (query: string, variables?: Record<string, unknown>) => operationRows(schema, parse(query))(variables);

  it('sums pages by their limit, the default when absent, whole lists at their bound', () => {
    expect(rows('{ memberPage(resourceId: "r", limit: 10) { nextCursor } }')).toBe(10);
    expect(rows('{ memberPage(resourceId: "r") { nextCursor } }')).toBe(1000);
    expect(rows('{ browseResources { nextCursor } }')).toBe(20);
    expect(rows('{ a: members(resourceId: "r") { userId } b: blocks { userId } me { id } }')).toBe(2000);
    expect(rows('{ me { id } resource(id: "r") { id } }')).toBe(0);
  });

  it('counts variables at their values, and operation defaults', () => {
    const query = 'query($l: Int = 7) { a: memberPage(resourceId: "r", limit: $l) { nextCursor } b: resourcePage(limit: $l) { nextCursor } }';
    expect(rows(query, {})).toBe(14);
    expect(rows(query, { l: 300 })).toBe(600);
    expect(rows(query, { l: 'many' })).toBeNull(); // execution refuses it with its own message
  });

  it('counts an out-of-range limit as the maximum (the field refuses it as invalid_argument)', () => {
    expect(rows('{ memberPage(resourceId: "r", limit: 2147483647) { nextCursor } }')).toBe(1000);
  });

  it('counts a response key once however many fragments select it, and walks each fragment once', () => {
    // 2^16 spreads of one field: merged by GraphQL into one field, so one page.
    const fragments = Array.from({ length: 16 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join('\n');
    const bomb = `query { ...F0 } ${fragments} fragment F16 on Query { memberPage(resourceId: "r", limit: 900) { nextCursor } }`;
    expect(rows(bomb)).toBe(900);
  });

  it('weighs the row store by its selects', () => {
    const select = (limit: number) => `{ op: select, table: "t", scope: { kind: user }, limit: ${limit} }`;
    expect(
      rows(`mutation { dbBatch(operations: [${select(200)}, ${select(5)}, { op: delete, table: "t", scope: { kind: user }, ids: ["x"] }]) { ok } }`),
    ).toBe(205);
    expect(rows('{ dbSelect(input: { table: "t", scope: { kind: user }, ids: ["a", "b"] }) { nextCursor } }')).toBe(2);
  });

  it('every stored REST operation fits the budget at its largest page', () => {
    for (const route of routes) {
      const document = parse(route.operation);
      const variables = { limit: 1000, l: 1000 };
      expect(operationRows(schema, document)(variables) ?? 0, `${route.method} ${route.path}`).toBeLessThanOrEqual(maxRows);
    }
  });
});

const overHttp = appTest({ users: ['owner'] });

describe('the row budget over HTTP', () => {
  let team: string;

  /** bothPaths(query, variables) sends `query` as the fast path serves it (JSON) and as only Yoga serves it (a GraphQL GET). */
  const it = overHttp.extend('bothPaths', async ({ s }) => {
    return async (query: string, variables: Record<string, unknown>) => {
      const post = await s.users.owner.request('POST', '/graphql', { query, variables });
      const search = new URLSearchParams({ query, variables: JSON.stringify(variables) });
      const get = await s.users.owner.request('GET', `/graphql?${search}`);
      return [post, get];
    };
  });

  it.beforeAll(async ({ s }) => {
    team = await createResource(s.users.owner, 'team', 'Crowd');
  });

  const flood = (limit: string) =>
    `query($id: ID!${limit === '$limit' ? ', $limit: Int' : ''}) { ${aliases(20, `memberPage(resourceId: $id, limit: ${limit})`, 'members { userId }')} }`;

  it('refuses 20 aliases of memberPage(limit: 1000) with 400 too_many_rows, on both paths', async ({ bothPaths }) => {
    for (const res of await bothPaths(flood('1000'), { id: team })) {
      expect(res.status).toBe(400);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'too_many_rows' });
      expect(res.body.errors[0].message).toMatch(/up to 20000 rows; the limit is 5000\. Ask for smaller pages/);
    }
  });

  it('counts a variable limit at its value: the same document passes with small pages and is refused with large ones', async ({ s, bothPaths }) => {
    for (const res of await bothPaths(flood('$limit'), { id: team, limit: 10 })) {
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.a19.members).toHaveLength(1);
    }
    for (const res of await bothPaths(flood('$limit'), { id: team, limit: 251 })) {
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('too_many_rows');
    }
    // Omitted: the field's default page (1000) is what it may read.
    const defaulted = await s.users.owner.request('POST', '/graphql', { query: flood('$limit'), variables: { id: team } });
    expect(defaulted.body.errors[0].extensions.code).toBe('too_many_rows');
  });

  it('refuses twenty dbBatch mutations of large selects before any runs', async ({ s }) => {
    const select = '{ op: select, table: "notes", scope: { kind: user }, limit: 200 }';
    const batch = `dbBatch(operations: [${Array(5).fill(select).join(', ')}])`;
    const res = await s.users.owner.request('POST', '/graphql', { query: `mutation { ${aliases(6, batch, 'ok')} }` });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('too_many_rows');
  });

  it('still answers an out-of-range limit with invalid_argument', async ({ s }) => {
    const res = await s.users.owner.gql('query($id: ID!) { memberPage(resourceId: $id, limit: 2147483647) { nextCursor } }', { id: team });
    expect(res.errors[0].extensions).toMatchObject({ code: 'invalid_argument', status: 400 });
  });
});
