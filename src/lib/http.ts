/** Small node:http helpers shared by the gateway and the embedded identity provider. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, badRequest } from '../errors.js';

const MAX_FORM_BYTES = 16 * 1024;

/** Oversized bodies are a 400 like every other bad input (the error model names the field). */
const tooLarge = (limit: number) => new AppError('body_too_large', 400, `body: larger than ${limit} bytes.`);

export async function readText(req: IncomingMessage, limit = MAX_FORM_BYTES): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body (empty body = {}). */
export async function readJson(req: IncomingMessage, limit = MAX_FORM_BYTES): Promise<Record<string, unknown>> {
  const text = (await readText(req, limit)).trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('invalid_json', 'body: not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('invalid_json', 'body: must be a JSON object.');
  return value as Record<string, unknown>;
}

export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(await readText(req)));
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
  });
  res.end(payload);
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {}) {
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}, status = 302) {
  res.writeHead(status, { ...headers, location, 'content-length': 0, 'cache-control': 'no-store' });
  res.end();
}

export function sendError(res: ServerResponse, error: AppError, headers: Record<string, string | string[]> = {}) {
  sendJson(res, error.status, { error: error.code, message: error.message }, headers);
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
