/**
 * The console's page and its two assets (dist/console, built by scripts/build-console.mjs at
 * install time): read once per process, served gzip-encoded when the browser accepts it, under a
 * CSP that allows only this origin's script and style (no inline code, no CDN) and no framing.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { packageRoot } from '../db/paths.js';
import { fail } from '../errors.js';
import { etagMatches } from '../files/files.rules.js';
import { type HeaderReader, html } from '../http/responses.js';
import { acceptsGzip } from '../http/sdk-script.js';

export const CONSOLE_DIST = path.join(packageRoot, 'dist', 'console');
export const CONSOLE_ASSETS = { 'console.js': 'text/javascript; charset=utf-8', 'console.css': 'text/css; charset=utf-8' } as const;
export type ConsoleAsset = keyof typeof CONSOLE_ASSETS;

/** Everything the console loads comes from this origin; it may call only this origin; nobody may frame it. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

interface Built {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
}

let loading: Promise<Record<ConsoleAsset, Built>> | null = null;

async function loadAssets(): Promise<Record<ConsoleAsset, Built>> {
  const entries = await Promise.all(
    (Object.keys(CONSOLE_ASSETS) as ConsoleAsset[]).map(async name => {
      let bytes: Buffer;
      try {
        bytes = await readFile(path.join(CONSOLE_DIST, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        throw fail('console_not_built', 'This server has no build of the web console: run `npm run build:console` where Gatehouse is installed.');
      }
      const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
      return [name, { body: new Uint8Array(bytes), gzip: new Uint8Array(gzipSync(bytes, { level: 9 })), etag }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<ConsoleAsset, Built>;
}

/** Read once per process; a failure (no build yet) is tried again on the next request. */
export const consoleAssets = () =>
  (loading ??= loadAssets().catch(error => {
    loading = null;
    throw error;
  }));

export async function assetResponse(name: ConsoleAsset, headers: HeaderReader, method: string): Promise<Response> {
  const asset = (await consoleAssets())[name];
  const gzipped = acceptsGzip(headers.get('accept-encoding'));
  const etag = gzipped ? `${asset.etag.slice(0, -1)}-gzip"` : asset.etag;
  const cached = { ...SECURITY_HEADERS, etag, 'cache-control': 'no-cache', vary: 'Accept-Encoding' };
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: cached });
  const body = gzipped ? asset.gzip : asset.body;
  return new Response(method === 'HEAD' ? null : body, {
    status: 200,
    headers: {
      ...cached,
      'content-type': CONSOLE_ASSETS[name],
      'content-length': String(body.byteLength),
      ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
    },
  });
}

/** The one page: the app's root and its script and style, versioned by content so a new build is loaded at once. */
export async function consolePage(): Promise<Response> {
  const assets = await consoleAssets();
  const v = (name: ConsoleAsset) => encodeURIComponent(assets[name].etag.slice(1, 9));
  return html(
    200,
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Gatehouse console</title>
<link rel="stylesheet" href="/console/assets/console.css?v=${v('console.css')}">
<script type="module" src="/console/assets/console.js?v=${v('console.js')}"></script>
</head>
<body><div id="root"><noscript>The Gatehouse console needs JavaScript.</noscript></div></body>
</html>
`,
    SECURITY_HEADERS,
  );
}
