/**
 * The whole product in a real browser (issue #11): headless Chromium (Debian's `chromium`, driven
 * by playwright-core) against a real Gatehouse server and the demo app of test/e2e/app on a hosted
 * app origin (rig.ts). The steps share state and run in order: sign-up, invite link, live roster,
 * a server restart under the feed, sign-out; then (issue 28) a page published with `gatehouse publish`
 * to another origin of the app, signing in and showing another user's row live. Screenshots go to
 * test/e2e/artifacts/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineSchema } from 'gatehouse/schema';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_RESOURCES } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { APP_HOST, type E2eRig, startE2eRig } from './rig.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');
// CI installs Chromium (.ci/run) and must fail without it; elsewhere the suite is skipped, saying why.
const missing = !existsSync(CHROMIUM);
if (missing && !process.env.CI) console.warn(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH): browser end-to-end tests skipped.`);

/** A second origin of the demo app, served only by the gateway: the published site of test/e2e/site. */
const SITE_HOST = 'site.localhost';
const SITE_DIR = resolve(import.meta.dirname, 'site');
/** The demo app's schema plus what the published page shows: boards anyone signed in may read, and their notes. */
const BOARD_SCHEMA = defineSchema({
  tables: { notes: t => t.text('body').notNull().timestamps() },
  resources: { ...TEST_RESOURCES, board: r => r.visibility('discoverable').defaultRole('reader').shares('notes') },
});

const PASSWORD = 'correct horse battery';
const SESSION_COOKIES = ['gh_session', 'gh_refresh', 'gh_client'];

let rig: E2eRig;
let browser: Browser;
let owner: { context: BrowserContext; page: Page; userId: string };
let guest: { context: BrowserContext; page: Page; userId: string };
let team: { id: string; inviteUrl: string };

const shot = (page: Page, name: string) => page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage: true });
const email = (who: string) => `${who}-${Math.random().toString(36).slice(2, 8)}@example.test`;

async function newContext() {
  const context = await browser.newContext();
  context.setDefaultTimeout(20_000);
  return context;
}

/** The demo app's state once its boot script has run. */
async function appReady(page: Page) {
  await page.waitForFunction(() => (window as any).demo?.ready === true);
  return page.evaluate(() => ({ session: (window as any).demo.session, error: (window as any).demo.error }));
}

