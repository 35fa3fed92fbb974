/**
 * Files over a real socket on both storage backends (the filesystem and S3-compatible storage via
 * s3rver): an upload larger than MAX_BODY_BYTES streams through (its limit is the bucket's), a
 * chunked oversize upload leaves nothing, ranges come from the store, and deleting a resource
 * deletes its objects.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seed, type TestContext, createResource, startTestApp } from '../helpers/app.js';
import { type S3Server, startS3 } from '../helpers/s3.js';
import { blobKeys, chunked, filesSeed } from './files.fixture.js';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.close());

const BODY_LIMIT = 64 * 1024;

describe.each([
  { name: 'filesystem', env: (): Record<string, string> => ({}) },
  {
    name: 's3 (s3rver)',
    env: (): Record<string, string> => ({
      FILES_BACKEND: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'gatehouse-api-files',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }),
  },
])('files on $name over a socket', ({ env }) => {
  let ctx: TestContext;
  let s: Seed;
  beforeAll(async () => {
    ctx = await startTestApp({ listen: true, env: { MAX_BODY_BYTES: String(BODY_LIMIT), ...env() } });
    s = await filesSeed(ctx, ['alice']);
  });
  afterAll(() => ctx.close());

  const send = (method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) =>
    fetch(`${ctx.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.users.alice.token}`, ...init.headers },
      body: init.body,
      ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);

  it('an upload above MAX_BODY_BYTES (under the bucket limit) streams through, and reads back by range', async () => {
    const bytes = new Uint8Array(300 * 1024).map((_, i) => i % 251);
    const put = await send('PUT', '/v1/files/me/docs/big.bin', { body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status).toBe(201);
    const file = await put.json();
    expect(file.size).toBe(bytes.length);
    expect(file.etag).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
    const whole = new Uint8Array(await (await send('GET', '/v1/files/me/docs/big.bin')).arrayBuffer());
    expect(Buffer.compare(whole, bytes)).toBe(0);
    const part = await send('GET', '/v1/files/me/docs/big.bin', { headers: { range: 'bytes=1000-1009' } });
    expect(part.status).toBe(206);
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([...bytes.subarray(1000, 1010)]);
    // Other routes keep MAX_BODY_BYTES.
    const json = await fetch(`${ctx.url}/v1/resources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.users.alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'room', name: 'x'.repeat(BODY_LIMIT) }),
    });
    expect(json.status).toBe(413);
  });

  it('a chunked upload past the bucket limit is 413 and leaves no object', async () => {
    const before = await blobKeys(ctx);
    const res = await send('PUT', '/v1/files/me/docs/huge.bin', {
      body: chunked(24, 64 * 1024),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(413);
    expect(await blobKeys(ctx)).toEqual(before);
    expect((await send('GET', '/v1/files/me/docs/huge.bin')).status).toBe(404);
  });

  it('deleting the resource deletes its objects', async () => {
    const room = await createResource(s.users.alice, 'room', 'Stored');
    expect(
      (await send('PUT', `/v1/files/resources/${room}/attachments/a.txt`, { body: 'a', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(201);
    const withFile = await blobKeys(ctx);
    await ctx.app.services.resourceDeletion.deleteAsOwner(s.users.alice.id, s.appId, room);
    await expect.poll(async () => (await blobKeys(ctx)).length).toBe(withFile.length - 1);
  });
});
