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
import { TEST_SCHEMA } from '../helpers/app.js';
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
