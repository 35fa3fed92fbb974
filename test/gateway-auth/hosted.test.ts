/**
 * docs/api.md §4.3 and §4.6: hosted app origins (/_osg, audience), the /_invite page flow, and the
 * dashboard-only routes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERS_LIVE, RESOURCES_LIVE } from '../helpers/feeds.js';
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
  await rig.app.services.deps.prisma.appClient.create({
    data: { clientId: DASHBOARD_CLIENT_ID, appId: platform.appId, redirectUris: [redirectUri] },
  });
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

/** The confirmation page's hidden token (the Join form's only field). */
const joinTokenOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

/** What a person does on the page: open the link, see the page, press Join (a same-origin form POST). */
async function openAndJoin(browser: Browser, url: string) {
  const page = await browser.get(url);
  expect(page.status, page.text.slice(0, 300)).toBe(200);
  const csrf = joinTokenOf(page.text);
  expect(csrf).toBeTruthy();
  return browser.postForm(url, { csrf: csrf! }, { origin: new URL(url).origin, 'sec-fetch-site': 'same-origin' });
}

const membershipOf = (resourceId: string, principalId: string) =>
  rig.app.services.deps.prisma.membership.findUnique({ where: { resourceId_principalId: { resourceId, principalId } } });

describe('{app_origin}/_invite/<code>', () => {
  async function inviteLink(owner: Browser) {
    const resource = await owner.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: `Invite team ${Math.random()}` }, CSRF);
    const link = await owner.post(`${appA.origin}/_osg/v1/resources/${resource.json.id}/invite-link`, { role: 'writer' }, CSRF);
    expect(link.status, link.text).toBe(200);
    expect(link.json.url.startsWith(`${appA.origin}/_invite/`)).toBe(true);
    return { resourceId: resource.json.id as string, name: resource.json.name as string, url: link.json.url as string };
  }

  it('signed in: GET only asks (no join, not framable); Join posts the page token and joins', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner One');
    const { browser: guest, userId } = await hostedSession(appA, 'Guest One');
    const { resourceId, name, url } = await inviteLink(owner);
    // A cross-site redirect lands here: the page asks, and nobody is joined.
    const page = await guest.get(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Join ${name}?`);
    expect(page.text).toContain('writer');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(await membershipOf(resourceId, userId)).toBeNull();

    const joined = await openAndJoin(guest, url);
    expect(joined.status, joined.text).toBe(303);
    expect(joined.location).toBe(`${appA.origin}/?invite=accepted&resource=${resourceId}`);
    expect(await membershipOf(resourceId, userId)).toMatchObject({ state: 'active', role: 'writer' });
    // Single use: the next visit shows why, and offers nothing to press.
    const again = await guest.get(url);
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been used');
    expect(again.text).not.toContain('not used up');
    expect(joinTokenOf(again.text)).toBeUndefined();
  });

  it('the Join POST is refused without the page token, with another session token, or from another origin', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner Five');
    const { browser: guest, userId } = await hostedSession(appA, 'Guest Five');
    const { browser: attacker } = await hostedSession(appA, 'Attacker Five');
    const { resourceId, url } = await inviteLink(owner);
    const same = { origin: appA.origin };
    // A cross-site form: no token (it cannot read the page), or the attacker's own page token.
    expect((await guest.postForm(url, {}, same)).status).toBe(403);
    const attackersToken = joinTokenOf((await attacker.get(url)).text)!;
    expect((await guest.postForm(url, { csrf: attackersToken }, same)).status).toBe(403);
    const guestsToken = joinTokenOf((await guest.get(url)).text)!;
    const crossSite = await guest.postForm(url, { csrf: guestsToken }, { origin: 'https://evil.example.test' });
    expect(crossSite.status).toBe(403);
    expect((await guest.postForm(url, { csrf: guestsToken }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(
      (await guest.request('POST', url, { body: JSON.stringify({ csrf: guestsToken }), headers: { 'content-type': 'text/plain', ...same } })).status,
    ).toBe(415);
    expect(await membershipOf(resourceId, userId)).toBeNull();
    // Without a session, the POST sends the visitor back to the page (sign in first), joining no one.
    const anonymous = await new Browser(rig.url).postForm(url, { csrf: guestsToken }, same);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(url);
    expect(await rig.app.services.deps.prisma.inviteLink.count({ where: { resourceId, usedAt: { not: null } } })).toBe(0);
  });

  it('not signed in: sign-up and consent, then the confirmation page; Join joins', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner Two');
    const { resourceId, url } = await inviteLink(owner);
    const guest = new Browser(rig.url);
    const step = await signInToConsent(guest, rig, { url, verifier: '', state: '' }, person('Newcomer'));
    expect(step.challenge).toBeTruthy();
    const accepted = await guest.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: step.challenge, grant_scope: ['openid', 'profile'] },
      { 'x-service-csrf': '1' },
    );
    expect(accepted.json.welcomed).toBe(true);
    const callback = await finishAtApp(guest, rig, accepted.json.redirect_to);
    expect(callback.startsWith(`${appA.origin}/_osg/auth/callback?`)).toBe(true);
    const landed = await guest.get(callback);
    expect(landed.status, landed.text).toBe(303);
    expect(landed.location).toBe(url);
    const session = await guest.get(`${appA.origin}/_osg/auth/session`);
    expect(session.json.authenticated).toBe(true);
    // Signed in, but not joined until the person says so.
    expect(await membershipOf(resourceId, session.json.user_id)).toBeNull();
    const joined = await openAndJoin(guest, url);
    expect(joined.location).toBe(`${appA.origin}/?invite=accepted&resource=${resourceId}`);
    expect((await membershipOf(resourceId, session.json.user_id))?.state).toBe('active');
  });

  it('an unclaimable link shows a clear page and is not consumed', async () => {
    const { browser: owner } = await hostedSession(appA, 'Owner Three');
    const { browser: guest, userId } = await hostedSession(appA, 'Blocked Guest');
    const { url } = await inviteLink(owner);
    const ownerId = (await owner.get(`${appA.origin}/_osg/auth/session`)).json.user_id;
    await rig.app.services.deps.prisma.block.create({ data: { blockerId: userId, blockedId: ownerId } });
    const res = await openAndJoin(guest, url);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).toContain('The link was not used up.');
    expect(res.headers['x-frame-options']).toBe('DENY');
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

describe('PUBLIC_URL/_invite/<code> for an app without an origin', () => {
  it('is served on the gateway host: sign in through /auth/callback, confirm, join', async () => {
    // An app with only a redirect URI: its invite links are on the gateway's own host.
    const created = await rig.developer.post('/dev/apps', { name: 'No origin', redirectUris: ['https://no-origin.example.test/callback'] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { TEST_SCHEMA } = await import('../helpers/app.js');
    expect((await rig.developer.request('PUT', `/dev/apps/${created.body.id}/deployments/prod`, { schema: TEST_SCHEMA })).status).toBe(200);
    const plain: RigApp = {
      appId: created.body.id,
      clientId: created.body.clientIds[0],
      origin: '',
      redirectUri: 'https://no-origin.example.test/callback',
    };
    const owner = new Browser(rig.url);
    await signInWithCookies(owner, rig, plain, person('Plain Owner'));
    const resource = await owner.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Plain team' }, CSRF);
    const link = await owner.post(`${rig.url}/v1/resources/${resource.json.id}/invite-link`, { role: 'reader' }, CSRF);
    expect(link.status, link.text).toBe(200);
    expect(link.json.url.startsWith(`${rig.url}/_invite/`)).toBe(true);

    const guest = new Browser(rig.url);
    const step = await signInToConsent(guest, rig, { url: link.json.url, verifier: '', state: '' }, person('Plain Guest'));
    const accepted = await guest.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: step.challenge, grant_scope: ['openid', 'profile'] },
      { 'x-service-csrf': '1' },
    );
    expect(accepted.status, accepted.text).toBe(200);
    // The callback is on the gateway itself: follow the redirects until it is reached.
    const hop = await guest.follow(accepted.json.redirect_to, u => u.pathname === '/auth/callback');
    expect(hop.url.startsWith(`${rig.url}/auth/callback?`)).toBe(true);
    const landed = await guest.get(hop.url);
    expect(landed.status, landed.text).toBe(303);
    expect(landed.location).toBe(link.json.url);
    const userId = (await guest.get(`${rig.url}/auth/session`)).json.user_id;
    expect(await membershipOf(resource.json.id, userId)).toBeNull();
    const joined = await openAndJoin(guest, link.json.url);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.text).toContain('You joined Plain team');
    expect(await membershipOf(resource.json.id, userId)).toMatchObject({ state: 'active', role: 'reader' });
  });
});

describe('dashboard-only routes', () => {
  it('GET /v1/me/wallet: the dashboard session sees its ledger (the welcome credit, once); others do not', async () => {
    const dash = new Browser(rig.url);
    const someone = person('Wallet Owner');
    await signInWithCookies(dash, rig, dashboard, someone);
    const app = new Browser(rig.url);
    await signInWithCookies(app, rig, appA, { ...someone, mode: 'login' }, { gateway: appA.origin, prefix: '/_osg' });
    const wallet = await dash.get(`${rig.url}/v1/me/wallet`);
    expect(wallet.status, wallet.text).toBe(200);
    expect(wallet.json).toEqual({
      balanceUsd: '5.00',
      entries: [
        {
          id: expect.stringMatching(/^wal_/),
          kind: 'welcome_credit',
          amountUsd: '5.00',
          // Set on charges (docs/api.md §14): where it was spent and by whom.
          appId: null,
          env: null,
          clientId: null,
          actorId: null,
          quantity: null,
          calls: null,
          createdAt: expect.any(String),
        },
      ],
    });
    const token = dash.cookie(hostOf(rig.url), 'gh_session')!.value;
    const bearer = await new Browser(rig.url).get(`${rig.url}/v1/me/wallet`, { authorization: `Bearer ${token}` });
    expect(bearer.json.error).toBe('dashboard_session_required');
    expect((await new Browser(rig.url).get(`${rig.url}/v1/me/wallet`)).status).toBe(401);
  });

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
    expect(list.json.invitations).toEqual([
      expect.objectContaining({ appId: appA.appId, env: 'prod', resourceId: resource.json.id, name: 'Cross-app team', role: expect.any(String) }),
    ]);

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

  it('DELETE /v1/me: the dashboard session deletes the account (CSRF header and the phrase required); the session ends', async () => {
    const { dash, inApp, userId } = await dashboardOwner('Leaving User');
    const confirm = JSON.stringify({ confirm: 'delete my account' });
    const json = { 'content-type': 'application/json' };
    expect((await dash.request('DELETE', `${rig.url}/v1/me`, { body: confirm, headers: json })).json.error).toBe('csrf_required');
    const unconfirmed = await dash.request('DELETE', `${rig.url}/v1/me`, { body: '{}', headers: { ...json, ...CSRF } });
    expect(unconfirmed.json.error).toBe('confirmation_required');
    const deleted = await dash.request('DELETE', `${rig.url}/v1/me`, { body: confirm, headers: { ...json, ...CSRF } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toMatchObject({ ok: true, transferred: [], deleted: [] });
    expect(await rig.app.services.deps.prisma.principal.findUnique({ where: { id: userId } })).toBeNull();
    // Its sessions ended with it, in the dashboard and in the app.
    expect((await dash.get(`${rig.url}/v1/me/wallet`)).status).toBe(401);
    expect((await inApp.get(`${appA.origin}/_osg/auth/session`)).json).toEqual({ authenticated: false });
  });

  it("DELETE /v1/me: no app credential reaches it, not from another app's origin either; nothing of the account goes", async () => {
    const { dash, inApp, userId } = await dashboardOwner('Kept User');
    // The same person in app B, on B's hosted origin.
    const inB = new Browser(rig.url);
    const account = await rig.app.services.deps.prisma.account.findUniqueOrThrow({ where: { principalId: userId } });
    await signInWithCookies(
      inB,
      rig,
      appB,
      { email: account.email, password: 'correct horse battery', mode: 'login' },
      { gateway: appB.origin, prefix: '/_osg' },
    );
    const owned = await inApp.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: 'Owned in A' }, CSRF);
    expect(owned.status, owned.text).toBe(200);
    const body = JSON.stringify({ confirm: 'delete my account' });
    const headers = { 'content-type': 'application/json', ...CSRF };
    const tokenOfB = inB.cookie(hostOf(appB.origin), 'gh_session')!.value;
    const attempts = [
      // B's hosted-origin cookie, on B's origin and on the gateway's path.
      () => inB.request('DELETE', `${appB.origin}/_osg/v1/me`, { body, headers }),
      () => inB.post(`${appB.origin}/_osg/graphql`, { query: 'mutation { deleteMyAccount(confirm: "delete my account") { ok } }' }, CSRF),
      // B's session as a bearer token, at the gateway.
      () => new Browser(rig.url).request('DELETE', `${rig.url}/v1/me`, { body, headers: { ...headers, authorization: `Bearer ${tokenOfB}` } }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      const error = res.json.error ?? res.json.errors?.[0]?.extensions?.code;
      expect(error, res.text).toBe('dashboard_session_required');
    }
    const prisma = rig.app.services.deps.prisma;
    expect(await prisma.principal.findUnique({ where: { id: userId } })).not.toBeNull();
    expect(await prisma.resource.findUnique({ where: { id: owned.json.id } })).not.toBeNull();
    expect((await dash.get(`${rig.url}/v1/me/wallet`)).status).toBe(200);
  });

  /** One person signed in to the dashboard and, with the same account, to app A. */
  async function dashboardOwner(name: string) {
    const account = person(name);
    const dash = new Browser(rig.url);
    const signed = await signInWithCookies(dash, rig, dashboard, account);
    const inApp = new Browser(rig.url);
    await signInWithCookies(inApp, rig, appA, { ...account, mode: 'login' }, { gateway: appA.origin, prefix: '/_osg' });
    const deleteUrl = (resourceId: string) => `${rig.url}/v1/dashboard/apps/${appA.appId}/resources/${resourceId}`;
    return { dash, inApp, userId: signed.userId, deleteUrl };
  }

  /** A person signed in to app A; their session token also works as a bearer token (live feeds). */
  async function memberOfA(name: string) {
    const { browser, userId } = await hostedSession(appA, name);
    const token = browser.cookie(hostOf(appA.origin), 'gh_session')!.value;
    const post = (path: string) => browser.post(`${appA.origin}/_osg${path}`, {}, CSRF);
    return { id: userId, token, post };
  }

  /** A team of app A owned by `inApp`, with an active member, an invitee, a requester and an invite link. */
  async function populatedTeam(inApp: Browser, tag: string) {
    const created = await inApp.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: `Doomed ${tag}` }, CSRF);
    expect(created.status, created.text).toBe(200);
    const id = created.json.id as string;
    const [member, invitee, requester] = [await memberOfA(`Member ${tag}`), await memberOfA(`Invitee ${tag}`), await memberOfA(`Requester ${tag}`)];
    for (const userId of [member.id, invitee.id]) {
      const invited = await inApp.post(`${appA.origin}/_osg/v1/resources/${id}/invite`, { userId, role: 'reader' }, CSRF);
      expect(invited.status, invited.text).toBe(200);
    }
    expect((await member.post(`/v1/resources/${id}/accept`)).status).toBe(200);
    expect((await requester.post(`/v1/resources/${id}/request`)).status).toBe(200);
    const link = await inApp.post(`${appA.origin}/_osg/v1/resources/${id}/invite-link`, { role: 'writer' }, CSRF);
    expect(link.status, link.text).toBe(200);
    return { id, member, invitee, requester };
  }

  it('DELETE /v1/dashboard/apps/:appId/resources/:resourceId: dashboard session + CSRF + owner, then the cascade', async () => {
    const { dash, inApp, userId: meInA, deleteUrl } = await dashboardOwner('Dash Owner');
    const token = dash.cookie(hostOf(rig.url), 'gh_session')!.value;
    const ownerHosted = new Browser(rig.url);
    const { browser: owner } = await hostedSession(appA, 'Resource Owner');
    const resource = await owner.post(`${appA.origin}/_osg/v1/resources`, { type: 'team', name: 'To delete' }, CSRF);
    const path = deleteUrl(resource.json.id);
    expect((await dash.request('DELETE', path)).json.error).toBe('csrf_required');
    const notOwner = await dash.request('DELETE', path, { headers: CSRF });
    expect(notOwner.status).toBe(403);
    expect(notOwner.json.error).toBe('owner_only');
    const bearer = await ownerHosted.request('DELETE', path, { headers: { ...CSRF, authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(403);
    expect(bearer.json.error).toBe('dashboard_session_required');
    const elsewhere = await dash.request('DELETE', `${rig.url}/v1/dashboard/apps/${appB.appId}/resources/${resource.json.id}`, { headers: CSRF });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json.error).toBe('resource_not_found');
    // An admin is not enough: only the owner deletes.
    const { id: adminsTeam } = await populatedTeam(owner, 'admin');
    await owner.post(`${appA.origin}/_osg/v1/resources/${adminsTeam}/invite`, { userId: meInA, role: 'admin' }, CSRF);
    expect((await inApp.post(`${appA.origin}/_osg/v1/resources/${adminsTeam}/accept`, {}, CSRF)).status).toBe(200);
    expect((await dash.request('DELETE', deleteUrl(adminsTeam), { headers: CSRF })).json.error).toBe('owner_only');

    // The same person, signed in to app A, owns a resource there: the dashboard deletes it and all it holds.
    const { id } = await populatedTeam(inApp, 'cascade');
    const deletion = await dash.request('DELETE', deleteUrl(id), { headers: CSRF });
    expect(deletion.status, deletion.text).toBe(200);
    expect(deletion.json).toEqual({ ok: true });
    expect((await inApp.get(`${appA.origin}/_osg/v1/resources/${id}`)).status).toBe(404);
    const listed = await inApp.get(`${appA.origin}/_osg/v1/resources`);
    expect(listed.status).toBe(200);
    expect(listed.json.resources.map((r: { id: string }) => r.id)).not.toContain(id);
    const { prisma } = rig.app.services.deps;
    expect(await prisma.resource.findUnique({ where: { id } })).toBeNull();
    expect(await prisma.membership.count({ where: { resourceId: id } })).toBe(0);
    expect(await prisma.inviteLink.count({ where: { resourceId: id } })).toBe(0);
    const again = await dash.request('DELETE', deleteUrl(id), { headers: CSRF });
    expect(again.status).toBe(404);
    expect(again.json.error).toBe('resource_not_found');
    // Someone else's resources are untouched.
    expect(await prisma.membership.count({ where: { resourceId: adminsTeam } })).toBe(5);

    const appResource = await prisma.resource.findFirstOrThrow({ where: { type: '_app', deployment: { appId: appA.appId } } });
    const reserved = await dash.request('DELETE', deleteUrl(appResource.id), { headers: CSRF });
    expect(reserved.status).toBe(403);
    expect(reserved.json.error).toBe('reserved_resource');
    expect(await prisma.resource.findUnique({ where: { id: appResource.id } })).not.toBeNull();
  });

  /**
   * A live feed over SSE with a provider session token as bearer (graphql-ws connectionParams take
   * only Gatehouse-minted tokens). `next()` resolves the next payload, or null once the server completes.
   */
  async function sseFeed(token: string, query: string, variables: Record<string, unknown> = {}) {
    const controller = new AbortController();
    const res = await fetch(`${rig.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    async function read(): Promise<any> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end < 0) {
          const chunk = await reader.read();
          if (chunk.done) return null;
          buffer += decoder.decode(chunk.value, { stream: true });
          continue;
        }
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: ?complete$/m.test(block)) return null;
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        if (data) return JSON.parse(data);
      }
    }
    const next = (ms = 5000) => Promise.race([read(), sleep(ms).then(() => Promise.reject(new Error(`no event within ${ms} ms`)))]);
    const quiet = (ms: number) => Promise.race([read().then(() => false), sleep(ms).then(() => true)]);
    // The feed's snapshot, up to its `ready`: from then on every change reaches it.
    for (let payload = await next(); (Object.values(payload?.data ?? {})[0] as { op?: string } | undefined)?.op !== 'ready'; payload = await next());
    return { next, quiet, close: () => controller.abort() };
  }

  it('deletion notifies every removed member on members.live() and resources.live(), as a remove would', async () => {
    const { dash, inApp, userId: ownerId, deleteUrl } = await dashboardOwner('Dash Notifier');
    const { id, member, invitee, requester } = await populatedTeam(inApp, 'feeds');
    const roster = await sseFeed(member.token, MEMBERS_LIVE, { id });
    const own = await Promise.all([member, invitee, requester].map(u => sseFeed(u.token, RESOURCES_LIVE)));
    expect((await dash.request('DELETE', deleteUrl(id), { headers: CSRF })).status).toBe(200);

    // A delete carries the row's identity (docs/api.md §6).
    const row = (userId: string, _role?: string, _state?: string) => ({ id: `${id}:${userId}`, resourceId: id, userId, role: null, state: null });
    // The roster feed carries the deletes in roster order, ends with the subscriber's own, then completes.
    const seen = [];
    for (let payload = await roster.next(); payload; payload = await roster.next()) seen.push(payload.data.membersLive);
    expect(seen[0]).toEqual({ op: 'delete', row: row(ownerId, 'owner', 'active') });
    expect(seen.at(-1)).toEqual({ op: 'delete', row: row(member.id, 'reader', 'active') });
    expect(seen.every(change => change.op === 'delete')).toBe(true);
    const expected = [row(member.id, 'reader', 'active'), row(invitee.id, 'reader', 'invited'), row(requester.id, 'writer', 'requested')];
    for (const [i, feed] of own.entries()) {
      expect(await feed.next()).toEqual({ data: { resourcesLive: { op: 'delete', row: expected[i] } } });
      expect(await feed.quiet(200)).toBe(true);
    }
    for (const feed of [roster, ...own]) feed.close();
  });
});
