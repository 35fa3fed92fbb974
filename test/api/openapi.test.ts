/**
 * Issue #11: the REST contract as OpenAPI 3.1 (src/rest/openapi.ts), served at GET /openapi.json.
 * Every row of the route table appears with its request and response shapes and its error codes;
 * the document is structurally valid 3.1 (no network); and real answers of the in-process server
 * match the documented schemas, so the contract cannot drift from what the server says.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, commonErrors, ERROR_STATUS } from '../../src/rest/openapi.js';
import { routes } from '../../src/rest/routes.js';
import { type HttpResult, type Seed, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';

type Json = any;
const doc: Json = buildOpenApiDocument();
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const templateOf = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationOf = (method: string, path: string): Json => doc.paths[templateOf(path)]?.[method.toLowerCase()];

/** Replaces local `$ref`s with their targets (the error schema's `allOf` names components.schemas.Error). */
function deref(node: Json): Json {
  if (Array.isArray(node)) return node.map(deref);
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    return deref(
      node.$ref
        .slice(2)
        .split('/')
        .reduce((at: Json, key: string) => at[key], doc),
    );
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)]));
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const schemaErrors = (schema: Json, value: unknown) => {
  const validate = ajv.compile(deref(schema));
  return validate(value) ? [] : (validate.errors ?? []).map(e => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
};

describe('the document covers the route table', () => {
  it.each(routes.map(r => [`${r.method} ${r.path}`, r] as const))('%s: request, 200 shape and error codes', (_name, route) => {
    const op = operationOf(route.method, route.path);
    expect(op, 'operation present').toBeDefined();
    // Path parameters, then query parameters from the row's query schema.
    const params: Json[] = op.parameters ?? [];
    for (const name of [...route.path.matchAll(/:(\w+)/g)].map(m => m[1])) {
      expect(
        params.find(p => p.in === 'path' && p.name === name),
        `path parameter ${name}`,
      ).toMatchObject({ required: true });
    }
    if (route.query) {
      const shape = Object.keys((route.query as Json).shape ?? {});
      expect(shape.length).toBeGreaterThan(0);
      expect(params.filter(p => p.in === 'query').map(p => p.name)).toEqual(shape);
    } else expect(params.filter(p => p.in === 'query')).toEqual([]);
    // The body schema, or none (a route without one accepts only an empty body).
    if (route.body) {
      const body = op.requestBody.content['application/json'].schema;
      expect(body.type).toBe('object');
      expect(Object.keys(body.properties)).toEqual(Object.keys((route.body as Json).shape));
      expect(body.additionalProperties).toBe(false);
    } else expect(op.requestBody).toBeUndefined();
    // The 200 body is the row's response schema.
    const ok = op.responses['200'].content['application/json'].schema;
    expect(ok.type ?? ok.anyOf ?? ok.oneOf).toBeDefined();
    // Every error code, under its status, with the error body of docs/api.md §8.1.
    const documented = new Map<string, number[]>();
    for (const [status, response] of Object.entries<Json>(op.responses)) {
      if (status === '200') continue;
      const schema = response.content['application/json'].schema;
      expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
      for (const code of schema.allOf[1].properties.error.enum) documented.set(code, [...(documented.get(code) ?? []), Number(status)]);
    }
    for (const code of [...route.errors, ...commonErrors(route)]) {
      expect(documented.get(code), code).toContain(code === 'not_resource_member' ? 403 : ERROR_STATUS[code]);
    }
    expect(route.errors.length + commonErrors(route).length).toBeGreaterThan(0);
  });

  it('has no operation the table does not have', () => {
    const inDoc = Object.entries<Json>(doc.paths).flatMap(([path, item]) => Object.keys(item).map(m => `${m.toUpperCase()} ${path}`));
    expect(inDoc.sort()).toEqual(routes.map(r => `${r.method} ${templateOf(r.path)}`).sort());
  });

  it('every status matches docs/api.md §8.2', () => {
    const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = api.slice(api.indexOf('### 8.2 Codes'), api.indexOf('## 9. Limits'));
    const statuses = new Map<string, number[]>();
    for (const [, status, codes] of section.matchAll(/^\|\s*(\d{3})\s*\|([^|]+)\|/gm)) {
      for (const [, code] of codes.matchAll(/`([a-z_]+)`/g)) statuses.set(code, [...(statuses.get(code) ?? []), Number(status)]);
    }
    const wrong = Object.entries(ERROR_STATUS).filter(([code, status]) => !statuses.get(code)?.includes(status));
    expect(wrong).toEqual([]);
  });
});

describe('the document is structurally valid OpenAPI 3.1', () => {
  it('has the required top-level fields', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(doc.paths).length).toBe(new Set(routes.map(r => templateOf(r.path))).size);
  });

  it('paths, operations and parameters are well formed', () => {
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      expect(path.startsWith('/'), path).toBe(true);
      expect(path).not.toMatch(/:/);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map(m => m[1]);
      for (const [method, op] of Object.entries<Json>(item)) {
        expect(METHODS, `${path} ${method}`).toContain(method);
        expect(operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        operationIds.add(op.operationId);
        const pathParams = (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
        expect(pathParams.sort()).toEqual([...templated].sort());
        for (const p of op.parameters ?? []) {
          expect(['path', 'query', 'header', 'cookie']).toContain(p.in);
          expect(p.schema).toBeTypeOf('object');
        }
        expect(Object.keys(op.responses).length).toBeGreaterThan(1);
        for (const [status, response] of Object.entries<Json>(op.responses)) {
          expect(status).toMatch(/^[1-5]\d\d$/);
          expect(response.description).toBeTypeOf('string');
        }
        for (const requirement of op.security) {
          for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes[scheme], scheme).toBeDefined();
        }
        // A body only where HTTP gives it meaning (DELETE /v1/me takes its confirmation phrase in one).
        if (method === 'get') expect(op.requestBody).toBeUndefined();
      }
    }
  });

  it('every $ref resolves and every schema compiles as JSON Schema 2020-12', () => {
    const refs: string[] = [];
    const walk = (node: Json) => {
      if (!node || typeof node !== 'object') return;
      if (typeof node.$ref === 'string') refs.push(node.$ref);
      for (const v of Object.values(node)) walk(v);
    };
    walk(doc);
    for (const ref of refs) {
      expect(ref.startsWith('#/components/'), ref).toBe(true);
      expect(
        ref
          .slice(2)
          .split('/')
          .reduce((at: Json, key) => at?.[key], doc),
        ref,
      ).toBeDefined();
    }
    for (const item of Object.values<Json>(doc.paths)) {
      for (const op of Object.values<Json>(item)) {
        for (const p of op.parameters ?? []) ajv.compile(p.schema);
        if (op.requestBody) ajv.compile(op.requestBody.content['application/json'].schema);
        for (const response of Object.values<Json>(op.responses)) ajv.compile(deref(response.content['application/json'].schema));
      }
    }
  });

  it('names the bearer, cookie and CSRF schemes', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerToken: { type: 'http', scheme: 'bearer' },
      developerToken: { type: 'http', scheme: 'bearer' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'gh_session' },
      csrfHeader: { type: 'apiKey', in: 'header', name: 'X-Service-Csrf' },
    });
    expect(operationOf('POST', '/v1/resources').security).toEqual([{ bearerToken: [] }, { sessionCookie: [], csrfHeader: [] }]);
    expect(operationOf('GET', '/v1/resources').security).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
    expect(operationOf('GET', '/dev/apps').security).toEqual([{ developerToken: [] }]);
  });
});

