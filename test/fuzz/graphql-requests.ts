/**
 * GraphQL requests generated from the published schema (schema/schema.graphql): a root field of
 * Query, Mutation or Subscription with its arguments as variables (or inline literals) of the
 * declared types, valid-ish or hostile, and a selection of its scalar fields; then the ways a
 * request can be wrong around the document: an unknown field, a syntax error, wrong variable
 * types, a lone surrogate escape, an Accept or Content-Type /graphql does not serve, GET,
 * batching, a huge or deeply nested document, extensions.
 */
import { readFileSync } from 'node:fs';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isInterfaceType,
  isUnionType,
} from 'graphql';
import { garbageSessionCookie, type FuzzRequest } from './rest-requests.js';
import type { FuzzTarget } from './target.js';
import { HOSTILE_STRINGS, type Random, deepJson, hostile, wrongType } from './values.js';

type Json = any;

export function publishedSchema(): GraphQLSchema {
  return buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
}

const ID_ARGUMENTS: Record<string, keyof FuzzTarget['known']> = {
  resourceId: 'resourceIds',
  id: 'resourceIds',
  roomId: 'roomIds',
  userId: 'userIds',
  principalId: 'userIds',
  appId: 'appIds',
  code: 'inviteCodes',
  env: 'envs',
  table: 'tables',
  type: 'types',
  bucket: 'buckets',
};

/** A value of `type`, mostly valid (known ids by argument name), sometimes hostile or of the wrong type. */
function inputValue(type: GraphQLInputType, random: Random, target: FuzzTarget, name: string, depth: number): Json {
  if (random.chance(0.08)) return hostile(random);
  if (isNonNullType(type)) return inputValue(type.ofType, random, target, name, depth);
  if (!isNonNullType(type) && random.chance(0.1)) return null;
  if (isListType(type)) {
    const items = [];
    for (let i = random.int(3); i > 0; i--) items.push(inputValue(type.ofType, random, target, name, depth + 1));
    return items;
  }
  if (isEnumType(type)) return random.chance(0.9) ? random.pick(type.getValues()).name : 'NOT_A_VALUE';
  if (isInputObjectType(type)) {
    if (depth > 4) return {};
    const out: Json = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type) || random.chance(0.5)) out[field.name] = inputValue(field.type, random, target, field.name, depth + 1);
    }
    if (random.chance(0.05)) out.unexpected = hostile(random);
    return out;
  }
  const pool = ID_ARGUMENTS[name];
  const known = pool ? (target.known[pool] as string[]) : null;
  switch (type.name) {
    case 'ID':
    case 'String':
      if (known?.length && random.chance(0.75)) return random.pick(known);
      return random.chance(0.5) ? `fuzz-${random.int(1000)}` : random.pick(HOSTILE_STRINGS);
    case 'Int':
      return random.pick([0, 1, 10, 100, 1000, -1, 2 ** 31, 1.5]);
    case 'Float':
      return random.pick([0, 1.5, -1, 1e308]);
    case 'Boolean':
      return random.chance(0.5);
    case 'DateTime':
      return random.pick(['2024-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', 'yesterday', 0]);
    case 'JSON':
      return random.pick([{ kind: 'joined' }, { memberId: crypto.randomUUID(), kind: 'x', sequence: '1' }, [], 'x', wrongType(random)]);
    default:
      return wrongType(random);
  }
}

/** The type as written in a variable definition. */
const typeName = (type: GraphQLInputType): string => type.toString();

/** Scalar and enum fields of `type`, and a level of object fields below it. */
function selection(type: GraphQLNamedType, random: Random, depth: number): string {
  if (isUnionType(type)) return '{ __typename }';
  if (!isObjectType(type) && !isInterfaceType(type)) return '';
  const fields = Object.values(type.getFields()).filter(f => !f.args.some(a => isNonNullType(a.type)));
  const leaves = fields.filter(f => isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type)));
  const parts = leaves.filter(() => random.chance(0.6)).map(f => f.name);
  if (depth < 2) {
    for (const f of fields) {
      const named = getNamedType(f.type);
      if ((isObjectType(named) || isInterfaceType(named)) && random.chance(0.3)) parts.push(`${f.name} ${selection(named, random, depth + 1)}`);
    }
  }
  if (!parts.length) parts.push('__typename');
  return `{ ${parts.join(' ')} }`;
}

