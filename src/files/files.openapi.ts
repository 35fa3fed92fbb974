/**
 * The streaming file routes (src/files/files.routes.ts) in the OpenAPI document: they are not rows of the
 * route table (their bodies are raw bytes), so their operations are written here. docs/api.md §13.
 */
const fileView = {
  type: 'object',
  required: ['id', 'bucket', 'path', 'size', 'contentType', 'etag', 'roomId', 'creatorId', 'resourceId', 'linked', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    bucket: { type: 'string' },
    path: { type: 'string' },
    size: { type: 'number' },
    contentType: { type: 'string' },
    etag: { type: 'string', description: 'The quoted SHA-256 of the bytes' },
    roomId: { type: ['string', 'null'] },
    creatorId: { type: ['string', 'null'] },
    resourceId: { type: ['string', 'null'] },
    linked: { type: 'boolean', description: "A user's own file mounted here (spec §4.4 rule 10)" },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};

const security = [{ bearerToken: [] }, { sessionCookie: [], csrfHeader: [] }];

/**
 * What every file route can answer, as any app route can (credentials, input, load; openapi.ts adds
 * csrf_required to the state-changing ones), and what naming a bucket in a scope can: a bucket the
 * deployed schema lacks, one of the other kind of scope, a path or percent-encoding that breaks
 * §13.3, and in a resource its visibility and rooms (§10, §13.2).
 */
const NAMING = ['invalid_path', 'unknown_bucket', 'bucket_not_in_scope', 'unknown_type', 'payment_required'];
const IN_RESOURCE = ['resource_not_found', 'not_resource_member', 'invalid_room', 'room_not_found', 'access_denied', 'room_forbidden'];

const path = {
  name: 'path',
  in: 'path',
  required: true,
  description: 'The file path (segments separated by /, docs/api.md §13.3)',
  schema: { type: 'string' },
};
const bucket = { name: 'bucket', in: 'path', required: true, schema: { type: 'string' } };
const resourceId = { name: 'resourceId', in: 'path', required: true, schema: { type: 'string' } };
const roomId = {
  name: 'roomId',
  in: 'query',
  required: false,
  description: 'One room of the resource (spec §4.4 rule 6)',
  schema: { type: 'string' },
};
const header = (name: string, description: string) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });

function fileOperations(scope: 'me' | 'resource') {
  const base = scope === 'me' ? [bucket, path] : [resourceId, bucket, path, roomId];
  const where = scope === 'me' ? 'your own bucket' : "a resource's bucket";
  const scoped = scope === 'me' ? NAMING : [...NAMING, ...IN_RESOURCE];
  return {
    put: {
      operationId: `putFile${scope === 'me' ? 'Mine' : 'InResource'}`,
      summary: `Upload or replace a file in ${where}`,
      description:
        'The raw bytes, streamed; Content-Type must be accepted by the bucket; the size limit is counted on the bytes read (docs/api.md §13).',
      tags: ['files'],
      parameters: [...base, header('If-None-Match', '`*`: create only'), header('If-Match', 'Replace only this ETag')],
      requestBody: { required: true, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
      responses: {
        200: { description: 'Replaced', content: { 'application/json': { schema: fileView } } },
        201: { description: 'Created', content: { 'application/json': { schema: fileView } } },
      },
      errors: [...scoped, 'file_exists', 'file_is_mounted', 'precondition_failed', 'file_too_large', 'unsupported_media_type'],
      security,
    },
    get: {
      operationId: `getFile${scope === 'me' ? 'Mine' : 'InResource'}`,
      summary: `Download a file of ${where}`,
      description: 'Streamed; Range (one range) and If-None-Match honoured. HEAD answers the same headers.',
      tags: ['files'],
      parameters: [...base, header('Range', 'bytes=a-b, a- or -n'), header('If-None-Match', 'An ETag: 304 when current')],
      responses: {
        200: { description: 'The bytes', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        206: { description: 'The range (Content-Range)', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
        304: { description: 'Not modified' },
      },
      errors: [...scoped, 'file_not_found', 'blob_missing', 'range_not_satisfiable'],
      security,
    },
    delete: {
      operationId: `deleteFile${scope === 'me' ? 'Mine' : 'InResource'}`,
      summary: `Delete a file of ${where} (a mount: unmount it)`,
      tags: ['files'],
      parameters: base,
      responses: {
        200: { description: 'Deleted', content: { 'application/json': { schema: { type: 'object', properties: { ok: { const: true } } } } } },
      },
      errors: [...scoped, 'file_not_found'],
      security,
    },
  };
}

function listOperation(scope: 'me' | 'resource') {
  const query = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } });
  return {
    get: {
      operationId: `listFiles${scope === 'me' ? 'Mine' : 'InResource'}`,
      summary: scope === 'me' ? 'List your own files of a bucket' : "List a resource bucket's files across the rooms you may list, and mounts",
      tags: ['files'],
      parameters: [
        ...(scope === 'me' ? [bucket] : [resourceId, bucket, roomId]),
        query('prefix', 'Only paths starting with it'),
        query('limit', '1 to 1000, default 100'),
        query('cursor', 'nextCursor of the previous page'),
      ],
      responses: {
        200: {
          description: 'One page, by path',
          content: {
            'application/json': {
              schema: { type: 'object', properties: { files: { type: 'array', items: fileView }, nextCursor: { type: ['string', 'null'] } } },
            },
          },
        },
      },
      errors: [...(scope === 'me' ? NAMING : [...NAMING, ...IN_RESOURCE]), 'invalid_cursor'],
      security,
    },
  };
}

/** One file operation: OpenAPI's fields, with its success answers as `responses` and its error codes beside them (openapi.ts files them by status). */
export interface FileOperationDoc {
  operationId: string;
  responses: Record<number, unknown>;
  /** Codes beyond the ones every app route can answer (openapi.ts `commonErrors`). */
  errors: string[];
  [field: string]: unknown;
}

/** OpenAPI paths of the streaming file routes, keyed by path template, then method. */
export function fileRoutePaths(): Record<string, Record<string, FileOperationDoc>> {
  return {
    '/v1/files/me/{bucket}': listOperation('me'),
    '/v1/files/me/{bucket}/{path}': fileOperations('me'),
    '/v1/files/resources/{resourceId}/{bucket}': listOperation('resource'),
    '/v1/files/resources/{resourceId}/{bucket}/{path}': fileOperations('resource'),
  };
}
