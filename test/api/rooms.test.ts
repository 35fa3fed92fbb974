/** docs/api.md §10: rooms and grants over REST and GraphQL, every rule and error code, and their races. */
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { MAX_ROOMS_PER_RESOURCE } from '../../src/rooms/rooms.service.js';
import { type Client, addMember, createResource, seed } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTest, appTestOn } from '../helpers/fixtures.js';

type User = Client & { id: string };

const rooms = (id: string) => `/v1/resources/${id}/rooms`;
const room = (id: string, roomId: string) => `/v1/resources/${id}/rooms/${roomId}`;
const grant = (id: string, roomId: string, userId: string) => `/v1/resources/${id}/rooms/${roomId}/grants/${userId}`;

async function createRoom(as: User, id: string, name = 'Room'): Promise<string> {
  const res = await as.post(rooms(id), { name });
  if (res.status !== 200) throw new Error(`create room failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function setGrant(as: User, id: string, roomId: string, userId: string, role: string) {
  return as.request('PUT', grant(id, roomId, userId), { role });
}

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave'] })
  /** Another app of the same server: its people must never reach the first app's rooms. */
  .extend('other', { scope: 'file', auto: true }, async ({ ctx }) => seed(ctx, ['zed']))
  /** team(): a team owned by alice with bob (admin), carol (writer), dave (reader). */
  .extend('team', async ({ s }) => async () => {
    const { alice, bob, carol, dave } = s.users;
    const id = await createResource(alice, 'team', 'Team');
    await addMember(alice, bob, id, 'admin');
    await addMember(alice, carol, id, 'writer');
    await addMember(alice, dave, id, 'reader');
    return id;
  })
  /** A row placed straight into a room (the row store is another module; rooms only see placement). */
  .extend('placeRow', async ({ ctx }) => async (resourceId: string, roomId: string | null, creatorId: string) => {
    const resource = await ctx.database.prisma.resource.findUniqueOrThrow({ where: { id: resourceId } });
    return ctx.database.prisma.row.create({
      data: { id: randomUUID(), deploymentId: resource.deploymentId, tableName: 'notes', creatorId, resourceId, roomId, data: {} },
    });
  });

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
};

describe('docs/api.md §10.1 the default room (rule 1)', () => {
  it('is listed first with isDefault: true and the resource id, and your resource role as currentGrant', async ({ s, team }) => {
    const id = await team();
    const list = await s.users.carol.get(rooms(id));
    expect(list.status).toBe(200);
    expect(list.body.rooms).toEqual([{ id, name: 'Team', isDefault: true, currentGrant: { role: 'writer' }, effectiveRole: 'writer' }]);
    expect((await s.users.carol.get(room(id, id))).body).toEqual(list.body.rooms[0]);
  });

  it('cannot be renamed, deleted, granted or left: 400 default_room_immutable', async ({ s, team }) => {
    const id = await team();
    const { alice, carol } = s.users;
    expectError(await alice.request('PATCH', room(id, id), { name: 'New' }), 400, 'default_room_immutable');
    expectError(await alice.request('DELETE', room(id, id)), 400, 'default_room_immutable');
    expectError(await setGrant(alice, id, id, carol.id, 'reader'), 400, 'default_room_immutable');
    expectError(await alice.request('DELETE', grant(id, id, carol.id)), 400, 'default_room_immutable');
    expectError(await carol.request('DELETE', grant(id, id, carol.id)), 400, 'default_room_immutable');
    expect((await alice.get(`/v1/resources/${id}/members`)).body.members).toHaveLength(4);
  });

  it('its grants are the active members and their resource roles (admin only)', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol, dave } = s.users;
    await alice.post(`/v1/resources/${id}/invite`, { userId: (await s.user('pending-default')).id });
    const acl = await bob.get(`${room(id, id)}/grants`);
    expect(acl.body.grants).toEqual([
      { principalId: alice.id, role: 'owner' },
      { principalId: bob.id, role: 'admin' },
      { principalId: carol.id, role: 'writer' },
      { principalId: dave.id, role: 'reader' },
    ]);
    expectError(await carol.get(`${room(id, id)}/grants`), 403, 'not_admin');
  });
});

describe('docs/api.md §10.2 room records', () => {
  it('admin+ creates rooms with { name }; nobody holds a grant in a new room', async ({ s, team }) => {
    const id = await team();
    const created = await s.users.bob.post(rooms(id), { name: '  Planning  ' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^room_[0-9a-f]+$/),
      name: 'Planning',
      isDefault: false,
      currentGrant: null,
      effectiveRole: null,
    });
    expectError(await s.users.carol.post(rooms(id), { name: 'Mine' }), 403, 'not_admin');
    expectError(await s.users.dave.post(rooms(id), { name: 'Mine' }), 403, 'not_admin');
  });

  it('names are validated: required string, 1-100 characters after trimming, no control characters', async ({ s, team }) => {
    const id = await team();
    const { alice } = s.users;
    for (const body of [{}, { name: 5 }, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'a\u0007b' }, { name: 'a', extra: 1 }]) {
      expectError(await alice.post(rooms(id), body), 400, 'invalid_argument');
    }
    expectError(await alice.post(rooms(id), '{"name":"a\\u0000b"}'), 400, 'invalid_argument');
    expect((await alice.post(rooms(id), { name: 'x'.repeat(100) })).status).toBe(200);
    expect((await alice.post(rooms(id), { name: 'Café ☕ 会議' })).body.name).toBe('Café ☕ 会議');
  });

  it('lists rooms you hold; owners and admins also see rooms they hold nothing in', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol, dave } = s.users;
    const a = await createRoom(alice, id, 'A');
    const b = await createRoom(alice, id, 'B');
    await setGrant(alice, id, a, carol.id, 'writer');
    await setGrant(alice, id, b, bob.id, 'reader');
    const names = async (as: User) => (await as.get(rooms(id))).body.rooms.map((r: any) => `${r.name}:${r.currentGrant?.role ?? null}`);
    expect(await names(alice)).toEqual(['Team:owner', 'A:null', 'B:null']);
    expect(await names(bob)).toEqual(['Team:admin', 'A:null', 'B:reader']);
    expect(await names(carol)).toEqual(['Team:writer', 'A:writer']);
    expect(await names(dave)).toEqual(['Team:reader']);
  });

  it('GET one room is 404 room_not_found to someone with no grant who is not admin+', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol, dave } = s.users;
    const a = await createRoom(alice, id, 'A');
    await setGrant(alice, id, a, carol.id, 'reader');
    expect((await alice.get(room(id, a))).body).toMatchObject({ id: a, name: 'A', currentGrant: null, effectiveRole: null });
    expect((await bob.get(room(id, a))).status).toBe(200);
    expect((await carol.get(room(id, a))).body).toMatchObject({ currentGrant: { role: 'reader' }, effectiveRole: 'reader' });
    expectError(await dave.get(room(id, a)), 404, 'room_not_found');
    // The same answer as a room id that exists nowhere.
    expectError(await dave.get(room(id, 'room_00000000000000000000')), 404, 'room_not_found');
  });

  it('admin+ renames (PATCH); others are refused', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol } = s.users;
    const a = await createRoom(alice, id, 'A');
    await setGrant(alice, id, a, carol.id, 'writer');
    expect((await bob.request('PATCH', room(id, a), { name: 'Renamed' })).body).toMatchObject({ id: a, name: 'Renamed' });
    expectError(await carol.request('PATCH', room(id, a), { name: 'Mine' }), 403, 'not_admin');
    expectError(await bob.request('PATCH', room(id, a), { name: '' }), 400, 'invalid_argument');
    expect((await carol.get(room(id, a))).body.name).toBe('Renamed');
  });

  it('admin+ deletes an empty room, its grants with it', async ({ ctx, s, team }) => {
    const id = await team();
    const { alice, bob, carol } = s.users;
    const a = await createRoom(alice, id, 'A');
    await setGrant(alice, id, a, carol.id, 'writer');
    expectError(await carol.request('DELETE', room(id, a)), 403, 'not_admin');
    expect((await bob.request('DELETE', room(id, a))).body).toEqual({ ok: true });
    expectError(await alice.get(room(id, a)), 404, 'room_not_found');
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: a } })).toBe(0);
    expect(await ctx.database.prisma.roomCeiling.count({ where: { roomId: a } })).toBe(0);
    expectError(await bob.request('DELETE', room(id, a)), 404, 'room_not_found');
  });

  it('deleting a room that holds rows or row links is 409 room_not_empty, and changes nothing', async ({ ctx, s, team, placeRow }) => {
    const id = await team();
    const { alice, carol } = s.users;
    const a = await createRoom(alice, id, 'A');
    await setGrant(alice, id, a, carol.id, 'writer');
    const row = await placeRow(id, a, carol.id);
    expectError(await alice.request('DELETE', room(id, a)), 409, 'room_not_empty');
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: a } })).toBe(1);
    // A row in another room or the default room does not hold this one.
    await ctx.database.prisma.row.update({ where: { id: row.id }, data: { roomId: null } });
    const b = await createRoom(alice, id, 'B');
    const own = await ctx.database.prisma.row.create({
      data: { id: randomUUID(), deploymentId: row.deploymentId, tableName: 'drafts', creatorId: carol.id, data: {} },
    });
    await ctx.database.prisma.rowLink.create({ data: { rowId: own.id, resourceId: id, roomId: b, linkedBy: carol.id, hidden: true } });
    expectError(await alice.request('DELETE', room(id, b)), 409, 'room_not_empty');
    expect((await alice.request('DELETE', room(id, a))).body).toEqual({ ok: true });
  });

  it(`caps a resource at ${MAX_ROOMS_PER_RESOURCE} rooms: 409 room_limit`, async ({ ctx, s }) => {
    const id = await createResource(s.users.alice, 'team', 'Crowded');
    await ctx.database.prisma.room.createMany({
      data: Array.from({ length: MAX_ROOMS_PER_RESOURCE }, (_, i) => ({
        id: `room_${i.toString(16).padStart(20, '0')}${id.slice(-4)}`,
        resourceId: id,
        name: `R${i}`,
      })),
    });
    expectError(await s.users.alice.post(rooms(id), { name: 'One more' }), 409, 'room_limit');
  });
});

describe('docs/api.md §10.3 grants (rules 2 and 3)', () => {
  it('PUT is an idempotent upsert of { role }; DELETE removes the grant (idempotent too)', async ({ ctx, s, team }) => {
    const id = await team();
    const { alice, carol } = s.users;
    const a = await createRoom(alice, id);
    const put = await setGrant(alice, id, a, carol.id, 'reader');
    expect(put.body).toEqual({ ok: true, resourceId: id, roomId: a, principalId: carol.id, role: 'reader' });
    expect((await setGrant(alice, id, a, carol.id, 'reader')).body).toEqual(put.body);
    expect((await setGrant(alice, id, a, carol.id, 'writer')).body.role).toBe('writer');
    expect(await ctx.database.prisma.roomGrant.findMany({ where: { roomId: a }, select: { principalId: true, role: true } })).toEqual([
      { principalId: carol.id, role: 'writer' },
    ]);
    expect((await alice.request('DELETE', grant(id, a, carol.id))).body).toEqual({ ok: true });
    expect((await alice.request('DELETE', grant(id, a, carol.id))).body).toEqual({ ok: true });
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: a } })).toBe(0);
  });

  it('a grant to someone who is not an active member is 409 grantee_not_member', async ({ ctx, s, other, team }) => {
    const id = await team();
    const { alice } = s.users;
    const a = await createRoom(alice, id);
    const invitee = await s.user('grant-invitee');
    await alice.post(`/v1/resources/${id}/invite`, { userId: invitee.id });
    const requester = await s.user('grant-requester');
    const forum = await createResource(alice, 'forum', 'F');
    await requester.post(`/v1/resources/${forum}/request`);
    const f = await createRoom(alice, forum);
    expectError(await setGrant(alice, id, a, invitee.id, 'reader'), 409, 'grantee_not_member');
    expectError(await setGrant(alice, forum, f, requester.id, 'reader'), 409, 'grantee_not_member');
    expectError(await setGrant(alice, id, a, (await s.user('stranger')).id, 'reader'), 409, 'grantee_not_member');
    expectError(await setGrant(alice, id, a, 'test:nobody', 'reader'), 409, 'grantee_not_member');
    // Someone of another app reads as nobody.
    expectError(await setGrant(alice, id, a, other.users.zed.id, 'reader'), 409, 'grantee_not_member');
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: { in: [a, f] } } })).toBe(0);
  });

  it('the role stays within your grant ceiling and never above your own role in the room: 403 grant_ceiling', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol, dave } = s.users;
    const a = await createRoom(alice, id);
    expectError(await setGrant(alice, id, a, carol.id, 'owner'), 403, 'grant_ceiling');
    expect((await setGrant(alice, id, a, bob.id, 'admin')).status).toBe(200);
    // bob (admin) grants up to writer, the admin ceiling.
    expectError(await setGrant(bob, id, a, carol.id, 'admin'), 403, 'grant_ceiling');
    expect((await setGrant(bob, id, a, carol.id, 'writer')).status).toBe(200);
    // Narrowed to reader in this room, bob cannot hand out writer there.
    const b = await createRoom(alice, id, 'B');
    await setGrant(alice, id, b, bob.id, 'reader');
    expectError(await setGrant(bob, id, b, dave.id, 'writer'), 403, 'grant_ceiling');
    expect((await setGrant(bob, id, b, dave.id, 'reader')).status).toBe(200);
    // Writers and readers grant nothing.
    expectError(await setGrant(carol, id, a, dave.id, 'reader'), 403, 'not_admin');
    expectError(await s.users.dave.request('PUT', grant(id, a, dave.id), { role: 'reader' }), 403, 'not_admin');
  });

  it('a narrowing by a superior holds: dropping it and granting yourself anew escapes nothing', async ({ ctx, s, team }) => {
    const id = await team();
    const { alice, bob, carol } = s.users;
    const r1 = await createRoom(alice, id, 'R1');
    // The owner narrows bob (admin) to reader in R1.
    expect((await setGrant(alice, id, r1, bob.id, 'reader')).status).toBe(200);
    expectError(await setGrant(bob, id, r1, carol.id, 'writer'), 403, 'grant_ceiling');
    expectError(await setGrant(bob, id, r1, bob.id, 'writer'), 403, 'grant_ceiling');
    // Leaving the room is allowed, and keeps the ceiling.
    expect((await bob.request('DELETE', grant(id, r1, bob.id))).body).toEqual({ ok: true });
    expectError(await setGrant(bob, id, r1, bob.id, 'writer'), 403, 'grant_ceiling');
    expectError(await setGrant(bob, id, r1, carol.id, 'writer'), 403, 'grant_ceiling');
    expect(await ctx.database.prisma.roomGrant.findMany({ where: { roomId: r1 }, select: { principalId: true, role: true } })).toEqual([]);
    // Coming back up to the ceiling is fine; reader grants are within reach.
    expect((await setGrant(bob, id, r1, bob.id, 'reader')).status).toBe(200);
    expect((await setGrant(bob, id, r1, carol.id, 'reader')).status).toBe(200);
    // Only someone who outranks bob moves the ceiling.
    expect((await setGrant(alice, id, r1, bob.id, 'writer')).status).toBe(200);
    expect((await setGrant(bob, id, r1, carol.id, 'writer')).status).toBe(200);
    // In another room, bob's own choices are his: no ceiling there.
    const r2 = await createRoom(alice, id, 'R2');
    expect((await setGrant(bob, id, r2, bob.id, 'reader')).status).toBe(200);
    expect((await setGrant(bob, id, r2, bob.id, 'writer')).status).toBe(200);
  });

  it('peers and superiors keep their grants: 403 outranked; your own is yours', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol } = s.users;
    const peer = await s.user('peer-admin');
    await addMember(alice, peer, id, 'admin');
    const a = await createRoom(alice, id);
    await setGrant(alice, id, a, alice.id, 'admin');
    await setGrant(alice, id, a, peer.id, 'writer');
    expectError(await setGrant(bob, id, a, alice.id, 'reader'), 403, 'outranked');
    expectError(await setGrant(bob, id, a, peer.id, 'reader'), 403, 'outranked');
    expectError(await bob.request('DELETE', grant(id, a, peer.id)), 403, 'outranked');
    expect((await setGrant(bob, id, a, bob.id, 'writer')).status).toBe(200);
    expect((await setGrant(bob, id, a, carol.id, 'reader')).status).toBe(200);
    expect((await bob.request('DELETE', grant(id, a, carol.id))).status).toBe(200);
  });

  it('anyone leaves a room by deleting their own grant; non-admins touch no other grant', async ({ s, team }) => {
    const id = await team();
    const { alice, carol, dave } = s.users;
    const a = await createRoom(alice, id);
    await setGrant(alice, id, a, carol.id, 'writer');
    await setGrant(alice, id, a, dave.id, 'reader');
    expectError(await dave.request('DELETE', grant(id, a, carol.id)), 403, 'not_admin');
    expect((await dave.request('DELETE', grant(id, a, dave.id))).body).toEqual({ ok: true });
    expectError(await dave.get(room(id, a)), 404, 'room_not_found');
    // Without a grant the room is as unknown to dave as one that does not exist.
    expectError(await dave.request('DELETE', grant(id, a, dave.id)), 404, 'room_not_found');
    expectError(await dave.request('DELETE', grant(id, a, carol.id)), 404, 'room_not_found');
  });

  it('the grants list is admin only (rule 2); members learn only their own role', async ({ s, team }) => {
    const id = await team();
    const { alice, bob, carol } = s.users;
    const a = await createRoom(alice, id);
    await setGrant(alice, id, a, carol.id, 'writer');
    await setGrant(alice, id, a, bob.id, 'reader');
    expect((await bob.get(`${room(id, a)}/grants`)).body).toEqual({
      grants: [
        { principalId: carol.id, role: 'writer' },
        { principalId: bob.id, role: 'reader' },
      ],
    });
    expectError(await carol.get(`${room(id, a)}/grants`), 403, 'not_admin');
    expect((await carol.get(room(id, a))).body.currentGrant).toEqual({ role: 'writer' });
  });
});

describe('docs/api.md §10.3 effective role = min(resource role, grant)', () => {
  it('a grant narrows but never promotes; no grant is no role, the owner included', async ({ s, team }) => {
    const id = await team();
    const { alice, carol, dave } = s.users;
    const a = await createRoom(alice, id);
    // dave first: narrowed to reader in the room, alice could grant no more than reader there.
    await setGrant(alice, id, a, dave.id, 'writer');
    await setGrant(alice, id, a, alice.id, 'reader');
    expect((await alice.get(room(id, a))).body).toMatchObject({ currentGrant: { role: 'reader' }, effectiveRole: 'reader' });
    expect((await dave.get(room(id, a))).body).toMatchObject({ currentGrant: { role: 'writer' }, effectiveRole: 'reader' });
    const b = await createRoom(alice, id, 'B');
    expect((await alice.get(room(id, b))).body).toMatchObject({ currentGrant: null, effectiveRole: null });
    expectError(await carol.get(room(id, b)), 404, 'room_not_found');
  });

  it('a resource demotion narrows every room at once; a promotion back restores the grant', async ({ s, team }) => {
    const id = await team();
    const { alice, carol } = s.users;
    const a = await createRoom(alice, id, 'A');
    const b = await createRoom(alice, id, 'B');
    await setGrant(alice, id, a, carol.id, 'writer');
    await setGrant(alice, id, b, carol.id, 'writer');
    await alice.post(`/v1/resources/${id}/setRole`, { userId: carol.id, role: 'reader' });
    const roles = async () => (await carol.get(rooms(id))).body.rooms.map((r: any) => `${r.currentGrant.role}/${r.effectiveRole}`);
    expect(await roles()).toEqual(['reader/reader', 'writer/reader', 'writer/reader']);
    await alice.post(`/v1/resources/${id}/setRole`, { userId: carol.id, role: 'writer' });
    expect(await roles()).toEqual(['writer/writer', 'writer/writer', 'writer/writer']);
  });

  it('leaving or removal drops every grant; rejoining restores none', async ({ ctx, s, team }) => {
    const id = await team();
    const { alice, carol, dave } = s.users;
    const a = await createRoom(alice, id);
    await setGrant(alice, id, a, carol.id, 'writer');
    await setGrant(alice, id, a, dave.id, 'reader');
    expect(await ctx.database.prisma.roomCeiling.count({ where: { roomId: a } })).toBe(2);
    await carol.post(`/v1/resources/${id}/leave`);
    await alice.post(`/v1/resources/${id}/remove`, { userId: dave.id });
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: a } })).toBe(0);
    // The ceilings the owner set go with the memberships: rejoining starts afresh.
    expect(await ctx.database.prisma.roomCeiling.count({ where: { roomId: a } })).toBe(0);
    await addMember(alice, carol, id, 'writer');
    expect((await carol.get(rooms(id))).body.rooms).toHaveLength(1);
  });
});

describe('docs/api.md §10.1 invalid_room and who reaches the routes', () => {
  it('a malformed room id, or one of another resource or app, is 400 invalid_room on every room route', async ({ ctx, s, other, team }) => {
    const id = await team();
    const { alice, carol } = s.users;
    const elsewhere = await createResource(alice, 'team', 'Elsewhere');
    const foreign = await createRoom(alice, elsewhere);
    const zedTeam = await createResource(other.users.zed, 'team', 'Zed');
    const otherApp = await createRoom(other.users.zed, zedTeam);
    for (const bad of ['nope', 'room_XYZ', 'room_', elsewhere, foreign, otherApp, "room_1' OR 1=1", 'x'.repeat(100)]) {
      const at = room(id, encodeURIComponent(bad));
      expectError(await alice.get(at), 400, 'invalid_room');
      expectError(await alice.request('PATCH', at, { name: 'N' }), 400, 'invalid_room');
      expectError(await alice.request('DELETE', at), 400, 'invalid_room');
      expectError(await alice.get(`${at}/grants`), 400, 'invalid_room');
      expectError(await alice.request('PUT', `${at}/grants/${carol.id}`, { role: 'reader' }), 400, 'invalid_room');
      expectError(await alice.request('DELETE', `${at}/grants/${carol.id}`), 400, 'invalid_room');
    }
    // A room id longer than any id is refused before the service.
    expectError(await alice.get(room(id, `room_${'a'.repeat(200)}`)), 400, 'invalid_argument');
    expect(await ctx.database.prisma.room.findUnique({ where: { id: foreign } })).not.toBeNull();
  });

  it('another app cannot reach a resource, its rooms or its grants', async ({ ctx, s, other, team }) => {
    const id = await team();
    const { alice, carol } = s.users;
    const { zed } = other.users;
    const a = await createRoom(alice, id);
    await setGrant(alice, id, a, carol.id, 'writer');
    expectError(await zed.get(rooms(id)), 404, 'resource_not_found');
    expectError(await zed.post(rooms(id), { name: 'X' }), 404, 'resource_not_found');
    expectError(await zed.get(room(id, a)), 404, 'resource_not_found');
    expectError(await zed.request('PATCH', room(id, a), { name: 'X' }), 404, 'resource_not_found');
    expectError(await zed.request('DELETE', room(id, a)), 404, 'resource_not_found');
    expectError(await zed.get(`${room(id, a)}/grants`), 404, 'resource_not_found');
    expectError(await zed.request('PUT', grant(id, a, zed.id), { role: 'reader' }), 404, 'resource_not_found');
    expectError(await zed.request('DELETE', grant(id, a, carol.id)), 404, 'resource_not_found');
    expect((await zed.get('/v1/resources/grants')).body).toEqual({ grants: [] });
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: a } })).toBe(1);
  });

  it('non-members: 404 on a members-only resource, 403 not_resource_member on a public one', async ({ ctx, s }) => {
    const { alice, dave } = s.users;
    const id = await createResource(alice, 'team', 'Private');
    expectError(await dave.get(rooms(id)), 404, 'resource_not_found');
    expectError(await dave.post(rooms(id), { name: 'X' }), 404, 'resource_not_found');
    const forum = await createResource(alice, 'forum', 'Public');
    const f = await createRoom(alice, forum);
    expectError(await dave.get(rooms(forum)), 403, 'not_resource_member');
    expectError(await dave.get(room(forum, f)), 403, 'not_resource_member');
    expectError(await dave.request('DELETE', grant(forum, f, dave.id)), 403, 'not_resource_member');
    // A pending invitee is not in yet either.
    await alice.post(`/v1/resources/${id}/invite`, { userId: dave.id });
    expectError(await dave.get(rooms(id)), 404, 'resource_not_found');
    expectError(await ctx.anonymous.get(rooms(id)), 401, 'unauthenticated');
  });
});

describe('docs/api.md §10.4 GET /v1/resources/grants', () => {
  it('lists every room you hold across the app environment, and nothing else', async ({ s }) => {
    const { alice, carol } = s.users;
    const viewer = await s.user('grant-viewer');
    const one = await createResource(alice, 'team', 'One');
    const two = await createResource(alice, 'forum', 'Two');
    await addMember(alice, viewer, one, 'writer');
    await viewer.post(`/v1/resources/${two}/join`);
    await addMember(alice, carol, one, 'writer');
    const a = await createRoom(alice, one, 'A');
    const b = await createRoom(alice, two, 'B');
    await createRoom(alice, two, 'C');
    await setGrant(alice, one, a, viewer.id, 'writer');
    await setGrant(alice, two, b, viewer.id, 'reader');
    await setGrant(alice, one, a, carol.id, 'reader');
    const held = (await viewer.get('/v1/resources/grants')).body.grants;
    expect(held).toHaveLength(2);
    expect(held).toEqual(
      expect.arrayContaining([
        { resourceId: one, roomId: a, role: 'writer' },
        { resourceId: two, roomId: b, role: 'reader' },
      ]),
    );
  });
});

describe('docs/api.md §10 over GraphQL', () => {
  const ROOM = 'id name isDefault currentGrant { role } effectiveRole createdAt';

  it('every operation, with the same codes in extensions', async ({ ctx, s, team, placeRow }) => {
    const id = await team();
    const { alice, carol, dave } = s.users;
    const created = await alice.gql(`mutation($id: ID!) { createRoom(resourceId: $id, name: "G") { ${ROOM} } }`, { id });
    const roomId = created.data.createRoom.id;
    expect(created.data.createRoom).toMatchObject({ name: 'G', isDefault: false, currentGrant: null });
    expect((await alice.gql(`query($id: ID!) { rooms(resourceId: $id) { id isDefault } }`, { id })).data.rooms).toEqual([
      { id, isDefault: true },
      { id: roomId, isDefault: false },
    ]);
    const renamed = await alice.gql(`mutation($id: ID!, $r: ID!) { renameRoom(resourceId: $id, roomId: $r, name: "H") { name } }`, { id, r: roomId });
    expect(renamed.data.renameRoom.name).toBe('H');
    const granted = await alice.gql(
      `mutation($id: ID!, $r: ID!, $u: ID!) { setRoomGrant(resourceId: $id, roomId: $r, userId: $u, role: writer) { ok resourceId roomId principalId role } }`,
      { id, r: roomId, u: carol.id },
    );
    expect(granted.data.setRoomGrant).toEqual({ ok: true, resourceId: id, roomId, principalId: carol.id, role: 'writer' });
    expect(
      (await carol.gql(`query($id: ID!, $r: ID!) { room(resourceId: $id, roomId: $r) { currentGrant { role } } }`, { id, r: roomId })).data.room,
    ).toEqual({
      currentGrant: { role: 'writer' },
    });
    expect(
      (await alice.gql(`query($id: ID!, $r: ID!) { roomGrants(resourceId: $id, roomId: $r) { principalId role } }`, { id, r: roomId })).data
        .roomGrants,
    ).toEqual([{ principalId: carol.id, role: 'writer' }]);
    expect((await carol.gql('{ myRoomGrants { resourceId roomId role } }')).data.myRoomGrants).toContainEqual({
      resourceId: id,
      roomId,
      role: 'writer',
    });

    const refusal = (r: any) => r.errors?.[0]?.extensions;
    expect(refusal(await dave.gql(`query($id: ID!, $r: ID!) { room(resourceId: $id, roomId: $r) { id } }`, { id, r: roomId }))).toMatchObject({
      code: 'room_not_found',
      status: 404,
    });
    expect(refusal(await alice.gql(`query($id: ID!) { room(resourceId: $id, roomId: "bogus") { id } }`, { id }))).toMatchObject({
      code: 'invalid_room',
      status: 400,
    });
    expect(
      refusal(
        await alice.gql(`mutation($id: ID!, $u: ID!) { setRoomGrant(resourceId: $id, roomId: $id, userId: $u, role: reader) { ok } }`, {
          id,
          u: carol.id,
        }),
      ),
    ).toMatchObject({ code: 'default_room_immutable', status: 400 });
    await placeRow(id, roomId, carol.id);
    expect(
      refusal(await alice.gql(`mutation($id: ID!, $r: ID!) { deleteRoom(resourceId: $id, roomId: $r) { ok } }`, { id, r: roomId })),
    ).toMatchObject({
      code: 'room_not_empty',
      status: 409,
    });
    await ctx.database.prisma.row.deleteMany({ where: { roomId } });
    const removed = await alice.gql(`mutation($id: ID!, $r: ID!, $u: ID!) { removeRoomGrant(resourceId: $id, roomId: $r, userId: $u) { ok role } }`, {
      id,
      r: roomId,
      u: carol.id,
    });
    expect(removed.data.removeRoomGrant).toEqual({ ok: true, role: null });
    expect(
      (await alice.gql(`mutation($id: ID!, $r: ID!) { deleteRoom(resourceId: $id, roomId: $r) { ok } }`, { id, r: roomId })).data.deleteRoom,
    ).toEqual({ ok: true });
  });
});

const available = await backends();
const onBackend = appTestOn(available, { users: ['owner', 'member'] });

describe.each(available)('docs/api.md §10 races on $name', backend => {
  const it = onBackend(backend);

  it('racing grants and the member removal end in a serial outcome: no grant outlives the membership', async ({ ctx, s }) => {
    const { owner, member } = s.users;
    const id = await createResource(owner, 'team', 'contested');
    await addMember(owner, member, id, 'writer');
    const roomIds = await Promise.all(Array.from({ length: 5 }, (_, i) => owner.post(rooms(id), { name: `R${i}` }).then(r => r.body.id as string)));
    const results = await Promise.all([
      ...roomIds.map(r => owner.request('PUT', grant(id, r, member.id), { role: 'reader' })),
      owner.post(`/v1/resources/${id}/remove`, { userId: member.id }),
      ...roomIds.map(r => owner.request('PUT', grant(id, r, member.id), { role: 'writer' })),
    ]);
    for (const r of results) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
    expect(results.filter(r => r.status === 409).every(r => r.body.error === 'grantee_not_member')).toBe(true);
    expect(await ctx.database.prisma.roomGrant.count({ where: { resourceId: id } })).toBe(0);
  });

  it('concurrent identical PUTs leave one grant', async ({ ctx, s }) => {
    const { owner, member } = s.users;
    const id = await createResource(owner, 'team', 'idempotent');
    await addMember(owner, member, id, 'writer');
    const r = (await owner.post(rooms(id), { name: 'R' })).body.id;
    const results = await Promise.all(Array.from({ length: 10 }, () => owner.request('PUT', grant(id, r, member.id), { role: 'writer' })));
    expect(results.map(x => x.status)).toEqual(Array(10).fill(200));
    expect(await ctx.database.prisma.roomGrant.count({ where: { roomId: r } })).toBe(1);
  });

  it('a room delete racing rows placed into it: either the delete is refused or the placement fails, never a row in no room', async ({ ctx, s }) => {
    const { owner } = s.users;
    const id = await createResource(owner, 'team', 'moving');
    const { prisma } = ctx.database;
    const resource = await prisma.resource.findUniqueOrThrow({ where: { id } });
    for (let round = 0; round < 5; round++) {
      const r = (await owner.post(rooms(id), { name: `R${round}` })).body.id;
      const insert = prisma.row
        .create({
          data: {
            id: randomUUID(),
            deploymentId: resource.deploymentId,
            tableName: 'notes',
            creatorId: owner.id,
            resourceId: id,
            roomId: r,
            data: {},
          },
        })
        .then(
          () => 'inserted',
          () => 'refused',
        );
      const [deleted, inserted] = await Promise.all([owner.request('DELETE', room(id, r)), insert]);
      if (deleted.status === 200) expect(inserted).toBe('refused');
      else {
        expectError(deleted, 409, 'room_not_empty');
        expect(inserted).toBe('inserted');
      }
      const orphans = await prisma.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM rows w LEFT JOIN rooms m ON m.id = w.room_id WHERE w.room_id IS NOT NULL AND m.id IS NULL`;
      expect(Number(orphans[0].n)).toBe(0);
    }
  });
});
