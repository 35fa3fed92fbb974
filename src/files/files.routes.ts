/**
 * The file routes (docs/api.md §13). The streaming ones carry raw bytes in and out:
 *
 *   GET    /v1/files/me/:bucket                 list your own files (?prefix=&limit=&cursor=)
 *   PUT    /v1/files/me/:bucket/<path>          upload or replace (raw body, Content-Type)
 *   GET    /v1/files/me/:bucket/<path>          download (Range, If-None-Match); HEAD too
 *   DELETE /v1/files/me/:bucket/<path>
 *   ... and the same under /v1/files/resources/:resourceId/:bucket, with ?roomId= for one room.
 *
 * An upload's body is read here, as it arrives, against its bucket's limit (not MAX_BODY_BYTES).
 * Moving and linking files are JSON routes that run stored GraphQL operations.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { requirePrincipal } from '../core/caller.rules.js';
import { fail } from '../errors.js';
import { graphql } from '../graphql-client/generated/index.js';
import { type Endpoint, type EndpointCall, type EndpointParameter, type JsonSchema, defineEndpoint } from '../http/endpoint.js';
import { json } from '../http/responses.js';
import { storedOperation } from '../http/stored-operations.js';
import { parseRange } from './files.rules.js';
import type { FileScope, FileView } from './files.service.js';

/** Downloads are user content on the gateway's origin: never let one run as a page here. */
const DOWNLOAD_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'private, no-cache',
  'accept-ranges': 'bytes',
};

const timestamp = z.string().describe('ISO-8601, UTC');
/** A file's metadata (docs/api.md §13), as the streaming file routes answer it too. */
export const fileOut = z.object({
  id: z.string(),
  bucket: z.string(),
  path: z.string(),
  size: z.number(),
  contentType: z.string(),
  etag: z.string().describe('The quoted SHA-256 of the bytes'),
  roomId: z.string().nullable(),
  creatorId: z.string().nullable(),
  resourceId: z.string().nullable(),
  linked: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const fileHeaders = (file: FileView) => ({ etag: file.etag, 'last-modified': new Date(file.updatedAt).toUTCString() });

type Scope = 'me' | 'resource';

/** A path segment of the scope, decoded: bad percent-encoding breaks §13.3's path rules. */
function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw fail('invalid_path', 'path: not valid percent-encoding.');
  }
}

function scopeOf(scope: Scope, { params, context }: EndpointCall): FileScope {
  if (scope === 'me') return { kind: 'user', bucket: params.bucket };
  return { kind: 'resource', resourceId: params.resourceId, bucket: params.bucket, roomId: context.url.searchParams.get('roomId') ?? undefined };
}

/** The file path below the bucket, its segments decoded. */
const filePathOf = (call: EndpointCall) => call.params.path.split('/').map(decodeSegment).join('/');

/**
 * What naming a bucket in a scope can answer: a bucket the deployed schema lacks, one of the other
 * kind of scope, a path or percent-encoding that breaks §13.3, and in a resource its visibility
 * and rooms (§10, §13.2). The credential's and CSRF's codes are the pipeline's.
 */
const NAMING = ['invalid_path', 'unknown_bucket', 'bucket_not_in_scope', 'unknown_type', 'payment_required'] as const;
const IN_RESOURCE = ['resource_not_found', 'not_resource_member', 'invalid_room', 'room_not_found', 'access_denied', 'room_forbidden'] as const;

const pathParameter: EndpointParameter = {
  name: 'path',
  in: 'path',
  required: true,
  description: 'The file path (segments separated by /, docs/api.md §13.3)',
  schema: { type: 'string' },
};
const roomIdParameter: EndpointParameter = {
  name: 'roomId',
  in: 'query',
  required: false,
  description: 'One room of the resource (spec §4.4 rule 6)',
  schema: { type: 'string' },
};
const header = (name: string, description: string): EndpointParameter => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: { type: 'string' },
});
const bytes: Record<string, JsonSchema> = { '*/*': { type: 'string', format: 'binary' } };
const fileView = { json: fileOut };

