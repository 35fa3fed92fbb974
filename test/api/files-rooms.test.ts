/**
 * Files across rooms (spec §4.4 rules 6, 7, 9): a resource bucket is partitioned by rooms like a
 * table: union read over the rooms you may read, default-room upload, room-scoped requests,
 * moveRoom with the same authority and one charge, 404 (never 403) for a file in a room you hold
 * nothing in, and no room deleted while files remain.
 */
import { describe, expect } from 'vitest';
import { type Seed, addMember, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { fileRequest, filesSeed } from './files.fixture.js';
import { chargeCount } from '../helpers/ledger.js';

let resource: string;
let roomId: string;
let base: string;

type User = Seed['users'][string];
const paths = (body: { files: { path: string }[] }) => body.files.map(f => f.path);

const it = appTest({ users: ['owner', 'bob', 'carol', 'dave'], seed: filesSeed }).extend(
  'put',
  { scope: 'file' },
  async ({ ctx }) =>
    (who: User, path: string, body: string) =>
      fileRequest(ctx, who, 'PUT', path, { body, headers: { 'content-type': 'text/plain' } }),
);

it.beforeAll(async ({ s, put }) => {
  const { owner, bob, carol, dave } = s.users;
  resource = await createResource(owner, 'room', 'Rooms of files');
  await addMember(owner, bob, resource, 'writer');
  await addMember(owner, carol, resource, 'writer');
  await addMember(owner, dave, resource, 'reader');
  roomId = (await owner.post(`/v1/resources/${resource}/rooms`, { name: 'Private' })).body.id;
  const granted = await owner.request('PUT', `/v1/resources/${resource}/rooms/${roomId}/grants/${encodeURIComponent(bob.id)}`, { role: 'writer' });
  expect(granted.status).toBe(200);
  base = `/v1/files/resources/${resource}/attachments`;
  expect((await put(owner, `${base}/lobby.txt`, 'everyone')).status).toBe(201);
  expect((await put(bob, `${base}/secret.txt?roomId=${roomId}`, 'bob only')).status).toBe(201);
});

describe('rule 9: union read, default-room write, room scope', () => {
  it("a resource-scoped list spans the rooms you may read, with each file's roomId", async ({ s }) => {
    const listed = await s.users.bob.get(base);
    expect(listed.body.files.map((f: { path: string; roomId: string | null }) => [f.path, f.roomId])).toEqual([
      ['lobby.txt', null],
      ['secret.txt', roomId],
    ]);
    expect(paths((await s.users.carol.get(base)).body)).toEqual(['lobby.txt']);
  });

  it('a room-scoped list and download reach that room alone', async ({ ctx, s }) => {
    const { bob } = s.users;
    expect(paths((await bob.get(`${base}?roomId=${roomId}`)).body)).toEqual(['secret.txt']);
    expect(paths((await bob.get(`${base}?roomId=${resource}`)).body)).toEqual(['lobby.txt']);
    expect((await fileRequest(ctx, bob, 'GET', `${base}/lobby.txt?roomId=${roomId}`)).status).toBe(404);
    expect(await (await fileRequest(ctx, bob, 'GET', `${base}/secret.txt?roomId=${roomId}`)).text()).toBe('bob only');
  });

  it('a file in a room you hold nothing in is 404, never 403: to a member and to the owner', async ({ ctx, s, put }) => {
    for (const who of [s.users.carol, s.users.owner]) {
      const res = await fileRequest(ctx, who, 'GET', `${base}/secret.txt`);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe('file_not_found');
    }
    // (The owner could delete it: the default delete rule names admin, which reaches every room, as for rows.)
    expect((await fileRequest(ctx, s.users.carol, 'DELETE', `${base}/secret.txt`)).status).toBe(404);
    // Uploading into a room you hold nothing in is 404 too.
    expect((await put(s.users.carol, `${base}/x.txt?roomId=${roomId}`, 'x')).status).toBe(404);
  });

  it("another resource's room id is 400 invalid_room", async ({ s }) => {
    const other = await createResource(s.users.owner, 'room', 'Other');
    const res = await s.users.owner.get(`/v1/files/resources/${other}/attachments?roomId=${roomId}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_room');
  });
});

describe('rule 7 for files: moveRoom', () => {
  it('needs admin in the source room: a writer there is refused, then an admin grant moves it in one charge', async ({ ctx, s }) => {
    const { owner, bob, carol } = s.users;
    const refused = await bob.post('/v1/files/move', { resourceId: resource, bucket: 'attachments', paths: ['secret.txt'], roomId: null });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('room_forbidden');
    await owner.request('PUT', `/v1/resources/${resource}/rooms/${roomId}/grants/${encodeURIComponent(owner.id)}`, { role: 'admin' });
    const prisma = ctx.app.services.deps.prisma;
    const charges = () => chargeCount(prisma, { developerId: s.developerId, kind: 'charge:files.move' });
    const before = await charges();
    const moved = await owner.post('/v1/files/move', { resourceId: resource, bucket: 'attachments', paths: ['secret.txt', 'lobby.txt'], roomId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toEqual({ ok: true, moved: 2 });
    expect(await charges()).toBe(before + 1);
    expect(paths((await carol.get(base)).body)).toEqual([]);
    const back = await owner.post('/v1/files/move', {
      resourceId: resource,
      bucket: 'attachments',
      paths: ['secret.txt', 'lobby.txt'],
      roomId: null,
    });
    expect(back.status).toBe(200);
    expect(paths((await carol.get(base)).body)).toEqual(['lobby.txt', 'secret.txt']);
  });

  it('unknown paths are 404 and nothing moves', async ({ s }) => {
    const res = await s.users.owner.post('/v1/files/move', { resourceId: resource, bucket: 'attachments', paths: ['lobby.txt', 'nope.txt'], roomId });
    expect(res.status).toBe(404);
    expect(paths((await s.users.carol.get(base)).body)).toContain('lobby.txt');
  });
});

describe('room deletion', () => {
  it('is 409 room_not_empty while a file sits in the room, and works once it is moved out', async ({ s, put }) => {
    const { owner, bob } = s.users;
    const room2 = (await owner.post(`/v1/resources/${resource}/rooms`, { name: 'Second' })).body.id;
    for (const [who, role] of [
      [bob, 'writer'],
      [owner, 'admin'],
    ] as const) {
      await owner.request('PUT', `/v1/resources/${resource}/rooms/${room2}/grants/${encodeURIComponent(who.id)}`, { role });
    }
    expect((await put(bob, `${base}/in-room.txt?roomId=${room2}`, 'x')).status).toBe(201);
    const refused = await owner.request('DELETE', `/v1/resources/${resource}/rooms/${room2}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('room_not_empty');
    expect((await owner.post('/v1/files/move', { resourceId: resource, bucket: 'attachments', paths: ['in-room.txt'], roomId: null })).status).toBe(
      200,
    );
    expect((await owner.request('DELETE', `/v1/resources/${resource}/rooms/${room2}`)).status).toBe(200);
  });
});

describe('rule 9: a write never reveals a file in a room you hold nothing in', () => {
  const PRECONDITIONS: Record<string, string>[] = [{}, { 'if-none-match': '*' }, { 'if-match': '*' }, { 'if-match': '"0000"' }];
  const answer = async (res: Response) => ({ status: res.status, body: await res.json() });
  let hidden: string;

  it.beforeAll(async ({ s, put }) => {
    hidden = `hidden-${Math.random().toString(36).slice(2, 8)}.txt`;
    expect((await put(s.users.bob, `${base}/${hidden}?roomId=${roomId}`, 'bob only')).status).toBe(201);
  });

  it('PUT onto its path answers a writer 404 file_not_found, as GET does, whatever the preconditions', async ({ ctx, s }) => {
    const { carol } = s.users;
    const read = await answer(await fileRequest(ctx, carol, 'GET', `${base}/${hidden}`));
    expect(read).toMatchObject({ status: 404, body: { error: 'file_not_found' } });
    for (const headers of PRECONDITIONS) {
      const res = await fileRequest(ctx, carol, 'PUT', `${base}/${hidden}`, { body: 'mine', headers: { 'content-type': 'text/plain', ...headers } });
      expect(await answer(res), JSON.stringify(headers)).toEqual(read);
    }
    expect(await (await fileRequest(ctx, s.users.bob, 'GET', `${base}/${hidden}?roomId=${roomId}`)).text()).toBe('bob only');
  });

  it('linking onto its path is 404 file_not_found too, not 409 file_exists', async ({ ctx, s }) => {
    const { carol } = s.users;
    const own = await fileRequest(ctx, carol, 'PUT', '/v1/files/me/docs/note.txt', { body: 'n', headers: { 'content-type': 'text/plain' } });
    const fileId = (await own.json()).id;
    const onto = await carol.post('/v1/files/link', { resourceId: resource, bucket: 'attachments', fileId, path: hidden });
    expect(onto).toMatchObject({ status: 404, body: { error: 'file_not_found' } });
    const visible = await carol.post('/v1/files/link', { resourceId: resource, bucket: 'attachments', fileId, path: 'lobby.txt' });
    expect(visible).toMatchObject({ status: 409, body: { error: 'file_exists' } });
  });

  it('a reader without the upload right is refused before any precondition: the same 403 on a free path and on a hidden one', async ({ ctx, s }) => {
    const { dave } = s.users;
    const refusal = async (path: string, headers: Record<string, string>) =>
      answer(await fileRequest(ctx, dave, 'PUT', `${base}/${path}`, { body: 'x', headers: { 'content-type': 'text/plain', ...headers } }));
    const free = await refusal('free.txt', {});
    expect(free).toMatchObject({ status: 403, body: { error: 'access_denied' } });
    for (const headers of PRECONDITIONS) {
      expect(await refusal('free.txt', headers), JSON.stringify(headers)).toEqual(free);
      expect(await refusal(hidden, headers), JSON.stringify(headers)).toEqual(free);
    }
  });
});

describe('GraphQL metadata', () => {
  it('files(...) lists what the REST list answers', async ({ s }) => {
    const res = await s.users.bob.gql(
      'query($id: ID!) { files(bucket: "attachments", resourceId: $id) { files { path roomId linked etag size } nextCursor } }',
      {
        id: resource,
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.files.files.map((f: { path: string }) => f.path)).toEqual(paths((await s.users.bob.get(base)).body));
  });
});
