/**
 * Issue 28 item 3: `gatehouse dev` serves a directory as the app's origin on this machine, with the
 * gateway's /_osg routes on the same origin (the config of item 2, sign-in with host-only cookies,
 * the API), and `--proxy` fronts a dev server instead, keeping /_osg and /_invite the gateway's.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { Browser } from '../gateway-auth/browser.js';
import { type AuthRig, CSRF, type RigApp, signInWithCookies, startAuthRig, uniqueEmail } from '../gateway-auth/harness.js';

let rig: AuthRig;
let app: RigApp;
let dir: string;
let upstream: Server;

/** `gatehouse dev ...` in-process until stopped: its first stdout line is the origin. */
function startDev(args: string[]) {
  let stdout = '';
  let stderr = '';
  let first!: (line: string) => void;
  const line = new Promise<string>(resolve => (first = resolve));
  const signals = new EventEmitter();
  const exited = main(
    ['dev', ...args, '--port', '0', '--app', app.appId],
    { GATEHOUSE_URL: rig.url, GATEHOUSE_DEV_TOKEN: rig.developer.token! },
    {
      stdout: { write: (text: string) => ((stdout += text), stdout.includes('\n') && first(stdout.split('\n')[0]), true) },
      stderr: { write: (text: string) => ((stderr += text), true) },
      cwd: dir,
      signals,
      exit: () => {
        throw new Error('exit');
      },
    },
  );
  const origin = Promise.race([line, exited.then(code => Promise.reject(new Error(`dev exited with ${code}: ${stderr}`)))]).then(
    text => text.split(/\s+/)[0],
  );
  return { origin, stop: () => (signals.emit('SIGTERM'), exited), stderr: () => stderr };
}

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
  dir = await mkdtemp(path.join(tmpdir(), 'gatehouse-dev-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><html><head></head><body>local page</body></html>');
  await writeFile(path.join(dir, 'app.js'), 'export const x = 1;');
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`upstream ${req.url} host=${req.headers.host}`);
  });
  await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve));
  // A server with its embedded provider and database: slow to start on a busy machine.
}, 180_000);
afterAll(async () => {
  upstream?.close();
  await rig?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gatehouse dev', () => {
  it('serves the directory as the app origin, with the config, sign-in and the API under /_osg', async () => {
    const run = startDev(['.', '--spa']);
    const origin = await run.origin;
    try {
      expect(origin).toMatch(/^http:\/\/localhost:\d+$/);
      const browser = new Browser(rig.url);
      const page = await browser.get(`${origin}/`);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.text).toContain('<head><script src="/_osg/config.js"></script></head><body>local page');
      expect((await browser.get(`${origin}/app.js`)).headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect((await browser.get(`${origin}/some/route`, { accept: 'text/html' })).text).toContain('local page');
      expect((await browser.get(`${origin}/../package.json`)).text).not.toContain('"name"');

      // The edit shows at once (no publish): read fresh, new ETag.
      await writeFile(path.join(dir, 'app.js'), 'export const x = 2;');
      expect((await browser.get(`${origin}/app.js`)).text).toBe('export const x = 2;');

      const config = await browser.get(`${origin}/_osg/config.json`);
      expect(config.json).toEqual({ gateway: `${origin}/_osg`, clientId: app.clientId, appId: app.appId, env: 'prod' });

      // Sign-in through the local origin: cookies are this host's, the API answers for this app.
      const local: RigApp = { ...app, origin, redirectUri: `${origin}/` };
      const account = { email: uniqueEmail(), password: 'correct horse battery', displayName: 'Dev Dana' };
      const signed = await signInWithCookies(browser, rig, local, account, { gateway: origin, prefix: '/_osg' });
      expect(signed.userId).toMatch(/^usr_/);
      expect(browser.cookie(new URL(origin).host, 'gh_session')).toBeDefined();
      const created = await browser.post(`${origin}/_osg/v1/resources`, { type: 'team', name: 'Made in dev' }, CSRF);
      expect(created.status, created.text).toBe(200);
      expect((await browser.get(`${origin}/_osg/v1/resources?type=team`)).json.resources).toHaveLength(1);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('--proxy fronts a dev server; /_osg and /_invite stay the gateway’s', async () => {
    const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const run = startDev(['--proxy', target]);
    const origin = await run.origin;
    try {
      const browser = new Browser(rig.url);
      const page = await browser.get(`${origin}/src/main.ts?t=1`);
      expect(page.text).toBe(`upstream /src/main.ts?t=1 host=${new URL(target).host}`);
      const config = await browser.get(`${origin}/_osg/config.json`);
      expect(config.json.gateway).toBe(`${origin}/_osg`);
      const invite = await browser.get(`${origin}/_invite/inv_nope`);
      expect(invite.status).toBe(404);
      expect(invite.text).not.toContain('upstream');
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });
});