describe('GET /openapi.json and real answers', () => {
  let ctx: TestContext;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startTestApp();
    s = await seed(ctx, ['alice', 'bob']);
  });
  afterAll(() => ctx.close());

  /** The answer matches what the document says for that route and status (an error's code is listed there). */
  function expectDocumented(method: string, path: string, res: HttpResult) {
    const op = operationOf(method, path);
    const response = op.responses[String(res.status)];
    expect(response, `${method} ${path} documents ${res.status} (${JSON.stringify(res.body)})`).toBeDefined();
    expect(schemaErrors(response.content['application/json'].schema, res.body), `${method} ${path} ${res.status}`).toEqual([]);
  }

  it('serves the generated document, without a credential', async () => {
    const res = await ctx.client().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('resources, membership, rooms and invite links answer as documented', async () => {
    const { alice, bob } = s.users;
    const created = await alice.post('/v1/resources', { type: 'room', name: 'Lobby', visibility: 'discoverable' });
    expectDocumented('POST', '/v1/resources', created);
    const id = created.body.id;
    expectDocumented('GET', '/v1/resources', await alice.get('/v1/resources'));
    expectDocumented('GET', '/v1/resources/:id', await alice.get(`/v1/resources/${id}`));
    expectDocumented('GET', '/v1/resources/browse', await bob.get('/v1/resources/browse?type=room&limit=1'));
    expectDocumented('POST', '/v1/resources/:id/invite', await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id, role: 'reader' }));
    expectDocumented('GET', '/v1/resources/invitations', await bob.get('/v1/resources/invitations'));
    expectDocumented('POST', '/v1/resources/:id/accept', await bob.post(`/v1/resources/${id}/accept`, {}));
    expectDocumented('GET', '/v1/resources/:id/members', await alice.get(`/v1/resources/${id}/members`));
    expectDocumented('POST', '/v1/resources/:id/setRole', await alice.post(`/v1/resources/${id}/setRole`, { userId: bob.id, role: 'writer' }));
    expectDocumented('POST', '/v1/resources/:id/invite-link', await alice.post(`/v1/resources/${id}/invite-link`, { role: 'reader' }));
    const rooms = await alice.get(`/v1/resources/${id}/rooms`);
    expectDocumented('GET', '/v1/resources/:id/rooms', rooms);
    const room = await alice.post(`/v1/resources/${id}/rooms`, { name: 'side' });
    expectDocumented('POST', '/v1/resources/:id/rooms', room);
    const grant = await alice.request('PUT', `/v1/resources/${id}/rooms/${room.body.id}/grants/${bob.id}`, { role: 'reader' });
    expectDocumented('PUT', '/v1/resources/:id/rooms/:roomId/grants/:principal', grant);
    expectDocumented('GET', '/v1/resources/grants', await bob.get('/v1/resources/grants'));
    expectDocumented('POST', '/v1/resources/:id/leave', await bob.post(`/v1/resources/${id}/leave`, {}));
  });

  it('errors answer with a documented code and the §8.1 body', async () => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    expectDocumented('GET', '/v1/resources/:id', await bob.get(`/v1/resources/${id}`)); // 404 resource_not_found
    expectDocumented('POST', '/v1/resources', await alice.post('/v1/resources', { type: 'team' })); // 400 invalid_argument
    expectDocumented('POST', '/v1/resources', await alice.post('/v1/resources', { type: '_app', name: 'x' })); // 403 reserved_type
    expectDocumented('GET', '/v1/resources', await ctx.client().get('/v1/resources')); // 401 unauthenticated
    expectDocumented('POST', '/v1/resources/:id/invite', await alice.post(`/v1/resources/${id}/invite`, { userId: alice.id })); // 409
    expectDocumented('POST', '/v1/invite-links/claim', await bob.post('/v1/invite-links/claim', { code: 'nope' })); // 404
  });

  it('the developer routes answer as documented', async () => {
    expectDocumented('GET', '/dev/apps', await s.developer.get('/dev/apps'));
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'carol', env: 'dev' });
    expectDocumented('POST', '/dev/apps/:appId/test-users', minted);
    expectDocumented('GET', '/dev/apps', await s.users.alice.get('/dev/apps')); // 403 wrong_credential
  });
});
