/**
 * Lifecycle races (docs/api.md §12): a member's links and memberships end in the state of some
 * serial order when a leave or an account deletion meets other requests. Embedded database and,
 * where reachable, real PostgreSQL (where the requests do overlap).
 */
import { defineSchema, type OwnerDeletePolicy, type ResourceBuilder, type TableBuilder } from 'gatehouse/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seed, type TestContext, addMember, createResource, seed, startTestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';

const available = await backends();
const RACE_TIMEOUT_MS = 120_000;

/** A table with one text column and the onOwnerDelete policy under test. */
const table = (onOwnerDelete: OwnerDeletePolicy) => (t: TableBuilder) => t.text('body').onOwnerDelete(onOwnerDelete);
const type = (visibility: 'members' | 'unlisted') => (r: ResourceBuilder) =>
  r
    .visibility(visibility)
    .defaultRole('writer')
    .shares('notes', share => share.onMemberRemove('remove'))
    .shares('posts', share => share.onMemberRemove('hide'));
const SCHEMA = defineSchema({
  tables: { notes: table('remove'), posts: table('tombstone') },
  resources: { team: type('members'), club: type('unlisted') },
});

describe.each(available)('lifecycle races on $name', backend => {
  let ctx: TestContext;
  let s: Seed;
  let n = 0;

  beforeAll(async () => {
    ctx = await startTestApp({ database: await backend.create() });
    s = await seed(ctx, ['owner']);
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: SCHEMA });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  });
  afterAll(() => ctx.close());

  const db = () => ctx.database.prisma;
  const person = () => s.user(`${backend.name}-racer-${++n}`);
  const query = (client: Seed['users'][string], body: unknown) => client.post('/v1/db/query', body);

  async function ownRows(client: Seed['users'][string], tableName: string, count: number): Promise<string[]> {
    const values = Array.from({ length: count }, (_, i) => ({ body: `${tableName} ${i}` }));
    const res = await query(client, { scope: { kind: 'user' }, table: tableName, op: 'insert', values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rows.map((r: { id: string }) => r.id);
  }

  it(
    'a leave racing links of the leaving member leaves none of their links visible',
    async () => {
      for (let round = 0; round < 4; round++) {
        const member = await person();
        const id = await createResource(s.users.owner, 'team', `contested ${round}`);
        await addMember(s.users.owner, member, id, 'writer');
        const notes = await ownRows(member, 'notes', 6);
        const posts = await ownRows(member, 'posts', 6);
        const link = (tableName: string, rowId: string) =>
          query(member, { scope: { kind: 'resource', resourceId: id }, table: tableName, op: 'link', ids: [rowId] });
        const links = [...notes.map(r => link('notes', r)), ...posts.map(r => link('posts', r))];
        // The leave starts in the middle of the burst.
        const leave = member.post(`/v1/resources/${id}/leave`);
        const more = notes.map(r => link('notes', r));
        const [left, ...results] = await Promise.all([leave, ...links, ...more]);
        expect(left.status, JSON.stringify(left.body)).toBe(200);
        // Each link ran before the leave (200) or met a non-member (404): never a 500.
        for (const r of results) expect([200, 404], JSON.stringify(r.body)).toContain(r.status);
        // remove: no link of notes survives; hide: links of posts are all hidden.
        const visible = await db().rowLink.count({ where: { resourceId: id, hidden: false, row: { creatorId: member.id } } });
        expect(visible).toBe(0);
        expect(await db().rowLink.count({ where: { resourceId: id, row: { tableName: 'notes' } } })).toBe(0);
        expect(await db().row.count({ where: { creatorId: member.id } })).toBe(12);
      }
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'an account deletion racing invites, joins, a removal and its own writes leaves nothing naming the account',
    async () => {
      const { owner } = s.users;
      const user = await person();
      const team = await createResource(owner, 'team', 'shared');
      await addMember(owner, user, team, 'writer');
      const clubs = await Promise.all([0, 1, 2].map(i => createResource(owner, 'club', `open ${i}`)));
      const invitesTo = await Promise.all([0, 1, 2].map(i => createResource(owner, 'team', `invites ${i}`)));
      const owned = await createResource(user, 'team', 'owned');
      const notes = await ownRows(user, 'notes', 4);
      await query(user, { scope: { kind: 'resource', resourceId: team }, table: 'notes', op: 'link', ids: notes.slice(0, 2) });

      const requests = [
        ...invitesTo.map(id => owner.post(`/v1/resources/${id}/invite`, { userId: user.id })),
        ...clubs.map(id => user.post(`/v1/resources/${id}/join`)),
      ];
      // What the dashboard's DELETE /v1/me runs for its signed-in user (test users have no dashboard session).
      const deletion = ctx.app.services.accountDeletion.deleteAccount(user.id, 'delete my account');
      requests.push(
        owner.post(`/v1/resources/${team}/remove`, { userId: user.id }),
        query(user, { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: [{ body: 'late' }] }),
        query(user, { scope: { kind: 'resource', resourceId: team }, table: 'notes', op: 'link', ids: notes.slice(2) }),
        ...clubs.map(id => owner.post(`/v1/resources/${id}/invite`, { userId: user.id })),
      );
      const [deleted, ...results] = await Promise.all([deletion, ...requests]);
      expect(deleted.deleted).toEqual([owned]);
      // Before the deletion (200), or after it: the token is gone (401), the user is unknown (404), or they were already in (409).
      for (const r of results) expect([200, 401, 404, 409], JSON.stringify(r.body)).toContain(r.status);

      expect(await db().principal.findUnique({ where: { id: user.id } })).toBeNull();
      expect(await db().membership.count({ where: { principalId: user.id } })).toBe(0);
      expect(await db().row.count({ where: { creatorId: user.id } })).toBe(0);
      for (const id of [team, ...clubs, ...invitesTo]) {
        const resource = await db().resource.findUniqueOrThrow({ where: { id } });
        expect(resource.memberCount, id).toBe(await db().membership.count({ where: { resourceId: id, state: 'active' } }));
      }
      expect((await user.get('/v1/resources')).status).toBe(401);
    },
    RACE_TIMEOUT_MS,
  );
});
