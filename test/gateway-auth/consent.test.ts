/** docs/api.md §4.7: consent accept rules 1–7, the skip path and reject. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_RESOURCE_TYPE } from '../../src/apps/apps.service.js';
import { Browser } from './browser.js';
import {
  type AuthRig,
  type RigApp,
  finishAtApp,
  signInToConsent,
  signInWithCookies,
  startAuthRig,
  startAuthorization,
  uniqueEmail,
} from './harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
});
afterAll(() => rig?.close());

const password = 'correct horse battery';

async function toConsent(
  displayName?: string,
  email = uniqueEmail(),
  mode: 'signup' | 'login' = 'signup',
  target = app,
  browser = new Browser(rig.url),
) {
  const authorization = await startAuthorization(rig.url, target);
  const step = await signInToConsent(browser, rig, authorization, { email, password, displayName, mode });
  return { browser, challenge: step.challenge!, email };
}

const prisma = () => rig.app.services.deps.prisma;
const principal = (id: string) => prisma().principal.findUniqueOrThrow({ where: { id } });

describe('consent', () => {
  it('GET /auth/consent-request reports subject, requested scope and is_new_user', async () => {
    const { browser, challenge } = await toConsent('Grace Hopper');
    const res = await browser.get(`${rig.url}/auth/consent-request?challenge=${challenge}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      skip: false,
      subject: expect.stringMatching(/^usr_/),
      requested_scope: ['openid', 'profile'],
      is_new_user: true,
      client_id: app.clientId,
    });
  });

  it('docs/api.md §4.7, consent rule 1: the subject comes from the provider only; a body naming one is refused', async () => {
    const victim = await toConsent('Victim');
    const attacker = await toConsent('Attacker');
    const refused = await attacker.browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: attacker.challenge, grant_scope: ['openid'], subject: 'someone-else' },
      { 'x-service-csrf': '1' },
    );
    expect(refused.status).toBe(400);
    const accepted = await attacker.browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: attacker.challenge, grant_scope: ['openid'] },
      { 'x-service-csrf': '1' },
    );
    expect(accepted.json.welcomed).toBe(true);
    // The challenge is handled now.
    expect((await attacker.browser.get(`${rig.url}/auth/consent-request?challenge=${attacker.challenge}`)).status).toBe(410);
    const victimRequest = await victim.browser.get(`${rig.url}/auth/consent-request?challenge=${victim.challenge}`);
    const victimId = victimRequest.json.subject;
    expect(await rig.app.services.wallet.balanceMicros(victimId)).toBe(0n);
  });

  it('docs/api.md §4.7, consent rules 2, 3, 5: accepting joins _app, credits $5 once, and generates a handle from the display name', async () => {
    const { browser, challenge, email } = await toConsent('Ada Lovelace');
    const subject = (await browser.get(`${rig.url}/auth/consent-request?challenge=${challenge}`)).json.subject;
    const accepted = await browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge, grant_scope: ['openid', 'profile'], profile: { displayName: 'Ada Lovelace' } },
      { 'x-service-csrf': '1' },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.json).toEqual({ redirect_to: expect.any(String), welcomed: true });
    expect(await rig.app.services.wallet.balanceMicros(subject)).toBe(5_000_000n);
    const after = await principal(subject);
    expect(after.handle).toMatch(/^adalovelace\d*$/);
    expect(after.displayName).toBe('Ada Lovelace');
    const appResource = await prisma().resource.findFirstOrThrow({
      where: { type: APP_RESOURCE_TYPE, deployment: { appId: app.appId, env: 'prod' } },
    });
    const membership = await prisma().membership.findUnique({
      where: { resourceId_principalId: { resourceId: appResource.id, principalId: subject } },
    });
    expect(membership).toMatchObject({ state: 'active', role: 'reader' });

    // A second consent (another browser, so the provider asks again): no second credit.
    await finishAtApp(browser, rig, accepted.json.redirect_to);
    const again = await toConsent(undefined, email, 'login');
    const request = await again.browser.get(`${rig.url}/auth/consent-request?challenge=${again.challenge}`);
    // Remembered consent: the gateway auto-accepts (skip) and reports no new credit.
    expect(request.json).toEqual({ skip: true, redirect_to: expect.any(String), welcomed: false });
    expect(await rig.app.services.wallet.balanceMicros(subject)).toBe(5_000_000n);
  });

  it('docs/api.md §4.7, consent rule 3 on the skip path: a never-welcomed user still gets the credit', async () => {
    const first = await toConsent('Skip Path');
    const subject = (await first.browser.get(`${rig.url}/auth/consent-request?challenge=${first.challenge}`)).json.subject;
    await first.browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: first.challenge, grant_scope: ['openid', 'profile'] },
      { 'x-service-csrf': '1' },
    );
    // Simulate a user whose first consent predates the welcome credit.
    await prisma().walletEntry.deleteMany({ where: { principalId: subject } });
    await prisma().wallet.deleteMany({ where: { holderId: subject } });
    const again = await toConsent(undefined, first.email, 'login');
    const request = await again.browser.get(`${rig.url}/auth/consent-request?challenge=${again.challenge}`);
    expect(request.json).toMatchObject({ skip: true, welcomed: true });
    expect(await rig.app.services.wallet.balanceMicros(subject)).toBe(5_000_000n);
  });

  it('the welcome credit is race-safe: concurrent grants insert one ledger row', async () => {
    const { browser, challenge } = await toConsent('Racer');
    const subject = (await browser.get(`${rig.url}/auth/consent-request?challenge=${challenge}`)).json.subject;
    const results = await Promise.all(Array.from({ length: 5 }, () => rig.app.services.wallet.grantWelcomeCredit(subject)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await prisma().walletEntry.count({ where: { principalId: subject } })).toBe(1);
  });

  it('docs/api.md §4.7, consent rule 4: profile is optional; rule 5 without a display name seeds the handle with "user"', async () => {
    const { browser, challenge } = await toConsent();
    const subject = (await browser.get(`${rig.url}/auth/consent-request?challenge=${challenge}`)).json.subject;
    const accepted = await browser.post(`${rig.url}/auth/consent/accept`, { challenge, grant_scope: ['openid'] }, { 'x-service-csrf': '1' });
    expect(accepted.status).toBe(200);
    expect((await principal(subject)).handle).toMatch(/^user\d{4,}$/);
  });

  it('docs/api.md §4.7, consent rule 6: an existing user who cleared their handle is not reissued one', async () => {
    const first = await toConsent('Cleared Handle');
    const subject = (await first.browser.get(`${rig.url}/auth/consent-request?challenge=${first.challenge}`)).json.subject;
    await first.browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: first.challenge, grant_scope: ['openid', 'profile'] },
      { 'x-service-csrf': '1' },
    );
    await prisma().principal.update({ where: { id: subject }, data: { handle: null } });
    await prisma().oidcPayload.deleteMany({ where: { model: 'RememberedConsent' } });
    const again = await toConsent(undefined, first.email, 'login');
    const accepted = await again.browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge: again.challenge, grant_scope: ['openid'], profile: { displayName: 'New Name' } },
      { 'x-service-csrf': '1' },
    );
    expect(accepted.status).toBe(200);
    const after = await principal(subject);
    expect(after.handle).toBeNull();
    expect(after.handleIssued).toBe(true);
  });

  it('docs/api.md §4.7, consent rule 7: consent succeeds when the app has no deployment (no _app join), and the user is welcomed', async () => {
    const undeployed = await rig.createApp({ deployProd: false });
    const { browser, challenge } = await toConsent('No Deploy', uniqueEmail(), 'signup', undeployed);
    const accepted = await browser.post(
      `${rig.url}/auth/consent/accept`,
      { challenge, grant_scope: ['openid', 'profile'] },
      { 'x-service-csrf': '1' },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.json.welcomed).toBe(true);
    const callback = await finishAtApp(browser, rig, accepted.json.redirect_to);
    expect(new URL(callback).searchParams.get('code')).toBeTruthy();
  });

  it('reject sends the browser back to the app with access_denied', async () => {
    const { browser, challenge } = await toConsent('Says No');
    const rejected = await browser.post(`${rig.url}/auth/consent/reject`, { challenge }, { 'x-service-csrf': '1' });
    expect(rejected.status).toBe(200);
    const callback = new URL(await finishAtApp(browser, rig, rejected.json.redirect_to));
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  it('accept and reject without the CSRF header are refused and leave the challenge usable', async () => {
    const { browser, challenge } = await toConsent('NoHeader');
    for (const path of ['/auth/consent/accept', '/auth/consent/reject']) {
      const refused = await browser.post(`${rig.url}${path}`, { challenge, grant_scope: ['openid'] });
      expect(refused.status).toBe(403);
      expect(refused.json.error).toBe('csrf_required');
    }
    const accepted = await browser.post(`${rig.url}/auth/consent/accept`, { challenge, grant_scope: ['openid'] }, { 'x-service-csrf': '1' });
    expect(accepted.status).toBe(200);
  });

  it('an unknown challenge is 404', async () => {
    const res = await new Browser(rig.url).get(`${rig.url}/auth/consent-request?challenge=nope`);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('consent_request_not_found');
  });

  it('the consent page is served for the provider redirect', async () => {
    const { browser, challenge } = await toConsent('Page');
    const page = await browser.get(`${rig.url}/auth/consent?consent_challenge=${challenge}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
  });

  it('signing in again after consent needs no consent in the same provider session', async () => {
    const browser = new Browser(rig.url);
    const person = { email: uniqueEmail(), password, displayName: 'Twice' };
    const first = await signInWithCookies(browser, rig, app, person);
    const second = await signInWithCookies(browser, rig, app, { ...person, mode: 'login' });
    expect(second.userId).toBe(first.userId);
  });
});
