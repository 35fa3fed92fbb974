/**
 * Requests generated from `/openapi.json`: for each operation, its path parameters, query
 * parameters, headers and body built from the document's own schemas, then spoiled at random
 * (a hostile value in one place, a wrong type, a missing or unknown field, a body that is not
 * JSON or is nested thousands deep), sent with every kind of credential the document names and
 * some it does not (a garbage bearer or session cookie, another app's token, a foreign Origin).
 */
import type { FuzzTarget } from './target.js';
import { HOSTILE_STRINGS, type Random, deepJson, hostile, pathSegment, wrongType } from './values.js';

type Json = any;

export interface FuzzRequest {
  /** The documented operation the answer is checked against (`POST /v1/resources/{id}/invite`); null for /graphql. */
  operation: { method: string; path: string } | null;
  method: string;
  /** Path and query, below the server's URL. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** What was done to it, for the report. */
  note: string;
}

export interface Operation {
  method: string;
  path: string;
  spec: Json;
}

/** Every operation of the document, except the provider's discovery pointer (the provider's own routes are not the gateway's). */
export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (path.startsWith('/idp/')) continue;
    for (const [method, spec] of Object.entries<Json>(item)) if (method !== 'servers') out.push({ method: method.toUpperCase(), path, spec });
  }
  return out;
}

/** Property and parameter names whose valid values the target knows. */
function knownValues(target: FuzzTarget, name: string): readonly string[] | null {
  const k = target.known;
  switch (name) {
    case 'id':
    case 'resourceId':
      return k.resourceIds;
    case 'roomId':
    case 'destination':
      return k.roomIds;
    case 'userId':
    case 'principal':
      return k.userIds;
    case 'appId':
      return k.appIds;
    case 'code':
      return k.inviteCodes;
    case 'env':
      return k.envs;
    case 'bucket':
      return k.buckets;
    case 'path':
    case 'prefix':
      return k.filePaths;
    case 'table':
      return k.tables;
    case 'type':
      return k.types;
    case 'fileId':
      return [];
    default:
      return null;
  }
}

/** examples/team-schema.ts's tables (target.ts deploys it): each column with a valid value. */
const TABLES: Record<string, Record<string, () => unknown>> = {
  profiles: { displayName: () => 'Ada', bio: () => 'bio', links: () => [] },
  posts: { title: () => 'Hello', body: () => 'text', likes: () => 1 },
  member_notes: { subjectId: () => crypto.randomUUID(), body: () => 'note', pinned: () => false },
  member_events: { memberId: () => crypto.randomUUID(), kind: () => 'joined', payload: () => ({ a: 1 }), sequence: () => '1' },
  member_budgets: { memberId: () => crypto.randomUUID(), limitCents: () => '100', resetsAt: () => '2030-01-01T00:00:00Z' },
};
const SERVER_COLUMNS = ['id', 'createdAt', 'updatedAt', 'roomId', 'creatorId'];
const OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'ne', 'like', 'isNull'];

/**
 * A row store `values` or `where` for `table`: mostly its real columns with valid values (so the
 * write gets as far as the store), then one spoiled: a hostile value, an unknown or server column.
 */
function rowObject(random: Random, table: string | undefined, where: boolean): Json {
  const columns = TABLES[table ?? ''] ?? TABLES[random.pick(Object.keys(TABLES))];
  const out: Json = {};
  for (const [column, valid] of Object.entries(columns)) if (!where || random.chance(0.4)) out[column] = valid();
  const spoiled = random.chance(0.7) ? random.pick(Object.keys(columns)) : random.pick([...SERVER_COLUMNS, String(random.pick(HOSTILE_STRINGS))]);
  if (random.chance(0.8)) out[spoiled] = hostile(random);
  if (where) {
    for (const column of Object.keys(out)) {
      if (random.chance(0.4)) out[column] = { [random.pick(OPERATORS)]: random.chance(0.3) ? [out[column], hostile(random)] : out[column] };
    }
  }
  return out;
}

