/** The blob store the config names: the filesystem under DATA_DIR (default) or S3-compatible storage. */
import type { FilesConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { openFsBlobStore } from './fs-blob-store.js';
import { openS3BlobStore } from './s3-blob-store.js';

export type { BlobListing, BlobRange, BlobStore, StoredBlob } from './blob-store.js';

export function createBlobStore(config: FilesConfig): Promise<BlobStore> {
  return config.backend.kind === 's3' ? openS3BlobStore(config.backend) : openFsBlobStore(config.backend.root);
}
