/** CORS on the gateway's own host for apps served from a registered origin (src/http/cors.ts), and its cookie audience rule. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCors } from '../../src/http/cors.js';
import type { Config } from '../../src/config.js';
import type { Services } from '../../src/services.js';
import { Browser, type BrowserResponse } from './browser.js';
import { CSRF, type AuthRig, type RigApp, signInWithCookies, startAuthRig, uniqueEmail } from './harness.js';

let rig: AuthRig;
let appA: RigApp;
let appB: RigApp;
/** Signed in to app A on the gateway's host (cookies host-only on the gateway). */
let browser: Browser;

beforeAll(async () => {
  rig = await startAuthRig();
  appA = await rig.createApp();
  appB = await rig.createApp();
  // The gateway's own origin cannot be registered to an app (it would make same-origin requests cross-origin).
  const squatter = await rig.developer.post('/dev/apps', { name: 'Gateway origin', origins: [rig.url] });
  expect(squatter.status, JSON.stringify(squatter.body)).toBe(400);
  browser = new Browser(rig.url);
  await signInWithCookies(browser, rig, appA, { email: uniqueEmail(), password: 'correct horse battery', displayName: 'Cora' });
});
afterAll(() => rig?.close());

const unregistered = () => `https://stranger-${Math.random().toString(36).slice(2, 8)}.example.test`;
const anonymous = () => new Browser(rig.url);

function preflight(path: string, origin: string, requestHeaders = 'content-type, x-service-csrf') {
  return anonymous().request('OPTIONS', `${rig.url}${path}`, {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
  });
}

function expectAllowed(res: BrowserResponse, origin: string) {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-credentials']).toBe('true');
  // A page may read a download's ETag and Content-Range, and the request id of an error.
  expect(res.headers['access-control-expose-headers']).toBe('etag, content-range, accept-ranges, content-length, x-request-id');
  expect(res.headers.vary).toBe('Origin');
}

function expectNoCors(res: BrowserResponse) {
  const cors = Object.keys(res.headers).filter(name => name.startsWith('access-control-'));
  expect(cors).toEqual([]);
}

describe('preflight', () => {
  it.each(['/v1/resources', '/auth/refresh', '/graphql'])('from a registered origin on %s: 204 with the exact headers', async path => {
    const res = await preflight(path, appA.origin);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(appA.origin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe(
      'content-type, authorization, x-service-csrf, x-client-id, range, if-match, if-none-match',
    );
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toBe('Origin');
  });

  it('from an unregistered origin, Origin: null or the gateway itself: 204 without CORS headers', async () => {
    for (const origin of [unregistered(), 'null', rig.url]) {
      for (const path of ['/v1/resources', '/graphql', '/auth/token']) {
        const res = await preflight(path, origin);
        expect(res.status, `${origin} ${path}`).toBe(204);
        expectNoCors(res);
        expect(res.headers.vary).toBe('Origin');
      }
    }
  });

  it('matches the registered origin exactly (scheme, host and port)', async () => {
    const { host } = new URL(appA.origin);
    for (const origin of [`http://${host}`, `${appA.origin}:8443`, `https://x.${host}`, `${appA.origin}/`]) {
      expectNoCors(await preflight('/v1/resources', origin));
    }
  });
});

describe('credentialed requests from a registered origin', () => {
  it('GET and a POST with the CSRF header carry allow-origin, allow-credentials and Vary', async () => {
    const listed = await browser.get(`${rig.url}/v1/resources?type=team`, { origin: appA.origin });
    expect(listed.status, listed.text).toBe(200);
    expectAllowed(listed, appA.origin);
    const created = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Cross-origin team' }, { origin: appA.origin, ...CSRF });
    expect(created.status, created.text).toBe(200);
    expectAllowed(created, appA.origin);
    const session = await browser.get(`${rig.url}/auth/session`, { origin: appA.origin });
    expect(session.json.authenticated).toBe(true);
    expectAllowed(session, appA.origin);
  });

  it('error answers carry them too (403 CSRF, 401, 404 on /v1 and /auth)', async () => {
    const noCsrf = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'No header' }, { origin: appA.origin });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error).toBe('csrf_required');
    expectAllowed(noCsrf, appA.origin);
    const unauthenticated = await anonymous().get(`${rig.url}/v1/resources`, { origin: appA.origin });
    expect(unauthenticated.status).toBe(401);
    expectAllowed(unauthenticated, appA.origin);
    for (const path of ['/v1/nothing-here', '/auth/nothing-here']) {
      const missing = await browser.get(`${rig.url}${path}`, { origin: appA.origin });
      expect(missing.status, path).toBe(404);
      expectAllowed(missing, appA.origin);
    }
    const refreshFailed = await anonymous().post(`${rig.url}/auth/refresh`, { client_id: appA.clientId }, { origin: appA.origin, ...CSRF });
    expect(refreshFailed.status).toBe(401);
    expectAllowed(refreshFailed, appA.origin);
  });

  it('an unregistered origin or Origin: null gets no CORS headers on the same routes', async () => {
    for (const origin of [unregistered(), 'null']) {
      const res = await browser.get(`${rig.url}/v1/resources?type=team`, { origin });
      expect(res.status).toBe(200);
      expectNoCors(res);
      expect(res.headers.vary).toBe('Origin');
    }
  });
});