interface RootField {
  operation: 'query' | 'mutation' | 'subscription';
  field: GraphQLField<unknown, unknown>;
}

export function rootFields(schema: GraphQLSchema): RootField[] {
  const out: RootField[] = [];
  for (const [operation, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) out.push({ operation, field });
  }
  return out;
}

/** A document for one root field, its variables, and whether an argument went inline as a literal. */
function documentFor(root: RootField, random: Random, target: FuzzTarget): { query: string; variables: Json; note: string } {
  const definitions: string[] = [];
  const args: string[] = [];
  const variables: Json = {};
  let note = `${root.operation} ${root.field.name}`;
  for (const arg of root.field.args as readonly GraphQLArgument[]) {
    if (!isNonNullType(arg.type) && random.chance(0.4)) continue;
    const value = inputValue(arg.type, random, target, arg.name, 0);
    if (random.chance(0.15) && typeof value === 'string') {
      // Inline, with the hostile characters as GraphQL escapes (a lone surrogate as \ud800).
      args.push(`${arg.name}: ${JSON.stringify(value)}`);
      note += ` (${arg.name} inline)`;
    } else {
      definitions.push(`$${arg.name}: ${random.chance(0.05) ? 'String' : typeName(arg.type)}`);
      args.push(`${arg.name}: $${arg.name}`);
      variables[arg.name] = value;
    }
  }
  const named = getNamedType(root.field.type);
  const selected = selection(named, random, 0);
  const head = definitions.length ? `${root.operation} Fuzz(${definitions.join(', ')})` : root.operation;
  return { query: `${head} { ${root.field.name}${args.length ? `(${args.join(', ')})` : ''} ${selected} }`, variables, note };
}

