/**
 * Files (docs/api.md §13): the access rules of a bucket, the media types it accepts, the paths a
 * file may have, and the HTTP validators and ranges of a download. Pure: the files service reads
 * the facts and asks these.
 */
import { fail } from '../errors.js';
import type { AccessRule } from '../rooms/rooms.rules.js';

export const FILE_ACTIONS = ['list', 'read', 'upload', 'update', 'delete', 'unlink'] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];
export type FileAccess = Partial<Record<FileAction, readonly AccessRule[]>>;

/**
 * The rule of an action a bucket does not declare: every member lists and reads, writers and up
 * upload, a file's uploader or an admin+ replaces, deletes or unmounts it (as rows, §11.4).
 */
export const DEFAULT_FILE_ACCESS: Readonly<Record<FileAction, readonly AccessRule[]>> = {
  list: ['reader'],
  read: ['reader'],
  upload: ['writer'],
  update: ['creator', 'admin'],
  delete: ['creator', 'admin'],
  unlink: ['creator', 'admin'],
};

export const fileRule = (action: FileAction, access: FileAccess | null | undefined): readonly AccessRule[] =>
  access?.[action] ?? DEFAULT_FILE_ACCESS[action];

/** Whether `contentType` (parameters ignored) is one of `accepted`: exact, a `type/*` family, or `*\/*`. */
export function acceptsType(accepted: readonly string[], contentType: string): boolean {
  const type = mediaType(contentType);
  if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type)) return false;
  const family = `${type.split('/')[0]}/*`;
  return accepted.some(a => a === '*/*' || a === type || a === family);
}

export const mediaType = (contentType: string): string => contentType.split(';')[0].trim().toLowerCase();

export const MAX_PATH_BYTES = 1024;

/**
 * A file path as stored: 1..1024 bytes of UTF-8, `/`-separated segments, none empty, `.` or `..`,
 * no control characters (NUL included) and no backslash. 400 `invalid_path` names what is wrong.
 */
export function parseFilePath(raw: string): string {
  const invalid = (why: string) => fail('invalid_path', `path ${JSON.stringify(raw.slice(0, 80))}: ${why}.`);
  if (!raw) throw invalid('is empty');
  if (Buffer.byteLength(raw, 'utf8') > MAX_PATH_BYTES) throw invalid(`is longer than ${MAX_PATH_BYTES} bytes`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) throw invalid('must not contain control characters or backslashes');
  for (const segment of raw.split('/')) {
    if (segment === '') throw invalid('must not start or end with "/" nor contain "//"');
    if (segment === '.' || segment === '..') throw invalid('must not contain "." or ".." segments');
  }
  return raw.normalize('NFC');
}

/** A list prefix: a path's beginning (may end with "/"), or empty. */
export function parsePathPrefix(raw: string | null | undefined): string {
  if (!raw) return '';
  const trimmed = raw.endsWith('/') ? raw.slice(0, -1) : raw;
  return `${parseFilePath(trimmed)}${raw.endsWith('/') ? '/' : ''}`;
}

export const etagOf = (sha256: string): string => `"${sha256}"`;

/** If-None-Match / If-Match: `*`, or a list of (possibly weak) entity tags. */
export function etagMatches(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  return value.split(',').some(tag => tag.trim().replace(/^W\//, '') === etag);
}

export type ByteRange = { start: number; end: number };

/**
 * `Range: bytes=a-b | a- | -n` against a file of `size` bytes (RFC 9110 §14). null: serve the whole
 * file (no header, another unit, several ranges, or a malformed one, which the RFC lets a server
 * ignore); 'unsatisfiable': 416.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export const fileNotFound = (path: string) => fail('file_not_found', `No file ${JSON.stringify(path)} that you can see in this bucket.`);
