/**
 * Issue #11: the REST contract as OpenAPI 3.1 (src/http/openapi.ts), served at GET /openapi.json.
 * Every documented endpoint of the route registry (src/http/routes.ts) appears with its request and
 * response shapes and its error codes: the stored-operation routes, the file routes, and the
 * gateway's own (the `/auth/*` routes, the invite pages, /healthz, the document itself, the
 * provider's discovery pointer); the document is structurally valid 3.1 (no network); and real answers of the
 * in-process server match the documented schemas, so the contract cannot drift from what the
 * server says.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { authEndpoints } from '../../src/gateway-auth/auth.routes.js';
import { type Endpoint, documentedMethods, methodsOf } from '../../src/http/endpoint.js';
import { buildOpenApiDocument, documentedErrors, ERROR_STATUS, openApiPath } from '../../src/http/openapi.js';
import { endpoints, storedOperationEndpoints as routes } from '../../src/http/routes.js';
import { type HttpResult, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

type Json = any;
const doc: Json = buildOpenApiDocument();
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const templateOf = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationOf = (method: string, path: string): Json => doc.paths[templateOf(path)]?.[method.toLowerCase()];
/** Every operation the document should have: the REST table's and the gateway table's. */
// The streaming file routes (src/files/files.routes.ts) are documented beside the tables: GET, PUT and DELETE
// of a file, GET of a bucket, for your own buckets and a resource's (test/api/files.test.ts serves each).
const FILE_OPERATIONS = [
  'GET /v1/files/me/{bucket}',
  'GET /v1/files/me/{bucket}/{path}',
  'PUT /v1/files/me/{bucket}/{path}',
  'DELETE /v1/files/me/{bucket}/{path}',
  'GET /v1/files/resources/{resourceId}/{bucket}',
  'GET /v1/files/resources/{resourceId}/{bucket}/{path}',
  'PUT /v1/files/resources/{resourceId}/{bucket}/{path}',
  'DELETE /v1/files/resources/{resourceId}/{bucket}/{path}',
];
/** Every documented method of every documented endpoint of the registry (HEAD is documented as GET). */
const documented = endpoints.flatMap(endpoint => documentedMethods(endpoint).map(method => ({ endpoint, method })));
const pathOf = (endpoint: Endpoint) => endpoint.docs?.path ?? openApiPath(endpoint.path);
const expectedOperations = documented.map(({ endpoint, method }) => `${method} ${pathOf(endpoint)}`);
/** The gateway's own routes: no app credential (sign-in, invites, the service's routes). */
const gatewayRoutes = documented.filter(({ endpoint }) => endpoint.credential === 'none');

