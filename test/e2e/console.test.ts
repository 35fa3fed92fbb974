/**
 * The web console (README "Console", issue #29) in a real browser: headless Chromium against a real
 * gateway (rig.ts). One browser for the file; the steps share state and run in order: the page's
 * headers and size, sign-up through the console, a cross-app invitation accepted, a resource deleted
 * while a member's live feed watches, the account deleted. Screenshots go to docs/console/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSchema } from 'gatehouse/schema';
import { TEST_RESOURCES, TEST_SCHEMA } from '../helpers/app.js';
import { APP_HOST, type E2eRig, startE2eRig } from './rig.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '../../docs/console');
const missing = !existsSync(CHROMIUM);
if (missing && !process.env.CI) console.warn(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH): console browser tests skipped.`);

const PASSWORD = 'correct horse battery';
/** The budget for the console's first load, compressed. */
const FIRST_LOAD_LIMIT = 200 * 1024;

let rig: E2eRig;
let browser: Browser;
let person: { context: BrowserContext; page: Page; userId: string };
/** The app the person creates as a developer in the console, and its test user's token. */
let garden: { appId: string; alice: string };

/** What the developer deploys from the console: a top-level table, a resource-owned one and a bucket. */
const BROWSER_SCHEMA = defineSchema({
  tables: { notes: t => t.text('title').notNull().integer('stars') },
  files: { docs: { maxSize: '1MB' } },
  resources: { ...TEST_RESOURCES, team: r => TEST_RESOURCES.team(r).owns('tasks', t => t.text('title')) },
});
const BROWSER_SCHEMA_V2 = defineSchema({
  tables: { notes: t => t.text('title').notNull().integer('stars').text('mood') },
  files: { docs: { maxSize: '1MB' } },
  resources: { ...TEST_RESOURCES, team: r => TEST_RESOURCES.team(r).owns('tasks', t => t.text('title')) },
});

const shot = (page: Page, name: string) => page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: true });
const email = (who: string) => `${who}-${Math.random().toString(36).slice(2, 8)}@example.test`;

async function newContext() {
  const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
  context.setDefaultTimeout(20_000);
  return context;
}

/** The provider's sign-up form, then the gateway's consent page (Allow). */
async function signUpAndConsent(page: Page, name: string) {
  await page.waitForURL(u => u.pathname.includes('/idp/'));
  await page.getByRole('button', { name: 'Create account' }).waitFor();
  await page.fill('input[name="display_name"]', name);
  await page.fill('form[action$="/signup"] input[name="email"]', email(name.toLowerCase()));
  await page.fill('form[action$="/signup"] input[name="password"]', PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await allow(page);
}

async function allow(page: Page) {
  await page.waitForURL(u => u.pathname.endsWith('/auth/consent'));
  await page.getByRole('button', { name: 'Allow' }).click();
}

/** Bytes on the wire for a GET with `Accept-Encoding: gzip` (node's fetch would decode them). */
function wireBytes(url: string): Promise<{ status: number; bytes: number; encoding?: string; body: string }> {
  return new Promise((done, failed) => {
    httpRequest(url, { headers: { 'accept-encoding': 'gzip' } }, res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        done({
          status: res.statusCode!,
          bytes: raw.length,
          encoding: res.headers['content-encoding'],
          body: res.headers['content-encoding'] ? '' : raw.toString(),
        });
      });
    })
      .on('error', failed)
      .end();
  });
}

/**
 * A GraphQL call as the given credential, to the gateway's /graphql or, with `hosted`, a hosted
 * origin's /_osg/graphql (its Host header: the name resolves only in the browser); the first error's code.
 */
