/**
 * The route table's requests (files aside) and POST /graphql are served on node's own objects
 * (src/http/node-edge.ts); everything else, and `App.fetch`, through the fetch adapter. Both edges run one pipeline: the
 * same request gets the same status, body and headers on either, including a client that goes
 * away in the middle of a stream.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHeaders } from '../../src/http/node-edge.js';
import { type Seed, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';
import { MEMBERS_LIVE } from '../helpers/feeds.js';

let ctx: TestContext;
let s: Seed;
let resourceId: string;
/** Another developer's app, with an origin of its own. */
let other: Seed;

beforeAll(async () => {
  ctx = await startTestApp({ listen: true });
  s = await seed(ctx, ['alice', 'bob']);
  resourceId = await createResource(s.users.alice, 'team', 'Edges');
  other = await seed(ctx, []);
});
afterAll(() => ctx.close());

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

/** Headers a client may rely on; the date and keep-alive ones differ between a socket and in-process. */
const COMPARED = [
  'content-type',
  'content-length',
  'cache-control',
  'x-content-type-options',
  'x-request-id',
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
];

/** Over the socket, as the gateway's own host (PUBLIC_URL's), so mount and CORS decide as in-process. */
function overSocket(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { port } = new URL(ctx.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: 'gatehouse.test', ...headers } }, res => {
      let text = '';
      res.setEncoding('utf8').on('data', chunk => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: pick(name => res.headers[name] as string | undefined), body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function inProcess(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  // In-process, the Host is the URL's (a hosted app origin's, when the case names one).
  const { host = 'gatehouse.test', ...rest } = headers;
  const res = await ctx.app.fetch(new Request(`http://${host}${path}`, { method, headers: rest, body }));
  return { status: res.status, headers: pick(name => res.headers.get(name) ?? undefined), body: await res.text() };
}

const pick = (get: (name: string) => string | undefined) => Object.fromEntries(COMPARED.map(name => [name, get(name)]));

describe('the node edge and the fetch adapter', () => {
  const bearer = () => ({ authorization: `Bearer ${s.users.alice.token}` });
  const cases: [string, () => [string, string, Record<string, string>, string?]][] = [
    ['a resource read', () => ['GET', `/v1/resources/${resourceId}`, bearer()]],
    ['a resource that does not exist', () => ['GET', '/v1/resources/res_missing', bearer()]],
    ['a read without a credential', () => ['GET', `/v1/resources/${resourceId}`, {}]],
    ['a token nobody issued', () => ['GET', `/v1/resources/${resourceId}`, { authorization: 'Bearer ghs_nothing' }]],
    ['a NUL byte in the path', () => ['GET', '/v1/resources/a%00b', bearer()]],
    ['an invalid query', () => ['GET', '/v1/resources?limit=many', bearer()]],
    ['a path no route has', () => ['GET', '/v1/nothing-here', bearer()]],
    ['a method the path does not take', () => ['PUT', '/v1/me', bearer()]],
    ['a state change by DELETE', () => ['DELETE', '/v1/me', bearer()]],
    ['a REST write whose body is not JSON', () => ['POST', '/v1/resources', { ...bearer(), 'content-type': 'application/json' }, '{"type":']],
    ['a REST write refused', () => ['POST', '/v1/resources/res_missing/leave', { ...bearer(), 'content-type': 'application/json' }, '{}']],
    ['a file upload (the adapter)', () => ['PUT', '/v1/files/nothing/a.txt', { ...bearer(), 'content-type': 'text/plain' }, 'hello']],
    ['a registered Origin (CORS)', () => ['GET', `/v1/resources/${resourceId}`, { ...bearer(), origin: s.origin }]],
    ['an unregistered Origin', () => ['GET', `/v1/resources/${resourceId}`, { ...bearer(), origin: 'https://evil.example' }]],
    ['a list with a query', () => ['GET', '/v1/resources?type=team&limit=5', bearer()]],
    ['a read on a hosted app origin (/_osg)', () => ['GET', `/_osg/v1/resources/${resourceId}`, { ...bearer(), host: new URL(s.origin).host }]],
    [
      "a token of one app on another app's origin",
      () => ['GET', `/_osg/v1/resources/${resourceId}`, { ...bearer(), host: new URL(other.origin).host }],
    ],
    ['an API path without /_osg on a hosted app origin', () => ['GET', `/v1/resources/${resourceId}`, { ...bearer(), host: new URL(s.origin).host }]],
    [
      'a GraphQL query (the fast path)',
      () => ['POST', '/graphql', { ...bearer(), 'content-type': 'application/json' }, JSON.stringify({ query: '{ me { id } }' })],
    ],
    [
      'a GraphQL document that does not parse (Yoga)',
      () => ['POST', '/graphql', { ...bearer(), 'content-type': 'application/json' }, JSON.stringify({ query: '{ me { id }' })],
    ],
    ['a GraphQL body that is not JSON (Yoga)', () => ['POST', '/graphql', { ...bearer(), 'content-type': 'application/json' }, '{"query":']],
  ];

  it.each(cases)('answer the same: %s', async (_name, make) => {
    const [method, path, headers, body] = make();
    // One request id for both, so error bodies (which carry it) compare too.
    const withId = { ...headers, 'x-request-id': `edge-test-${Math.random().toString(36).slice(2, 12)}` };
    const [socket, fetched] = [await overSocket(method, path, withId, body), await inProcess(method, path, withId, body)];
    expect(socket).toEqual(fetched);
    expect(socket.headers['x-request-id']).toBe(withId['x-request-id']);
  });

  it('streams a subscription over SSE, and ends it when the client goes away', async () => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'Edge SSE');
    const { port } = new URL(ctx.url);
    const received = new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/graphql',
          headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        },
        res => {
          expect(res.headers['content-type']).toContain('text/event-stream');
          let text = '';
          res.setEncoding('utf8').on('data', chunk => {
            text += chunk;
            // The feed's snapshot (alice, the owner) comes first, then the invite.
            if (text.includes(`"userId":"${bob.id}"`)) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', error => (error.message.includes('aborted') ? undefined : reject(error)));
      req.end(JSON.stringify({ query: MEMBERS_LIVE, variables: { id } }));
    });
    await ctx.attached(`member:${id}`);
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    expect(await received).toContain(`"userId":"${bob.id}"`);
    // The socket's close aborts the request's signal: the feed stops listening.
    await expect.poll(() => ctx.app.services.deps.bus.hasListeners(`member:${id}`), { timeout: 5000 }).toBe(false);
    expect((await overSocket('GET', `/v1/resources/${id}`, { authorization: `Bearer ${alice.token}` })).status).toBe(200);
  });
});

