/**
 * IDP_JWT_ACCESS_TOKENS: the embedded provider issues access tokens as JWTs for the gateway, and
 * the gateway verifies them against the provider's JWKS: a cache miss costs no introspection.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Browser } from './browser.js';
import { CSRF, type AuthRig, type RigApp, signInWithCookies, startAuthRig, uniqueEmail } from './harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig({ IDP_JWT_ACCESS_TOKENS: '1', IDP_JWT_ACCESS_TOKEN_TTL_S: '300' });
  app = await rig.createApp();
});
afterAll(() => rig?.close());

const account = () => ({ email: uniqueEmail(), password: 'correct horse battery', displayName: 'Jay Wt' });

describe('JWT access tokens from the embedded provider', () => {
  it('are verified locally: session, bearer and a refreshed token make no introspection call', async () => {
    const browser = new Browser(rig.url);
    const { userId } = await signInWithCookies(browser, rig, app, account());
    const session = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    expect(session.split('.')).toHaveLength(3);
    const [, payload] = session.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ sub: userId, aud: rig.url, iss: rig.issuer, client_id: app.clientId });
    expect(claims.exp - claims.iat).toBe(300);

    const { auth } = rig.app.services;
    auth.validator.clear();
    const introspect = vi.spyOn(auth.provider, 'introspect');
    try {
      expect((await browser.get(`${rig.url}/auth/session`)).json).toEqual({ authenticated: true, user_id: userId });
      const created = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'JWT team' }, CSRF);
      expect(created.status, created.text).toBe(200);
      auth.validator.clear();
      const bearer = await new Browser(rig.url).get(`${rig.url}/v1/resources?type=team`, { authorization: `Bearer ${session}` });
      expect(bearer.status, bearer.text).toBe(200);
      const refreshed = await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId }, CSRF);
      expect(refreshed.status, refreshed.text).toBe(200);
      expect((await browser.get(`${rig.url}/v1/resources?type=team`)).status).toBe(200);
      expect(introspect).not.toHaveBeenCalled();
    } finally {
      introspect.mockRestore();
    }
  });

  it('refuses a tampered JWT without asking the provider', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    const [header, payload, signature] = browser.cookie(new URL(rig.url).host, 'gh_session')!.value.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'usr_someone_else' })).toString('base64url')}.${signature}`;
    const introspect = vi.spyOn(rig.app.services.auth.provider, 'introspect');
    try {
      const res = await new Browser(rig.url).get(`${rig.url}/v1/resources`, { authorization: `Bearer ${forged}` });
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('invalid_token');
      expect(introspect).not.toHaveBeenCalled();
    } finally {
      introspect.mockRestore();
    }
  });

  it("a deleted account's JWT is refused at once, though it has not expired (its person is not re-created)", async () => {
    const browser = new Browser(rig.url);
    const { userId } = await signInWithCookies(browser, rig, app, account());
    const session = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const bearer = () => new Browser(rig.url).get(`${rig.url}/v1/resources?type=team`, { authorization: `Bearer ${session}` });
    expect((await bearer()).status).toBe(200);
    await rig.app.services.accountDeletion.deleteAccount(userId, 'delete my account');
    const refused = await bearer();
    expect(refused.status, refused.text).toBe(401);
    expect(refused.json.error).toBe('invalid_token');
    // Another instance, or this one after its caches expire: the JWT still verifies, the person is gone.
    rig.app.services.auth.validator.clear();
    expect((await bearer()).status).toBe(401);
    expect(await rig.app.services.deps.prisma.principal.findUnique({ where: { id: userId } })).toBeNull();
  });

  it('after logout the JWT is refused on this instance, though it has not expired', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, account());
    const session = browser.cookie(new URL(rig.url).host, 'gh_session')!.value;
    const bearer = () => new Browser(rig.url).get(`${rig.url}/v1/resources?type=team`, { authorization: `Bearer ${session}` });
    expect((await bearer()).status).toBe(200);
    expect((await browser.post(`${rig.url}/auth/logout`, { client_id: app.clientId }, CSRF)).status).toBe(200);
    expect((await bearer()).status).toBe(401);
    // Past the 60-second validation cache too (a JWT would verify again).
    rig.app.services.auth.validator.clear();
    expect((await bearer()).status).toBe(401);
  });

  it('still introspects an opaque token', async () => {
    const introspect = vi.spyOn(rig.app.services.auth.provider, 'introspect');
    try {
      const res = await new Browser(rig.url).get(`${rig.url}/v1/resources`, { authorization: 'Bearer opaque-token-that-the-provider-never-issued' });
      expect(res.status).toBe(401);
      expect(introspect).toHaveBeenCalledTimes(1);
    } finally {
      introspect.mockRestore();
    }
  });
});
