/** Spec 5.3 hosted app origins (/_osg, audience), the /_invite page flow, and the dashboard-only routes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.js';
import { CSRF, type AuthRig, type RigApp, finishAtApp, signInToConsent, signInWithCookies, startAuthRig, uniqueEmail } from './harness.js';

const DASHBOARD_CLIENT_ID = 'dashboard-client';
let rig: AuthRig;
let appA: RigApp;
let appB: RigApp;
let dashboard: RigApp;

beforeAll(async () => {
  rig = await startAuthRig({ DASHBOARD_CLIENT_ID });
  appA = await rig.createApp();
  appB = await rig.createApp();
  const platform = await rig.createApp({ deployProd: false });
  const redirectUri = 'https://dashboard.example.test/callback';
  await rig.app.services.deps.prisma.appClient.create({ data: { clientId: DASHBOARD_CLIENT_ID, appId: platform.appId, redirectUris: [redirectUri] } });
  dashboard = { ...platform, clientId: DASHBOARD_CLIENT_ID, redirectUri };
});
afterAll(() => rig?.close());

const person = (displayName: string) => ({ email: uniqueEmail(), password: 'correct horse battery', displayName });
const hostOf = (origin: string) => new URL(origin).host;

async function hostedSession(app: RigApp, name: string) {
  const browser = new Browser(rig.url);
  const signed = await signInWithCookies(browser, rig, app, person(name), { gateway: app.origin, prefix: '/_osg' });
  return { browser, userId: signed.userId };
}

describe('/_osg on hosted app origins', () => {
  it('serves the auth routes and /v1 with host-only cookies and the refresh cookie on /_osg/auth', async () => {
    const { browser, userId } = await hostedSession(appA, 'Hosted Hana');
    expect(userId).toMatch(/^usr_/);
    expect(browser.cookie(hostOf(appA.origin), 'gh_refresh')!.path).toBe('/_osg/auth');
    expect(browser.cookie(hostOf(rig.url), 'gh_session')).toBeUndefined();
    const created = await browser.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: 'Hosted team' }, CSRF);
    expect(created.status, created.text).toBe(200);
    expect((await browser.get(`${appA.origin}/_osg/v1/resources?type=team`)).json.resources).toHaveLength(1);
    expect((await browser.post(`${appA.origin}/_osg/auth/refresh`, { client_id: appA.clientId }, CSRF)).status).toBe(200);
    expect((await browser.get(`${appA.origin}/v1/resources`)).status).toBe(404);
  });

  it('refuses a token whose audience is another app', async () => {
    const { browser } = await hostedSession(appB, 'Other App');
    const tokenOfB = browser.cookie(hostOf(appB.origin), 'gh_session')!.value;
    const res = await new Browser(rig.url).get(`${appA.origin}/_osg/v1/resources`, { authorization: `Bearer ${tokenOfB}` });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('audience_mismatch');
    const own = await new Browser(rig.url).get(`${appB.origin}/_osg/v1/resources`, { authorization: `Bearer ${tokenOfB}` });
    expect(own.status).toBe(200);
  });
});

describe('GET {app_origin}/_invite/<code>', () => {
  async function inviteLink(owner: Browser) {
    const resource = await owner.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: `Invite team ${Math.random()}` }, CSRF);
    const link = await owner.post(`${appA.origin}/_osg/v1/resources/${resource.json.id}/invite-link`, { role: 'writer' }, CSRF);
    expect(link.status, link.text).toBe(200);
    expect(link.json.url.startsWith(`${appA.origin}/_invite/`)).toBe(true);
    return { resourceId: resource.json.id as string, url: link.json.url as string };
  }

  it('signed in: claims the link and redirects into the app', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner One');
    const { browser: guest, userId } = await hostedSession(appA, 'Guest One');
    const { resourceId, url } = await inviteLink(owner);
    const res = await guest.get(url);
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${appA.origin}/?invite=accepted&resource=${resourceId}`);
    const membership = await rig.app.services.deps.prisma.membership.findUnique({ where: { resourceId_principalId: { resourceId, principalId: userId } } });
    expect(membership).toMatchObject({ state: 'active', role: 'writer' });
    // Single use: the second visit shows a page, not a redirect.
    const again = await guest.get(url);
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been used');
  });

  it('not signed in: sign-up, consent and the claim in one pass', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner Two');
    const { resourceId, url } = await inviteLink(owner);
    const guest = new Browser(rig.url);
    const step = await signInToConsent(guest, rig, { url, verifier: '', state: '' }, person('Newcomer'));
    expect(step.challenge).toBeTruthy();
    const accepted = await guest.post(`${rig.url}/auth/consent/accept`, { challenge: step.challenge, grant_scope: ['openid', 'profile'] });
    expect(accepted.json.welcomed).toBe(true);
    const callback = await finishAtApp(guest, rig, accepted.json.redirect_to);
    expect(callback.startsWith(`${appA.origin}/_osg/auth/callback?`)).toBe(true);
    const landed = await guest.get(callback);
    expect(landed.status, landed.text).toBe(302);
    expect(landed.location).toBe(`${appA.origin}/?invite=accepted&resource=${resourceId}`);
    const session = await guest.get(`${appA.origin}/_osg/auth/session`);
    expect(session.json.authenticated).toBe(true);
    const membership = await rig.app.services.deps.prisma.membership.findUnique({ where: { resourceId_principalId: { resourceId, principalId: session.json.user_id } } });
    expect(membership?.state).toBe('active');
  });

  it('an unclaimable link shows a clear page and is not consumed', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner Three');
    const { browser: guest, userId } = await hostedSession(appA, 'Blocked Guest');
    const { url } = await inviteLink(owner);
    const ownerId = (await owner.get(`${appA.origin}/_osg/auth/session`)).json.user_id;
    await rig.app.services.deps.prisma.block.create({ data: { blockerId: userId, blockedId: ownerId } });
    const res = await guest.get(url);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).toContain('The link was not used up.');
    const code = url.split('/').pop()!;
    const { sha256 } = await import('../../src/lib/secrets.js');
    const link = await rig.app.services.deps.prisma.inviteLink.findUniqueOrThrow({ where: { codeHash: sha256(code) } });
    expect(link.usedAt).toBeNull();
  });

  it('a tampered state on the hosted callback is refused', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner Four');
    const { url } = await inviteLink(owner);
    const guest = new Browser(rig.url);
    const started = await guest.get(url);
    expect(started.status).toBe(302);
    const res = await guest.get(`${appA.origin}/_osg/auth/callback?code=abc&state=tampered`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('state mismatch');
  });
});

describe('dashboard-only routes', () => {
  it('GET /v1/me/invitations: the dashboard session sees invitations across apps; app sessions and bearer tokens do not', async () => {
    const dash = new Browser(rig.url);
    const me = await signInWithCookies(dash, rig, dashboard, person('Dash User'));
    // Invite the dashboard user into a team of app A (they are a principal there too).
    const { browser: owner } = await hostedSession(appA, 'Inviting Owner');
    const resource = await owner.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: 'Cross-app team' }, CSRF);
    const invited = await owner.post(`${appA.origin}/_osg/v1/resources/${resource.json.id}/invite`, { userId: me.userId }, CSRF);
    expect(invited.status, invited.text).toBe(200);

    const list = await dash.get(`${rig.url}/v1/me/invitations`);
    expect(list.status, list.text).toBe(200);
    expect(list.json.invitations).toEqual([expect.objectContaining({ appId: appA.appId, env: 'prod', resourceId: resource.json.id, name: 'Cross-app team', role: expect.any(String) })]);

    const token = dash.cookie(hostOf(rig.url), 'gh_session')!.value;
    const bearer = await new Browser(rig.url).get(`${rig.url}/v1/me/invitations`, { authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(403);
    expect(bearer.json.error).toBe('dashboard_session_required');
    const app = new Browser(rig.url);
    await signInWithCookies(app, rig, appB, person('App Only'));
    const appSession = await app.get(`${rig.url}/v1/me/invitations`);
    expect(appSession.status).toBe(403);
    expect(appSession.json.error).toBe('dashboard_session_required');
  });

  it('DELETE /v1/dashboard/apps/:appId/resources/:resourceId: dashboard session + CSRF + owner, then 501 until deletion is built', async () => {
    const dash = new Browser(rig.url);
    const dashPerson = person('Dash Owner');
    await signInWithCookies(dash, rig, dashboard, dashPerson);
    const token = dash.cookie(hostOf(rig.url), 'gh_session')!.value;
    const ownerHosted = new Browser(rig.url);
    const { browser: owner } = await hostedSession(appA, 'Resource Owner');
    const resource = await owner.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: 'To delete' }, CSRF);
    const path = `${rig.url}/v1/dashboard/apps/${appA.appId}/resources/${resource.json.id}`;
    expect((await dash.request('DELETE', path)).json.error).toBe('csrf_required');
    const notOwner = await dash.request('DELETE', path, { headers: CSRF });
    expect(notOwner.status).toBe(403);
    expect(notOwner.json.error).toBe('owner_only');
    const bearer = await ownerHosted.request('DELETE', path, { headers: { ...CSRF, authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(403);
    expect(bearer.json.error).toBe('dashboard_session_required');

    // The same person, signed in to app A, owns a resource there: the dashboard reaches the deletion.
    const sameInApp = new Browser(rig.url);
    await signInWithCookies(sameInApp, rig, appA, { ...dashPerson, mode: 'login' }, { gateway: appA.origin, prefix: '/_osg' });
    const mine = await sameInApp.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: 'Mine' }, CSRF);
    const deletion = await dash.request('DELETE', `${rig.url}/v1/dashboard/apps/${appA.appId}/resources/${mine.json.id}`, { headers: CSRF });
    expect(deletion.status).toBe(501);
    expect(deletion.json.error).toBe('not_implemented');
    const appResource = await rig.app.services.deps.prisma.resource.findFirstOrThrow({ where: { type: '_app', deployment: { appId: appA.appId } } });
    const reserved = await dash.request('DELETE', `${rig.url}/v1/dashboard/apps/${appA.appId}/resources/${appResource.id}`, { headers: CSRF });
    expect(reserved.json.error).toBe('reserved_resource');
  });
});
