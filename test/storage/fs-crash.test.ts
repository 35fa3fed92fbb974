/**
 * Crash safety of the filesystem blob store: a process killed (SIGKILL) in the middle of an upload
 * leaves no visible key, only a temp file, which the next open removes. The metadata side of the
 * guarantee (no files row before its blob is durable) is the files service's write order.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createBlobStore } from '../../src/storage/index.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-crash-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

it('a killed upload leaves nothing visible, and reopening clears its temp file', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./slow-upload.ts', import.meta.url)), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', chunk => String(chunk).includes('writing') && resolve());
    child.once('exit', code => reject(new Error(`child exited early (${code})`)));
  });
  const exited = new Promise(resolve => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;

  expect((await readdir(path.join(dir, '.tmp'))).length).toBe(1);
  const store = await createBlobStore({ maxFileBytes: 1024 ** 3, backend: { kind: 'fs', root: dir } });
  const keys: string[] = [];
  for await (const blob of store.list()) keys.push(blob.key);
  expect(keys).toEqual([]);
  await expect(store.get('dep/crash/v1')).rejects.toMatchObject({ code: 'blob_missing' });
  expect(await readdir(path.join(dir, '.tmp'))).toEqual([]);
}, 30_000);
