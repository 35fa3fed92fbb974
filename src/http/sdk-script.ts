/**
 * The client SDK as a module script, from the gateway itself, for pages with no build step:
 * `import { createClient } from 'https://gateway.example/sdk/client.js'`.
 *
 * The script is @gatehouse/client's own file (packages/client/dist/index.js: one ES module,
 * graphql-ws bundled in), the bytes npm installs. `/sdk/client.js` redirects to
 * `/sdk/client@<version>.js`, whose bytes never change: cached for a year (`immutable`), validated
 * by ETag, gzip-encoded when the browser accepts it. The redirect itself is revalidated on every
 * use (`no-cache`), so pages reach a new version as soon as the gateway serves it; a page that pins
 * a version gets 404 once the gateway serves another. Any page may load it: a cross-origin module
 * script is a CORS fetch (the redirect included), answered `Access-Control-Allow-Origin: *` and
 * never with credentials. On a hosted app origin both are also under `/_osg` (`/_osg/sdk/client.js`),
 * so a published page imports the SDK from its own origin under the strict default CSP.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Response } from '@whatwg-node/fetch';
import type { RequestContext } from './request-context.js';
import { packageRoot } from '../db/paths.js';
import { etagMatches } from '../files/files.rules.js';
import { restError } from './error-responses.js';
import { fail } from '../errors.js';

export const SDK_SCRIPT_PATH = '/sdk/client.js';
const VERSIONED_PATH = /^\/sdk\/client@([^/]+)\.js$/;
export const sdkScriptPath = (version: string) => `/sdk/client@${version}.js`;

/** The client package inside this one (the repository, or Gatehouse as npm installed it). */
export const CLIENT_PACKAGE_DIR = path.join(packageRoot, 'packages', 'client');

/** One encoding of the script: its bytes and its entity tag (a strong tag differs per encoding). */
interface Encoded {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

interface Script {
  version: string;
  identity: Encoded;
  gzip: Encoded;
}

/** Headers of every answer: anyone may load it, never with credentials; a page under COEP may embed it. */
const PUBLIC = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };

async function loadScript(packageDir: string): Promise<Script> {
  let source: Buffer;
  let version: string;
  try {
    [source, { version }] = await Promise.all([
      readFile(path.join(packageDir, 'dist', 'index.js')),
      readFile(path.join(packageDir, 'package.json'), 'utf8').then(text => JSON.parse(text) as { version: string }),
    ]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw fail('sdk_not_built', 'This server has no build of the client SDK: run `npm run build:sdk` where Gatehouse is installed.');
  }
  const digest = createHash('sha256').update(source).digest('base64url').slice(0, 32);
  return {
    version,
    identity: { body: new Uint8Array(source), etag: `"${digest}"` },
    gzip: { body: new Uint8Array(await promisify(gzip)(source)), etag: `"${digest}-gzip"` },
  };
}

/** Whether Accept-Encoding admits gzip (by name or `*`, with a nonzero q). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(',').some(entry => {
    const [coding, ...parameters] = entry.split(';').map(part => part.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = parameters.find(parameter => parameter.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export function createSdkScript({ packageDir = CLIENT_PACKAGE_DIR }: { packageDir?: string } = {}) {
  // Read once per process; a failure (no build yet) is tried again on the next request.
  let loading: Promise<Script> | null = null;
  const script = () =>
    (loading ??= loadScript(packageDir).catch(error => {
      loading = null;
      throw error;
    }));

  async function handle(context: RequestContext): Promise<Response> {
    const { method, headers } = context;
    // On a hosted app origin the same script is under /_osg (a page under the strict CSP loads it from its own origin).
    const { prefix } = context.mount;
    const path = context.url.pathname.slice(prefix.length);
    try {
      if (method !== 'GET' && method !== 'HEAD') throw fail('method_not_allowed', `${method} is not supported on ${path}: use GET.`);
      const { version, ...encodings } = await script();
      if (path === SDK_SCRIPT_PATH) {
        return new Response(null, {
          status: 302,
          headers: { ...PUBLIC, location: `${prefix}${sdkScriptPath(version)}`, 'cache-control': 'no-cache' },
        });
      }
      const asked = VERSIONED_PATH.exec(path)?.[1];
      if (asked !== version) {
        throw fail(
          'sdk_version_unavailable',
          `This gateway serves @gatehouse/client ${version} only, at ${prefix}${sdkScriptPath(version)}; ${prefix}${SDK_SCRIPT_PATH} always leads to the version it serves.`,
        );
      }
      const gzipped = acceptsGzip(headers.get('accept-encoding'));
      const { body, etag } = gzipped ? encodings.gzip : encodings.identity;
      const cached = {
        ...PUBLIC,
        etag,
        'cache-control': 'public, max-age=31536000, immutable',
        vary: 'Accept-Encoding',
      };
      const ifNoneMatch = headers.get('if-none-match');
      if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: cached });
      return new Response(method === 'HEAD' ? null : body, {
        status: 200,
        headers: {
          ...cached,
          'content-type': 'text/javascript; charset=utf-8',
          'content-length': String(body.byteLength),
          ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
        },
      });
    } catch (error) {
      return restError(error, PUBLIC);
    }
  }

  return { handle };
}
export type SdkScript = ReturnType<typeof createSdkScript>;
