/**
 * Issue #25 item 1: the client SDK as a module script from the gateway (src/http/sdk-script.ts).
 * `/sdk/client.js` redirects to `/sdk/client@<version>.js`, which answers @gatehouse/client's own
 * file as JavaScript, cacheable for good (immutable, an ETag, 304 on a match, gzip when accepted),
 * loadable from any page (CORS `*` on the redirect and the script, no credentials). A version the
 * gateway does not serve, another method, or a missing build answer a coded error.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect } from 'vitest';
import { GATEWAY_HOST, type RequestContext } from '../../src/http/request-context.js';
import { CLIENT_PACKAGE_DIR, createSdkScript } from '../../src/http/sdk-script.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest();
let script: Buffer;
let version: string;
let versioned: string;

beforeAll(async () => {
  // The package's build, as `npm install` makes it (a no-op when it is up to date), in this process.
  await import(/* @vite-ignore */ pathToFileURL(path.join(CLIENT_PACKAGE_DIR, 'build.mjs')).href);
  script = await readFile(path.join(CLIENT_PACKAGE_DIR, 'dist', 'index.js'));
  version = JSON.parse(await readFile(path.join(CLIENT_PACKAGE_DIR, 'package.json'), 'utf8')).version;
  versioned = `/sdk/client@${version}.js`;
});

/** A page on another origin loading the script: what a browser sends for `<script type="module">`. */
const fromPage = (extra: Record<string, string> = {}) => ({ headers: { origin: 'https://app.example.test', ...extra } });

describe('/sdk/client.js', () => {
  it('redirects to the version the gateway serves, revalidated on every use, for any origin', async ({ ctx }) => {
    const res = await ctx.fetch('/sdk/client.js', { ...fromPage(), redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(versioned);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it("answers @gatehouse/client's built file as JavaScript, cacheable for good, with an ETag", async ({ ctx }) => {
    const res = await ctx.fetch(versioned, fromPage());
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(script)).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(script.length));
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]{32}"$/);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-encoding')).toBeNull();
    // The module the page gets: ESM, the SDK's exports, graphql-ws inside with its notice.
    const text = script.toString('utf8');
    expect(text).toMatch(/export\s*\{[^}]*createClient/);
    expect(text).not.toMatch(/^import\s/m);
    expect(text).toContain('graphql-ws@');
  });

  it('answers 304 to its own ETag, weak or in a list', async ({ ctx }) => {
    const etag = (await ctx.fetch(versioned)).headers.get('etag')!;
    for (const sent of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await ctx.fetch(versioned, { headers: { 'if-none-match': sent } });
      expect(res.status, sent).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await res.text()).toBe('');
    }
    expect((await ctx.fetch(versioned, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('is gzip-encoded when accepted, under its own ETag', async ({ ctx }) => {
    const plain = (await ctx.fetch(versioned)).headers.get('etag');
    const res = await ctx.fetch(versioned, { headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).not.toBe(plain);
    // The in-process fetch hands the encoded bytes over as they are.
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(script.length / 2);
    expect(gunzipSync(body).equals(script)).toBe(true);
    const refused = await ctx.fetch(versioned, { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it('HEAD answers the headers alone', async ({ ctx }) => {
    const res = await ctx.fetch(versioned, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(script.length));
    expect(await res.text()).toBe('');
  });

  it('another version is 404 sdk_version_unavailable, naming the one served', async ({ ctx }) => {
    const res = await ctx.fetch('/sdk/client@0.0.0-old.js', fromPage());
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body.error).toBe('sdk_version_unavailable');
    expect(body.message).toContain(versioned);
  });

  it('a method other than GET or HEAD is 405 method_not_allowed', async ({ ctx }) => {
    const res = await ctx.fetch('/sdk/client.js', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-csrf': '1' },
      body: '{}',
    });
    expect(res.status).toBe(405);
    expect((await res.json()).error).toBe('method_not_allowed');
  });
});

it('a server without a build of the client answers 404 sdk_not_built until there is one', async () => {
  const empty = await mkdtemp(path.join(tmpdir(), 'gatehouse-no-sdk-'));
  try {
    const route = createSdkScript({ packageDir: empty });
    const context = {
      method: 'GET',
      headers: new Headers(),
      url: new URL('https://gatehouse.test/sdk/client.js'),
      mount: GATEWAY_HOST,
    } as unknown as RequestContext;
    const res = await route.handle(context);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe('sdk_not_built');
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});

it('the served module works: createClient and typed errors against this server', async ({ ctx }) => {
  const served = await ctx.fetch(versioned);
  const dir = await mkdtemp(path.join(tmpdir(), 'gatehouse-sdk-script-'));
  try {
    const file = path.join(dir, 'client.mjs');
    await writeFile(file, Buffer.from(await served.arrayBuffer()));
    const sdk = await import(/* @vite-ignore */ pathToFileURL(file).href);
    const inProcess = (input: string, init?: RequestInit) => ctx.app.fetch(new Request(input, init));
    const client = sdk.createClient({ gatewayUrl: ctx.url, accessToken: 'gst_not-a-token', fetch: inProcess });
    expect(await client.auth.getSession()).toEqual({ authenticated: false, userId: null });
    const error = await client.resource.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.GatehouseError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_token' });
    client.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
