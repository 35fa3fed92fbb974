/**
 * Issue 28 item 1: `gatehouse publish` end to end into a running server, and the hosted origin
 * serving the published version (docs/api.md §15): types, strong ETags and 304, caching,
 * single-page fallback, CSP, reserved paths, rollback, the list, and metering (transfer charged to
 * the developer, stored bytes settled daily). Item 2: /_osg/config.json and the injected script.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../gateway-auth/browser.js';
import { type AuthRig, type RigApp, startAuthRig } from '../gateway-auth/harness.js';
import { runCli } from '../helpers/cli.js';

let rig: AuthRig;
let app: RigApp;
let dir: string;
let env: Record<string, string>;

async function gatehouse(args: string[]) {
  const run = await runCli(args, env, dir);
  return { ...run, json: run.stdout.trim().startsWith('{') ? JSON.parse(run.stdout) : null };
}

async function site(files: Record<string, string>) {
  const root = await mkdtemp(path.join(dir, 'site-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

const INDEX = '<!doctype html><html><head><title>Hi</title></head><body><div id="app">v1</div></body></html>';

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
  dir = await mkdtemp(path.join(tmpdir(), 'gatehouse-publish-'));
  env = { GATEHOUSE_URL: rig.url, GATEHOUSE_DEV_TOKEN: rig.developer.token! };
  // A server with its embedded provider and database: slow to start on a busy machine.
}, 180_000);
afterAll(async () => {
  await rig?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gatehouse publish', () => {
  it('publishes, serves, lists and rolls back', async () => {
    const browser = new Browser(rig.url);
    // Nothing published yet.
    const before = await browser.get(`${app.origin}/`);
    expect(before.status).toBe(404);
    expect(before.json.error).toBe('site_not_found');

    const v1 = await site({
      'index.html': INDEX,
      'assets/app-4f3a9c1b.js': 'console.log("v1")',
      'style.css': 'body{color:red}',
      'docs/index.html': '<html><head></head><body>docs</body></html>',
    });
    const first = await gatehouse(['publish', v1, '--app', app.appId, '--spa', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ number: 1, files: 4, active: true, spa: true, uploaded: 4 });

    const page = await browser.get(`${app.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    // The config script comes first in <head>, so createClient() can read it.
    expect(page.text).toContain('<head><script src="/_osg/config.js"></script><title>Hi</title>');
    const etag = page.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}-c1"$/);
    const again = await browser.get(`${app.origin}/`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const script = await browser.get(`${app.origin}/assets/app-4f3a9c1b.js`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.text).toBe('console.log("v1")');
    expect(script.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const css = await browser.get(`${app.origin}/style.css`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, no-cache');
    expect((await browser.get(`${app.origin}/docs/`)).text).toContain('docs');
    expect((await browser.get(`${app.origin}/docs`)).text).toContain('docs');

    // Single-page fallback: a route of the app answers index.html; a missing asset does not.
    const route = await browser.get(`${app.origin}/tasks/42`, { accept: 'text/html' });
    expect(route.status).toBe(200);
    expect(route.text).toContain('<div id="app">v1</div>');
    expect((await browser.get(`${app.origin}/assets/missing.js`)).status).toBe(404);

    // Reserved: the gateway's, never the site's.
    const reserved = await browser.get(`${app.origin}/_osg/nothing-here`, { accept: 'text/html' });
    expect(reserved.status).toBe(404);
    expect(reserved.json.error).toBe('not_found');
    expect((await browser.get(`${app.origin}/_osg/auth/session`)).json).toMatchObject({ authenticated: false });
    // HEAD: headers, no body.
    const head = await browser.request('HEAD', `${app.origin}/style.css`);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String('body{color:red}'.length));
    // The gateway's own host serves no site.
    expect((await browser.get(`${rig.url}/index.html`)).status).toBe(404);

    // Version 2 sends only what changed; without --spa unknown paths are 404.
    const v2 = await site({ 'index.html': INDEX.replace('v1', 'v2'), 'assets/app-4f3a9c1b.js': 'console.log("v1")', '404.html': 'gone' });
    const second = await gatehouse(['publish', v2, '--app', app.appId, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json).toMatchObject({ number: 2, files: 3, uploaded: 2 });
    expect((await browser.get(`${app.origin}/`)).text).toContain('v2');
    const gone = await browser.get(`${app.origin}/tasks/42`, { accept: 'text/html' });
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('<script src="/_osg/config.js"></script>gone');
    expect((await browser.get(`${app.origin}/`, { 'if-none-match': etag })).status).toBe(200);

    const list = await gatehouse(['publish', '--list', '--app', app.appId, '--json']);
    expect(list.json.active).toBe(2);
    expect(list.json.versions.map((v: { number: number; active: boolean }) => [v.number, v.active])).toEqual([
      [2, true],
      [1, false],
    ]);
    const text = await gatehouse(['publish', '--list', '--app', app.appId]);
    expect(text.stdout).toMatch(/\*\s+2 /);

    const back = await gatehouse(['publish', '--rollback', '--app', app.appId, '--json']);
    expect(back.json).toMatchObject({ number: 1, active: true });
    expect((await browser.get(`${app.origin}/`)).text).toContain('v1');
    const oldest = await gatehouse(['publish', '--rollback', '--app', app.appId, '--json']);
    expect(oldest.code).not.toBe(0);
    expect(oldest.json.error).toBe('no_previous_version');
    const forward = await gatehouse(['publish', '--to', '2', '--app', app.appId, '--json']);
    expect(forward.json).toMatchObject({ number: 2, active: true });
  });

  it('refuses reserved paths, unknown apps and undeployed environments', async () => {
    const bad = await site({ 'index.html': 'x', '_osg/config.json': '{}' });
    const refused = await gatehouse(['publish', bad, '--app', app.appId, '--json']);
    expect(refused.json.error).toBe('invalid_site');
    const good = await site({ 'index.html': 'x' });
    expect((await gatehouse(['publish', good, '--app', 'app_nope', '--json'])).json.error).toBe('app_not_found');
    expect((await gatehouse(['publish', good, '--app', app.appId, '--env', 'staging', '--json'])).json.error).toBe('env_not_deployed');
    // Bytes that do not hash to their name are not stored.
    const wrong = await rig.developer.fetch(`/dev/apps/${app.appId}/sites/prod/files/${'0'.repeat(64)}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${rig.developer.token}`, 'content-type': 'application/octet-stream' },
      body: 'not those bytes',
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('site_file_mismatch');
    const missing = await rig.developer.post(`/dev/apps/${app.appId}/sites/prod/versions`, { files: { 'index.html': 'a'.repeat(64) } });
    expect(missing.status).toBe(409);
    expect(missing.body.missing).toEqual(['a'.repeat(64)]);
  });

  it('GET /_osg/config.json and /_osg/config.js tell the page its gateway', async () => {
    const browser = new Browser(rig.url);
    const config = await browser.get(`${app.origin}/_osg/config.json`);
    expect(config.status).toBe(200);
    expect(config.json).toEqual({ gateway: `${app.origin}/_osg`, clientId: app.clientId, appId: app.appId, env: 'prod' });
    const script = await browser.get(`${app.origin}/_osg/config.js`);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toBe(`globalThis.__GATEHOUSE_CONFIG__ = ${JSON.stringify(config.json)};\n`);
    // Only on a hosted origin.
    expect((await browser.get(`${rig.url}/_osg/config.json`)).status).toBe(404);
  });

  it('serves the SDK from the hosted origin under /_osg: a page under the default CSP imports it from its own origin', async () => {
    const browser = new Browser(rig.url);
    const entry = await browser.get(`${app.origin}/_osg/sdk/client.js`);
    expect(entry.status).toBe(302);
    expect(entry.headers['cache-control']).toBe('no-cache');
    const location = entry.headers.location as string;
    expect(location).toMatch(/^\/_osg\/sdk\/client@[^/]+\.js$/);
    const script = await browser.get(`${app.origin}${location}`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.text).toMatch(/export\s*\{[^}]*createClient/);
    // The same bytes as the gateway's own /sdk/client@<version>.js.
    const onGateway = await browser.get(`${rig.url}${location.slice('/_osg'.length)}`);
    expect(onGateway.headers.etag).toBe(script.headers.etag);
    expect(onGateway.text).toBe(script.text);
    expect((await browser.get(`${app.origin}${location}`, { 'if-none-match': script.headers.etag as string })).status).toBe(304);
  });

  it('meters site bytes: transfer to the developer, stored bytes settled', async () => {
    const { prisma } = rig.app.services.deps;
    const developerId = (await prisma.app.findUniqueOrThrow({ where: { id: app.appId } })).developerId;
    await rig.app.services.hosting.flushTransfer();
    const sent = async () =>
      (
        await prisma.walletEntry.aggregate({
          where: { developerId, kind: 'charge:site.transfer', appId: app.appId },
          _sum: { quantity: true, calls: true },
        })
      )._sum;
    const before = await sent();
    const browser = new Browser(rig.url);
    const asset = await browser.get(`${app.origin}/assets/app-4f3a9c1b.js`);
    const headOnly = await browser.request('HEAD', `${app.origin}/assets/app-4f3a9c1b.js`);
    expect(headOnly.status).toBe(200);
    await browser.get(`${app.origin}/assets/app-4f3a9c1b.js`, { 'if-none-match': asset.headers.etag as string });
    await rig.app.services.hosting.flushTransfer();
    // Only the one full answer's bytes, in one call: HEAD and 304 send none.
    const after = await sent();
    expect((after.quantity ?? 0n) - (before.quantity ?? 0n)).toBe(BigInt(asset.text.length));
    expect((after.calls ?? 0) - (before.calls ?? 0)).toBe(1);

    const settled = await rig.app.services.metering.settleStorage(new Date('2031-01-01T00:00:00Z'));
    expect(settled.holders).toBeGreaterThan(0);
    const stored = await prisma.siteBlob.aggregate({ where: { deployment: { appId: app.appId } }, _sum: { size: true } });
    const entry = await prisma.walletEntry.findFirst({ where: { developerId, kind: 'storage', appId: app.appId } });
    expect(entry?.quantity).toBe(stored._sum.size);
    // Each is its class's spend whole (docs/api.md §14.4).
    expect(entry?.storageMicros).toBe(entry?.amountMicros);
    const transfer = await prisma.walletEntry.findFirst({ where: { developerId, kind: 'charge:site.transfer', appId: app.appId } });
    expect(transfer?.transferMicros).toBe(transfer?.amountMicros);
  });
});