/** A row store operation that makes sense (a table in a scope that has it, the fields its op takes), its values or filter spoiled. */
function rowOperation(random: Random, target: FuzzTarget): Json {
  const table = random.pick(Object.keys(TABLES));
  const scope = table.startsWith('member_')
    ? { kind: 'resource', resourceId: target.known.resourceIds[0], ...(random.chance(0.3) ? { roomId: random.pick(target.known.roomIds) } : {}) }
    : { kind: 'user' };
  const op = random.pick(['insert', 'insert', 'select', 'update', 'delete']);
  const operation: Json = { scope, table, op };
  if (op === 'insert')
    operation.values = random.chance(0.2) ? [rowObject(random, table, false), rowObject(random, table, false)] : rowObject(random, table, false);
  if (op === 'update') operation.values = rowObject(random, table, false);
  if (op !== 'insert') operation.where = rowObject(random, table, true);
  if (op === 'select' && random.chance(0.3)) operation.orderBy = { column: random.pick([...Object.keys(TABLES[table]), 'createdAt']) };
  return operation;
}

/** A body for `schema`; the row store's operations are built to reach the store, then spoiled like the rest. */
function bodyValue(schema: Json, random: Random, target: FuzzTarget): Json {
  const properties = schema?.properties ?? {};
  if (properties.op && properties.table && random.chance(0.7)) return rowOperation(random, target);
  if (properties.operations && random.chance(0.7)) return { operations: [rowOperation(random, target), rowOperation(random, target)] };
  return valueFor(schema, random, target);
}

/** A value for `schema` (JSON Schema as the document has it); mostly valid, named fields from the target's pools. */
export function valueFor(schema: Json, random: Random, target: FuzzTarget, name = '', depth = 0): Json {
  if (!schema || typeof schema !== 'object' || depth > 6) return random.pick(HOSTILE_STRINGS);
  if ((name === 'values' || name === 'where') && !schema.type)
    return random.chance(0.2) ? [rowObject(random, undefined, false)] : rowObject(random, undefined, name === 'where');
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return valueFor(random.pick(union), random, target, name, depth + 1);
  if (Array.isArray(schema.allOf)) return valueFor(schema.allOf[schema.allOf.length - 1], random, target, name, depth + 1);
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  const known = knownValues(target, name);
  switch (type) {
    case 'string':
      if (known?.length && random.chance(0.8)) return random.pick(known);
      if (schema.format === 'uri') return random.pick(['https://app.example/cb', 'http://localhost:5173/callback', 'not a url']);
      return random.chance(0.5) ? `fuzz-${random.int(1000)}` : random.pick(HOSTILE_STRINGS);
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 100;
      return random.chance(0.8) ? min + random.int(Math.max(1, Math.min(max, 1e6) - min + 1)) : random.pick([-1, 0, 1.5, 2 ** 53, 1e308]);
    }
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const items = [];
      for (let i = random.int(3); i > 0; i--) items.push(valueFor(schema.items, random, target, name, depth + 1));
      return items;
    }
    default: {
      const out: Json = {};
      const required: string[] = schema.required ?? [];
      for (const [key, child] of Object.entries<Json>(schema.properties ?? {})) {
        if (required.includes(key) || random.chance(0.5)) out[key] = valueFor(child, random, target, key, depth + 1);
      }
      return out;
    }
  }
}

/** One spoiled copy of a body object: a hostile value somewhere, a missing or unknown field, a wrong type. */
function spoil(body: Json, random: Random): { body: Json; note: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { body: wrongType(random), note: 'body of the wrong type' };
  const keys = Object.keys(body);
  const copy = structuredClone(body);
  const key = keys.length ? random.pick(keys) : 'unexpected';
  switch (random.int(5)) {
    case 0:
      copy[key] = hostile(random);
      return { body: copy, note: `body.${key} hostile` };
    case 1:
      delete copy[key];
      return { body: copy, note: `body.${key} missing` };
    case 2:
      copy[random.pick(['extra', '__proto__', 'constructor', String(random.pick(HOSTILE_STRINGS))])] = hostile(random);
      return { body: copy, note: 'unknown body field' };
    case 3: {
      // Somewhere nested: the first object found one level down, else the top.
      const inner = keys.map(k => copy[k]).find(v => v && typeof v === 'object' && !Array.isArray(v));
      const at = inner ?? copy;
      const innerKeys = Object.keys(at);
      at[innerKeys.length ? random.pick(innerKeys) : 'x'] = hostile(random);
      return { body: copy, note: 'nested body field hostile' };
    }
    default:
      copy[key] = wrongType(random);
      return { body: copy, note: `body.${key} wrong type` };
  }
}

const randomToken = (random: Random, length: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[random.int(alphabet.length)];
  return out;
};

