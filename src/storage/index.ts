/** The blob store the config names: the filesystem under DATA_DIR (default) or S3-compatible storage. */
import type { FilesConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { openFsBlobStore } from './fs-blob-store.js';

export type { BlobListing, BlobRange, BlobStore, StoredBlob } from './blob-store.js';

export async function createBlobStore(config: FilesConfig): Promise<BlobStore> {
  const { backend } = config;
  if (backend.kind !== 's3') return openFsBlobStore(backend.root);
  // The AWS SDK is loaded only for S3 storage: tens of MB a filesystem store never needs.
  return (await import('./s3-blob-store.js')).openS3BlobStore(backend);
}

/**
 * The configured store, opened on first use (or by `ready()`, which `buildApp` awaits so a crashed
 * upload's leftovers are cleared at start): processes that never touch files never open it.
 */
export function lazyBlobStore(config: FilesConfig): BlobStore & { ready(): Promise<BlobStore> } {
  let opened: Promise<BlobStore> | null = null;
  const ready = () => (opened ??= createBlobStore(config));
  let holds = 0;
  let deferred: string[] = [];
  return {
    kind: config.backend.kind,
    ready,
    put: async (key, body, options) => (await ready()).put(key, body, options),
    get: async (key, range) => (await ready()).get(key, range),
    delete: async keys => {
      if (holds > 0) {
        deferred.push(...keys);
        return;
      }
      await (await ready()).delete(keys);
    },
    holdDeletes() {
      holds++;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        if (--holds > 0 || !deferred.length) return;
        const keys = deferred;
        deferred = [];
        await (await ready()).delete(keys);
      };
    },
    async *list(prefix) {
      yield* (await ready()).list(prefix);
    },
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}
