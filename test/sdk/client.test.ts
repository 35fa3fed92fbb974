/**
 * gatehouse/client against a real listening server (bearer mode, test-session tokens): every
 * resource, membership, invite, room and row method, and typed errors. Cookie sessions and the
 * refresh-once rule: auth.test.ts.
 */
import { describe, expect } from 'vitest';
import { createClient } from '../../src/sdk/index.js';
import { refusal } from './refusal.js';
import { sdkClients } from './sdk-clients.js';
import { appTest } from '../helpers/fixtures.js';
import { rowsSeed } from '../api/rows.fixture.js';
import { Browser } from '../gateway-auth/browser.js';
import { jarFetch, type Sent } from './jar-fetch.js';

const it = appTest({ app: { listen: true }, users: ['alice', 'bob', 'carol', 'dave'], seed: rowsSeed }).extend('sdk', { scope: 'file' }, sdkClients);

describe('createClient', () => {
  it('bearer mode with a gateway URL; no arguments outside a hosted origin is a typed error', async ({ ctx, sdk }) => {
    expect(sdk.alice.mode).toBe('bearer');
    expect(sdk.alice.gatewayUrl).toBe(ctx.url);
    const error = await refusal((async () => createClient())());
    expect(error.code).toBe('gateway_url_required');
  });

  it('createClient() on a hosted origin uses location.origin + /_osg', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'location');
    Object.defineProperty(globalThis, 'location', { value: new URL('https://app.example.test/page'), configurable: true });
    try {
      const client = createClient();
      expect(client.gatewayUrl).toBe('https://app.example.test/_osg');
      expect(client.mode).toBe('cookie');
    } finally {
      if (saved) Object.defineProperty(globalThis, 'location', saved);
      else delete (globalThis as { location?: unknown }).location;
    }
  });
});

describe('a hosted app origin (/_osg)', () => {
  it("the app's own token works on its origin; another app's is 403 audience_mismatch", async ({ ctx, s }) => {
    const sent: Sent[] = [];
    const onOrigin = (token: string) =>
      createClient({ gatewayUrl: `${s.origin}/_osg`, accessToken: token, fetch: jarFetch(new Browser(ctx.url), sent) });
    const created = await onOrigin(s.users.alice.token!).resource.create('team', { name: 'Hosted' });
    expect(created.currentMember?.role).toBe('owner');
    expect(sent.map(r => r.path)).toEqual(['/_osg/graphql']);
    const other = await rowsSeed(ctx, ['eve']);
    const refused = await refusal(onOrigin(other.users.eve.token!).resource.list());
    expect(refused).toMatchObject({ status: 403, code: 'audience_mismatch' });
  });
});

describe('auth (bearer)', () => {
  it('getSession and getUser name the test-session user; signOut is a no-op for a bearer token', async ({ sdk }) => {
    expect(await sdk.alice.auth.getSession()).toEqual({ authenticated: true, userId: sdk.alice.userId });
    const user = await sdk.alice.auth.getUser();
    expect(user).toMatchObject({ id: sdk.alice.userId, kind: 'user' });
    await sdk.alice.auth.signOut();
    expect((await sdk.alice.auth.getSession()).authenticated).toBe(true);
  });

  it('an unknown token: getSession is signed out, other calls reject 401 with no refresh', async ({ ctx }) => {
    const stranger = createClient({ gatewayUrl: ctx.url, accessToken: 'gst_not-a-token' });
    expect(await stranger.auth.getSession()).toEqual({ authenticated: false, userId: null });
    const error = await refusal(stranger.resource.list());
    expect(error).toMatchObject({ status: 401, code: 'invalid_token' });
    expect(stranger.refreshCount).toBe(0);
  });

  it('a token function is asked again once on a 401 (the refresh-once rule for bearer tokens)', async ({ ctx, s }) => {
    let calls = 0;
    const client = createClient({ gatewayUrl: ctx.url, accessToken: () => (++calls === 1 ? 'gst_stale' : s.users.alice.token!) });
    const list = await client.resource.list();
    expect(Array.isArray(list)).toBe(true);
    expect(calls).toBe(2);
    expect(client.refreshCount).toBe(1);
  });
});