/** Malformed around the document: what a confused or hostile client sends to /graphql. */
const MALFORMED: ((random: Random) => { body: string; note: string; headers?: Record<string, string> })[] = [
  () => ({ body: JSON.stringify({ query: '{ nope }' }), note: 'an unknown field (validation)' }),
  () => ({ body: JSON.stringify({ query: '{ me { id ' }), note: 'a syntax error' }),
  () => ({ body: JSON.stringify({ query: 'query($id: ID!) { resource(id: $id) { id } }', variables: { id: true } }), note: 'a wrong variable type' }),
  () => ({ body: JSON.stringify({ query: 'query($id: ID!) { resource(id: $id) { id } }' }), note: 'a missing variable' }),
  () => ({ body: '{"query":"{ resource(id: \\"a\\\\ud800b\\") { id } }"}', note: 'a lone surrogate escape in a literal' }),
  () => ({ body: '{"query":"query($id: ID!) { resource(id: $id) { id } }","variables":{"id":"a\\ud800b"}}', note: 'a lone surrogate in a variable' }),
  () => ({ body: JSON.stringify({ query: '{ __typename }', variables: 'nope' }), note: 'variables not an object' }),
  () => ({ body: JSON.stringify({ query: 42 }), note: 'query not a string' }),
  () => ({ body: JSON.stringify({}), note: 'no query' }),
  () => ({ body: '[{"query":"{ __typename }"}]', note: 'a batch' }),
  () => ({ body: JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } }), note: 'extensions' }),
  () => ({ body: JSON.stringify({ query: '{ __typename }', operationName: 'Nope' }), note: 'an unknown operationName' }),
  () => ({ body: JSON.stringify({ query: 'query A { __typename } query B { __typename }' }), note: 'two operations, no name' }),
  () => ({ body: JSON.stringify({ query: `{ ${'me { owner { '.repeat(30)}id${' } }'.repeat(30)} }` }), note: 'too deep' }),
  () => ({ body: JSON.stringify({ query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: me { id }`).join(' ')} }` }), note: 'too many aliases' }),
  () => ({ body: JSON.stringify({ query: `{ __typename ${'# pad\n'.repeat(10)} ${'x '.repeat(3000)} }` }), note: 'too many tokens' }),
  () => ({ body: '{"query":', note: 'truncated JSON' }),
  () => ({ body: 'query { __typename }', note: 'a document as text/plain', headers: { 'content-type': 'text/plain' } }),
  () => ({ body: 'query=%7B__typename%7D', note: 'a form body', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  () => ({ body: JSON.stringify({ query: '{ __typename }' }), note: 'no content-type', headers: { 'content-type': '' } }),
  random => ({
    body: JSON.stringify({ query: '{ __typename }' }),
    note: 'an Accept /graphql does not serve',
    headers: { accept: random.pick(['text/xml', 'image/png', 'text/html', 'application/xml;q=1', 'text/csv']) },
  }),
  () => ({
    body: JSON.stringify({ query: 'mutation { createAgent(name: "x") { id } }' }),
    note: 'a mutation by cookie without CSRF',
    headers: { authorization: '' },
  }),
  () => ({ body: JSON.stringify({ query: `{ resource(id: "${'\\u0000'}") { id } }` }), note: 'a NUL escape in a literal' }),
  () => ({ body: JSON.stringify({ query: '{ __schema { types { name } } }' }), note: 'introspection' }),
  random => ({
    body: `{"query":"mutation($i: DbOperationInput!) { dbQuery(input: $i) { rows } }","variables":{"i":{"scope":{"kind":"user"},"table":"profiles","op":"insert","values":{"displayName":"Ada","links":${deepJson(random.pick([50, 5000, 20_000]), 'array')}}}}}`,
    note: 'deep JSON in row values',
  }),
  random => ({
    body: `{"query":"query($i: DbSelectInput!) { dbSelect(input: $i) { rows } }","variables":{"i":{"scope":{"kind":"user"},"table":"profiles","where":{"links":{"eq":${deepJson(random.pick([50, 5000, 20_000]), 'object')}}}}}}`,
    note: 'deep JSON in a row filter',
  }),
  random => ({
    body: JSON.stringify({
      query: 'query($i: DbSelectInput!) { dbSelect(input: $i) { rows } }',
      variables: {
        i: {
          scope: { kind: 'user' },
          table: 'posts',
          where: { createdAt: { gte: random.pick(['0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-14:00', 'x']) } },
        },
      },
    }),
    note: 'a timestamp filter at the edge of the calendar',
  }),
  () => ({
    body: '{"query":"query($i: DbSelectInput!) { dbSelect(input: $i) { rows } }","variables":{"i":{"scope":{"kind":"user"},"table":"posts","where":{"title":"a\\ud800b"}}}}',
    note: 'a lone surrogate in a row filter',
  }),
];

export function graphqlRequest(roots: RootField[], random: Random, target: FuzzTarget): FuzzRequest {
  const t = target.known.tokens;
  const roll = random.next();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let credentialNote = 'a user token';
  if (roll < 0.7) headers.authorization = `Bearer ${random.pick(t.user)}`;
  else if (roll < 0.78) {
    headers.authorization = `Bearer ${random.pick([...t.agent, ...t.otherApp, ...t.developer])}`;
    credentialNote = 'another credential';
  } else if (roll < 0.86) {
    headers.cookie = garbageSessionCookie(random);
    if (random.chance(0.5)) headers.origin = random.pick(['https://evil.example', ...target.known.origins]);
    if (random.chance(0.5)) headers['x-service-csrf'] = '1';
    credentialNote = 'a garbage session cookie';
  } else if (roll < 0.9) {
    headers.authorization = `Bearer ${random.pick(['gst_garbage', 'nope', 'a.b.c'])}`;
    credentialNote = 'a garbage bearer';
  } else credentialNote = 'no credential';

  if (random.chance(0.2)) {
    const malformed = random.pick(MALFORMED)(random);
    const merged = { ...headers, ...malformed.headers };
    for (const [name, value] of Object.entries(merged)) if (value === '') delete merged[name];
    return {
      operation: null,
      method: 'POST',
      target: '/graphql',
      headers: merged,
      body: malformed.body,
      note: `${malformed.note}; ${credentialNote}`,
    };
  }
  const root = random.pick(roots);
  const { query, variables, note } = documentFor(root, random, target);
  const accept = random.pick(['application/json', 'application/graphql-response+json', 'application/json', '*/*', undefined]);
  if (root.operation === 'subscription') headers.accept = 'text/event-stream';
  else if (accept) headers.accept = accept;
  if (root.operation === 'query' && random.chance(0.1)) {
    // GET: the document and variables in the query string.
    const search = new URLSearchParams({ query, variables: JSON.stringify(variables) });
    delete headers['content-type'];
    return { operation: null, method: 'GET', target: `/graphql?${search}`, headers, note: `GET ${note}; ${credentialNote}` };
  }
  return {
    operation: null,
    method: 'POST',
    target: '/graphql',
    headers,
    body: JSON.stringify({ query, variables }),
    note: `${note}; ${credentialNote}`,
  };
}
