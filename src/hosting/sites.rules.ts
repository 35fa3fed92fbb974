/**
 * What a published static site is and how a hosted origin answers from it (docs/api.md §15): its
 * file paths, which request path names which file (the single-page fallback), and the headers a
 * page or asset is served with (type, caching, CSP). Pure: the service and `gatehouse dev` share it.
 */
import { fail } from '../errors.js';

/** Where the gateway is mounted on a hosted origin (the same as src/http/request-context.ts's). */
export const HOSTED_PREFIX = '/_osg';

/** One file of a version: its content's hash, size and media type. */
export interface SiteFile {
  sha256: string;
  size: number;
  type: string;
}

export type SiteManifest = Record<string, SiteFile>;

/** Paths the gateway keeps on every hosted origin: never served from a site. */
export const RESERVED_PREFIXES = [HOSTED_PREFIX, '/_invite'] as const;

export const MAX_SITE_FILES = 10_000;
const MAX_PATH_LENGTH = 1024;
const SHA256 = /^[0-9a-f]{64}$/;

export const isSha256 = (value: string) => SHA256.test(value);

const hasBackslashOrControl = (path: string) => [...path].some(c => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** Whether a request path belongs to the gateway on a hosted origin (`/_osg`, `/_osg/…`, `/_invite…`). */
export function isReservedPath(path: string): boolean {
  return RESERVED_PREFIXES.some(prefix => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * A manifest path as stored: `a/b/index.html`, no leading slash, no empty, `.` or `..` segment,
 * no backslash or control character, not under a reserved prefix.
 */
export function sitePath(raw: string): string {
  const path = raw.replace(/^\/+/, '');
  const problem =
    path === ''
      ? 'is empty'
      : path.length > MAX_PATH_LENGTH
        ? `is longer than ${MAX_PATH_LENGTH} characters`
        : hasBackslashOrControl(path)
          ? 'holds a backslash or a control character'
          : path.split('/').some(segment => segment === '' || segment === '.' || segment === '..')
            ? 'has an empty, `.` or `..` segment'
            : isReservedPath(`/${path}`)
              ? `is under ${RESERVED_PREFIXES.join(' or ')}, which the gateway serves`
              : null;
  if (problem) throw fail('invalid_site', `files: the path ${JSON.stringify(raw.slice(0, 200))} ${problem}.`);
  return path;
}

export const isHtml = (type: string) => type.startsWith('text/html');

/**
 * A fingerprinted asset: its name carries a content hash (`index-4f3a9c1b.js`, `app.BXk2a9Qe.css`,
 * `chunk-3f2a9c1e8b.js`): a segment of 8 or more letters, digits or `_` with at least one digit,
 * set off by `-` or `.` just before the extension. Such a file never changes under its name.
 */
export function isFingerprinted(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const match = /[.-]([A-Za-z0-9_]{8,})\.[A-Za-z0-9]+$/.exec(name);
  return match !== null && /\d/.test(match[1]);
}

/** HTML revalidates every time (a new version shows at once); fingerprinted assets are cached for a year. */
export function cacheControlOf(path: string, type: string): string {
  if (isHtml(type)) return 'no-cache';
  if (isFingerprinted(path)) return 'public, max-age=31536000, immutable';
  return 'public, no-cache';
}

/**
 * The default policy of a hosted page: only its own origin, which is also where the SDK talks
 * (`/_osg`, and its WebSocket on the same host), inline styles (common in built pages), images
 * from data: and blob: URLs; no plugins, no framing by others, no foreign forms or base URLs.
 */
export function contentSecurityPolicy(host: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // 'self' covers ws(s): of the same host in CSP 3; named too for browsers that predate it.
    `connect-src 'self' wss://${host} ws://${host}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The strong ETag of a file's bytes as served (`variant` marks a transformed representation). */
export const siteEtag = (sha256: string, variant = '') => `"${sha256}${variant}"`;

export type Resolved<F extends SiteFile = SiteFile> = { path: string; file: F; status: 200 | 404 } | null;

/**
 * Which file answers a request path: the file itself, a directory's `index.html`, `<path>.html`;
 * else with `spa` a navigation (no extension, or Accept asks for HTML) gets `index.html` (200);
 * else `404.html` when the site has one (404); else nothing. `find` looks a manifest path up.
 */
export async function resolveSitePath<F extends SiteFile>(
  find: (path: string) => Promise<F | null> | F | null,
  requestPath: string,
  spa: boolean,
  acceptsHtml: boolean,
): Promise<Resolved<F>> {
  let path: string;
  try {
    path = decodeURIComponent(requestPath).replace(/^\/+/, '');
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const candidates = path === '' || path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`, `${path}.html`];
  for (const candidate of candidates) {
    const file = await find(candidate);
    if (file) return { path: candidate, file, status: 200 };
  }
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (spa && (!last.includes('.') || acceptsHtml)) {
    const index = await find('index.html');
    if (index) return { path: 'index.html', file: index, status: 200 };
  }
  const notFound = await find('404.html');
  return notFound ? { path: '404.html', file: notFound, status: 404 } : null;
}

/** A manifest's lookup: own keys only (a path such as `constructor` is not an inherited property). */
export const manifestLookup =
  <F extends SiteFile>(manifest: Record<string, F>) =>
  (path: string): F | null =>
    Object.hasOwn(manifest, path) ? manifest[path] : null;

/** The script a hosted page loads before its own: it sets `globalThis.__GATEHOUSE_CONFIG__` (the SDK reads it). */
export const CONFIG_SCRIPT_PATH = `${HOSTED_PREFIX}/config.js`;
const CONFIG_TAG = `<script src="${CONFIG_SCRIPT_PATH}"></script>`;
/** Marks the ETag of an HTML page served with the config tag added. */
export const INJECTED_VARIANT = '-c1';

/**
 * The page with the config script as the first thing in its `<head>` (or before everything when it
 * has none); unchanged when it already loads it. The tag is the same for every request, so the
 * result is a function of the file: its ETag stays strong.
 */
export function injectConfigScript(html: string): string {
  if (html.includes(CONFIG_SCRIPT_PATH)) return html;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return `${html.slice(0, head.index + head[0].length)}${CONFIG_TAG}${html.slice(head.index + head[0].length)}`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}${CONFIG_TAG}${html.slice(at)}`;
}

/** What a hosted page learns about its gateway (GET /_osg/config.json): public values only. */
export interface SiteConfig {
  gateway: string;
  clientId: string | null;
  appId: string;
  env: string;
}

export const configScript = (config: SiteConfig) => `globalThis.__GATEHOUSE_CONFIG__ = ${JSON.stringify(config)};\n`;