describe('resources', () => {
  it('create, list (with currentMember), get, static, browse with cursors', async ({ sdk }) => {
    const team = await sdk.alice.resource.create('team', { name: 'Core' });
    expect(team).toMatchObject({ type: 'team', name: 'Core', visibility: 'members', currentMember: { role: 'owner', state: 'active' } });
    const list = await sdk.alice.resource.list({ type: 'team' });
    expect(list.map(r => r.id)).toContain(team.id);
    expect(list.every(r => r.currentMember?.state === 'active')).toBe(true);
    expect((await sdk.alice.resource(team.id).get()).memberCount).toBe(1);

    const settings = await sdk.bob.resource.static('settings', 'global');
    expect(settings).toMatchObject({ type: 'settings', currentMember: null });

    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await sdk.alice.resource.create('forum', { name: `sdk-browse-${i}`, visibility: 'discoverable' })).id);
    const first = await sdk.bob.resource.browse({ type: 'forum', query: 'sdk-browse', limit: 2 });
    expect(first.rows).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await sdk.bob.resource.browse({ type: 'forum', query: 'sdk-browse', limit: 2, cursor: first.nextCursor });
    expect([...first.rows, ...second.rows].map(r => r.id).sort()).toEqual([...made].sort());
    expect(second.nextCursor).toBeNull();
  });

  it('has no delete method', ({ sdk }) => {
    expect((sdk.alice.resource as unknown as Record<string, unknown>).delete).toBeUndefined();
    expect((sdk.alice.resource('x') as unknown as Record<string, unknown>).delete).toBeUndefined();
  });
});

describe('members and invites', () => {
  it('invite, invitations, accept, list, setRole, remove', async ({ sdk }) => {
    const { id } = await sdk.alice.resource.create('team', { name: 'Invites' });
    const team = sdk.alice.resource(id);
    expect(await team.members.invite(sdk.bob.userId, { role: 'writer' })).toMatchObject({ ok: true, resourceId: id, state: 'invited' });
    const invitations = await sdk.bob.resource.invitations({ type: 'team' });
    expect(invitations).toContainEqual(expect.objectContaining({ resourceId: id, role: 'writer', name: 'Invites' }));
    expect(await sdk.bob.resource(id).members.accept()).toMatchObject({ ok: true, state: 'active', role: 'writer' });
    const roster = await team.members.list();
    expect(roster.map(m => [m.userId, m.role, m.state])).toEqual([
      [sdk.alice.userId, 'owner', 'active'],
      [sdk.bob.userId, 'writer', 'active'],
    ]);
    expect(await team.members.setRole(sdk.bob.userId, 'admin')).toMatchObject({ ok: true, role: 'admin' });
    expect(await team.members.remove(sdk.bob.userId)).toMatchObject({ ok: true, state: null });
    expect((await team.members.list()).map(m => m.userId)).toEqual([sdk.alice.userId]);
  });

  it('request, accept by an admin, reject, join, leave', async ({ sdk }) => {
    const forum = await sdk.alice.resource.create('forum', { name: 'Open' });
    expect(await sdk.carol.resource(forum.id).members.join()).toMatchObject({ ok: true, state: 'active' });
    expect(await sdk.carol.resource(forum.id).members.leave()).toMatchObject({ ok: true, state: null });

    const room = await sdk.alice.resource.create('room', { name: 'Unlisted', visibility: 'unlisted' });
    expect(await sdk.carol.resource(room.id).members.request({ role: 'reader' })).toMatchObject({ ok: true, state: 'requested' });
    expect(await sdk.alice.resource(room.id).members.accept(sdk.carol.userId)).toMatchObject({ ok: true, state: 'active' });
    expect(await sdk.dave.resource(room.id).members.request()).toMatchObject({ state: 'requested' });
    expect(await sdk.alice.resource(room.id).members.reject(sdk.dave.userId)).toMatchObject({ ok: true, state: null });
    await sdk.alice.resource(room.id).members.invite(sdk.dave.userId);
    expect(await sdk.dave.resource(room.id).members.reject()).toMatchObject({ ok: true });
  });

  it('createInviteLink and invites.claim (the URL or the bare code)', async ({ sdk }) => {
    const { id } = await sdk.alice.resource.create('team', { name: 'Linked' });
    const link = await sdk.alice.resource(id).members.createInviteLink({ role: 'reader' });
    expect(link.url).toMatch(/\/_invite\/[^/]+$/);
    expect(link.role).toBe('reader');
    expect(await sdk.bob.invites.claim(link.url)).toMatchObject({ ok: true, resourceId: id, state: 'active', role: 'reader' });
    const second = await sdk.alice.resource(id).members.createInviteLink();
    const code = second.url.split('/_invite/')[1];
    expect(await sdk.carol.invites.claim(code)).toMatchObject({ ok: true, resourceId: id });
    const used = await refusal(sdk.dave.invites.claim(code));
    expect(used).toMatchObject({ status: 410, code: 'invite_link_used' });
  });
});

