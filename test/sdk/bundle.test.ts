/**
 * The browser bundle (`npm run build:sdk` -> dist/gatehouse-client.js): one ESM file with nothing
 * server-side in it, and the same API working from it against a real server.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seed, startTestApp, type TestContext } from '../helpers/app.js';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = resolve(ROOT, 'dist/gatehouse-client.js');

let ctx: TestContext;
beforeAll(async () => {
  // The same options as package.json's build:sdk.
  await build({
    entryPoints: [resolve(ROOT, 'src/sdk/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: OUT,
    logLevel: 'silent',
  });
  ctx = await startTestApp({ listen: true });
});
afterAll(() => ctx?.close());

it('is one ESM file with no Node built-in and no server module', () => {
  const code = readFileSync(OUT, 'utf8');
  expect(code).not.toMatch(/from\s*["']node:|require\(["']/);
  expect(code).not.toMatch(/prisma|pglite|graphql-yoga|oidc-provider/i);
  expect(code).toMatch(/export\s*\{[^}]*createClient/);
  expect(code.length).toBeLessThan(200_000);
});

it('works from the bundle against a real server', async () => {
  const s = await seed(ctx, ['alice']);
  const sdk = await import(pathToFileURL(OUT).href);
  const client = sdk.createClient({ gatewayUrl: ctx.url, accessToken: s.users.alice.token });
  const created = await client.resource.create('team', { name: 'From the bundle' });
  expect(created.currentMember).toEqual({ role: 'owner', state: 'active' });
  const error = await client
    .resource('res_missing')
    .get()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(sdk.GatehouseError);
  expect(error.code).toBe('resource_not_found');
  client.close();
});
