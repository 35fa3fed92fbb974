/**
 * The filesystem blob store (the embedded default, under DATA_DIR/files). A write streams into a
 * temp file in `.tmp/` on the same filesystem, is fsynced, renamed into place and its directory
 * fsynced: a key is either absent or whole, whatever crashes when. Leftover temp files of a crashed
 * write are removed when the store opens.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type BlobListing, type BlobRange, type BlobStore, type StoredBlob, assertKey, blobMissing, fileTooLarge } from './blob-store.js';

const TMP = '.tmp';

export async function openFsBlobStore(root: string): Promise<BlobStore> {
  const base = path.resolve(root);
  await rm(path.join(base, TMP), { recursive: true, force: true });
  await mkdir(path.join(base, TMP), { recursive: true });
  const fileOf = (key: string) => path.join(base, assertKey(key));

  async function syncDir(dir: string) {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    kind: 'fs',

    async put(key, body, { maxBytes, signal }): Promise<StoredBlob> {
      const target = fileOf(key);
      const temp = path.join(base, TMP, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      const handle = await open(temp, 'wx');
      const hash = createHash('sha256');
      let size = 0;
      try {
        for await (const chunk of body) {
          signal?.throwIfAborted();
          size += chunk.byteLength;
          if (size > maxBytes) throw fileTooLarge(maxBytes);
          hash.update(chunk);
          await handle.write(chunk);
        }
        await handle.sync();
        await handle.close();
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temp, target);
        await syncDir(path.dirname(target));
        return { size, sha256: hash.digest('hex') };
      } catch (error) {
        await handle.close().catch(() => {});
        await rm(temp, { force: true });
        throw error;
      }
    },

    async get(key: string, range?: BlobRange): Promise<Readable> {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch {
        throw blobMissing(key);
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },

    async delete(keys: string[]) {
      for (const key of keys) await rm(fileOf(key), { force: true });
    },

    async *list(prefix = ''): AsyncIterable<BlobListing> {
      const walk = async function* (dir: string, rel: string): AsyncIterable<BlobListing> {
        let entries: import('node:fs').Dirent[];
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          if (!rel && entry.name === TMP) continue;
          const key = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
          else if (key.startsWith(prefix)) {
            // A blob deleted between the directory read and its stat is not listed: it is gone.
            const info = await stat(path.join(dir, entry.name)).catch((error: NodeJS.ErrnoException) => {
              if (error.code === 'ENOENT') return null;
              throw error;
            });
            if (info) yield { key, size: info.size, modifiedAt: info.mtime };
          }
        }
      };
      yield* walk(base, '');
    },

    async close() {},
  };
}
