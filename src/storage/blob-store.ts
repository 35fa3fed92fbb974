/**
 * Where file bytes live: one small interface, two real backends (the local filesystem under
 * DATA_DIR, S3-compatible object storage). The files service (src/files/files.service.ts) keeps the
 * metadata in the database; a blob is written and made durable before its metadata row commits,
 * and a blob no row names is garbage that `sweep` removes. Keys are opaque `[A-Za-z0-9/_-]` paths
 * the files service makes up; a key is written once and never overwritten (a replacement is a
 * new key).
 */
import type { Readable } from 'node:stream';
import { fail } from '../errors.js';

export interface StoredBlob {
  /** Bytes read from the body and stored. */
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

export interface BlobRange {
  /** Inclusive byte offsets, already checked against the blob's size. */
  start: number;
  end: number;
}

export interface BlobListing {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /**
   * Streams `body` into `key`, never holding it whole in memory. More than `maxBytes` bytes fails
   * with AppError 413 `file_too_large` and leaves nothing behind; so does any other failure
   * (a broken body, a full disk): the key exists afterwards only if this resolved.
   */
  put(key: string, body: AsyncIterable<Uint8Array>, options: { maxBytes: number; contentType: string; signal?: AbortSignal }): Promise<StoredBlob>;
  /** The bytes of `key` (a range of them), streamed. A missing key is AppError 404 `blob_missing`. */
  get(key: string, range?: BlobRange): Promise<Readable>;
  /** Deletes the keys; missing keys are not an error. */
  delete(keys: string[]): Promise<void>;
  /**
   * Defers deletes until the returned release is called (a backup reading the blobs a database
   * snapshot names: src/ops/backup.ts); deletes asked meanwhile run at the release. Keys are
   * never overwritten, so held, every blob stays as it was.
   */
  holdDeletes?(): () => Promise<void>;
  /** Every stored key (under `prefix`), for the garbage sweep. */
  list(prefix?: string): AsyncIterable<BlobListing>;
  close(): Promise<void>;
}

/** Keys are the files service's own (`<deployment>/<file>/<version>`): anything else is a bug, never a path. */
const KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)*$/;

export function assertKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some(part => part === '.' || part === '..')) throw new Error(`blob store: invalid key ${JSON.stringify(key)}`);
  return key;
}

export const fileTooLarge = (maxBytes: number) =>
  fail('file_too_large', `The file is larger than this bucket accepts (${maxBytes} bytes); nothing was stored.`);

export const blobMissing = (key: string) => fail('blob_missing', `The stored bytes of this file are missing (${key}).`);
