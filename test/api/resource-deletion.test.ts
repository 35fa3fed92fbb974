/**
 * Dashboard resource deletion at the service level (the route and its feeds are covered in
 * test/gateway-auth/hosted.test.ts): racing transitions end in some serial order, with nothing left behind.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import type { MembershipEvent } from '../../src/bus/event-bus.js';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';

const available = await backends();
const onBackend = appTestOn(available, { users: ['owner', 'member'] });

describe.each(available)('resource deletion on $name', backend => {
  /** deleteAsOwner(userId, resourceId): the service call, in the seeded app. */
  const it = onBackend(backend).extend(
    'deleteAsOwner',
    async ({ ctx, s }) =>
      (userId: string, resourceId: string) =>
        ctx.app.services.resourceDeletion.deleteAsOwner(userId, s.appId, resourceId),
  );

  it('refuses anyone but the active owner, and only inside the app', async ({ ctx, s, deleteAsOwner }) => {
    const id = await createResource(s.users.owner, 'team', 'guarded');
    await addMember(s.users.owner, s.users.member, id, 'admin');
    await expect(deleteAsOwner(s.users.member.id, id)).rejects.toMatchObject({ code: 'owner_only', status: 403 });
    await expect(ctx.app.services.resourceDeletion.deleteAsOwner(s.users.owner.id, 'app_other', id)).rejects.toMatchObject({
      code: 'resource_not_found',
      status: 404,
    });
    expect(await ctx.database.prisma.membership.count({ where: { resourceId: id } })).toBe(2);
  });

  it('racing joins, invites, requests and a link claim leave no member, link or 500 behind', async ({ ctx, s, deleteAsOwner }) => {
    const { owner } = s.users;
    const id = await createResource(owner, 'forum', `doomed-${backend.name}`);
    const link = await owner.post(`/v1/resources/${id}/invite-link`, { role: 'reader' });
    const code = link.body.url.split('/_invite/')[1];
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => s.user(`racer-${backend.name}-${i}`)));
    const events: MembershipEvent[] = [];
    const unsubscribe = ctx.app.services.deps.bus.subscribe(event => event.row.resourceId === id && events.push(event));

    const transition = (p: (typeof people)[number], i: number) => {
      if (i % 4 === 0) return p.post(`/v1/resources/${id}/join`);
      if (i % 4 === 1) return owner.post(`/v1/resources/${id}/invite`, { userId: p.id });
      if (i % 4 === 2) return p.post(`/v1/resources/${id}/request`);
      return p.post('/v1/invite-links/claim', { code });
    };
    // A first wave heads for the resource lock before the deletion, a second one right behind it.
    const first = people.slice(0, 6).map(transition);
    await sleep(10);
    const deletion = deleteAsOwner(owner.id, id);
    const second = people.slice(6).map(transition);
    const [deleted, ...results] = await Promise.all([deletion, ...first, ...second]);
    unsubscribe();

    expect(deleted).toEqual({ ok: true });
    // Each transition ran before the deletion (200) or found no resource or link (404); never a 500.
    for (const r of results) expect([200, 404, 410], JSON.stringify(r.body)).toContain(r.status);
    const { prisma } = ctx.database;
    expect(await prisma.resource.findUnique({ where: { id } })).toBeNull();
    expect(await prisma.membership.count({ where: { resourceId: id } })).toBe(0);
    expect(await prisma.inviteLink.count({ where: { resourceId: id } })).toBe(0);
    // Everyone the feeds ever showed in the resource was last told of their delete.
    const last = new Map(events.map(e => [e.row.userId, e.op]));
    expect(last.get(owner.id)).toBe('delete');
    expect([...last.values()].every(op => op === 'delete')).toBe(true);
    expect((await owner.get(`/v1/resources/${id}`)).status).toBe(404);
  });
});