describe('rooms and grants', () => {
  it('create, list (default first), get, rename, grants set/list/remove, myRoomGrants, delete', async ({ sdk }) => {
    const { id } = await sdk.alice.resource.create('project', { name: 'Rooms' });
    await sdk.alice.resource(id).members.invite(sdk.bob.userId, { role: 'writer' });
    await sdk.bob.resource(id).members.accept();
    const project = sdk.alice.resource(id);
    const created = await project.rooms.create({ name: 'Design' });
    expect(created).toMatchObject({ name: 'Design', isDefault: false, currentGrant: null, resourceId: id });
    expect(created.id).toMatch(/^room_/);
    const rooms = await project.rooms.list();
    expect(rooms.map(r => [r.id, r.isDefault, r.currentGrant])).toEqual([
      [id, true, { role: 'owner' }],
      [created.id, false, null],
    ]);
    const room = sdk.alice.room(created.id, id);
    expect(await room.rename('Design 2')).toMatchObject({ name: 'Design 2' });
    expect(await room.grants.set(sdk.bob.userId, 'reader')).toMatchObject({
      ok: true,
      roomId: created.id,
      principalId: sdk.bob.userId,
      role: 'reader',
    });
    expect(await room.grants.list()).toEqual([{ principalId: sdk.bob.userId, role: 'reader' }]);
    expect(await sdk.bob.rooms.grants()).toContainEqual({ resourceId: id, roomId: created.id, role: 'reader' });
    expect(await sdk.bob.resource(id).room(created.id).get()).toMatchObject({ effectiveRole: 'reader' });
    expect(await room.grants.remove(sdk.bob.userId)).toEqual({ ok: true });
    expect(await room.grants.list()).toEqual([]);
    expect(await room.delete()).toEqual({ ok: true });
    expect((await project.rooms.list()).map(r => r.id)).toEqual([id]);
  });

  it('room(id) of a room record needs its resource; the default room id is the resource id', async ({ sdk }) => {
    const error = await refusal((async () => sdk.alice.room('room_0123456789abcdef'))());
    expect(error.code).toBe('resource_id_required');
    const { id } = await sdk.alice.resource.create('project', { name: 'Default' });
    expect(await sdk.alice.room(id).get()).toMatchObject({ id, isDefault: true });
  });
});

