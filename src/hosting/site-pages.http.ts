/**
 * The answer of a hosted origin (or `gatehouse dev`) to a GET or HEAD of a site path: the file that
 * path resolves to (sites.rules.ts), with its type, strong ETag (304 on a matching If-None-Match),
 * caching and CSP; an HTML page gets the config script tag (the SDK's `createClient()` with no
 * options reads it). The bytes come from a source: a published version's blobs, or a directory.
 */
import { Readable } from 'node:stream';
import { etagMatches } from '../files/files.rules.js';
import type { HeaderReader } from '../http/responses.js';
import {
  INJECTED_VARIANT,
  type SiteFile,
  cacheControlOf,
  contentSecurityPolicy,
  injectConfigScript,
  isHtml,
  resolveSitePath,
  siteEtag,
} from './sites.rules.js';

/** HTML larger than this is served as stored, without the config tag (it is read whole to add it). */
const MAX_INJECTED_HTML = 4 * 1024 * 1024;

export interface SiteSource<F extends SiteFile = SiteFile> {
  spa: boolean;
  /** The file at a manifest path, or null. */
  find(path: string): Promise<F | null> | F | null;
  /** Its bytes, streamed or whole. */
  open(path: string, file: F): Promise<Readable | Uint8Array>;
  /** `dev`: every file revalidates (it changes as you edit); `published`: by sites.rules' caching. */
  caching: 'published' | 'dev';
}

export interface SiteRequest {
  method: string;
  path: string;
  headers: HeaderReader;
  /** The Host the page is served on (its CSP names its WebSocket). */
  host: string;
}

const NOT_FOUND_PAGE = '<!doctype html><meta charset="utf-8"><title>Not found</title><p>There is no page at this address.</p>\n';

/** The answer, and the body bytes it sends (what transfer is metered on: none for HEAD and 304). */
export async function answerFromSite<F extends SiteFile>(
  source: SiteSource<F>,
  request: SiteRequest,
): Promise<{ response: Response; bytes: number }> {
  const accept = request.headers.get('accept') ?? '';
  const resolved = await resolveSitePath(p => source.find(p), request.path, source.spa, accept.includes('text/html'));
  const csp = contentSecurityPolicy(request.host);
  if (!resolved) {
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': csp };
    return { response: new Response(request.method === 'HEAD' ? null : NOT_FOUND_PAGE, { status: 404, headers }), bytes: 0 };
  }
  const { file, path, status } = resolved;
  const html = isHtml(file.type);
  const inject = html && file.size <= MAX_INJECTED_HTML;
  const etag = siteEtag(file.sha256, inject ? INJECTED_VARIANT : '');
  const headers: Record<string, string> = {
    'content-type': file.type,
    'cache-control': source.caching === 'dev' ? 'no-cache' : cacheControlOf(path, file.type),
    etag,
    'content-security-policy': csp,
  };
  const ifNoneMatch = request.headers.get('if-none-match');
  if (status === 200 && ifNoneMatch && etagMatches(ifNoneMatch, etag)) return { response: new Response(null, { status: 304, headers }), bytes: 0 };
  if (!inject) {
    headers['content-length'] = String(file.size);
    if (request.method === 'HEAD' || file.size === 0) return { response: new Response(null, { status, headers }), bytes: 0 };
    const bytes = await source.open(path, file);
    const body = bytes instanceof Uint8Array ? bytes : (Readable.toWeb(bytes) as ReadableStream<Uint8Array>);
    return { response: new Response(body as BodyInit, { status, headers }), bytes: file.size };
  }
  const page = Buffer.from(injectConfigScript(await readAll(await source.open(path, file))), 'utf8');
  headers['content-length'] = String(page.length);
  if (request.method === 'HEAD') return { response: new Response(null, { status, headers }), bytes: 0 };
  return { response: new Response(page, { status, headers }), bytes: page.length };
}

async function readAll(bytes: Readable | Uint8Array): Promise<string> {
  if (bytes instanceof Uint8Array) return Buffer.from(bytes).toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
