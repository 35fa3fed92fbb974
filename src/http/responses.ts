/**
 * Responses and cookies, WHATWG-style: every handler of the pipeline returns a `Response` built
 * here, so the security headers of a JSON answer or a page are written in one place. The embedded
 * identity provider, a node:http (Koa) app, writes the same Responses through `writeNodeResponse`.
 */
import type { ServerResponse } from 'node:http';
// The fetch API the server adapter writes fastest (a string body is written at once, not streamed);
// WHATWG-compatible everywhere else.
import { Headers, Response } from '@whatwg-node/fetch';

export type HeaderValues = Record<string, string | string[]>;

/** The headers the pipeline reads: a WHATWG `Headers`, or node's parsed headers (src/http/node-edge.ts). */
export type HeaderReader = Pick<Headers, 'get' | 'has'>;

/**
 * A plain object when every header has one value: the server adapter then writes the whole head
 * in one writeHead call. Several values (Set-Cookie) need a Headers (Headers.getSetCookie()).
 */
function headersOf(values: HeaderValues): Headers | Record<string, string> {
  if (!hasSeveralValues(values)) return values as Record<string, string>;
  const headers = new Headers();
  for (const [name, value] of Object.entries(values)) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function hasSeveralValues(values: HeaderValues): boolean {
  for (const name in values) if (Array.isArray(values[name])) return true;
  return false;
}

/**
 * A JSON answer that keeps what it was made of: the node edge writes those (one head, one write)
 * instead of reading the Response back (src/http/node-edge.ts). So its headers are final once
 * built: headers for every response go through the pipeline (`withHeaders` in src/server.ts).
 */
export class JsonResponse extends Response {
  constructor(
    status: number,
    readonly payload: string,
    readonly fields: Record<string, string>,
  ) {
    super(payload, { status, headers: fields });
  }
}

export function json(status: number, body: unknown, headers: HeaderValues = {}): Response {
  const payload = JSON.stringify(body);
  const fields = headersOf({
    ...headers,
    // A known length: the adapter then writes head and body without chunked framing.
    'content-length': String(Buffer.byteLength(payload)),
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  return fields instanceof Headers ? new Response(payload, { status, headers: fields }) : new JsonResponse(status, payload, fields);
}

/** No page of ours may be framed (clickjacking); a page's own CSP keeps its rules and gains that one. */
const FRAME_ANCESTORS = "frame-ancestors 'none'";
/** For pages that name no CSP: no script, inline styles only (no form-action: a sign-in redirect chain ends on the app). */
export const DEFAULT_PAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; ${FRAME_ANCESTORS}`;

export function withFrameAncestors(csp: string | undefined): string {
  if (!csp) return DEFAULT_PAGE_CSP;
  const directives = csp
    .split(';')
    .map(d => d.trim())
    .filter(d => d && !/^frame-ancestors\b/i.test(d));
  return [...directives, FRAME_ANCESTORS].join('; ');
}

export function html(status: number, page: string, headers: HeaderValues = {}): Response {
  const rest = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-security-policy'));
  const csp = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
  return new Response(page, {
    status,
    headers: headersOf({
      'referrer-policy': 'no-referrer',
      ...rest,
      'content-length': String(Buffer.byteLength(page)),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': withFrameAncestors(Array.isArray(csp) ? csp.join('; ') : csp),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    }),
  });
}

/** A body-less answer (a CORS preflight's 204). */
export function empty(status: number, headers: HeaderValues = {}): Response {
  return new Response(null, { status, headers: headersOf(headers) });
}

export function redirect(location: string, headers: HeaderValues = {}, status = 302): Response {
  return new Response(null, { status, headers: headersOf({ ...headers, location, 'cache-control': 'no-store' }) });
}

/** Writes a Response to a node:http response (the embedded provider's pages and JSON). */
export async function writeNodeResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, { ...headers, 'content-length': body.length });
  res.end(body);
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) {
      try {
        cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
      } catch {
        // A malformed value is no cookie.
      }
    }
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  maxAge?: number;
  secure: boolean;
  httpOnly?: boolean;
  sameSite?: 'Lax' | 'Strict';
}

/** Host-only by construction: never a Domain attribute. */
export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${o.path}`];
  if (o.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAge))}`);
  if (o.maxAge === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (o.httpOnly !== false) parts.push('HttpOnly');
  if (o.secure) parts.push('Secure');
  parts.push(`SameSite=${o.sameSite ?? 'Lax'}`);
  return parts.join('; ');
}

/** The media type of a request body, without parameters. */
export const mediaType = (contentType: string | null | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();
