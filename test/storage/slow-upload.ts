/** Child of fs-crash.test.ts: opens the filesystem store at argv[2] and uploads forever, slowly. */
import { createBlobStore } from '../../src/storage/index.js';

const store = await createBlobStore({ maxFileBytes: 1024 ** 3, backend: { kind: 'fs', root: process.argv[2] } });
async function* slow(): AsyncIterable<Uint8Array> {
  for (let i = 0; ; i++) {
    yield new Uint8Array(64 * 1024).fill(7);
    if (i === 4) process.stdout.write('writing\n');
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}
await store.put('dep/crash/v1', slow(), { maxBytes: 1024 ** 3, contentType: 'application/octet-stream' });
