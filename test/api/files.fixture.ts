/** The schema and seed the file tests share (docs/api.md §13). */
import { defineSchema } from 'gatehouse/schema';
import { TEST_RESOURCES, type Seed, type TestContext, seed } from '../helpers/app.js';

/**
 * User buckets `avatars` (images up to 1 MiB) and `docs` (anything up to 1 MiB); resource buckets
 * `attachments` on the `room` type (defaults: readers list and read, writers upload; text and PNG
 * up to 256 KiB) and `album` photos (any image, uploads by admins only).
 */
const filesSchema = defineSchema({
  files: {
    avatars: { maxSize: '1MB', accept: ['image/*'] },
    docs: { maxSize: '1MB' },
  },
  resources: {
    ...TEST_RESOURCES,
    room: r => TEST_RESOURCES.room(r).files('attachments', { maxSize: '256KB', accept: ['text/*', 'image/png'] }),
    album: r => TEST_RESOURCES.album(r).files('photos', { maxSize: '1MB', accept: ['image/*'], access: { upload: 'admin' } }),
  },
});
/** With its buckets typed as present: tests deploy it without one of them. */
export const FILES_SCHEMA = { ...filesSchema, buckets: filesSchema.buckets ?? {} };

export async function filesSeed(ctx: TestContext, names: string[]): Promise<Seed> {
  const s = await seed(ctx, names);
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: FILES_SCHEMA });
  if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.body)}`);
  return s;
}

type WithToken = { token?: string };

/** A raw file request as `who` (a test-session client), with `headers` and an optional body. */
export async function fileRequest(
  ctx: TestContext,
  who: WithToken,
  method: string,
  path: string,
  init: { body?: BodyInit | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (who.token) headers.authorization = `Bearer ${who.token}`;
  return ctx.fetch(path, {
    method,
    headers,
    body: init.body ?? undefined,
    ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** A body stream of `chunks` chunks of `size` bytes each, with no Content-Length. */
export function chunked(chunks: number, size: number, byte = 0x61): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ >= chunks) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(byte));
    },
  });
}

/** Every key in the server's blob store. */
export async function blobKeys(ctx: TestContext): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of ctx.app.services.files.blobs.list()) keys.push(blob.key);
  return keys.sort();
}