/** The provider's sign-up form, then the gateway's consent page (Allow). Ends back on `host`, wherever the flow returns to. */
async function signUpAndConsent(page: Page, name: string, shotPrefix: string, host = APP_HOST) {
  await page.waitForURL(u => u.pathname.includes('/idp/'));
  await page.getByRole('button', { name: 'Create account' }).waitFor();
  await page.fill('input[name="display_name"]', name);
  await page.fill('form[action$="/signup"] input[name="email"]', email(name.toLowerCase()));
  await page.fill('form[action$="/signup"] input[name="password"]', PASSWORD);
  await shot(page, `${shotPrefix}-1-sign-up`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(u => u.pathname.endsWith('/auth/consent'));
  await page.getByRole('button', { name: 'Allow' }).waitFor();
  await shot(page, `${shotPrefix}-2-consent`);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(u => u.host.startsWith(host));
}

/** What page scripts can see: no session cookie, nothing token-like in Web Storage. */
async function pageSecrets(page: Page) {
  return page.evaluate(() => ({
    cookie: document.cookie,
    local: Object.entries(localStorage),
    session: Object.entries(sessionStorage),
  }));
}

// Steps run one after another on shared state; a loaded machine (the whole suite in parallel) needs the room.
describe.skipIf(missing && !process.env.CI)('the product in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    if (missing) throw new Error(`Chromium is required in CI and was not found at ${CHROMIUM}: install Debian's chromium package.`);
    mkdirSync(ARTIFACTS, { recursive: true });
    rig = await startE2eRig();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [`--host-resolver-rules=MAP ${APP_HOST} 127.0.0.1, MAP ${SITE_HOST} 127.0.0.1`],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rig?.close();
  });

  it('1. signs a new user up through the embedded provider and consent; the page never sees a token', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${rig.appOrigin}/`);
    expect((await appReady(page)).session).toEqual({ authenticated: false, userId: null });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signUpAndConsent(page, 'Olivia', '1-owner');
    const state = await appReady(page);
    expect(state.error).toBeNull();
    expect(state.session.authenticated).toBe(true);
    expect(state.session.userId).toMatch(/^usr_/);
    await expect.poll(() => page.textContent('#who')).toContain('Signed in as Olivia');
    // The callback's code and state are gone from the address bar.
    expect(new URL(page.url()).search).toBe('');
    await shot(page, '1-owner-3-signed-in');

    const secrets = await pageSecrets(page);
    for (const name of SESSION_COOKIES) expect(secrets.cookie).not.toContain(name);
    expect(secrets.local).toEqual([]);
    expect(JSON.stringify(secrets.session)).not.toMatch(/gh_|token|access|refresh/i);
    // The session is there, in httpOnly host-only cookies on the app origin.
    const cookies = (await context.cookies()).filter(c => c.domain === APP_HOST);
    const session = cookies.find(c => c.name === 'gh_session');
    expect(session).toMatchObject({ httpOnly: true, domain: APP_HOST, path: '/' });
    expect(cookies.find(c => c.name === 'gh_refresh')).toMatchObject({ httpOnly: true, path: '/_osg/auth' });
    expect(secrets.cookie).not.toContain(session!.value);
    owner = { context, page, userId: state.session.userId };
  });

  it('2. creates a team and an invite link; a second user signs up through /_invite/<code> and joins after confirming', async () => {
    team = await owner.page.evaluate(() => (window as any).demo.createTeam('Rowing club'));
    expect(team.inviteUrl).toMatch(new RegExp(`^${rig.appOrigin}/_invite/inv_`));
    // The owner's roster feed is live before anyone joins (step 3 watches it).
    await owner.page.evaluate(id => (window as any).demo.watchMembers(id), team.id);
    await expect.poll(() => owner.page.textContent('#feed-status')).toBe('live');
    await shot(owner.page, '2-owner-invite-link');

    const context = await newContext();
    const page = await context.newPage();
    await page.goto(team.inviteUrl);
    await signUpAndConsent(page, 'Gustav', '2-guest');
    // Back on the app origin: the confirmation page; nothing is joined before Join is pressed.
    await page.waitForURL(u => u.pathname.startsWith('/_invite/'));
    await expect.poll(() => page.textContent('h1')).toBe('Join Rowing club?');
    expect(await rig.app().services.deps.prisma.membership.count({ where: { resourceId: team.id } })).toBe(1);
    await shot(page, '2-guest-3-confirm');
    const joinPost = page.waitForResponse(r => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/_invite/'));
    await page.getByRole('button', { name: 'Join' }).click();
    const joined = await joinPost;
    // A same-origin form POST: the gateway accepts it and redirects to the app (§4.3).
    const refusal = /<h1>(.*?)<\/h1>\s*<p>(.*?)<\/p>/s.exec(await joined.text().catch(() => ''));
    expect(joined.status(), refusal ? `${refusal[1]}: ${refusal[2]}` : 'Join').toBe(303);
    await page.waitForURL(u => u.searchParams.get('invite') === 'accepted');
    const state = await appReady(page);
    expect(state.error).toBeNull();
    expect(state.session.authenticated).toBe(true);
    expect(new URL(page.url()).searchParams.get('resource')).toBe(team.id);
    const mine = await page.evaluate(() => (window as any).demo.gh.resource.list({ type: 'team' }));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: team.id, currentMember: { role: 'writer', state: 'active' } });
    await shot(page, '2-guest-4-joined');
    guest = { context, page, userId: state.session.userId };
  });

  it('3. the owner sees the new member arrive through members.live() without a reload', async () => {
    await owner.page.waitForFunction(
      userId => (window as any).demo.events.some((e: any) => e.op === 'insert' && e.row.userId === userId && e.row.state === 'active'),
      guest.userId,
    );
    await owner.page.locator(`#members li[data-user-id="${guest.userId}"]`).waitFor();
    await shot(owner.page, '3-owner-sees-member');
  });

  it('4. after a server restart the feed reconnects, says so, and carries events again', async () => {
    const before = await owner.page.evaluate(() => (window as any).demo.statuses.length);
    await rig.restart();
    await owner.page.waitForFunction(
      n => {
        const after: string[] = (window as any).demo.statuses.slice(n);
        return after.includes('offline') && after.lastIndexOf('live') > after.indexOf('offline');
      },
      before,
      { timeout: 30_000 },
    );
    await expect.poll(() => owner.page.textContent('#feed-status')).toBe('live');
    await shot(owner.page, '4-owner-reconnected');
    // The re-subscribed feed delivers: the guest leaves and the owner sees the delete.
    await guest.page.evaluate(id => (window as any).demo.gh.resource(id).members.leave(), team.id);
    await owner.page.waitForFunction(
      userId => (window as any).demo.events.some((e: any) => e.op === 'delete' && e.row.userId === userId),
      guest.userId,
    );
    await owner.page.locator(`#members li[data-user-id="${guest.userId}"]`).waitFor({ state: 'detached' });
  });

  it('5. signs out; after a reload the app is signed out', async () => {
    await owner.page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => owner.page.textContent('#who')).toBe('Signed out');
    // The roster feed closed with the session.
    expect(await owner.page.evaluate(() => (window as any).demo.statuses.at(-1))).toBe('closed');
    await owner.page.reload();
    const state = await appReady(owner.page);
    expect(state.session).toEqual({ authenticated: false, userId: null });
    await expect.poll(() => owner.page.textContent('#who')).toBe('Signed out');
    const names = (await owner.context.cookies()).filter(c => c.domain === APP_HOST).map(c => c.name);
    for (const name of SESSION_COOKIES) expect(names).not.toContain(name);
    await shot(owner.page, '5-owner-signed-out');
  });

  it('6. a page published to a hosted origin loads the SDK from that origin, signs in, and shows a row another user writes, live', async () => {
    const site = `http://${SITE_HOST}:${new URL(rig.url).port}`;
    const deployed = await rig.developer.request('PUT', `/dev/apps/${rig.appId}/deployments/prod`, { schema: BOARD_SCHEMA });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    expect((await rig.developer.post(`/dev/apps/${rig.appId}/origins`, { origin: site })).status).toBe(200);
    const developer = { GATEHOUSE_URL: rig.url, GATEHOUSE_DEV_TOKEN: rig.developer.token! };
    const published = await runCli(['publish', SITE_DIR, '--app', rig.appId], developer, SITE_DIR);
    expect(published.code, published.stderr).toBe(0);
    // The other user: the guest of step 2, still signed in on the demo app, opens a board anyone may read.
    const boardId: string = await guest.page.evaluate(async () => (await (window as any).demo.gh.resource.create('board', { name: 'Notices' })).id);

    const context = await newContext();
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on('console', message => {
      if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
    });
    const scripts: string[] = [];
    page.on('request', request => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const served = await page.goto(`${site}/`);
    expect(served?.headers()['content-security-policy']).toContain("script-src 'self';");
    await page.waitForFunction(() => (window as any).board?.ready === true);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signUpAndConsent(page, 'Hedda', '6-reader', SITE_HOST);
    await page.waitForFunction(() => (window as any).board?.ready === true);
    const state = await page.evaluate(() => ({ session: (window as any).board.session, error: (window as any).board.error }));
    expect(state.error).toBeNull();
    expect(state.session.authenticated).toBe(true);
    expect(state.session.userId).not.toBe(guest.userId);

    await page.evaluate(id => (window as any).board.watch(id), boardId);
    await expect.poll(() => page.textContent('#feed-status')).toBe('live');
    await guest.page.evaluate(id => (window as any).demo.gh.resource(id).table('notes').insert({ body: 'Rowing at six' }), boardId);
    const note = page.locator('#notes li', { hasText: 'Rowing at six' });
    await note.waitFor();
    expect(await note.textContent()).toContain(guest.userId);
    await shot(page, '6-reader-sees-note');

    // The SDK and every other script came from the site's own origin, and the strict CSP refused nothing.
    expect(scripts.filter(url => new URL(url).origin !== site)).toEqual([]);
    expect(scripts.some(url => /\/_osg\/sdk\/client@[^/]+\.js$/.test(url))).toBe(true);
    expect(refusals).toEqual([]);
  });
});
