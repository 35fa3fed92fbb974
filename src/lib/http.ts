/** Small node:http helpers shared by the gateway and the embedded identity provider. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from '../errors.js';
import { assertNoNul, readBody } from './body.js';

/** The body as UTF-8 text, through the one limited reader (src/lib/body.ts, MAX_BODY_BYTES). */
export async function readText(req: IncomingMessage): Promise<string> {
  return (await readBody(req)).toString('utf8');
}

/** A JSON object body (empty body = {}); no string in it may hold a NUL. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readText(req)).trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('invalid_json', 'body: not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('invalid_json', 'body: must be a JSON object.');
  assertNoNul(value, 'body');
  return value as Record<string, unknown>;
}

/** An application/x-www-form-urlencoded body; no field may hold a NUL. */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const form = Object.fromEntries(new URLSearchParams(await readText(req)));
  assertNoNul(form, 'body');
  return form;
}

/**
 * A 413 closes the connection: the rest of the body is never read, so the connection cannot be
 * reused (Node closes the socket once the response is flushed).
 */
const closeIfUnread = (status: number): Record<string, string> => (status === 413 ? { connection: 'close' } : {});

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...closeIfUnread(status),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(payload);
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

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {}) {
  const rest = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-security-policy'));
  const csp = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
  res.writeHead(status, {
    ...rest,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': withFrameAncestors(Array.isArray(csp) ? csp.join('; ') : csp),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}, status = 302) {
  res.writeHead(status, { ...headers, location, 'content-length': 0, 'cache-control': 'no-store' });
  res.end();
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function parseCookies(header: string | undefined): Map<string, string> {
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