function fileEndpoints(scope: Scope): Endpoint[] {
  const bucketPath = scope === 'me' ? '/v1/files/me/:bucket' : '/v1/files/resources/:resourceId/:bucket';
  const filePath = `${bucketPath}/**:path`;
  const named = scope === 'me' ? 'Mine' : 'InResource';
  const where = scope === 'me' ? 'your own bucket' : "a resource's bucket";
  const scoped = scope === 'me' ? NAMING : [...NAMING, ...IN_RESOURCE];
  const scopeParameters = scope === 'me' ? [] : [roomIdParameter];
  const common = { hosted: 'prefixed', credential: 'app', csrf: 'by-method', paramError: 'invalid_path' } as const;
  const query = (name: string, description: string): EndpointParameter => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'string' },
  });
  return [
    defineEndpoint({
      ...common,
      method: 'GET',
      path: bucketPath,
      responses: {
        200: {
          description: 'One page, by path',
          json: z.object({ files: z.array(fileOut), nextCursor: z.string().nullable() }),
        },
      },
      errors: [...scoped, 'invalid_cursor'],
      docs: {
        operationId: `listFiles${named}`,
        summary: scope === 'me' ? 'List your own files of a bucket' : "List a resource bucket's files across the rooms you may list, and mounts",
        tag: 'files',
        parameters: [
          ...scopeParameters,
          query('prefix', 'Only paths starting with it'),
          query('limit', '1 to 1000, default 100'),
          query('cursor', 'nextCursor of the previous page'),
        ],
      },
      async handle(call) {
        const { searchParams } = call.context.url;
        const limit = searchParams.get('limit');
        const page = await call.runtime.services.files.list(requirePrincipal(call.auth!.caller), scopeOf(scope, call), {
          prefix: searchParams.get('prefix'),
          limit: limit === null ? null : Number(limit),
          cursor: searchParams.get('cursor'),
        });
        return json(200, page);
      },
    }),
    defineEndpoint({
      ...common,
      method: 'PUT',
      path: filePath,
      bodyReading: 'stream',
      responses: { 200: { description: 'Replaced', ...fileView }, 201: { description: 'Created', ...fileView } },
      errors: [...scoped, 'file_exists', 'file_is_mounted', 'precondition_failed', 'file_too_large', 'unsupported_media_type'],
      docs: {
        operationId: `putFile${named}`,
        summary: `Upload or replace a file in ${where}`,
        description:
          'The raw bytes, streamed; Content-Type must be accepted by the bucket; the size limit is counted on the bytes read (docs/api.md §13).',
        tag: 'files',
        parameters: [pathParameter, ...scopeParameters, header('If-None-Match', '`*`: create only'), header('If-Match', 'Replace only this ETag')],
        bodyMediaType: '*/*',
        bodyRequired: true,
      },
      body: { type: 'string', format: 'binary' },
      async handle(call) {
        const { context } = call;
        const { headers } = context;
        const length = headers.get('content-length');
        const { file, created } = await call.runtime.services.files.upload(requirePrincipal(call.auth!.caller), scopeOf(scope, call), {
          path: filePathOf(call),
          contentType: headers.get('content-type'),
          contentLength: length === null ? null : Number(length),
          ifNoneMatch: headers.get('if-none-match'),
          ifMatch: headers.get('if-match'),
          body: context.bodyStream(),
          signal: context.request.signal,
        });
        return json(created ? 201 : 200, file, fileHeaders(file));
      },
    }),
    defineEndpoint({
      ...common,
      method: ['GET', 'HEAD'],
      path: filePath,
      responses: {
        200: { description: 'The bytes', content: bytes },
        206: { description: 'The range (Content-Range)', content: bytes },
        304: { description: 'Not modified' },
      },
      errors: [...scoped, 'file_not_found', 'blob_missing', 'range_not_satisfiable'],
      docs: {
        operationId: `getFile${named}`,
        summary: `Download a file of ${where}`,
        description: 'Streamed; Range (one range) and If-None-Match honoured. HEAD answers the same headers.',
        tag: 'files',
        parameters: [pathParameter, ...scopeParameters, header('Range', 'bytes=a-b, a- or -n'), header('If-None-Match', 'An ETag: 304 when current')],
      },
      async handle(call) {
        const { headers, method } = call.context;
        const result = await call.runtime.services.files.download(requirePrincipal(call.auth!.caller), scopeOf(scope, call), filePathOf(call), {
          range: size => parseRange(headers.get('range'), size),
          ifNoneMatch: headers.get('if-none-match'),
          head: method === 'HEAD',
        });
        const { file, status, range } = result;
        const answerHeaders: Record<string, string> = { ...DOWNLOAD_HEADERS, ...fileHeaders(file) };
        if (status === 304) return new Response(null, { status, headers: answerHeaders });
        if (status === 416) {
          return json(
            416,
            { error: 'range_not_satisfiable', message: `The file has ${file.size} bytes.` },
            { 'content-range': `bytes */${file.size}` },
          );
        }
        answerHeaders['content-type'] = file.contentType;
        answerHeaders['content-length'] = String(range ? range.end - range.start + 1 : file.size);
        if (range) answerHeaders['content-range'] = `bytes ${range.start}-${range.end}/${file.size}`;
        const body = result.body ? (Readable.toWeb(result.body) as ReadableStream<Uint8Array>) : null;
        return new Response(body, { status, headers: answerHeaders });
      },
    }),
    defineEndpoint({
      ...common,
      method: 'DELETE',
      path: filePath,
      // The body is not read: a DELETE names its file in the path.
      bodyReading: 'none',
      responses: { 200: { description: 'Deleted', json: { type: 'object', properties: { ok: { const: true } } } } },
      errors: [...scoped, 'file_not_found'],
      docs: {
        operationId: `deleteFile${named}`,
        summary: `Delete a file of ${where} (a mount: unmount it)`,
        tag: 'files',
        parameters: [pathParameter, ...scopeParameters],
      },
      handle: async call =>
        json(200, await call.runtime.services.files.delete(requirePrincipal(call.auth!.caller), scopeOf(scope, call), filePathOf(call))),
    }),
  ];
}