/** One raw HTTP/1.1 request (node's client would refuse to send these); the status line and the body. */
function raw(head: string, body = ''): Promise<{ status: number; body: string }> {
  const { port } = new URL(ctx.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', chunk => (text += chunk));
    socket.on('end', () => resolve({ status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
    socket.on('error', reject);
    socket.end(`${head}\r\nConnection: close\r\n\r\n${body}`);
  });
}

describe('a Host header or target that makes no URL', () => {
  it.each([
    ['a Host with a space', `GET /v1/resources/x HTTP/1.1\r\nHost: a b`],
    ['a Host with a path, which would move the route', `GET /v1/resources/x HTTP/1.1\r\nHost: 127.0.0.1/auth/session?`],
    ['an absolute-form target', `GET http://127.0.0.1/v1/resources/x HTTP/1.1\r\nHost: 127.0.0.1`],
    ['the same on POST /graphql', `POST /graphql HTTP/1.1\r\nHost: a b\r\nContent-Type: application/json\r\nContent-Length: 2`, '{}'],
  ])('is refused as 400 invalid_argument, never a 500: %s', async (_name, head, sent?: string) => {
    const { status, body } = await raw(head, sent);
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ error: 'invalid_argument', message: expect.stringContaining('Host header and target') });
  });
});

describe("a request node's HTTP parser refuses", () => {
  it.each([
    ['an unknown method', `BREW /v1/resources HTTP/1.1\r\nHost: 127.0.0.1`, 400, 'invalid_argument', 'unknown method'],
    ['a malformed header', `GET /v1/resources HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x`, 400, 'invalid_argument', 'not valid HTTP/1.1'],
    ['a target past the header limit', `GET /v1/resources/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1`, 431, 'headers_too_large', 'shorten'],
  ])('gets a JSON error with a code, as every other refusal: %s', async (_name, head, status, code, words) => {
    const answer = await raw(head);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toEqual({ error: code, message: expect.stringContaining(words) });
  });
});

describe('NodeHeaders', () => {
  it('reads node headers as a Headers built from them reads', () => {
    const raw = { 'x-one': 'a', 'x-many': ['b', 'c'], cookie: 'a=1; b=2' };
    const ours = new NodeHeaders(raw);
    const theirs = new Headers();
    for (const [name, value] of Object.entries(raw)) for (const one of [value].flat()) theirs.append(name, one);
    for (const name of ['x-one', 'X-One', 'x-many', 'cookie', 'absent']) {
      expect(ours.get(name)).toBe(theirs.get(name));
      expect(ours.has(name)).toBe(theirs.has(name));
    }
  });
});
