/**
 * The SDK's one module (@gatehouse/client's dist/index.js, `npm run build:sdk`) as a page gets it
 * from the gateway, `/sdk/client.js` over a real socket: one ESM file with nothing server-side in
 * it, graphql-ws inside, and the same API working from it against the server, live feeds included.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { CLIENT_PACKAGE_DIR } from '../../src/http/sdk-script.js';
import { seed } from '../helpers/app.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest({ app: { listen: true } });
let code: string;
let scratch: string;

beforeAll(() => {
  execFileSync(process.execPath, [path.join(CLIENT_PACKAGE_DIR, 'build.mjs')], { stdio: 'inherit' });
});
it.beforeAll(async ({ ctx }) => {
  // fetch follows the redirect and undoes the gzip, as a browser does.
  const res = await fetch(`${ctx.url}/sdk/client.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(res.status).toBe(200);
  expect(res.url).toMatch(/\/sdk\/client@[^/]+\.js$/);
  code = await res.text();
  scratch = await mkdtemp(path.join(tmpdir(), 'gatehouse-bundle-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

it('is one ESM file with no import, no Node built-in and no server module', () => {
  expect(code).not.toMatch(/^\s*import\s/m);
  expect(code).not.toMatch(/from\s*["']node:|require\(["']/);
  expect(code).not.toMatch(/prisma|pglite|graphql-yoga|oidc-provider/i);
  expect(code).toMatch(/export\s*\{[^}]*createClient/);
  expect(code.length).toBeLessThan(200_000);
});

it('works from the served module against a real server, a live feed included', async ({ ctx }) => {
  const s = await seed(ctx, ['alice']);
  const file = path.join(scratch, 'client.mjs');
  await writeFile(file, code);
  const sdk = await import(/* @vite-ignore */ pathToFileURL(file).href);
  const client = sdk.createClient({ gatewayUrl: ctx.url, accessToken: s.users.alice.token });
  const created = await client.resource.create('team', { name: 'From the bundle' });
  expect(created.currentMember).toEqual({ role: 'owner', state: 'active' });
  const live = client.resource(created.id).members.live();
  await new Promise<void>((resolve, reject) => {
    live.on('status', (status: string) => status === 'live' && resolve());
    live.on('error', reject);
  });
  live.close();
  const error = await client
    .resource('res_missing')
    .get()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(sdk.GatehouseError);
  expect(error.code).toBe('resource_not_found');
  client.close();
});
