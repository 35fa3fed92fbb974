/**
 * The S3-compatible blob store (@aws-sdk/client-s3), for deployments that outgrow one machine.
 * Uploads stream as multipart parts of 5 MiB, two in flight, so memory stays bounded whatever the
 * file size; the body passes through a counter that fails past the limit, which aborts the
 * multipart upload: the key never appears. An object appears only when the upload completes.
 */
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { CreateBucketCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FilesConfig } from '../config.js';
import { type BlobListing, type BlobStore, assertKey, blobMissing, fileTooLarge } from './blob-store.js';

type S3Config = Extract<FilesConfig['backend'], { kind: 's3' }>;

export async function openS3BlobStore(config: S3Config): Promise<BlobStore> {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: config.accessKeyId ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey! } : undefined,
    // Checksums only where S3 requires them: S3-compatible servers differ in the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch {
    // A development convenience (s3rver, MinIO); a production bucket exists already.
    await client.send(new CreateBucketCommand({ Bucket }));
  }

  const store: BlobStore = {
    kind: 's3',

    async put(key, body, { maxBytes, contentType, signal }) {
      assertKey(key);
      const hash = createHash('sha256');
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) return done(fileTooLarge(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const source = Readable.from(body, { objectMode: false });
      source.on('error', error => counter.destroy(error));
      source.pipe(counter);
      let failure: unknown = null;
      counter.on('error', error => {
        failure = error;
      });
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counter, ContentType: contentType },
        partSize: 5 * 1024 * 1024,
        queueSize: 2,
        leavePartsOnError: false,
        abortController: signal ? abortFrom(signal) : undefined,
      });
      try {
        await upload.done();
      } catch (error) {
        await upload.abort().catch(() => {});
        throw failure ?? error;
      }
      if (failure) {
        await store.delete([key]);
        throw failure;
      }
      return { size, sha256: hash.digest('hex') };
    },

    async get(key, range) {
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket, Key: assertKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        return out.Body as Readable;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') throw blobMissing(key);
        throw error;
      }
    },

    async delete(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000).map(Key => ({ Key: assertKey(Key) }));
        if (batch.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch, Quiet: true } }));
      }
    },

    async *list(prefix = ''): AsyncIterable<BlobListing> {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }));
        for (const item of page.Contents ?? []) yield { key: item.Key!, size: item.Size ?? 0, modifiedAt: item.LastModified ?? new Date(0) };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async close() {
      client.destroy();
    },
  };
  return store;
}

function abortFrom(signal: AbortSignal): AbortController {
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}