/** A session cookie that is not one: garbage, the provider's token shape, a JWT shape, huge, badly encoded. */
export function garbageSessionCookie(random: Random): string {
  const value = random.pick([
    'garbage',
    randomToken(random, 43),
    `${randomToken(random, 20)}.${randomToken(random, 40)}.${randomToken(random, 43)}`,
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    'x'.repeat(5000),
    '%zz%ED%A0%80',
    '',
    'gst_notatoken',
  ]);
  return `gh_session=${value}${random.chance(0.5) ? '; gh_client=app_unknown' : ''}`;
}

/** The credential headers of one request: mostly what the operation expects, otherwise anything. */
function credential(op: Operation, random: Random, target: FuzzTarget): { headers: Record<string, string>; note: string } {
  const t = target.known.tokens;
  const security: Json[] = op.spec.security ?? [];
  const schemes = new Set(security.flatMap(s => Object.keys(s)));
  const expected = schemes.has('developerToken') ? t.developer : schemes.has('bearerToken') ? t.user : null;
  const roll = random.next();
  const csrf: Record<string, string> = random.chance(0.7) ? { 'x-service-csrf': '1' } : {};
  if (expected && roll < 0.55) return { headers: { authorization: `Bearer ${random.pick(expected)}` }, note: 'expected credential' };
  if (roll < 0.65) return { headers: {}, note: 'no credential' };
  if (roll < 0.72) {
    const token = random.pick([...t.user, ...t.developer, ...t.agent, ...t.otherApp]);
    return { headers: { authorization: `Bearer ${token}` }, note: 'some other credential' };
  }
  if (roll < 0.8) {
    const garbage = random.pick(['gst_garbage', 'ghd_x', 'gha_', randomToken(random, 43), 'a.b.c', 'x'.repeat(5000), '\u00e9t\u00e9']);
    return { headers: { authorization: random.chance(0.8) ? `Bearer ${garbage}` : garbage }, note: 'garbage bearer' };
  }
  const origin = random.chance(0.5) ? random.pick(['https://evil.example', 'null', 'http://localhost:1']) : random.pick(target.known.origins);
  const headers: Record<string, string> = { cookie: garbageSessionCookie(random), ...csrf };
  if (random.chance(0.7)) headers.origin = origin;
  return { headers, note: `garbage session cookie${headers.origin ? ` from ${headers.origin}` : ''}` };
}

/** A path parameter: a known id, a made-up one, or a hostile string (including bytes that are not UTF-8). */
function pathValue(name: string, random: Random, target: FuzzTarget): string {
  const known = knownValues(target, name);
  if (known?.length && random.chance(0.7)) return known.map(v => v.split('/').map(pathSegment).join('/'))[random.int(known.length)];
  if (random.chance(0.3)) return `${name}-${random.int(100)}`;
  // An empty segment would address another route (or none): that is not this operation's answer.
  return pathSegment(String(random.pick(HOSTILE_STRINGS.filter(s => s.trim() !== '')))) || 'x';
}

const ODD_ACCEPT = ['application/xml', 'text/html', '*/*', 'application/json;q=0', 'image/png', ''];
const ODD_CONTENT_TYPE = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
];

export function restRequest(op: Operation, random: Random, target: FuzzTarget): FuzzRequest {
  const notes: string[] = [];
  const cred = credential(op, random, target);
  notes.push(cred.note);
  const headers: Record<string, string> = { ...cred.headers };
  let path = op.path;
  const query = new URLSearchParams();
  let rawQuery = '';
  for (const param of op.spec.parameters ?? []) {
    if (param.in === 'path') {
      const value = pathValue(param.name, random, target);
      path = path.replace(`{${param.name}}`, value);
    } else if (param.in === 'query') {
      if (!param.required && random.chance(0.5)) continue;
      if (random.chance(0.2)) {
        // Raw, so bytes that are not UTF-8 and NULs reach the server as sent.
        rawQuery += `&${param.name}=${pathSegment(String(random.pick(HOSTILE_STRINGS)))}`;
        notes.push(`query.${param.name} hostile`);
      } else query.set(param.name, String(valueFor(param.schema, random, target, param.name)));
    } else if (param.in === 'header' && random.chance(0.4)) {
      headers[param.name.toLowerCase()] = random.pick(
        param.name === 'Range'
          ? ['bytes=0-3', 'bytes=-2', 'bytes=5-1', 'bytes=0-0,2-3', 'bytes=99999999999999999999-', 'lines=1-2', 'bytes=']
          : ['*', '"abc"', 'W/"x"', '"', String(random.pick(HOSTILE_STRINGS)).replace(/[^\x20-\x7e]/g, '?')],
      );
    }
  }
  if (random.chance(0.05)) {
    headers.accept = random.pick(ODD_ACCEPT);
    notes.push(`accept ${headers.accept}`);
  }
  const search = `${query.toString()}${rawQuery}`.replace(/^&/, '');
  const request: FuzzRequest = {
    operation: { method: op.method, path: op.path },
    method: op.method,
    target: search ? `${path}?${search}` : path,
    headers,
    note: '',
  };
  const media = Object.keys(op.spec.requestBody?.content ?? {})[0];
  if (media) {
    const made = bodyFor(op, media, random, target, notes);
    request.body = made.body;
    Object.assign(request.headers, made.headers);
  } else if (op.method !== 'GET' && op.method !== 'HEAD' && random.chance(0.15)) {
    request.body = JSON.stringify({ unexpected: hostile(random) });
    request.headers['content-type'] = 'application/json';
    notes.push('a body where none is taken');
  }
  request.note = notes.join('; ');
  return request;
}

