/**
 * A real app's flow through gatehouse/client only (issue #11 "Proof"): two test-session users, a
 * team, both live feeds (`resources.live()` for the invitee, `members.live()` for the owner),
 * invite, accept seen on both sides, leave, and the list no longer showing the resource; the rooms
 * feed on a grant. Feed reconnects are live.test.ts's.
 */
import { expect } from 'vitest';
import { createClient, type GatehouseClient, type MemberRow, type RoomGrantRow } from '../../src/sdk/index.js';
import type { Client, TestContext } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

/** A client of `user` against the listening server, closed when the file ends, before the app. */
function clientOf(ctx: TestContext, user: Client, onCleanup: (fn: () => void) => void): GatehouseClient {
  const client = createClient({ gatewayUrl: ctx.url, accessToken: user.token! });
  onCleanup(() => client.close());
  return client;
}

const it = appTest({ app: { listen: true }, users: ['alice', 'bob'] })
  .extend('alice', { scope: 'file' }, async ({ ctx, s }, { onCleanup }) => clientOf(ctx, s.users.alice, onCleanup))
  .extend('bob', { scope: 'file' }, async ({ ctx, s }, { onCleanup }) => clientOf(ctx, s.users.bob, onCleanup))
  .extend('ids', async ({ s }) => ({ alice: s.users.alice.id, bob: s.users.bob.id }));

/** Resolves when `check` holds (polled), failing after `ms` with what was seen. */
async function until(check: () => boolean, what: () => string, ms = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting: ${what()}`);
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

it('invite, accept seen on both sides, leave, and the list no longer shows the resource', async ({ ctx, alice, bob, ids }) => {
  const team = await alice.resource.create('team', { name: 'Live team' });
  const ownerSaw: [string, Partial<MemberRow>][] = [];
  const inviteeSaw: [string, Partial<MemberRow>][] = [];
  const roster = alice.resource(team.id).members.live();
  const mine = bob.resources.live();
  for (const op of ['insert', 'update', 'delete'] as const) {
    roster.on(op, row => ownerSaw.push([op, row]));
    mine.on(op, row => inviteeSaw.push([op, row]));
  }
  await Promise.all([ctx.attached(`member:${team.id}`), ctx.attached(`principal:${ids.bob}`)]);

  await alice.resource(team.id).members.invite(ids.bob, { role: 'writer' });
  await until(
    () => inviteeSaw.some(([op, row]) => op === 'insert' && row.resourceId === team.id && row.state === 'invited'),
    () => JSON.stringify(inviteeSaw),
  );
  expect((await bob.resource.invitations()).map(i => i.resourceId)).toContain(team.id);

  await bob.resource(team.id).members.accept();
  const accepted = (row: Partial<MemberRow>) => row.userId === ids.bob && row.state === 'active';
  await until(
    () => ownerSaw.some(([, row]) => accepted(row)),
    () => JSON.stringify(ownerSaw),
  );
  await until(
    () => inviteeSaw.some(([, row]) => accepted(row)),
    () => JSON.stringify(inviteeSaw),
  );
  expect(ownerSaw.find(([, row]) => accepted(row))?.[1]).toEqual({
    id: `${team.id}:${ids.bob}`,
    resourceId: team.id,
    userId: ids.bob,
    role: 'writer',
    state: 'active',
  });
  expect((await bob.resource.list()).map(r => r.id)).toContain(team.id);

  await bob.resource(team.id).members.leave();
  await until(
    () => ownerSaw.some(([op, row]) => op === 'delete' && row.userId === ids.bob),
    () => JSON.stringify(ownerSaw),
  );
  await until(
    () => inviteeSaw.some(([op, row]) => op === 'delete' && row.resourceId === team.id),
    () => JSON.stringify(inviteeSaw),
  );
  expect((await bob.resource.list()).map(r => r.id)).not.toContain(team.id);
  roster.close();
  mine.close();
});

it('membership.live() is resources.live(); rooms.live() carries a grant', async ({ ctx, alice, bob, ids }) => {
  expect(alice.membership.live).toBe(alice.resources.live);
  const project = await alice.resource.create('team', { name: 'Rooms feed' });
  await alice.resource(project.id).members.invite(ids.bob);
  await bob.resource(project.id).members.accept();
  const room = await alice.resource(project.id).rooms.create({ name: 'R' });
  const grants: [string, Partial<RoomGrantRow>][] = [];
  const feed = bob.rooms.live();
  for (const op of ['insert', 'update', 'delete'] as const) feed.on(op, row => grants.push([op, row]));
  await ctx.attached(`grants:${ids.bob}`);
  await alice.room(room.id, project.id).grants.set(ids.bob, 'reader');
  await until(
    () => grants.length > 0,
    () => 'no grant event',
  );
  expect(grants[0]).toEqual(['insert', { resourceId: project.id, roomId: room.id, role: 'reader' }]);
  feed.close();
});