describe('tables (the row store)', () => {
  it('user scope: insert, select with filters, order, limit, after, page, maybeSingle, update, delete', async ({ sdk }) => {
    const notes = sdk.carol.table('notes');
    const one = await notes.insert({ title: 'a', slug: 'sdk-a' });
    expect(one).toMatchObject({ title: 'a', pinned: false, _creatorId: sdk.carol.userId });
    const many = await notes.insert([
      { title: 'b', slug: 'sdk-b' },
      { title: 'c', slug: 'sdk-c', pinned: true },
    ]);
    expect(many.map(r => r.title)).toEqual(['b', 'c']);

    expect((await notes.select().order('title', { ascending: false })).map(r => r.title)).toEqual(['c', 'b', 'a']);
    expect(await notes.select('title, slug').eq('pinned', true)).toEqual([{ title: 'c', slug: 'sdk-c' }]);
    expect((await notes.select().gt('title', 'a').lte('title', 'c').order('title')).map(r => r.title)).toEqual(['b', 'c']);
    expect((await notes.select().gte('title', 'b').lt('title', 'c')).map(r => r.title)).toEqual(['b']);

    const first = await notes.select().order('title').limit(2).page();
    expect(first.rows.map(r => r.title)).toEqual(['a', 'b']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await notes.select().order('title').limit(2).after(first.nextCursor).page();
    expect(rest).toEqual({ rows: [expect.objectContaining({ title: 'c' })], nextCursor: null });

    expect(await notes.select().eq('slug', 'sdk-b').maybeSingle()).toMatchObject({ title: 'b' });
    expect(await notes.select().eq('slug', 'nope').maybeSingle()).toBeNull();
    expect(await refusal(notes.select().maybeSingle())).toMatchObject({ status: 406, code: 'multiple_rows' });

    const updated = await notes.update({ body: 'edited' }).eq('id', one.id);
    expect(updated).toEqual([expect.objectContaining({ id: one.id, body: 'edited' })]);
    // A filter other than id is the server's where: one operation.
    const pinned = await notes.update({ pinned: true }).lt('title', 'c');
    expect(pinned.map(r => r.title).sort()).toEqual(['a', 'b']);
    expect((await notes.select().eq('pinned', true)).length).toBe(3);
    expect(await refusal(notes.update({ pinned: false }))).toMatchObject({ code: 'filter_required' });

    const deleted = await notes.delete().eq('slug', 'sdk-a');
    expect(deleted.map(r => r.id)).toEqual([one.id]);
    expect(await notes.delete().eq('slug', 'gone')).toEqual([]);
    expect((await notes.select()).map(r => r.title)).toEqual(['b', 'c']);
  });

  it('resource and room scopes, moveRoom, and the server refusals as typed errors', async ({ sdk }) => {
    const { id } = await sdk.alice.resource.create('project', { name: 'Rows' });
    const project = sdk.alice.resource(id);
    const room = await project.rooms.create({ name: 'Archive' });
    await sdk.alice.room(room.id, id).grants.set(sdk.alice.userId, 'admin');
    const tasks = project.table('tasks');
    const [t1, t2] = await tasks.insert([
      { title: 't1', priority: 1 },
      { title: 't2', priority: 2 },
    ]);
    expect(t1.roomId).toBeNull();
    await tasks.moveRoom([t2.id], room.id);
    const inRoom = await sdk.alice.room(room.id, id).table('tasks').select();
    expect(inRoom.map(r => [r.title, r.roomId])).toEqual([['t2', room.id]]);
    expect((await tasks.select().order('priority')).map(r => r.title)).toEqual(['t1', 't2']);
    const roomWrite = await sdk.alice.resource(id).room(room.id).table('tasks').insert({ title: 't3' });
    expect(roomWrite.roomId).toBe(room.id);

    const unknown = await refusal(tasks.insert({ nope: 1 }));
    expect(unknown).toMatchObject({ status: 400, code: 'unknown_column' });
    expect(unknown.requestId).toEqual(expect.any(String));
    const outsider = await refusal(sdk.dave.resource(id).table('tasks').select());
    expect(outsider).toMatchObject({ status: 404, code: 'resource_not_found' });
  });

  it('a type-scoped table reads default rooms across resources', async ({ sdk }) => {
    const { id } = await sdk.alice.resource.create('project', { name: 'Typed' });
    await sdk.alice.resource(id).table('tasks').insert({ title: 'typed' });
    const rows = await sdk.alice.typeTable('project', 'tasks').select().eq('title', 'typed');
    expect(rows).toEqual([expect.objectContaining({ title: 'typed', resourceId: id })]);
  });
});

describe('GatehouseError', () => {
  it('carries status, code, message and the x-request-id of the answer', async ({ sdk }) => {
    const error = await refusal(sdk.alice.resource('res_missing').get());
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('GatehouseError');
    expect(error.status).toBe(404);
    expect(error.code).toBe('resource_not_found');
    expect(error.message).toEqual(expect.any(String));
    expect(error.requestId).toMatch(/\S+/);
  });

  it('a refused operation and a network failure', async ({ sdk }) => {
    const reserved = await refusal(sdk.alice.resource.create('_app', { name: 'x' }));
    expect(reserved).toMatchObject({ status: 403, code: 'reserved_type' });
    const offline = createClient({ gatewayUrl: 'http://127.0.0.1:9', accessToken: 'x' });
    expect(await refusal(offline.resource.list())).toMatchObject({ status: 0, code: 'network_error', requestId: null });
  });
});