function bodyFor(op: Operation, media: string, random: Random, target: FuzzTarget, notes: string[]): Partial<FuzzRequest> {
  const headers = {} as Record<string, string>;
  if (media === '*/*') {
    headers['content-type'] = random.pick([
      'text/plain',
      'image/png',
      'application/pdf',
      'application/octet-stream',
      'text/plain; charset=utf-8',
      'x/\u00e9'.normalize('NFD').replace(/[^\x20-\x7e]/g, ''),
    ]);
    const body = random.chance(0.8) ? `fuzz ${random.int(1e6)}` : random.pick(HOSTILE_STRINGS).toString();
    notes.push(`file body (${headers['content-type']})`);
    return { body, headers: { ...(op.spec.security ? {} : {}), ...headers } };
  }
  if (media === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams({ confirm: random.pick(['1', 'yes', '']) });
    return {
      body: random.chance(0.7) ? form.toString() : `${pathSegment(String(random.pick(HOSTILE_STRINGS)))}=%zz`,
      headers: { 'content-type': media },
    };
  }
  const schema = op.spec.requestBody.content[media].schema;
  const roll = random.next();
  headers['content-type'] = random.chance(0.92) ? 'application/json' : random.pick(ODD_CONTENT_TYPE);
  if (headers['content-type'] !== 'application/json') notes.push(`content-type ${headers['content-type'] || '(empty)'}`);
  if (roll < 0.35) {
    notes.push('body from the schema');
    return { body: JSON.stringify(bodyValue(schema, random, target)), headers };
  }
  if (roll < 0.8) {
    const spoiled = spoil(bodyValue(schema, random, target), random);
    notes.push(spoiled.note);
    return { body: JSON.stringify(spoiled.body), headers };
  }
  // Raw text: not JSON, not an object, nested thousands deep, empty; a lone surrogate escape.
  if (schema?.properties?.op && schema?.properties?.table && random.chance(0.3)) {
    // Deep JSON where the row store takes any JSON (a jsonb column's value, a filter): its size and
    // filter checks walk it.
    const depth = random.pick([50, 5000, 20_000]);
    const insert = random.chance(0.6);
    const body = insert
      ? `{"scope":{"kind":"user"},"table":"profiles","op":"insert","values":{"displayName":"Ada","links":${deepJson(depth, 'array')}}}`
      : `{"scope":{"kind":"user"},"table":"profiles","op":"select","where":{"links":{"eq":${deepJson(depth, 'object')}}}}`;
    notes.push(`deep JSON (${depth}) in ${insert ? 'values' : 'where'}`);
    return { body, headers };
  }
  const raw = random.pick<() => [string, string]>([
    () => ['{"a":', 'truncated JSON'],
    () => ['[1,2,3]', 'a JSON array'],
    () => ['"just a string"', 'a JSON string'],
    () => ['', 'an empty body'],
    () => [`{"x":${deepJson(random.pick([100, 5000, 20_000]), random.chance(0.5) ? 'array' : 'object')}}`, 'deep JSON'],
    () => [deepJson(10_000, 'object'), 'deep JSON at the top'],
    () => ['{"name":"a\\ud800b","challenge":"\\udc00","code":"\\ud83d"}', 'lone surrogate escapes'],
    () => ['{"name":"\\u0000"}', 'a NUL escape'],
    () => ['\ufeff{}', 'a byte order mark'],
    () => ['{"__proto__":{"admin":true}}', 'a __proto__ key'],
    () => [`{"name":"${'x'.repeat(200_000)}"}`, 'a 200 KB string'],
  ])();
  notes.push(raw[1]);
  return { body: raw[0], headers };
}
