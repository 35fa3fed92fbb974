/**
 * Bad input to the row store is a 400 with a code on both stores, over REST and GraphQL, never a
 * 500 (docs/api.md §11.3, §11.7): lone UTF-16 surrogates anywhere in an operation, JSON nested
 * past the depth limit, and timestamps PostgreSQL cannot hold.
 */
import { describe, expect } from 'vitest';
import { createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, mine, rowsSeed } from './rows.fixture.js';

const available = await backends();
const onBackend = appTestOn(available, { users: ['alice'], seed: rowsSeed });
const LONE = 'a\ud800b';

/** `{ a: { a: … { a: 1 } } }`, `depth` objects deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** JSON.stringify recurses (and overflows at such depths): `body` as text with DEEP standing for 10,000 levels. */
const DEEP = '"__deep__"';
const deepJson = (body: unknown) => JSON.stringify(body).replace(DEEP, `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
const deep = JSON.parse(DEEP);

describe.each(available)('row-store input guards on $name', backend => {
  const it = onBackend(backend);
  let project: string;
  let alice: RowsSeed['users'][string];

  it.beforeAll(async ({ s }) => {
    alice = s.users.alice;
    project = await createResource(alice, 'project', 'Guards');
  });

  const tasks = (body: Record<string, unknown>) => db(alice, { scope: inResource(project), table: 'tasks', ...body });
  const gqlQuery = (input: Record<string, unknown>) =>
    alice.gql('mutation($input: DbOperationInput!) { dbQuery(input: $input) { ok rows } }', { input });

  describe('docs/api.md §11.3: a lone UTF-16 surrogate is 400 invalid_value naming the field', () => {
    it.each([
      ['a text value', { op: 'insert', values: { title: LONE } }, 'values.title'],
      ['a string inside a jsonb value', { op: 'insert', values: { title: 't', meta: { list: ['ok', LONE] } } }, 'values.meta.list.1'],
      ['a key inside a jsonb value', { op: 'insert', values: { title: 't', meta: { [LONE]: 1 } } }, 'values.meta'],
      ['an update value', { op: 'update', where: { title: 'x' }, values: { title: LONE } }, 'values.title'],
      ['a where value', { op: 'select', where: { title: LONE } }, 'where.title'],
      ['a where comparison', { op: 'delete', where: { title: { gte: LONE } } }, 'where.title.gte'],
      ['a jsonb where value', { op: 'select', where: { meta: { eq: { k: LONE } } } }, 'where.meta.eq.k'],
      ['a where column name', { op: 'select', where: { [LONE]: 1 } }, 'where'],
    ])('%s', async (_, body, field) => {
      const res = await tasks(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('invalid_value');
      expect(res.body.message).toContain(`${field}:`);
      expect(res.body.message).toMatch(/surrogate/);
    });

    it('in the scope, the table name, ids and the cursor alike', async ({ s }) => {
      for (const body of [
        { scope: { kind: 'resource', resourceId: `res_${LONE}` }, table: 'tasks', op: 'select' },
        { scope: { kind: 'type', type: LONE }, table: 'tasks', op: 'select' },
        { scope: inResource(project, `room_${LONE}`), table: 'tasks', op: 'select' },
        { scope: inResource(project), table: LONE, op: 'select' },
        { scope: inResource(project), table: 'tasks', op: 'select', cursor: LONE },
        { scope: inResource(project), table: 'tasks', op: 'delete', ids: [LONE] },
        { scope: inResource(project), table: 'tasks', op: 'select', orderBy: { column: LONE } },
      ]) {
        const res = await db(s.users.alice, body);
        expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(400);
        expect(res.body.error).toBe('invalid_value');
      }
    });

    it('in a user-scope write and through GraphQL dbQuery, dbSelect and dbBatch', async ({ s }) => {
      const own = await db(s.users.alice, { scope: mine, table: 'notes', op: 'insert', values: { title: LONE } });
      expect([own.status, own.body.error]).toEqual([400, 'invalid_value']);
      const one = await gqlQuery({ scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 't', meta: LONE } });
      expect(one.errors[0].extensions).toMatchObject({ code: 'invalid_value', status: 400 });
      const page = await s.users.alice.gql('query($input: DbSelectInput!) { dbSelect(input: $input) { rows } }', {
        input: { scope: inResource(project), table: 'tasks', where: { title: LONE } },
      });
      expect(page.errors[0].extensions).toMatchObject({ code: 'invalid_value', status: 400 });
      const batch = await s.users.alice.gql('mutation($ops: [DbOperationInput!]!) { dbBatch(operations: $ops) { ok } }', {
        ops: [{ scope: inResource(project), table: 'tasks', op: 'insert', values: { title: LONE } }],
      });
      expect(batch.errors[0].extensions).toMatchObject({ code: 'invalid_value', status: 400 });
    });

    it('a well-formed pair (an emoji) is stored and read back', async () => {
      const res = await tasks({ op: 'insert', values: { title: 'ok 😀', meta: { '😀': '😀' } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const read = await tasks({ op: 'select', where: { title: 'ok 😀' } });
      expect(read.body.rows[0].meta).toEqual({ '😀': '😀' });
    });
  });

  describe('docs/api.md §11.7: JSON nested past the depth limit is 400 invalid_value', () => {
    it.for<[string, Record<string, unknown>]>([
      ['values', { op: 'insert', values: { title: 't', meta: deep } }],
      ['where', { op: 'select', where: { meta: { eq: deep } } }],
      ['an update', { op: 'update', where: { title: 't' }, values: { meta: deep } }],
    ])('in %s', async ([_, body], { s }) => {
      const res = await s.users.alice.request('POST', '/v1/db/query', deepJson({ scope: inResource(project), table: 'tasks', ...body }));
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
      expect(res.body.error).toBe('invalid_value');
      expect(res.body.message).toMatch(/nested/);
    });

    it('through GraphQL too; JSON within the limit is stored', async ({ s }) => {
      const query = 'mutation($input: DbOperationInput!) { dbQuery(input: $input) { ok } }';
      const input = { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 't', meta: deep } };
      const res = await s.users.alice.request('POST', '/graphql', deepJson({ query, variables: { input } }));
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_value', status: 400 });
      const fine = await tasks({ op: 'insert', values: { title: 'deep enough', meta: nested(30) } });
      expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    });
  });

  describe('docs/api.md §11.3: timestamps outside years 0001-9999 (in UTC) are 400 invalid_value', () => {
    it.each(['0001-01-01T00:00:00+14:00', '0000-06-01T00:00:00Z', '9999-12-31T23:00:00-14:00'])('createdAt %s', async value => {
      for (const op of ['select', 'delete']) {
        const res = await tasks({ op, where: { createdAt: { gte: value } } });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error).toBe('invalid_value');
      }
    });

    it('the first and last instants that fit are accepted', async () => {
      for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
        const res = await tasks({ op: 'select', where: { createdAt: { gte: value } } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    });
  });
});
