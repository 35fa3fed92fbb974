/**
 * Files (docs/api.md §13): a bucket of your own (`files(bucket)`), a resource's (reads span the
 * rooms you may read plus mounts, writes go to the default room) or one room's. Bytes travel over
 * the streaming REST routes (`/v1/files/...`) as they are: the SDK never buffers a body.
 */
import type { Transport } from './transport.js';

/** A file's metadata (docs/api.md §13): `etag` is the quoted SHA-256 of the bytes. */
export interface FileEntry {
  id: string;
  bucket: string;
  path: string;
  size: number;
  contentType: string;
  etag: string;
  /** Resource buckets: the room it sits in (null: the default room, and every mount). */
  roomId?: string | null;
  creatorId: string | null;
  resourceId?: string | null;
  /** A user's file mounted into this resource bucket (§4.4 rule 10). */
  linked?: boolean;
  createdAt: string;
  updatedAt: string;
}

export type FileScope = { kind: 'user' } | { kind: 'resource'; resourceId: string; roomId?: string };

export type FileBody = Blob | ArrayBuffer | Uint8Array | string | ReadableStream<Uint8Array>;

export interface UploadOptions {
  /** Default: the Blob's own type, else `application/octet-stream`. */
  contentType?: string;
  /** Only create: 409 `file_exists` when the path is taken. */
  onlyNew?: boolean;
  /** Only replace the version with this ETag: 412 `precondition_failed` when it changed. */
  ifMatch?: string;
}

/** `{ start, end? }`: bytes start..end inclusive; `{ suffix }`: the last `suffix` bytes. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export class Bucket {
  constructor(
    private readonly transport: Transport,
    private readonly scope: FileScope,
    readonly name: string,
  ) {}

  private route(path?: string, query: Record<string, string | number | undefined> = {}): string {
    const base =
      this.scope.kind === 'user'
        ? `/v1/files/me/${encodeURIComponent(this.name)}`
        : `/v1/files/resources/${encodeURIComponent(this.scope.resourceId)}/${encodeURIComponent(this.name)}`;
    const params = new URLSearchParams();
    if (this.scope.kind === 'resource' && this.scope.roomId) params.set('roomId', this.scope.roomId);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    return `${base}${path === undefined ? '' : `/${encodePath(path)}`}${search ? `?${search}` : ''}`;
  }

  /** Uploads (or replaces) `path`; a stream is sent as it is read, never buffered. */
  async upload(path: string, body: FileBody, options: UploadOptions = {}): Promise<FileEntry> {
    const contentType = options.contentType ?? (body instanceof Blob && body.type ? body.type : 'application/octet-stream');
    const headers: Record<string, string> = { 'content-type': contentType, accept: 'application/json' };
    if (options.onlyNew) headers['if-none-match'] = '*';
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    const res = await this.transport.bytes('PUT', this.route(path), { body: body as BodyInit, headers });
    return res.json();
  }

  /**
   * The file as a streaming Response (`await res.blob()`, `res.body`, `res.headers.get('etag')`):
   * 206 for a range, 304 when `ifNoneMatch` is still its ETag.
   */
  download(path: string, options: { range?: ByteRange; ifNoneMatch?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (options.range) {
      const r = options.range;
      headers.range = 'suffix' in r ? `bytes=-${r.suffix}` : `bytes=${r.start}-${r.end ?? ''}`;
    }
    if (options.ifNoneMatch) headers['if-none-match'] = options.ifNoneMatch;
    return this.transport.bytes('GET', this.route(path), { headers });
  }

  /** Size, type and ETag from the headers alone (HEAD). */
  async stat(path: string): Promise<{ size: number; contentType: string; etag: string }> {
    const res = await this.transport.bytes('HEAD', this.route(path));
    return {
      size: Number(res.headers.get('content-length')),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      etag: res.headers.get('etag') ?? '',
    };
  }

  /** One page, ordered by path; pass `nextCursor` back as `cursor`. */
  async list(options: { prefix?: string; limit?: number; cursor?: string | null } = {}): Promise<{ files: FileEntry[]; nextCursor: string | null }> {
    const res = await this.transport.bytes(
      'GET',
      this.route(undefined, { prefix: options.prefix, limit: options.limit, cursor: options.cursor ?? undefined }),
      {
        headers: { accept: 'application/json' },
      },
    );
    const page = await res.json();
    return { files: page.files, nextCursor: page.nextCursor ?? null };
  }

  /** Deletes the file (a mount: removes the mount, never the user's file). */
  async delete(path: string): Promise<{ ok: boolean }> {
    const res = await this.transport.bytes('DELETE', this.route(path), { headers: { accept: 'application/json' } });
    return res.json();
  }

  /** Resource buckets: moves files to a room (null: the default room); one call, one charge (§4.4 rule 7). */
  move(paths: string[], roomId: string | null): Promise<{ ok: boolean }> {
    return this.transport.rest('POST', '/v1/files/move', { resourceId: this.resourceId('move'), bucket: this.name, paths, roomId });
  }

  /** Resource buckets: mounts one of your own files (by id) here, under `path` (default: its own path). */
  link(fileId: string, options: { path?: string } = {}): Promise<FileEntry> {
    return this.transport.rest('POST', '/v1/files/link', { resourceId: this.resourceId('link'), bucket: this.name, fileId, path: options.path });
  }

  private resourceId(method: string): string {
    if (this.scope.kind !== 'resource') throw new TypeError(`${method}() works on a resource's bucket: resource(id).files(name).${method}(...)`);
    return this.scope.resourceId;
  }
}