/** The `METHOD /path` keys of the auth routes (src/gateway-auth/auth.routes.ts). */
function authRouteTable(): string[] {
  return authEndpoints.flatMap(endpoint => methodsOf(endpoint).map(method => `${method} ${endpoint.path}`));
}

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
    for (const code of documentedErrors(route, route.method)) {
      expect(documented.get(code), code).toContain(ERROR_STATUS[code]);
    }
    expect(documentedErrors(route, route.method).length).toBeGreaterThan(0);
  });

  it('has no operation the tables do not have', () => {
    const inDoc = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter(key => METHODS.includes(key))
        .map(m => `${m.toUpperCase()} ${path}`),
    );
    expect(inDoc.sort()).toEqual([...expectedOperations].sort());
    expect(inDoc).toEqual(expect.arrayContaining(FILE_OPERATIONS));
  });

  it('every status matches docs/api.md §8.2', () => {
    const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = api.slice(api.indexOf('### 8.2 Codes'), api.indexOf('## 9. Limits'));
    const statuses = new Map<string, number[]>();
    for (const [, status, codes] of section.matchAll(/^\|\s*(\d{3})\s*\|([^|]+)\|/gm)) {
      for (const [, code] of codes.matchAll(/`([A-Za-z_]+)`/g)) statuses.set(code, [...(statuses.get(code) ?? []), Number(status)]);
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
    expect(Object.keys(doc.paths).length).toBe(new Set(expectedOperations.map(op => op.split(' ')[1])).size);
  });

  it('paths, operations and parameters are well formed', () => {
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      expect(path.startsWith('/'), path).toBe(true);
      expect(path).not.toMatch(/:/);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map(m => m[1]);
      for (const server of item.servers ?? []) {
        expect(server.url).toMatch(/^(\/|\{appOrigin\}(\/_osg)?)$/);
        for (const name of [...server.url.matchAll(/\{(\w+)\}/g)].map((m: RegExpMatchArray) => m[1]))
          expect(server.variables?.[name]?.default).toBeTypeOf('string');
      }
      for (const [method, op] of Object.entries<Json>(item).filter(([key]) => key !== 'servers')) {
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
      for (const [method, op] of Object.entries<Json>(item)) {
        if (!METHODS.includes(method)) continue;
        for (const p of op.parameters ?? []) ajv.compile(p.schema);
        for (const media of Object.values<Json>(op.requestBody?.content ?? {})) ajv.compile(media.schema);
        for (const response of Object.values<Json>(op.responses)) {
          for (const media of Object.values<Json>(response.content ?? {})) ajv.compile(deref(media.schema));
        }
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

/** Codes an operation documents as the §8.1 JSON error body, and as HTML pages, each with its statuses. */
function documentedCodes(op: Json) {
  const json = new Map<string, number[]>();
  const pages = new Map<number, Json>();
  for (const [status, response] of Object.entries<Json>(op.responses)) {
    const schema = response.content?.['application/json']?.schema;
    const error = schema?.allOf ?? schema?.oneOf?.find((s: Json) => s.allOf)?.allOf;
    if (error) {
      expect(error[0]).toEqual({ $ref: '#/components/schemas/Error' });
      for (const code of error[1].properties.error.enum) json.set(code, [...(json.get(code) ?? []), Number(status)]);
    }
    if (response.content?.['text/html']) pages.set(Number(status), response);
  }
  return { json, pages };
}

describe('the file routes', () => {
  it.each(FILE_OPERATIONS)('%s lists its codes by status like every route, credentials and bucket naming included', key => {
    const [method, path] = key.split(' ');
    const { json } = documentedCodes(operationOf(method, path));
    for (const code of [
      'unauthenticated',
      'invalid_token',
      'session_expired',
      'wrong_credential',
      'invalid_path',
      'unknown_bucket',
      'bucket_not_in_scope',
      'busy',
    ]) {
      expect(json.get(code), `${key} ${code}`).toEqual([ERROR_STATUS[code]]);
    }
    if (path.includes('{resourceId}'))
      for (const code of ['resource_not_found', 'room_not_found', 'invalid_room']) expect(json.get(code), code).toEqual([ERROR_STATUS[code]]);
    expect(json.has('csrf_required'), `${key} csrf_required`).toBe(method !== 'GET');
  });
});

describe('the gateway routes', () => {
  const authTable = authRouteTable();

  it('the auth routes are the ones of src/gateway-auth/auth.routes.ts', () => {
    expect(authTable).toContain('POST /auth/token');
    expect(authTable).toContain('GET /auth/callback');
    expect(authTable.length).toBeGreaterThanOrEqual(11);
  });

  it.each(authTable)('%s is in the document, also under /_osg on hosted origins', key => {
    const [method, path] = key.split(' ');
    const op = operationOf(method, path);
    expect(op, key).toBeDefined();
    expect(op.tags).toEqual(['auth']);
    expect(doc.paths[path].servers.map((s: Json) => s.url)).toEqual(['/', '{appOrigin}/_osg']);
  });

  it.each(gatewayRoutes.map(({ endpoint, method }) => [`${method} ${pathOf(endpoint)}`, endpoint, method] as const))(
    '%s: parameters, body and every code under its status',
    (_name, route, method) => {
      const op = operationOf(method, pathOf(route));
      expect(op).toBeDefined();
      const params: Json[] = op.parameters ?? [];
      for (const name of [...pathOf(route).matchAll(/\{(\w+)\}/g)].map(m => m[1])) {
        expect(
          params.find(p => p.in === 'path' && p.name === name),
          name,
        ).toMatchObject({ required: true });
      }
      if (route.body) {
        const mediaType = route.docs?.bodyMediaType ?? 'application/json';
        expect(Object.keys(op.requestBody.content)).toEqual([mediaType]);
        expect(op.requestBody.content[mediaType].schema.type).toBe('object');
      } else expect(op.requestBody).toBeUndefined();
      const { json, pages } = documentedCodes(op);
      for (const code of documentedErrors(route, method)) {
        expect(ERROR_STATUS[code], `${code} has a status`).toBeDefined();
        expect(json.get(code), code).toEqual([ERROR_STATUS[code]]);
      }
      for (const code of route.pageErrors ?? []) {
        expect(ERROR_STATUS[code], `${code} has a status`).toBeDefined();
        expect(pages.get(ERROR_STATUS[code])?.description, code).toContain(code);
      }
      // Redirects name their Location and carry no body.
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (!/^30\d$/.test(status)) continue;
        expect(response.headers?.Location, `${status} Location`).toBeDefined();
        expect(response.content).toBeUndefined();
      }
    },
  );

  it('sign-in answers never carry a token in a body; the session is Set-Cookie only', () => {
    const tokenish = /token/i;
    for (const { endpoint: route, method } of gatewayRoutes.filter(({ endpoint }) => endpoint.path.startsWith('/auth/'))) {
      const op = operationOf(method, route.path);
      const ok = op.responses['200']?.content?.['application/json']?.schema;
      const names = JSON.stringify(ok ?? {}).match(/"(\w+)":\{/g) ?? [];
      expect(
        names.filter(n => tokenish.test(n)),
        `${method} ${route.path}`,
      ).toEqual([]);
    }
    for (const path of ['/auth/token', '/auth/refresh']) {
      expect(operationOf('POST', path).responses['200'].headers['Set-Cookie'].description).toMatch(/HttpOnly/);
    }
    expect(operationOf('POST', '/auth/logout').responses['200'].headers['Set-Cookie'].description).toMatch(/cleared/);
  });

  it('POST /auth/token takes JSON only (415 otherwise); the CSRF header or an allowed Origin', () => {
    const op = operationOf('POST', '/auth/token');
    expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties).sort()).toEqual([
      'client_id',
      'code',
      'code_verifier',
      'redirect_uri',
    ]);
    expect(documentedCodes(op).json.get('unsupported_media_type')).toEqual([415]);
    expect(op.security).toEqual([{ csrfHeader: [] }, {}]);
    expect(op.description).toMatch(/Origin/);
    for (const path of ['/auth/refresh', '/auth/logout', '/auth/consent/accept', '/auth/consent/reject']) {
      const state = operationOf('POST', path);
      expect(
        state.security.every((requirement: Json) => 'csrfHeader' in requirement),
        path,
      ).toBe(true);
      expect(documentedCodes(state).json.get('csrf_required'), path).toEqual([403]);
    }
  });

  it('the invite pages, /healthz, this document and the provider pointer are listed; /idp only by its discovery document', () => {
    expect(operationOf('GET', '/_invite/:code').responses['200'].content['text/html']).toBeDefined();
    expect(operationOf('POST', '/_invite/:code').requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(doc.paths['/_invite/{code}'].servers.map((s: Json) => s.url)).toEqual(['/', '{appOrigin}']);
    expect(Object.keys(operationOf('GET', '/healthz').responses)).toEqual(expect.arrayContaining(['200', '503']));
    expect(operationOf('GET', '/openapi.json')).toBeDefined();
    expect(Object.keys(doc.paths).filter(path => path.startsWith('/idp'))).toEqual(['/idp/.well-known/openid-configuration']);
    // App REST routes are also under /_osg/v1 on hosted origins; developer routes are not.
    expect(doc.paths['/v1/resources'].servers.map((s: Json) => s.url)).toEqual(['/', '{appOrigin}/_osg']);
    expect(doc.paths['/dev/apps'].servers).toBeUndefined();
  });
});

const withApp = appTest({ users: ['alice', 'bob'] });

describe('GET /openapi.json and real answers', () => {
  const it = withApp;

  /** The answer matches what the document says for that route and status (an error's code is listed there). */
  function expectDocumented(method: string, path: string, res: HttpResult) {
    const op = operationOf(method, path);
    const response = op.responses[String(res.status)];
    expect(response, `${method} ${path} documents ${res.status} (${JSON.stringify(res.body)})`).toBeDefined();
    expect(schemaErrors(response.content['application/json'].schema, res.body), `${method} ${path} ${res.status}`).toEqual([]);
  }

  /** A raw answer: the documented status, content type and (JSON) schema for that method and path. */
  async function expectGatewayDocumented(method: string, path: string, res: Response) {
    const op = operationOf(method, path);
    const response = op.responses[String(res.status)];
    const text = await res.text();
    expect(response, `${method} ${path} documents ${res.status} (${text.slice(0, 200)})`).toBeDefined();
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    if (!text) {
      expect(response.content, `${method} ${path} ${res.status} has no body`).toBeUndefined();
      return;
    }
    expect(Object.keys(response.content ?? {}), `${method} ${path} ${res.status} as ${type}`).toContain(type);
    if (type === 'application/json') {
      expect(schemaErrors(response.content[type].schema, JSON.parse(text)), `${method} ${path} ${res.status}`).toEqual([]);
    }
  }

  const csrf = { 'x-service-csrf': '1' };
  const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  it('the /auth routes answer as documented', async ({ ctx, s }) => {
    const call = (path: string, init?: RequestInit) => ctx.fetch(path, init);
    const token = { code: 'c', code_verifier: 'v'.repeat(43), redirect_uri: 'https://app.example/cb', client_id: 'nope' };
    await expectGatewayDocumented('GET', '/auth/session', await call('/auth/session'));
    const authorize = await call('/auth/authorize?response_type=code&client_id=x');
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get('location')).toMatch(/\/idp\//);
    await expectGatewayDocumented('GET', '/auth/authorize', authorize);
    // /auth/token: 415 for anything but JSON, 400 for a bad body, 403 without the header or an allowed Origin, then the provider's answer.
    const notJson = await call('/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...csrf },
      body: 'code=x',
    });
    expect(notJson.status).toBe(415);
    await expectGatewayDocumented('POST', '/auth/token', notJson);
    await expectGatewayDocumented('POST', '/auth/token', await call('/auth/token', jsonPost({ code: 'c' }, csrf)));
    const noCsrf = await call('/auth/token', jsonPost(token));
    expect(noCsrf.status).toBe(403);
    await expectGatewayDocumented('POST', '/auth/token', noCsrf);
    const refused = await call('/auth/token', jsonPost(token, csrf));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers.getSetCookie()).toEqual([]);
    await expectGatewayDocumented('POST', '/auth/token', refused);
    // Refresh without a refresh cookie: 401 and the cookies cleared.
    await expectGatewayDocumented('POST', '/auth/refresh', await call('/auth/refresh', jsonPost({})));
    const refresh = await call('/auth/refresh', jsonPost({}, csrf));
    expect(refresh.status).toBe(401);
    expect(refresh.headers.getSetCookie().length).toBe(3);
    await expectGatewayDocumented('POST', '/auth/refresh', refresh);
    await expectGatewayDocumented('POST', '/auth/logout', await call('/auth/logout', jsonPost({})));
    await expectGatewayDocumented('POST', '/auth/logout', await call('/auth/logout', jsonPost({}, csrf)));
    // Consent: a missing or unknown challenge (in-process the provider's admin API is not reachable: 502, documented too).
    await expectGatewayDocumented('GET', '/auth/consent-request', await call('/auth/consent-request'));
    await expectGatewayDocumented('GET', '/auth/consent-request', await call('/auth/consent-request?challenge=unknown'));
    await expectGatewayDocumented('POST', '/auth/consent/accept', await call('/auth/consent/accept', jsonPost({ challenge: 'x', grant_scope: [] })));
    await expectGatewayDocumented(
      'POST',
      '/auth/consent/accept',
      await call('/auth/consent/accept', jsonPost({ challenge: 'x', grant_scope: [] }, csrf)),
    );
    await expectGatewayDocumented(
      'POST',
      '/auth/consent/accept',
      await call('/auth/consent/accept', jsonPost({ challenge: 'x', subject: 'u' }, csrf)),
    );
    await expectGatewayDocumented('POST', '/auth/consent/reject', await call('/auth/consent/reject', jsonPost({ challenge: 'x' }, csrf)));
    await expectGatewayDocumented('GET', '/auth/identity/flow', await call('/auth/identity/flow?type=other'));
    await expectGatewayDocumented('GET', '/auth/identity/flow', await call('/auth/identity/flow?type=login&id=abc'));
    await expectGatewayDocumented('GET', '/auth/consent', await call('/auth/consent?consent_challenge=x'));
    const callback = await call('/auth/callback?code=c&state=s');
    expect(callback.status).toBe(400);
    await expectGatewayDocumented('GET', '/auth/callback', callback);
    // The same routes under /_osg on the app's origin.
    const hosted = await ctx.app.fetch(new Request(`${s.origin}/_osg/auth/session`));
    expect(hosted.status).toBe(200);
    await expectGatewayDocumented('GET', '/auth/session', hosted);
  });

  it('the invite pages, /healthz and the provider pointer answer as documented', async ({ ctx }) => {
    const code = `inv_${'A'.repeat(43)}`;
    await expectGatewayDocumented('GET', '/_invite/:code', await ctx.fetch('/_invite/inv_short'));
    await expectGatewayDocumented('GET', '/_invite/:code', await ctx.fetch(`/_invite/${code}`));
    const join = await ctx.fetch(`/_invite/${code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=x',
    });
    expect(join.status).toBe(404);
    await expectGatewayDocumented('POST', '/_invite/:code', join);
    const health = await ctx.fetch('/healthz');
    expect(health.status).toBe(200);
    await expectGatewayDocumented('GET', '/healthz', health);
    await expectGatewayDocumented('GET', '/openapi.json', await ctx.fetch('/openapi.json'));
    const discovery = await ctx.fetch('/idp/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    await expectGatewayDocumented('GET', '/idp/.well-known/openid-configuration', discovery);
  });

  it('serves the generated document, without a credential', async ({ ctx }) => {
    const res = await ctx.client().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('resources, membership, rooms and invite links answer as documented', async ({ s }) => {
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

  it('errors answer with a documented code and the §8.1 body', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'T');
    expectDocumented('GET', '/v1/resources/:id', await bob.get(`/v1/resources/${id}`)); // 404 resource_not_found
    expectDocumented('POST', '/v1/resources', await alice.post('/v1/resources', { type: 'team' })); // 400 invalid_argument
    expectDocumented('POST', '/v1/resources', await alice.post('/v1/resources', { type: '_app', name: 'x' })); // 403 reserved_type
    expectDocumented('GET', '/v1/resources', await ctx.client().get('/v1/resources')); // 401 unauthenticated
    expectDocumented('POST', '/v1/resources/:id/invite', await alice.post(`/v1/resources/${id}/invite`, { userId: alice.id })); // 409
    expectDocumented('POST', '/v1/invite-links/claim', await bob.post('/v1/invite-links/claim', { code: 'nope' })); // 404
  });

  it('the developer routes answer as documented', async ({ s }) => {
    expectDocumented('GET', '/dev/apps', await s.developer.get('/dev/apps'));
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'carol', env: 'dev' });
    expectDocumented('POST', '/dev/apps/:appId/test-users', minted);
    expectDocumented('GET', '/dev/apps', await s.users.alice.get('/dev/apps')); // 403 wrong_credential
  });
});
