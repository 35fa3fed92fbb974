/**
 * gatehouse/client's files (src/sdk/files.ts) against a real listening server: a user bucket and a
 * resource bucket, rooms, ranges, validators, mounts, moves and typed errors.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { chunked, filesSeed } from '../api/files.fixture.js';
import { refusal } from './refusal.js';
import { sdkClients } from './sdk-clients.js';

const it = appTest({ app: { listen: true }, users: ['alice', 'bob'], seed: filesSeed }).extend('sdk', { scope: 'file' }, sdkClients);

describe('files(bucket): your own files', () => {
  it('upload (a Blob, a string, a stream), download, stat, list, replace only-if, delete', async ({ sdk }) => {
    const docs = sdk.alice.files('docs');
    const file = await docs.upload('notes/a.txt', new Blob(['hello sdk'], { type: 'text/plain' }));
    expect(file).toMatchObject({ path: 'notes/a.txt', size: 9, contentType: 'text/plain', linked: false });
    expect(await (await docs.download('notes/a.txt')).text()).toBe('hello sdk');
    expect(await docs.stat('notes/a.txt')).toEqual({ size: 9, contentType: 'text/plain', etag: file.etag });
    const part = await docs.download('notes/a.txt', { range: { start: 6 } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('sdk');
    expect(await docs.download('notes/a.txt', { range: { suffix: 2 } }).then(r => r.text())).toBe('dk');
    expect((await docs.download('notes/a.txt', { ifNoneMatch: file.etag })).status).toBe(304);

    await docs.upload('notes/b.bin', chunked(3, 1024), { contentType: 'application/octet-stream' });
    await docs.upload('other.txt', 'plain string', { contentType: 'text/plain' });
    const page = await docs.list({ prefix: 'notes/', limit: 1 });
    expect(page.files.map(f => f.path)).toEqual(['notes/a.txt']);
    expect((await docs.list({ prefix: 'notes/', cursor: page.nextCursor })).files.map(f => f.path)).toEqual(['notes/b.bin']);

    expect((await refusal(docs.upload('notes/a.txt', 'x', { contentType: 'text/plain', onlyNew: true }))).code).toBe('file_exists');
    expect((await refusal(docs.upload('notes/a.txt', 'x', { contentType: 'text/plain', ifMatch: '"stale"' }))).status).toBe(412);
    expect(await docs.delete('notes/a.txt')).toEqual({ ok: true });
    const missing = await refusal(docs.download('notes/a.txt'));
    expect(missing).toMatchObject({ status: 404, code: 'file_not_found' });
    expect(missing.requestId).toEqual(expect.any(String));
  });

  it('typed errors: a type the bucket refuses, a file too large', async ({ sdk }) => {
    expect((await refusal(sdk.alice.files('avatars').upload('a.txt', 'text', { contentType: 'text/plain' }))).code).toBe('unsupported_media_type');
    expect((await refusal(sdk.alice.files('docs').upload('big.bin', new Uint8Array(1024 * 1024 + 1)))).code).toBe('file_too_large');
  });
});

describe('resource(id).files(bucket) and room(roomId).files(bucket)', () => {
  it('uploads to the default room or a room, lists the union, moves, mounts', async ({ s, sdk }) => {
    const resource = await createResource(s.users.alice, 'room', 'SDK files');
    await addMember(s.users.alice, s.users.bob as never, resource, 'writer');
    const room = await sdk.alice.resource(resource).rooms.create({ name: 'Inner' });
    await sdk.alice.room(room.id, resource).grants.set(s.users.alice.id, 'admin');

    const shared = sdk.alice.resource(resource).files('attachments');
    await shared.upload('lobby.txt', 'for everyone', { contentType: 'text/plain' });
    const inner = sdk.alice.resource(resource).room(room.id).files('attachments');
    expect(await inner.upload('inner.txt', 'inner only', { contentType: 'text/plain' })).toMatchObject({ roomId: room.id });

    expect((await shared.list()).files.map(f => [f.path, f.roomId])).toEqual([
      ['inner.txt', room.id],
      ['lobby.txt', null],
    ]);
    expect((await sdk.bob.resource(resource).files('attachments').list()).files.map(f => f.path)).toEqual(['lobby.txt']);
    expect((await refusal(sdk.bob.resource(resource).files('attachments').download('inner.txt'))).status).toBe(404);

    expect(await shared.move(['inner.txt'], null)).toEqual({ ok: true, moved: 1 });
    expect((await sdk.bob.resource(resource).files('attachments').list()).files.map(f => f.path)).toEqual(['inner.txt', 'lobby.txt']);

    const own = await sdk.bob.files('docs').upload('mine.txt', 'bob wrote this', { contentType: 'text/plain' });
    expect(await sdk.bob.resource(resource).files('attachments').link(own.id, { path: 'from-bob.txt' })).toMatchObject({
      linked: true,
      roomId: null,
    });
    expect(await (await shared.download('from-bob.txt')).text()).toBe('bob wrote this');
    expect(() => sdk.bob.files('docs').move(['mine.txt'], null)).toThrow(TypeError);
  });
});
