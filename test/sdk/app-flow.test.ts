/**
 * A real app's flow through gatehouse/client only (issue #11 "Proof"): two test-session users, a
 * team, both live feeds (`resources.live()` for the invitee, `members.live()` for the owner),
 * invite, accept seen on both sides, leave, and the list no longer showing the resource; the rooms
 * feed on a grant. Feed reconnects are live.test.ts's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type GatehouseClient, type MemberRow, type RoomGrantRow } from '../../src/sdk/index.js';
import { seed, startTestApp, type TestContext } from '../helpers/app.js';

let ctx: TestContext;
let alice: GatehouseClient;
let bob: GatehouseClient;
let ids: { alice: string; bob: string };

beforeAll(async () => {
  ctx = await startTestApp({ listen: true });
  const s = await seed(ctx, ['alice', 'bob']);
  alice = createClient({ gatewayUrl: ctx.url, accessToken: s.users.alice.token! });
  bob = createClient({ gatewayUrl: ctx.url, accessToken: s.users.bob.token! });
  ids = { alice: s.users.alice.id, bob: s.users.bob.id };
});
afterAll(async () => {
  alice?.close();
  bob?.close();
  await ctx?.close();
});

/** Resolves when `check` holds (polled), failing after `ms` with what was seen. */
async function until(check: () => boolean, what: () => string, ms = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting: ${what()}`);
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

it('invite, accept seen on both sides, leave, and the list no longer shows the resource', async () => {
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

it('membership.live() is resources.live(); rooms.live() carries a grant', async () => {
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
