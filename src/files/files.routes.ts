/**
 * The streaming file routes (docs/api.md §13). Raw bytes in and out, so they sit beside the
 * GraphQL-backed route table rather than in it (the JSON file routes, move and link, are rows
 * there):
 *
 *   GET    /v1/files/me/:bucket                 list your own files (?prefix=&limit=&cursor=)
 *   PUT    /v1/files/me/:bucket/<path>          upload or replace (raw body, Content-Type)
 *   GET    /v1/files/me/:bucket/<path>          download (Range, If-None-Match); HEAD too
 *   DELETE /v1/files/me/:bucket/<path>
 *   ... and the same under /v1/files/resources/:resourceId/:bucket, with ?roomId= for one room.
 *
 * An upload's body is read here, as it arrives, against its bucket's limit (not MAX_BODY_BYTES).
 */
import { Readable } from 'node:stream';
import { assertCsrf, isStateChanging } from '../http/csrf.js';
import { type RequestContext, apiPathOf } from '../http/request-context.js';
import { requirePrincipal } from '../core/caller.rules.js';
import { parseRange } from './files.rules.js';
import { badRequest } from '../errors.js';
import { restError } from '../http/error-responses.js';
import { json } from '../http/responses.js';
import type { Services } from '../services.js';
import type { FileScope, FileView } from './files.service.js';

const PREFIX = '/v1/files/';

/** Downloads are user content on the gateway's origin: never let one run as a page here. */
const DOWNLOAD_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'private, no-cache',
  'accept-ranges': 'bytes',
};

interface Target {
  scope: FileScope;
  /** The file path, or null for the bucket itself (list). */
  path: string | null;
}

/** `/v1/files/me/:bucket[/path]` or `/v1/files/resources/:id/:bucket[/path]`; null for anything else. */
function targetOf(path: string, query: URLSearchParams): Target | null {
  const parts = path.slice(PREFIX.length).split('/');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw badRequest('invalid_path', 'path: not valid percent-encoding.');
    }
  };
  const filePath = (rest: string[]) => (rest.length === 0 || (rest.length === 1 && rest[0] === '') ? null : rest.map(decode).join('/'));
  if (parts[0] === 'me' && parts.length >= 2 && parts[1]) {
    return { scope: { kind: 'user', bucket: decode(parts[1]) }, path: filePath(parts.slice(2)) };
  }
  if (parts[0] === 'resources' && parts.length >= 3 && parts[1] && parts[2]) {
    const roomId = query.get('roomId') ?? undefined;
    return { scope: { kind: 'resource', resourceId: decode(parts[1]), bucket: decode(parts[2]), roomId }, path: filePath(parts.slice(3)) };
  }
  return null;
}

const fileHeaders = (file: FileView) => ({ etag: file.etag, 'last-modified': new Date(file.updatedAt).toUTCString() });

export function createFileRoutes(services: Services) {
  async function handle(context: RequestContext): Promise<Response> {
    try {
      const { request, url } = context;
      const method = request.method;
      const target = targetOf(apiPathOf(context), url.searchParams);
      if (!target) return json(404, { error: 'not_found', message: `No route ${method} ${url.pathname}.` });
      const auth = await context.auth();
      assertCsrf(auth, isStateChanging(method));
      const caller = requirePrincipal(auth.caller);
      const files = services.files;

      if (target.path === null) {
        if (method !== 'GET') return json(405, { error: 'method_not_allowed', message: `${method} is not supported on a bucket; name a file path.` });
        const limit = url.searchParams.get('limit');
        const page = await files.list(caller, target.scope, {
          prefix: url.searchParams.get('prefix'),
          limit: limit === null ? null : Number(limit),
          cursor: url.searchParams.get('cursor'),
        });
        return json(200, page);
      }

      switch (method) {
        case 'PUT': {
          const length = request.headers.get('content-length');
          const { file, created } = await files.upload(caller, target.scope, {
            path: target.path,
            contentType: request.headers.get('content-type'),
            contentLength: length === null ? null : Number(length),
            ifNoneMatch: request.headers.get('if-none-match'),
            ifMatch: request.headers.get('if-match'),
            body: context.bodyStream(),
            signal: request.signal,
          });
          return json(created ? 201 : 200, file, fileHeaders(file));
        }
        case 'GET':
        case 'HEAD': {
          const result = await files.download(caller, target.scope, target.path, {
            range: size => parseRange(request.headers.get('range'), size),
            ifNoneMatch: request.headers.get('if-none-match'),
            head: method === 'HEAD',
          });
          const { file, status, range } = result;
          const headers: Record<string, string> = { ...DOWNLOAD_HEADERS, ...fileHeaders(file) };
          if (status === 304) return new Response(null, { status, headers });
          if (status === 416) {
            return json(
              416,
              { error: 'range_not_satisfiable', message: `The file has ${file.size} bytes.` },
              { 'content-range': `bytes */${file.size}` },
            );
          }
          headers['content-type'] = file.contentType;
          headers['content-length'] = String(range ? range.end - range.start + 1 : file.size);
          if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${file.size}`;
          const body = result.body ? (Readable.toWeb(result.body) as ReadableStream<Uint8Array>) : null;
          return new Response(body, { status, headers });
        }
        case 'DELETE':
          return json(200, await files.delete(caller, target.scope, target.path));
        default:
          return json(405, { error: 'method_not_allowed', message: `${method} is not supported on a file: use GET, HEAD, PUT or DELETE.` });
      }
    } catch (error) {
      return restError(error);
    }
  }

  return {
    /** Whether `path` (as the API sees it: /_osg stripped on hosted origins) is a streaming file route. */
    handles: (path: string) => path.startsWith(`${PREFIX}me/`) || path.startsWith(`${PREFIX}resources/`),
    handle,
  };
}
