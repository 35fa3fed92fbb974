/**
 * Files (docs/api.md §13): every streaming route on a user bucket and a resource bucket, the
 * validators and ranges of a download, the limits of an upload (type, size on the bytes read,
 * paths), privacy and cross-app isolation, and what deletions leave behind in the blob store.
 */
import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ACCOUNT_DELETION_CONFIRMATION } from '../../src/membership/lifecycle.rules.js';
import { type Seed, addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { blobKeys, chunked, fileRequest, filesSeed } from './files.fixture.js';

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'], seed: filesSeed }).extend(
  'put',
  { scope: 'file' },
  async ({ ctx }) =>
    (who: Seed['users'][string], path: string, body: BodyInit, type = 'text/plain', headers: Record<string, string> = {}) =>
      fileRequest(ctx, who, 'PUT', path, { body, headers: { 'content-type': type, ...headers } }),
);

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a user bucket: upload, download, list, replace, delete', () => {
  it('round-trips the bytes with their type, length and ETag; replacing answers 200', async ({ ctx, s, put }) => {
    const { alice } = s.users;
    const created = await put(alice, '/v1/files/me/docs/notes/hello.txt', 'hello world');
    expect(created.status).toBe(201);
    const file = await created.json();
    expect(file).toMatchObject({
      bucket: 'docs',
      path: 'notes/hello.txt',
      size: 11,
      contentType: 'text/plain',
      etag: `"${sha('hello world')}"`,
      linked: false,
    });

    const got = await fileRequest(ctx, alice, 'GET', '/v1/files/me/docs/notes/hello.txt');
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/plain');
    expect(got.headers.get('content-length')).toBe('11');
    expect(got.headers.get('etag')).toBe(file.etag);
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    // User content never runs as a page on the gateway's origin.
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(await got.text()).toBe('hello world');

    const head = await fileRequest(ctx, alice, 'HEAD', '/v1/files/me/docs/notes/hello.txt');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('11');
    expect(await head.text()).toBe('');

    const replaced = await put(alice, '/v1/files/me/docs/notes/hello.txt', 'hello again');
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).id).toBe(file.id);
    expect(await (await fileRequest(ctx, alice, 'GET', '/v1/files/me/docs/notes/hello.txt')).text()).toBe('hello again');
  });

  it('lists by path with a prefix and a cursor', async ({ s, put }) => {
    const { bob } = s.users;
    for (const name of ['a/1.txt', 'a/2.txt', 'a/3.txt', 'b/1.txt']) expect((await put(bob, `/v1/files/me/docs/${name}`, name)).status).toBe(201);
    const first = await bob.get('/v1/files/me/docs?prefix=a/&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.files.map((f: { path: string }) => f.path)).toEqual(['a/1.txt', 'a/2.txt']);
    const second = await bob.get(`/v1/files/me/docs?prefix=a/&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.files.map((f: { path: string }) => f.path)).toEqual(['a/3.txt']);
    expect(second.body.nextCursor).toBeNull();
    expect((await bob.get('/v1/files/me/docs?cursor=bogus')).body.error).toBe('invalid_cursor');
  });

  it('serves ranges (206, suffix), refuses unsatisfiable ones (416) and answers 304 to a current ETag', async ({ ctx, s, put }) => {
    const { carol } = s.users;
    const file = await (await put(carol, '/v1/files/me/docs/digits.txt', '0123456789')).json();
    const range = await fileRequest(ctx, carol, 'GET', '/v1/files/me/docs/digits.txt', { headers: { range: 'bytes=2-5' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await range.text()).toBe('2345');
    const suffix = await fileRequest(ctx, carol, 'GET', '/v1/files/me/docs/digits.txt', { headers: { range: 'bytes=-3' } });
    expect(await suffix.text()).toBe('789');
    const open = await fileRequest(ctx, carol, 'GET', '/v1/files/me/docs/digits.txt', { headers: { range: 'bytes=8-' } });
    expect(await open.text()).toBe('89');
    const beyond = await fileRequest(ctx, carol, 'GET', '/v1/files/me/docs/digits.txt', { headers: { range: 'bytes=10-20' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */10');
    const cached = await fileRequest(ctx, carol, 'GET', '/v1/files/me/docs/digits.txt', { headers: { 'if-none-match': file.etag } });
    expect(cached.status).toBe(304);
  });

  it('If-None-Match: * only creates (409 file_exists); If-Match only replaces that version (412)', async ({ s, put }) => {
    const { carol } = s.users;
    const file = await (await put(carol, '/v1/files/me/docs/once.txt', 'v1', 'text/plain', { 'if-none-match': '*' })).json();
    const again = await put(carol, '/v1/files/me/docs/once.txt', 'v2', 'text/plain', { 'if-none-match': '*' });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe('file_exists');
    const stale = await put(carol, '/v1/files/me/docs/once.txt', 'v2', 'text/plain', { 'if-match': `"${sha('other')}"` });
    expect(stale.status).toBe(412);
    expect((await put(carol, '/v1/files/me/docs/once.txt', 'v2', 'text/plain', { 'if-match': file.etag })).status).toBe(200);
  });

  it('deletes: the file is gone and so are its bytes', async ({ ctx, s, put }) => {
    const { dave } = s.users;
    await put(dave, '/v1/files/me/docs/gone.txt', 'bye');
    const before = await blobKeys(ctx);
    const deleted = await fileRequest(ctx, dave, 'DELETE', '/v1/files/me/docs/gone.txt');
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ ok: true });
    expect((await fileRequest(ctx, dave, 'GET', '/v1/files/me/docs/gone.txt')).status).toBe(404);
    await expect.poll(async () => (await blobKeys(ctx)).length).toBe(before.length - 1);
  });

  it("is private: another user reaches only their own bucket, another app's user nothing", async ({ ctx, s, put }) => {
    const { alice, bob } = s.users;
    await put(alice, '/v1/files/me/docs/private.txt', 'mine');
    expect((await fileRequest(ctx, bob, 'GET', '/v1/files/me/docs/private.txt')).status).toBe(404);
    const other = await seed(ctx, ['mallory']);
    const res = await fileRequest(ctx, other.users.mallory, 'GET', '/v1/files/me/docs/private.txt');
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe('unknown_bucket');
  });
});

describe('upload limits: media type, size on the bytes read, paths', () => {
  it('415 for a type the bucket does not accept, or none', async ({ ctx, s, put }) => {
    const { alice } = s.users;
    const res = await put(alice, '/v1/files/me/avatars/me.txt', 'not an image');
    expect(res.status).toBe(415);
    expect((await res.json()).error).toBe('unsupported_media_type');
    expect((await fileRequest(ctx, alice, 'PUT', '/v1/files/me/avatars/x', { body: 'x' })).status).toBe(415);
    expect((await put(alice, '/v1/files/me/avatars/me.png', 'png bytes', 'image/png; charset=binary')).status).toBe(201);
  });

  it('413 for a declared length over the limit, before reading', async ({ s, put }) => {
    const { alice } = s.users;
    const res = await put(alice, '/v1/files/me/docs/big.bin', new Uint8Array(1024 * 1024 + 1), 'application/octet-stream');
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe('file_too_large');
  });

  it('413 for a streamed body that grows past the limit; no row and no bytes stay behind', async ({ ctx, s }) => {
    const { bob } = s.users;
    const before = await blobKeys(ctx);
    const res = await fileRequest(ctx, bob, 'PUT', '/v1/files/me/docs/stream.bin', {
      body: chunked(20, 64 * 1024),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(413);
    expect((await fileRequest(ctx, bob, 'GET', '/v1/files/me/docs/stream.bin')).status).toBe(404);
    expect(await blobKeys(ctx)).toEqual(before);
    // Within the limit the same stream is stored whole.
    const ok = await fileRequest(ctx, bob, 'PUT', '/v1/files/me/docs/stream.bin', {
      body: chunked(4, 64 * 1024),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(ok.status).toBe(201);
    expect((await ok.json()).size).toBe(256 * 1024);
  });

  it.for([
    // URLs resolve literal dot segments before the server sees them; encoded slashes carry them through.
    ['..', '/v1/files/me/docs/a%2F..%2Fb', 'invalid_path'],
    ['a dot segment', '/v1/files/me/docs/a%2F.%2Fb', 'invalid_path'],
    ['a control character', '/v1/files/me/docs/a%01b', 'invalid_path'],
    ['a backslash', '/v1/files/me/docs/a%5Cb', 'invalid_path'],
    ['an empty segment', '/v1/files/me/docs/a//b', 'invalid_path'],
    ['a NUL', '/v1/files/me/docs/a%00b', 'invalid_argument'],
    ['bad percent-encoding', '/v1/files/me/docs/a%zzb', 'invalid_path'],
  ])('400 for a path with %s', async ([_what, path, code], { s, put }) => {
    const res = await put(s.users.alice, path, 'x');
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(code);
  });

  it('unknown buckets are 404, a resource bucket named as a user bucket is 400', async ({ s, put }) => {
    const { alice } = s.users;
    expect((await put(alice, '/v1/files/me/nothing/x.txt', 'x')).status).toBe(404);
    const wrong = await put(alice, '/v1/files/me/attachments/x.txt', 'x');
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('bucket_not_in_scope');
  });
});

describe('a resource bucket: rules, auto-join, mounts, deletion', () => {
  it('writers upload, readers list and read but not upload; outsiders of a members-only resource get 404', async ({ ctx, s, put }) => {
    const { alice, bob, carol, dave } = s.users;
    const room = await createResource(alice, 'room', 'Files room');
    await addMember(alice, bob, room, 'reader');
    await addMember(alice, carol, room, 'writer');
    const base = `/v1/files/resources/${room}/attachments`;
    expect((await put(carol, `${base}/plan.txt`, 'the plan')).status).toBe(201);
    const refused = await put(bob, `${base}/mine.txt`, 'no');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('access_denied');
    const listed = await bob.get(base);
    expect(listed.body.files.map((f: { path: string; roomId: string | null }) => [f.path, f.roomId])).toEqual([['plan.txt', null]]);
    expect(await (await fileRequest(ctx, bob, 'GET', `${base}/plan.txt`)).text()).toBe('the plan');
    // A reader cannot delete someone else's file; its uploader can.
    expect((await fileRequest(ctx, bob, 'DELETE', `${base}/plan.txt`)).status).toBe(403);
    expect((await fileRequest(ctx, dave, 'GET', `${base}/plan.txt`)).status).toBe(404);
    expect((await put(dave, `${base}/x.txt`, 'x')).status).toBe(404);
    expect((await fileRequest(ctx, carol, 'DELETE', `${base}/plan.txt`)).status).toBe(200);
  });

  it('a first upload to a public resource joins the uploader at the default role', async ({ s, put }) => {
    const { alice, dave } = s.users;
    const room = await createResource(alice, 'room', 'Open room', 'unlisted');
    expect((await put(dave, `/v1/files/resources/${room}/attachments/hello.txt`, 'hi')).status).toBe(201);
    const members = await alice.get(`/v1/resources/${room}/members`);
    expect(members.body.members.find((m: { userId: string }) => m.userId === dave.id)).toMatchObject({ role: 'writer', state: 'active' });
  });

  it("the bucket's own rules: only admins upload photos to an album", async ({ s, put }) => {
    const { alice, bob } = s.users;
    const album = await createResource(alice, 'album', 'Holiday');
    await addMember(alice, bob, album, 'writer');
    expect((await put(bob, `/v1/files/resources/${album}/photos/1.png`, 'png', 'image/png')).status).toBe(403);
    expect((await put(alice, `/v1/files/resources/${album}/photos/1.png`, 'png', 'image/png')).status).toBe(201);
  });

  it('a mount (rule 10) publishes a user file as default-room content; unmounting leaves the file', async ({ ctx, s, put }) => {
    const { alice, bob } = s.users;
    const room = await createResource(alice, 'room', 'Mounts');
    await addMember(alice, bob, room, 'reader');
    const own = await (await put(alice, '/v1/files/me/docs/shared/readme.txt', 'read me')).json();
    const linked = await alice.post('/v1/files/link', { resourceId: room, bucket: 'attachments', fileId: own.id, path: 'readme.txt' });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toMatchObject({ path: 'readme.txt', linked: true, roomId: null });
    const listed = await bob.get(`/v1/files/resources/${room}/attachments`);
    expect(listed.body.files).toEqual([expect.objectContaining({ path: 'readme.txt', linked: true, id: own.id })]);
    expect(await (await fileRequest(ctx, bob, 'GET', `/v1/files/resources/${room}/attachments/readme.txt`)).text()).toBe('read me');
    // Someone else's file cannot be linked; the same path cannot be taken twice.
    const notMine = await bob.post('/v1/files/link', { resourceId: room, bucket: 'attachments', fileId: own.id });
    expect(notMine.status).toBe(404);
    expect((await alice.post('/v1/files/link', { resourceId: room, bucket: 'attachments', fileId: own.id, path: 'readme.txt' })).status).toBe(409);
    expect((await fileRequest(ctx, alice, 'DELETE', `/v1/files/resources/${room}/attachments/readme.txt`)).status).toBe(200);
    expect((await bob.get(`/v1/files/resources/${room}/attachments`)).body.files).toEqual([]);
    expect(await (await fileRequest(ctx, alice, 'GET', '/v1/files/me/docs/shared/readme.txt')).text()).toBe('read me');
  });

  it("deleting the resource removes its files' bytes; deleting an account removes its own files' bytes", async ({ ctx, s, put }) => {
    const { alice } = s.users;
    const room = await createResource(alice, 'room', 'Doomed');
    const file = await (await put(alice, `/v1/files/resources/${room}/attachments/doomed.txt`, 'doomed')).json();
    const keyOf = async (id: string) => (await ctx.app.services.deps.prisma.file.findUnique({ where: { id } }))?.blobKey;
    const key = await keyOf(file.id);
    expect(await blobKeys(ctx)).toContain(key);
    await ctx.app.services.resourceDeletion.deleteAsOwner(alice.id, s.appId, room);
    await expect.poll(async () => (await blobKeys(ctx)).includes(key!)).toBe(false);

    const erin = await s.user('erin');
    const own = await (await put(erin, '/v1/files/me/docs/erin.txt', 'erin')).json();
    const ownKey = await keyOf(own.id);
    await ctx.app.services.accountDeletion.deleteAccount(erin.id, ACCOUNT_DELETION_CONFIRMATION);
    await expect.poll(async () => (await blobKeys(ctx)).includes(ownKey!)).toBe(false);
  });
});

describe('deploys', () => {
  it('refuse dropping a bucket that still holds files (409 schema_drops_data); an empty one may go', async ({ ctx, s, put }) => {
    const { FILES_SCHEMA } = await import('./files.fixture.js');
    const { photos: _photos, ...withoutPhotos } = FILES_SCHEMA.buckets;
    const dropPhotos = { ...FILES_SCHEMA, buckets: withoutPhotos };
    const album = await createResource(s.users.alice, 'album', 'Kept');
    expect((await put(s.users.alice, `/v1/files/resources/${album}/photos/keep.png`, 'png', 'image/png')).status).toBe(201);
    const refused = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: dropPhotos });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'schema_drops_data', buckets: ['photos'] });
    const { avatars: _avatars, ...withoutAvatars } = FILES_SCHEMA.buckets;
    const other = await seed(ctx, ['zed']);
    expect((await other.developer.request('PUT', `/dev/apps/${other.appId}/deployments/dev`, { schema: FILES_SCHEMA })).status).toBe(200);
    const dropped = await other.developer.request('PUT', `/dev/apps/${other.appId}/deployments/dev`, {
      schema: { ...FILES_SCHEMA, buckets: withoutAvatars },
    });
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
  });
});

describe('the sweep', () => {
  it('deletes blobs no file names once they are older than an hour, and keeps every named one', async ({ ctx }) => {
    const blobs = ctx.app.services.files.blobs;
    const orphan = `${'dep_orphan'}/00000000-0000-7000-8000-000000000000/abc`;
    await blobs.put(
      orphan,
      (async function* () {
        yield new TextEncoder().encode('orphan');
      })(),
      { maxBytes: 100, contentType: 'text/plain' },
    );
    const named = await blobKeys(ctx);
    expect((await ctx.app.services.files.sweep(new Date())).deleted).toBe(0);
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    expect((await ctx.app.services.files.sweep(later)).deleted).toBe(1);
    expect(await blobKeys(ctx)).toEqual(named.filter(k => k !== orphan));
  });
});