export const fileRouteEndpoints: Endpoint[] = [
  ...fileEndpoints('me'),
  ...fileEndpoints('resource'),
  storedOperation({
    method: 'POST',
    path: '/v1/files/move',
    response: z.object({ ok: z.literal(true), moved: z.number().int() }),
    errors: [
      'file_not_found',
      'room_forbidden',
      'access_denied',
      'invalid_path',
      'file_is_mounted',
      'payment_required',
      'unknown_bucket',
      'bucket_not_in_scope',
      'resource_not_found',
      'not_resource_member',
      'invalid_room',
      'room_not_found',
    ],
    operation: graphql(`
      mutation MoveFiles($resourceId: ID!, $bucket: String!, $paths: [String!]!, $roomId: ID) {
        result: moveFiles(resourceId: $resourceId, bucket: $bucket, paths: $paths, roomId: $roomId) { ok moved }
      }
    `),
    body: z.strictObject({
      resourceId: z.string({ message: 'is required' }),
      bucket: z.string({ message: 'is required' }),
      paths: z.array(z.string()).min(1).max(100),
      roomId: z.string().nullable().optional(),
    }),
    variables: ({ body }) => body,
    respond: r => ({ ok: true as const, moved: r.moved }),
  }),
  storedOperation({
    method: 'POST',
    path: '/v1/files/link',
    response: fileOut,
    errors: [
      'file_not_found',
      'file_exists',
      'access_denied',
      'unsupported_media_type',
      'file_too_large',
      'payment_required',
      'unknown_bucket',
      'bucket_not_in_scope',
      'resource_not_found',
      'not_resource_member',
      'invalid_path',
    ],
    operation: graphql(`
      mutation LinkFile($resourceId: ID!, $bucket: String!, $fileId: ID!, $path: String) {
        result: linkFile(resourceId: $resourceId, bucket: $bucket, fileId: $fileId, path: $path) {
          id bucket path size contentType etag roomId creatorId resourceId linked createdAt updatedAt
        }
      }
    `),
    body: z.strictObject({
      resourceId: z.string({ message: 'is required' }),
      bucket: z.string({ message: 'is required' }),
      fileId: z.string({ message: 'is required: the id of one of your own files' }),
      path: z.string().optional(),
    }),
    variables: ({ body }) => body,
    respond: r => r,
  }),
];