describe('/graphql', () => {
  const query = { query: '{ resources { id } }' };

  it('follows the same policy: the registered origin reflected with credentials, never *', async () => {
    const allowed = await browser.post(`${rig.url}/graphql`, query, { origin: appA.origin });
    expect(allowed.json.errors).toBeUndefined();
    expectAllowed(allowed, appA.origin);
    // Yoga's own CORS (reflect any origin, credentials true) is off.
    const stranger = await browser.post(`${rig.url}/graphql`, query, { origin: unregistered() });
    expect(stranger.status).toBe(200);
    expectNoCors(stranger);
    expectNoCors(await browser.post(`${rig.url}/graphql`, query, { origin: 'null' }));
  });
});

describe('routes without CORS', () => {
  it('/dev/* and /healthz get no CORS headers, even from a registered origin', async () => {
    const developer = { authorization: `Bearer ${rig.developer.token}` };
    const dev = await anonymous().get(`${rig.url}/dev/apps`, { origin: appA.origin, ...developer });
    expect(dev.status, dev.text).toBe(200);
    expectNoCors(dev);
    for (const path of ['/dev/apps', '/healthz']) {
      const res = await anonymous().get(`${rig.url}${path}`, { origin: appA.origin });
      expectNoCors(res);
      expect(res.headers.vary, path).toBeUndefined();
      const pre = await preflight(path, appA.origin);
      expect(pre.status, path).not.toBe(204);
      expectNoCors(pre);
    }
  });

  it("/idp/* is not under this policy (the provider's own discovery CORS never allows credentials)", async () => {
    for (const path of ['/idp/.well-known/openid-configuration', '/idp/nothing-here']) {
      const res = await browser.get(`${rig.url}${path}`, { origin: appA.origin });
      expect(res.headers['access-control-allow-credentials'], path).toBeUndefined();
      expect((await preflight(path, appA.origin)).headers['access-control-allow-credentials'], path).toBeUndefined();
    }
  });

  it('a hosted app origin is not the gateway host: no CORS headers there', async () => {
    for (const path of ['/_osg/auth/session', '/auth/session', '/v1/resources']) {
      const res = await anonymous().get(`${appA.origin}${path}`, { origin: appB.origin });
      expect(res.status, path).toBe(path === '/_osg/auth/session' ? 200 : 404);
      expectNoCors(res);
    }
  });
});