function graphqlAs(hosted: boolean, headers: Record<string, string>, query: string): Promise<string | null> {
  const gateway = new URL(rig.url);
  const body = JSON.stringify({ query });
  return new Promise((done, failed) => {
    const req = httpRequest(
      {
        host: gateway.hostname,
        port: gateway.port,
        path: hosted ? '/_osg/graphql' : '/graphql',
        method: 'POST',
        headers: {
          host: hosted ? new URL(rig.appOrigin).host : gateway.host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-service-csrf': '1',
          ...headers,
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const parsed = JSON.parse(Buffer.concat(chunks).toString()) as { errors?: { extensions?: { code?: string } }[] };
          done(parsed.errors?.[0]?.extensions?.code ?? null);
        });
      },
    );
    req.on('error', failed);
    req.end(body);
  });
}

describe.skipIf(missing && !process.env.CI)('the web console in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    if (missing) throw new Error(`Chromium is required in CI and was not found at ${CHROMIUM}: install Debian's chromium package.`);
    mkdirSync(SHOTS, { recursive: true });
    // The console as `npm install` builds it.
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../scripts/build-console.mjs')], { stdio: 'inherit' });
    rig = await startE2eRig();
    // Test users (the inviters below) live in a test environment.
    const deployed = await rig.developer.request('PUT', `/dev/apps/${await appIdOf()}/deployments/dev`, { schema: TEST_SCHEMA });
    if (deployed.status !== 200) throw new Error(`deploy dev: ${deployed.status}`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [`--host-resolver-rules=MAP ${APP_HOST} 127.0.0.1`] });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await rig?.close();
  });

  it('serves /console with a strict CSP, no framing, and a first load under 200 KB compressed', async () => {
    const page = await fetch(`${rig.url}/console`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    // No inline script or style: the page names its two assets, on this origin.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(m => m[1]);
    expect(assets).toHaveLength(2);

    const loads = await Promise.all([`${rig.url}/console`, ...assets.map(a => rig.url + a)].map(wireBytes));
    for (const load of loads) expect(load.status).toBe(200);
    for (const load of loads.slice(1)) expect(load.encoding).toBe('gzip');
    const total = loads.reduce((n, l) => n + l.bytes, 0);
    console.info(`console first load: ${total} bytes on the wire (${loads.map(l => l.bytes).join(' + ')})`);
    expect(total).toBeLessThan(FIRST_LOAD_LIMIT);

    // A page of another origin that frames the console gets nothing: Chromium refuses to render it.
    const context = await newContext();
    const framer = await context.newPage();
    await framer.goto(`${rig.appOrigin}/`);
    await framer.evaluate(src => {
      const frame = document.createElement('iframe');
      frame.src = src;
      document.body.append(frame);
      return new Promise(r => frame.addEventListener('load', r));
    }, `${rig.url}/console`);
    const framed = framer.frames().find(f => f !== framer.mainFrame());
    expect(framed).toBeTruthy();
    expect(await framed!.evaluate(() => document.getElementById('root')).catch(() => null)).toBeNull();
    await context.close();
  });

  it('signs a new person up through the console (embedded provider, consent) and shows their account', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${rig.url}/console`);
    await shot(page, 'signin');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signUpAndConsent(page, 'Consuela');
    await page.waitForURL(u => u.pathname === '/console');
    await expect.poll(() => page.textContent('header')).toContain('Signed in as Consuela');
    await expect.poll(() => page.textContent('main')).toContain('@');
    const userId = (await page.textContent('dl.facts code'))!;
    expect(userId).toMatch(/^usr_/);
    // The session is in httpOnly cookies the page cannot read.
    expect(await page.evaluate(() => document.cookie)).not.toContain('gh_session');
    await shot(page, 'account');
    person = { context, page, userId };
  });

  it('an app credential (bearer, app cookie on the gateway, hosted-origin cookie) reaches no dashboard action', async () => {
    // Signed in to the demo app (hosted origin) with the same person: the provider remembers them.
    const app = await person.context.newPage();
    await app.goto(`${rig.appOrigin}/`);
    await app.waitForFunction(() => (window as any).demo?.ready === true);
    await app.getByRole('button', { name: 'Sign in' }).click();
    await allow(app);
    await app.waitForURL(u => u.host.startsWith(APP_HOST));
    await app.waitForFunction(() => (window as any).demo?.session?.authenticated === true);
    const appCookie = (await person.context.cookies(rig.appOrigin)).find(c => c.name === 'gh_session')!.value;
    await app.close();

    const minted = await rig.developer.post(`/dev/apps/${await appIdOf()}/test-users`, { name: 'tess', env: 'dev' });
    expect(minted.status).toBe(200);
    const credentials: Record<string, [boolean, Record<string, string>]> = {
      'test-user bearer': [false, { authorization: `Bearer ${minted.body.token}` }],
      'app session as bearer': [false, { authorization: `Bearer ${appCookie}` }],
      'app cookie on the gateway': [false, { cookie: `gh_session=${appCookie}` }],
      'hosted-origin cookie': [true, { cookie: `gh_session=${appCookie}`, origin: rig.appOrigin }],
    };
    const actions = [
      ['query { myDashboardAccount { id } }', {}],
      ['query { myOwnedResources { resourceId } }', {}],
      ['query { myInvitationsAcrossApps { resourceId } }', {}],
      ['query { myWallet { balanceUsd } }', {}],
      ['query { mySpendByDay { appId } }', {}],
      ['mutation { answerInvitationAcrossApps(resourceId: "res_x", accept: true) { resourceId } }', {}],
      ['mutation { deleteResourceAsOwner(appId: "app_x", resourceId: "res_x") { ok } }', {}],
      ['mutation { deleteMyAccount(confirm: "delete my account") { ok } }', {}],
    ] as const;
    for (const [name, [hosted, headers]] of Object.entries(credentials)) {
      for (const [query] of actions) {
        const code = await graphqlAs(hosted, headers, query);
        expect(code, `${name}: ${query}`).toBe('dashboard_session_required');
      }
    }
    // The person is still there: nothing above reached their account.
    expect(await rig.app().services.deps.prisma.principal.count({ where: { id: person.userId } })).toBe(1);
  });

  it('links the person as a developer by pasting a developer token; an unknown token is refused', async () => {
    const { page } = person;
    await page.goto(`${rig.url}/console#/developer`);
    const field = page.getByLabel('Developer token');
    await field.fill('ghd_not-a-real-token');
    await page.getByRole('button', { name: 'Link developer' }).click();
    await expect.poll(() => page.textContent('[role=alert]')).toContain('not_a_developer_token');
    await field.fill(rig.developer.token!);
    await page.getByRole('button', { name: 'Link developer' }).click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('You now act as the developer');
    await page.getByRole('link', { name: 'Apps' }).waitFor();
    await shot(page, 'developer-link');
    const linked = await rig.app().services.deps.prisma.developer.findFirst({ where: { principalId: person.userId } });
    expect(linked?.id).toBeTruthy();
  });

  it('app credentials reach neither the developer link nor the linked developer; the console session only on /graphql of its own host', async () => {
    const app = await person.context.newPage();
    await app.goto(`${rig.appOrigin}/`);
    await app.waitForFunction(() => (window as any).demo?.session?.authenticated === true);
    await app.close();
    const appCookie = (await person.context.cookies(rig.appOrigin)).find(c => c.name === 'gh_session')!.value;
    const consoleCookie = (await person.context.cookies(rig.url)).find(c => c.name === 'gh_session')!.value;
    const minted = await rig.developer.post(`/dev/apps/${await appIdOf()}/test-users`, { name: 'tess', env: 'dev' });
    const appCredentials: Record<string, [boolean, Record<string, string>]> = {
      'test-user bearer': [false, { authorization: `Bearer ${minted.body.token}` }],
      'app cookie on the gateway': [false, { cookie: `gh_session=${appCookie}` }],
      'hosted-origin cookie': [true, { cookie: `gh_session=${appCookie}`, origin: rig.appOrigin }],
    };
    const link = `mutation { linkDeveloper(token: "${rig.developer.token}") { developerId } }`;
    for (const [name, [hosted, headers]] of Object.entries(appCredentials)) {
      expect(await graphqlAs(hosted, headers, link), `${name}: link`).toBe('dashboard_session_required');
      expect(await graphqlAs(hosted, headers, 'mutation { unlinkDeveloper { ok } }'), `${name}: unlink`).toBe('dashboard_session_required');
      expect(await graphqlAs(hosted, headers, 'query { apps { id } }'), `${name}: apps`).toBe('wrong_credential');
    }
    // The console session acts as the developer on the gateway's own /graphql, and nowhere else:
    // not on a hosted origin, not called from an app's origin, not on the REST /dev routes.
    expect(await graphqlAs(false, { cookie: `gh_session=${consoleCookie}` }, 'query { apps { id } }')).toBeNull();
    expect(await graphqlAs(true, { cookie: `gh_session=${consoleCookie}`, origin: rig.appOrigin }, 'query { apps { id } }')).not.toBeNull();
    expect(await graphqlAs(false, { cookie: `gh_session=${consoleCookie}`, origin: rig.appOrigin }, 'query { apps { id } }')).not.toBeNull();
    const rest = await rig.developer.as().request('GET', '/dev/apps', undefined, { cookie: `gh_session=${consoleCookie}` });
    expect(rest.status).toBeGreaterThanOrEqual(400);
  });

  it('creates an app, deploys a schema and mints a test user from the console', async () => {
    const { page } = person;
    await page.goto(`${rig.url}/console#/apps`);
    await page.getByLabel('Name').fill('Console garden');
    await page.getByLabel('Origins').fill('https://garden.example.test');
    await page.getByLabel('Redirect URIs').fill('https://garden.example.test/callback');
    await page.getByRole('button', { name: 'Create app' }).click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('App Console garden was created');
    await expect.poll(() => page.textContent('table')).toContain('https://garden.example.test/callback');
    await shot(page, 'apps');

    await page.getByRole('link', { name: 'Console garden' }).click();
    await page.getByLabel('Schema (JSON)').fill(JSON.stringify(BROWSER_SCHEMA));
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('Deployed version 1 to dev: tables notes, tasks, buckets docs.');
    // A second version adds a column; the two versions' difference shows it.
    await page.getByLabel('Schema (JSON)').fill(JSON.stringify(BROWSER_SCHEMA_V2));
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('Deployed version 2 to dev');
    await page.getByText('Compare versions of dev').click();
    await expect.poll(() => page.textContent('pre.diff .added')).toContain('"mood"');
    await page.locator('pre.diff').scrollIntoViewIfNeeded();
    await shot(page, 'schema-diff');
    await page.getByLabel('Test user name').fill('alice');
    await page.getByRole('button', { name: 'Mint token' }).click();
    const token = (await page.locator('#minted-token').textContent())!;
    expect(token).toMatch(/^gst_/);
    await expect.poll(() => page.textContent('#budgets-title + *')).toBeTruthy();
    await shot(page, 'app-deploy-test-user');
    // The token shown works as that test user.
    expect((await rig.developer.as(token).get('/v1/resources')).status).toBe(200);
    garden = { appId: page.url().split('#/apps/')[1], alice: token };
  });

  it('browses resources, rows (filters, pages) and files of a test environment as a test user', async () => {
    const alice = rig.developer.as(garden.alice);
    const team = await alice.post('/v1/resources', { type: 'team', name: 'Seed crew' });
    expect(team.status).toBe(200);
    const notes = Array.from({ length: 25 }, (_, i) => ({ title: `note ${String(i).padStart(2, '0')}`, stars: i % 5 }));
    const inserted = await alice.post('/v1/db/query', { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: notes });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    const upload = await alice.request('PUT', '/v1/files/me/docs/hello.txt', 'Hello from the garden', { 'content-type': 'text/plain' });
    expect(upload.status).toBe(201);

    const { page } = person;
    await page.goto(`${rig.url}/console#/apps/${garden.appId}/data/dev`);
    await page.getByLabel('Test user name').fill('alice');
    await page.getByRole('button', { name: 'Browse as this user' }).click();
    await page.getByRole('button', { name: 'Show members and rooms of Seed crew' }).click();
    await expect.poll(() => page.textContent('section[aria-labelledby=browser-resources]')).toContain('test:');

    await page.getByRole('button', { name: 'Show rows' }).click();
    await expect.poll(() => page.locator('section[aria-labelledby=browser-rows] tbody tr').count()).toBe(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.locator('section[aria-labelledby=browser-rows] tbody tr').count()).toBe(5);
    await page.getByLabel('Filter (JSON)').fill('{"stars": {"eq": 4}}');
    await page.getByRole('button', { name: 'Show rows' }).click();
    await expect.poll(() => page.locator('section[aria-labelledby=browser-rows] tbody tr').count()).toBe(5);
    await shot(page, 'data-rows');

    await page.getByRole('button', { name: 'List files' }).click();
    await page.getByRole('button', { name: 'Preview hello.txt' }).click();
    await expect.poll(() => page.textContent('figure.preview')).toContain('Hello from the garden');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download hello.txt' }).click();
    expect((await download).suggestedFilename()).toBe('hello.txt');
    await page.locator('figure.preview').scrollIntoViewIfNeeded();
    await shot(page, 'data-files');

    // Revoking the test user's tokens from the app's page: the one the test used stops at once.
    // The app page lists dev's test users (never their tokens), each with Revoke.
    await page.goto(`${rig.url}/console#/apps/${garden.appId}`);
    const aliceRow = page.locator('section[aria-labelledby=test-users-title] tbody tr', { hasText: 'alice' });
    await expect.poll(() => aliceRow.textContent()).toContain(`test:${garden.appId}:alice`);
    expect(await aliceRow.textContent()).toContain('yes');
    expect(await page.locator('section[aria-labelledby=test-users-title]').textContent()).not.toContain(garden.alice);
    await aliceRow.scrollIntoViewIfNeeded();
    await shot(page, 'test-users');
    await page.getByRole('button', { name: 'Revoke alice' }).click();
    await expect
      .poll(() => page.textContent('section[aria-labelledby=test-users-title] [role=status]'))
      .toMatch(/alice: [1-9]\d* token\(s\) revoked in dev/);
    await expect.poll(() => aliceRow.textContent()).toContain('none');
    expect((await alice.get('/v1/resources')).status).toBe(401);
  });

  it("adds and removes an app's origin and redirect URI", async () => {
    const { page } = person;
    await page.goto(`${rig.url}/console#/apps/${garden.appId}`);
    const section = page.locator('section[aria-labelledby=app-urls-title]');
    await page.getByLabel('Origin', { exact: true }).fill('https://garden-console.example.test');
    await section.getByRole('button', { name: 'Add' }).first().click();
    await page.getByLabel('Redirect URI', { exact: true }).fill('https://garden-console.example.test/callback');
    await section.getByRole('button', { name: 'Add' }).last().click();
    await page.getByRole('button', { name: 'Remove https://garden-console.example.test/callback' }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'app-urls');
    const stored = () => rig.developer.get('/dev/apps').then(r => r.body.apps.find((a: { id: string }) => a.id === garden.appId));
    expect((await stored()).origins).toContain('https://garden-console.example.test');
    await page.getByRole('button', { name: 'Remove https://garden-console.example.test', exact: true }).click();
    await page.getByRole('button', { name: 'Remove https://garden-console.example.test/callback' }).click();
    await expect.poll(async () => (await stored()).origins).not.toContain('https://garden-console.example.test');
    await expect.poll(() => section.textContent()).not.toContain('garden-console.example.test/callback');
    // A redirect URI that is not absolute is refused as at creation, and said so.
    await page.getByLabel('Redirect URI', { exact: true }).fill('/relative');
    await section.getByRole('button', { name: 'Add' }).last().click();
    await expect.poll(() => section.textContent()).toContain('must be an absolute URL (got "/relative")');
  });

  it("shows a developer's app spend per day by class: the test environment's writes from the browse above", async () => {
    const { page } = person;
    await page.goto(`${rig.url}/console#/apps/${garden.appId}`);
    await page.getByRole('heading', { name: 'Spend per day' }).waitFor();
    const devSpend = page.locator('figure[aria-labelledby=spend-dev-title]');
    // alice's resources, rows and files above were paid from the developer's wallet, in dev.
    await expect.poll(() => devSpend.locator('.spend-table tbody tr').count()).toBeGreaterThan(0);
    const total = await devSpend.locator('.spend-table tfoot td').last().textContent();
    expect(Number(total)).toBeGreaterThan(0);
    expect(await page.getByRole('figure', { name: "dev: signed-in users' wallets" }).count()).toBe(1);
    await devSpend.scrollIntoViewIfNeeded();
    await shot(page, 'app-spend');
  });

  it('accepts a cross-app invitation from the console', async () => {
    const appId = await appIdOf();
    const minted = await rig.developer.post(`/dev/apps/${appId}/test-users`, { name: 'inviter', env: 'dev' });
    const inviter = rig.developer.as(minted.body.token);
    const team = await inviter.post('/v1/resources', { type: 'team', name: 'Invited crew' });
    expect(team.status).toBe(200);
    const invited = await inviter.post(`/v1/resources/${team.body.id}/invite`, { userId: person.userId, role: 'writer' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);

    const { page } = person;
    await page.goto(`${rig.url}/console#/invitations`);
    await page.getByRole('button', { name: 'Accept the invitation to Invited crew' }).waitFor();
    await shot(page, 'invitations');
    await page.getByRole('button', { name: 'Accept the invitation to Invited crew' }).click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('You joined Invited crew.');
    const membership = await rig.app().services.deps.prisma.membership.findUnique({
      where: { resourceId_principalId: { resourceId: team.body.id, principalId: person.userId } },
    });
    expect(membership).toMatchObject({ state: 'active', role: 'writer' });
  });

  it('deletes an owned resource; a member watching its roster live receives the removal', async () => {
    // The person (signed in to the demo app in the step above) creates a team there and shares an invite link.
    const app = await person.context.newPage();
    await app.goto(`${rig.appOrigin}/`);
    await app.waitForFunction(() => (window as any).demo?.session?.authenticated === true);
    const team: { id: string; inviteUrl: string } = await app.evaluate(() => (window as any).demo.createTeam('Rowing club'));
    await app.close();

    // A member joins through the link and watches the roster live.
    const memberContext = await newContext();
    const member = await memberContext.newPage();
    await member.goto(team.inviteUrl);
    await signUpAndConsent(member, 'Mateo');
    await member.waitForURL(u => u.pathname.startsWith('/_invite/'));
    await member.getByRole('button', { name: 'Join' }).click();
    await member.waitForURL(u => u.searchParams.get('invite') === 'accepted');
    await member.waitForFunction(() => (window as any).demo?.session?.authenticated === true);
    const memberId: string = await member.evaluate(() => (window as any).demo.session.userId);
    await member.evaluate(id => (window as any).demo.watchMembers(id), team.id);
    await expect.poll(() => member.textContent('#feed-status')).toBe('live');

    // The owner deletes it from the console, typing its name.
    const { page } = person;
    await page.goto(`${rig.url}/console#/resources`);
    await page.getByRole('button', { name: 'Delete Rowing club…' }).click();
    const confirm = page.getByRole('button', { name: 'Delete Rowing club', exact: true });
    await expect.poll(() => confirm.isDisabled()).toBe(true);
    await page.getByLabel('Type the name to confirm').fill('Rowing club');
    await shot(page, 'resources-delete');
    await confirm.click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('Rowing club was deleted');

    // The member's live feed received the removal of their own row.
    await expect
      .poll(() => member.evaluate(() => (window as any).demo.events.filter((e: any) => e.op === 'delete').map((e: any) => e.row.userId)))
      .toContain(memberId);
    expect(await rig.app().services.deps.prisma.resource.count({ where: { id: team.id } })).toBe(0);
    await memberContext.close();
  });

  it("shows what each app spent of the person's wallet per day by class, as a chart with the figures beside it", async () => {
    const appId = await appIdOf();
    const { prisma } = rig.app().services.deps;
    const today = new Date();
    const day = (back: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back, 12));
    // Ledger entries as the app's charges and the daily at-rest settlement write them.
    const spent = (back: number, micros: { reads: bigint; writes: bigint; transfer: bigint; storage: bigint }) => ({
      id: `wal_e2e_${back}`,
      calls: back + 2,
      principalId: person.userId,
      amountMicros: -(micros.reads + micros.writes + micros.transfer + micros.storage),
      kind: 'charge:rows.batch',
      appId,
      env: 'prod',
      readsMicros: -micros.reads,
      writesMicros: -micros.writes,
      transferMicros: -micros.transfer,
      storageMicros: -micros.storage,
      createdAt: day(back),
    });
    await prisma.walletEntry.createMany({
      data: [
        spent(5, { reads: 1200n, writes: 3400n, transfer: 900n, storage: 0n }),
        spent(3, { reads: 800n, writes: 1000n, transfer: 4500n, storage: 300n }),
        spent(1, { reads: 2500n, writes: 6000n, transfer: 1800n, storage: 300n }),
        spent(0, { reads: 600n, writes: 1400n, transfer: 0n, storage: 300n }),
      ],
    });

    const { page } = person;
    await page.goto(`${rig.url}/console#/usage`);
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    await page.getByLabel('Days').selectOption('7');
    const figure = page.getByRole('figure');
    await expect.poll(() => figure.textContent()).toContain('$0.025');
    await expect.poll(() => page.locator('svg.spend-chart rect').count()).toBe(14);
    expect(await page.getByRole('img').getAttribute('aria-labelledby')).toBeTruthy();
    const rows = await page.locator('.spend-table tbody tr').allTextContents();
    expect(rows).toHaveLength(4);
    expect(rows[3]).toBe(`${day(0).toISOString().slice(0, 10)}0.00060.00140.000.00030.0023`);
    expect(await page.locator('.spend-table tfoot').textContent()).toBe('Total0.00510.01180.00720.00090.025');
    await shot(page, 'usage');

    // The wallet lists the same entries, newest first, each with the calls it sums.
    await page.goto(`${rig.url}/console#/wallet`);
    await page.getByRole('heading', { name: 'Wallet' }).waitFor();
    const entry = page.locator('main table tbody tr', { hasText: '$0.0023' });
    await expect
      .poll(() => entry.locator('td').allTextContents())
      .toEqual([expect.any(String), 'charge:rows.batch', `${appId} (prod)`, '2', '−$0.0023']);
    await shot(page, 'wallet');
  });

  it('deletes the account with the typed confirmation; the session ends', async () => {
    const { page } = person;
    await page.goto(`${rig.url}/console#/delete-account`);
    const button = page.getByRole('button', { name: 'Delete my account' });
    await expect.poll(() => button.isDisabled()).toBe(true);
    await page.getByLabel('Type delete my account to confirm').fill('delete my account');
    await shot(page, 'delete-account');
    await button.click();
    await expect.poll(() => page.textContent('main')).toContain('Your account was deleted.');
    expect(await rig.app().services.deps.prisma.principal.count({ where: { id: person.userId } })).toBe(0);
    await page.reload();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
  });
});

async function appIdOf(): Promise<string> {
  const apps = await rig.developer.get('/dev/apps');
  return apps.body.apps[0].id;
}
