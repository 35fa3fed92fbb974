/**
 * Auto-join (docs/api.md §5.2, §11.4): the first insert, update, delete or link by a non-member of
 * a public resource makes them an active member at the type's default role, atomically with the
 * write. Runs on the embedded database and, where reachable, PostgreSQL (the races matter there).
 */
import { describe, expect } from 'vitest';
import type { MembershipEvent } from '../../src/bus/event-bus.js';
import { createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { db, inResource, mine, rowsSeed } from './rows.fixture.js';

const available = await backends();
const RACE_TIMEOUT_MS = 120_000;
const onBackend = appTestOn(available, { users: ['owner'], seed: rowsSeed });

describe.each(available)('auto-join on $name', backend => {
  let n = 0;
  const it = onBackend(backend)
    .extend('fresh', async ({ s }) => {
      return () => s.user(`u${backend.name}${n++}`);
    })
    .extend('membership', async ({ ctx }) => {
      return (resourceId: string, principalId: string) =>
        ctx.database.prisma.membership.findUnique({
          where: { resourceId_principalId: { resourceId, principalId } },
          select: { role: true, state: true },
        });
    })
    .extend('memberCount', async ({ ctx }) => {
      return async (resourceId: string) => (await ctx.database.prisma.resource.findUniqueOrThrow({ where: { id: resourceId } })).memberCount;
    });
  const post = (as: any, resourceId: string, body = 'hi') =>
    db(as, { scope: inResource(resourceId), table: 'posts', op: 'insert', values: { body } });

  it('a first insert joins at the default role, in the same transaction, and publishes the join', async ({
    ctx,
    s,
    fresh,
    membership,
    memberCount,
  }) => {
    const forum = await createResource(s.users.owner, 'forum', 'F');
    const visitor = await fresh();
    const events: MembershipEvent[] = [];
    const stop = ctx.app.services.deps.bus.listen(`member:${forum}`, e => events.push(e));
    try {
      const res = await post(visitor, forum);
      expect(res.status).toBe(200);
      expect(await membership(forum, visitor.id)).toEqual({ role: 'writer', state: 'active' });
      expect(await memberCount(forum)).toBe(2);
      await expect.poll(() => events.length).toBe(1);
      expect(events[0]).toMatchObject({ op: 'insert', row: { resourceId: forum, userId: visitor.id, role: 'writer', state: 'active' } });
      // Idempotent: the next write changes nothing about the membership.
      await post(visitor, forum, 'again');
      expect(await memberCount(forum)).toBe(2);
    } finally {
      stop();
    }
  });

  it('reads never join; a non-member of a public resource reads as a visitor', async ({ s, fresh, membership }) => {
    const forum = await createResource(s.users.owner, 'forum', 'read only');
    await post(s.users.owner, forum, 'by the owner');
    const visitor = await fresh();
    const res = await db(visitor, { scope: inResource(forum), table: 'posts', op: 'select' });
    expect(res.body.rows.map((r: any) => r.body)).toEqual(['by the owner']);
    expect(await membership(forum, visitor.id)).toBeNull();
  });

  it('a failed or refused write leaves no membership', async ({ s, fresh, membership, memberCount }) => {
    const forum = await createResource(s.users.owner, 'forum', 'strict');
    const [owners] = (await post(s.users.owner, forum, 'owner post')).body.rows;
    const visitor = await fresh();
    const invalid = await db(visitor, { scope: inResource(forum), table: 'posts', op: 'insert', values: { body: 5 } });
    expect(invalid.status).toBe(400);
    // The update rule is `creator`: the default role alone does not pass, so nothing happens.
    const refused = await db(visitor, { scope: inResource(forum), table: 'posts', op: 'update', ids: [owners.id], values: { body: 'mine' } });
    expect([refused.status, refused.body.error]).toEqual([403, 'access_denied']);
    // A write that changes nothing joins no one.
    const missing = await db(visitor, { scope: inResource(forum), table: 'posts', op: 'delete', ids: ['0190f0f0-0000-7000-8000-000000000000'] });
    expect([missing.status, missing.body]).toEqual([200, { rows: [] }]);
    // A batch whose second operation fails rolls the first one's join back with it.
    const batch = await visitor.post('/v1/db/batch', {
      operations: [
        { scope: inResource(forum), table: 'posts', op: 'insert', values: { body: 'ok' } },
        { scope: inResource(forum), table: 'posts', op: 'insert', values: { n: 1 } },
      ],
    });
    expect(batch.status).toBe(400);
    expect(await membership(forum, visitor.id)).toBeNull();
    expect(await memberCount(forum)).toBe(1);
  });

  it('never on a members resource, nor with a pending invite or request', async ({ s, fresh, membership }) => {
    const { owner } = s.users;
    const project = await createResource(owner, 'project', 'closed');
    const stranger = await fresh();
    expect((await db(stranger, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 'x' } })).status).toBe(404);
    expect(await membership(project, stranger.id)).toBeNull();

    const forum = await createResource(owner, 'forum', 'pending');
    const requester = await fresh();
    await requester.post(`/v1/resources/${forum}/request`);
    const asRequester = await post(requester, forum);
    expect([asRequester.status, asRequester.body.error]).toEqual([403, 'access_denied']);
    expect(await membership(forum, requester.id)).toMatchObject({ state: 'requested' });

    const invitee = await fresh();
    await owner.post(`/v1/resources/${forum}/invite`, { userId: invitee.id, role: 'reader' });
    expect((await post(invitee, forum)).status).toBe(403);
    expect(await membership(forum, invitee.id)).toMatchObject({ state: 'invited', role: 'reader' });
  });

  it('link joins; unlink and moveRoom never do', async ({ s, fresh, membership }) => {
    const forum = await createResource(s.users.owner, 'forum', 'links');
    const linker = await fresh();
    const [note] = (await db(linker, { scope: mine, table: 'notes', op: 'insert', values: { title: 'shared' } })).body.rows;
    expect((await db(linker, { scope: inResource(forum), table: 'notes', op: 'link', ids: [note.id] })).status).toBe(200);
    expect(await membership(forum, linker.id)).toEqual({ role: 'writer', state: 'active' });

    const other = await fresh();
    const unlink = await db(other, { scope: inResource(forum), table: 'notes', op: 'unlink', ids: [note.id] });
    expect(unlink.status).toBe(403);
    const move = await db(other, { scope: inResource(forum), table: 'notes', op: 'moveRoom', ids: [note.id], destination: forum });
    expect(move.status).toBe(403);
    expect(await membership(forum, other.id)).toBeNull();
  });

  it('the type’s default role decides: a club joins readers, whose create rule its override allows', async ({ s, fresh, membership }) => {
    const club = await createResource(s.users.owner, 'club', 'club');
    const visitor = await fresh();
    expect((await db(visitor, { scope: inResource(club), table: 'comments', op: 'insert', values: { body: 'hello' } })).status).toBe(200);
    expect(await membership(club, visitor.id)).toEqual({ role: 'reader', state: 'active' });
  });

  it(
    'racing first writes leave one membership and every row',
    async ({ ctx, s, fresh, memberCount }) => {
      const forum = await createResource(s.users.owner, 'forum', 'race');
      const racer = await fresh();
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => post(racer, forum, `race ${i}`)));
      expect(results.map(r => r.status)).toEqual(Array(12).fill(200));
      expect(await ctx.database.prisma.membership.count({ where: { resourceId: forum } })).toBe(2);
      expect(await memberCount(forum)).toBe(2);
      expect(await ctx.database.prisma.row.count({ where: { resourceId: forum } })).toBe(12);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'racing first writes of many people: one membership each, memberCount exact',
    async ({ ctx, s, fresh, memberCount }) => {
      const forum = await createResource(s.users.owner, 'forum', 'crowd');
      const people = await Promise.all(Array.from({ length: 8 }, () => fresh()));
      const results = await Promise.all(people.flatMap(p => [post(p, forum, 'a'), post(p, forum, 'b')]));
      expect(results.every(r => r.status === 200)).toBe(true);
      expect(await ctx.database.prisma.membership.count({ where: { resourceId: forum, state: 'active' } })).toBe(9);
      expect(await memberCount(forum)).toBe(9);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'racing inserts of one unique value: exactly one wins',
    async ({ s }) => {
      const { owner } = s.users;
      const project = await createResource(owner, 'project', 'unique race');
      // The second value's inserts come from a member who has written there: their key's lock
      // travels in the facts' statement (uniqueLocksAhead), and must still be taken.
      for (const ref of ['d0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'd0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12']) {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            db(owner, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: `t${i}`, ref } }),
          ),
        );
        expect(results.filter(r => r.status === 200)).toHaveLength(1);
        expect(results.filter(r => r.status === 409).every(r => r.body.error === 'unique_violation')).toBe(true);
      }
    },
    RACE_TIMEOUT_MS,
  );
});