describe('audience: a session cookie acts only for the app of the Origin', () => {
  it("app A's cookie with app B's Origin is 403 audience_mismatch (REST, /auth/session, GraphQL)", async () => {
    const rest = await browser.get(`${rig.url}/v1/resources?type=team`, { origin: appB.origin });
    expect(rest.status).toBe(403);
    expect(rest.json.error).toBe('audience_mismatch');
    expectAllowed(rest, appB.origin);
    const write = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Not yours' }, { origin: appB.origin, ...CSRF });
    expect(write.status).toBe(403);
    expect(write.json.error).toBe('audience_mismatch');
    const session = await browser.get(`${rig.url}/auth/session`, { origin: appB.origin });
    expect(session.status).toBe(403);
    expect(session.json.error).toBe('audience_mismatch');
    const graphql = await browser.post(`${rig.url}/graphql`, { query: '{ resources { id } }' }, { origin: appB.origin });
    expect(graphql.status).toBe(403);
    expect(graphql.json.errors?.[0]?.extensions?.code).toBe('audience_mismatch');
    expect(graphql.json.data?.resources ?? null).toBeNull();
  });

  it("the file routes: a foreign page cannot write with the cookie, app B's page cannot act for app A, and reads carry no CORS for strangers", async () => {
    const put = (origin: string, headers: Record<string, string> = {}) =>
      browser.request('PUT', `${rig.url}/v1/files/me/photos/a.txt`, { body: 'bytes', headers: { origin, 'content-type': 'text/plain', ...headers } });
    // No CSRF header (a form or fetch without preflight): refused before anything is read or stored.
    const stranger = await put(unregistered());
    expect(stranger.status).toBe(403);
    expect(stranger.json.error).toBe('csrf_required');
    expectNoCors(stranger);
    const otherApp = await put(appB.origin, CSRF);
    expect(otherApp.status).toBe(403);
    expect(otherApp.json.error).toBe('audience_mismatch');
    const read = await browser.get(`${rig.url}/v1/files/me/photos/a.txt`, { origin: unregistered() });
    expectNoCors(read);
    // A foreign page's preflight for the upload gets no permission either.
    expectNoCors(await preflight('/v1/files/me/photos/a.txt', unregistered(), 'content-type, x-service-csrf'));
  });

  it("app B's page cannot refresh app A's session", async () => {
    const res = await browser.post(`${rig.url}/auth/refresh`, { client_id: appA.clientId }, { origin: appB.origin, ...CSRF });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('audience_mismatch');
    expect(res.setCookies).toEqual([]);
    const session = await browser.get(`${rig.url}/auth/session`, { origin: appA.origin });
    expect(session.json.authenticated).toBe(true);
  });

  it("with app A's Origin, no Origin, or the gateway's own origin it works", async () => {
    for (const headers of [{ origin: appA.origin }, {}, { origin: rig.url }] as Record<string, string>[]) {
      const res = await browser.get(`${rig.url}/v1/resources?type=team`, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.json.resources.map((r: { name: string }) => r.name)).toContain('Cross-origin team');
    }
  });

  it('bearer requests are unaffected', async () => {
    const token = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const res = await anonymous().get(`${rig.url}/v1/resources?type=team`, { origin: appB.origin, authorization: `Bearer ${token}` });
    expect(res.status, res.text).toBe(200);
    expectAllowed(res, appB.origin);
  });

  it('a malformed Authorization header does not bypass the rule (the cookie is still what authenticates)', async () => {
    const res = await browser.get(`${rig.url}/v1/resources?type=team`, { origin: appB.origin, authorization: 'Basic abc' });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('audience_mismatch');
  });

  it('POST /auth/token is exempt: signing in to app B replaces the session', async () => {
    const res = await browser.post(
      `${rig.url}/auth/token`,
      { code: 'bogus', code_verifier: 'v'.repeat(43), redirect_uri: appB.redirectUri, client_id: appB.clientId },
      { origin: appB.origin },
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.json.error).not.toBe('audience_mismatch');
    expectAllowed(res, appB.origin);
  });

  it('POST /auth/logout is exempt too: it always answers { ok: true } (docs/api.md §4.1) and ends the one session', async () => {
    const res = await browser.post(`${rig.url}/auth/logout`, {}, { origin: appB.origin, ...CSRF });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expectAllowed(res, appB.origin);
    expect((await browser.get(`${rig.url}/auth/session`, { origin: appA.origin })).json).toEqual({ authenticated: false });
  });
});

describe('audience with userinfo validation (no introspection: the token does not name its app)', () => {
  const appOf: Record<string, string> = { 'https://a.example.test': 'app_a', 'https://b.example.test': 'app_b', client_a: 'app_a' };
  const services = {
    apps: { appOfOrigin: async (origin: string) => (appOf[origin] ? { appId: appOf[origin], origin } : null) },
    auth: {
      validator: { mode: 'userinfo' },
      appOfClient: async (clientId: string) => appOf[clientId] ?? null,
      callerForToken: async () => {
        throw new Error('not used in userinfo mode');
      },
    },
  } as unknown as Services;
  const cors = createCors({ services, config: { publicUrl: 'https://gateway.example.test' } as Config });

  async function call(origin: string, cookie: string) {
    const request = new Request('https://gateway.example.test/v1/resources', { headers: { origin, cookie } });
    const decision = await cors.decide(request, 'gateway.example.test', '/v1/resources');
    return { refusal: decision.refusal?.code ?? null, headers: decision.headers, app: decision.audienceAppId };
  }

  it("the gh_client cookie's app must be the Origin's app", async () => {
    const other = await call('https://b.example.test', 'gh_session=t; gh_client=client_a');
    expect(other).toMatchObject({ refusal: 'audience_mismatch' });
    expect(other.headers['access-control-allow-origin']).toBe('https://b.example.test');
    const missing = await call('https://a.example.test', 'gh_session=t');
    expect(missing).toMatchObject({ refusal: 'audience_mismatch' });
    const own = await call('https://a.example.test', 'gh_session=t; gh_client=client_a');
    expect(own).toMatchObject({ refusal: null, app: 'app_a' });
  });
});
