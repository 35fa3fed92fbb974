/**
 * Live rows (docs/api.md §6): `.live()` on a select, against a real server over graphql-ws. Each
 * change reaches exactly the subscribers whose access admits the row at that moment: room grants,
 * the select's filter, a moveRoom out of sight (delete) or into it (insert), a revoked grant, and
 * nothing across apps.
 */
import { describe, expect } from 'vitest';
import { createClient } from '../../src/sdk/index.js';
import { addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { rowsSeed } from '../api/rows.fixture.js';
import { record } from './live-recorder.js';
import { refusal } from './refusal.js';
import { sdkClients } from './sdk-clients.js';

const it = appTest({ app: { listen: true }, users: ['alice', 'bob', 'carol'], seed: rowsSeed }).extend('sdk', { scope: 'file' }, sdkClients);

type Task = { id: string; title: string; done: boolean; roomId: string | null };
const titles = (events: { op: string; row: Partial<Task> }[]) => events.map(e => `${e.op}:${e.row.title ?? e.row.id}`);

describe('table(...).select().live()', () => {
  it('carries each change to the subscribers whose access and filter admit it', async ({ s, sdk }) => {
    const { alice, bob, carol } = s.users;
    const project = await createResource(alice, 'project', 'Live rows');
    await addMember(alice, bob, project, 'writer');
    await addMember(alice, carol, project, 'writer');
    const room = await sdk.alice.resource(project).rooms.create({ name: 'Inner' });
    await sdk.alice.room(room.id, project).grants.set(bob.id, 'writer');
    await sdk.alice.room(room.id, project).grants.set(alice.id, 'admin');

    const bobFeed = record(sdk.bob.resource(project).table<Task>('tasks').select().live());
    const carolFeed = record(sdk.carol.resource(project).table<Task>('tasks').select().live());
    const open = record(sdk.alice.resource(project).table<Task>('tasks').select().eq('done', false).live());
    // 'live' once each snapshot (empty here) is in: every later change reaches the feed.
    await Promise.all([bobFeed.status('live'), carolFeed.status('live'), open.status('live')]);

    const a = await sdk.alice.resource(project).table<Task>('tasks').insert({ title: 'a' });
    await bobFeed.event(e => e.row.title === 'a');
    await carolFeed.event(e => e.row.title === 'a');
    await open.event(e => e.row.title === 'a' && e.op === 'insert');

    // A row in the room: bob (granted) sees it, carol (no grant) does not.
    await sdk.bob.resource(project).room(room.id).table<Task>('tasks').insert({ title: 'inner' });
    await bobFeed.event(e => e.row.title === 'inner' && e.row.roomId === room.id);

    // An update out of the filter is a delete on the filtered feed.
    await sdk.alice.resource(project).table<Task>('tasks').update({ done: true }).eq('id', a.id);
    await bobFeed.event(e => e.op === 'update' && e.row.id === a.id);
    await open.event(e => e.op === 'delete' && e.row.id === a.id);

    // Moved into the room: carol loses sight (delete), bob still sees it (update).
    await sdk.alice.resource(project).table('tasks').moveRoom(a.id, room.id);
    await carolFeed.event(e => e.op === 'delete' && e.row.id === a.id);
    await bobFeed.event(e => e.op === 'update' && e.row.id === a.id && e.row.roomId === room.id);

    // A revoked grant stops delivery at once: bob gets the default-room row, not the room one.
    await sdk.alice.room(room.id, project).grants.remove(bob.id);
    const from = bobFeed.events.length;
    await sdk.alice.resource(project).room(room.id).table<Task>('tasks').insert({ title: 'hidden from bob' });
    await sdk.alice.resource(project).table<Task>('tasks').insert({ title: 'after revoke' });
    await bobFeed.event(e => e.row.title === 'after revoke', from);

    expect(titles(carolFeed.events)).toEqual(['insert:a', 'update:a', `delete:${a.id}`]);
    expect(titles(bobFeed.events.slice(from))).toEqual(['insert:after revoke']);
    // Alice holds admin in the room, so she sees its rows. The server may repeat a delete for a row
    // already out of her filter when it moves (it does not know a row's values before the change);
    // the SDK reports a delete only for a row it has reported, so the app sees one.
    await open.event(e => e.row.title === 'after revoke');
    expect(titles(open.events)).toEqual(['insert:a', 'insert:inner', `delete:${a.id}`, 'insert:hidden from bob', 'insert:after revoke']);
  });

  it('filters with in, neq, is and not, judged as the select judges them; upserts arrive as inserts then updates', async ({ s, sdk }) => {
    const project = await createResource(s.users.alice, 'project', 'Live filters');
    const tasks = sdk.alice.resource(project).table<Task & { priority: number | null }>('tasks');
    const picked = record(tasks.select().in('title', ['x', 'y']).not('priority', 'is', null).live());
    const other = record(tasks.select().neq('title', 'x').live());
    await Promise.all([picked.status('live'), other.status('live')]);
    await tasks.insert([{ title: 'x', priority: 1 }, { title: 'x' }, { title: 'y', priority: 2 }, { title: 'z', priority: 3 }]);
    await picked.event(e => e.row.title === 'y');
    await other.event(e => e.row.title === 'z');
    const [x] = await tasks.update({ priority: null }).eq('title', 'x').eq('priority', 1);
    await picked.event(e => e.op === 'delete' && e.row.id === x.id);
    await tasks.insert({ title: 'after' });
    await other.event(e => e.row.title === 'after');
    expect(titles(picked.events)).toEqual(['insert:x', 'insert:y', `delete:${x.id}`]);
    // The server sends a delete for an update that leaves the row out of the filter (it does not know
    // the row's values before); the SDK reports deletes only of rows it reported, so x never shows.
    expect(titles(other.events)).toEqual(['insert:y', 'insert:z', 'insert:after']);

    const presence = record(sdk.alice.resource(project).table<{ id: string; device: string; seen: number }>('presence').select().live());
    await presence.status('live');
    const row = { member: s.users.alice.id, device: 'phone' };
    await sdk.alice
      .resource(project)
      .table('presence')
      .upsert({ ...row, seen: 1 }, { onConflict: ['member', 'device'] });
    await sdk.alice
      .resource(project)
      .table('presence')
      .upsert({ ...row, seen: 2 }, { onConflict: ['member', 'device'] });
    await presence.event(e => e.row.seen === 2);
    expect(presence.events.map(e => `${e.op}:${e.row.seen}`)).toEqual(['insert:1', 'update:2']);
  });

  it('resync() after a room grant is given or taken: the rows it reveals or hides arrive marked snapshot, and the feed stays live', async ({
    s,
    sdk,
  }) => {
    const { alice, bob } = s.users;
    const project = await createResource(alice, 'project', 'Resync');
    await addMember(alice, bob, project, 'writer');
    const room = await sdk.alice.resource(project).rooms.create({ name: 'Private' });
    await sdk.alice.room(room.id, project).grants.set(alice.id, 'admin');
    const hidden = await sdk.alice.resource(project).room(room.id).table<Task>('tasks').insert({ title: 'in the room' });
    const handle = sdk.bob.resource(project).table<Task>('tasks').select().live();
    const feed = record(handle);
    await feed.status('live');
    expect(feed.events).toEqual([]);

    // A grant changes no row, so no row event reveals the room's rows: resync() reads them.
    await sdk.alice.room(room.id, project).grants.set(bob.id, 'reader');
    handle.resync();
    expect(await feed.event(e => e.row.id === hidden.id)).toMatchObject({ op: 'insert', row: { title: 'in the room' }, snapshot: true });
    await sdk.alice.room(room.id, project).grants.remove(bob.id);
    handle.resync();
    expect(await feed.event(e => e.op === 'delete')).toEqual({ op: 'delete', row: { id: hidden.id }, snapshot: true });

    // The same feed goes on (its replaced subscriptions do not end it), live throughout.
    await sdk.alice.resource(project).table<Task>('tasks').insert({ title: 'after' });
    await feed.event(e => e.row.title === 'after');
    expect(titles(feed.events)).toEqual(['insert:in the room', `delete:${hidden.id}`, 'insert:after']);
    expect(feed.statuses).toEqual(['connecting', 'live']);
    expect(handle.rows().map(row => row.title)).toEqual(['after']);
  });

  it("your own rows' feed; another app's user is refused like a select", async ({ ctx, s, sdk }) => {
    const notes = record(sdk.alice.table<{ id: string; title: string }>('notes').select().live());
    await notes.status('live');
    await sdk.alice.table('notes').insert({ title: 'mine' });
    const inserted = await notes.event(e => e.row.title === 'mine');
    expect(inserted.op).toBe('insert');
    expect(inserted.row).not.toHaveProperty('roomId');

    const project = await createResource(s.users.alice, 'project', 'Private');
    const other = await seed(ctx, ['mallory']);
    const mallory = createClient({ gatewayUrl: ctx.url, accessToken: other.users.mallory.token! });
    try {
      const refused = record(mallory.resource(project).table('tasks').select().live());
      expect((await refused.error()).code).toBe('resource_not_found');
    } finally {
      mallory.close();
    }
    expect((await refusal(Promise.resolve().then(() => sdk.alice.typeTable('project', 'tasks').select().live()))).code).toBe('live_unavailable');
  });
});
