/**
 * A schema written the way real apps write it (examples/team-schema.ts: a members-only `team` with
 * three inline owned tables using uuid, jsonb, bigint, timestamps() and an index on createdAt,
 * single-string access rules; top-level tables shared into a public `club`) deploys and
 * round-trips rows through REST and GraphQL (docs/api.md §11), as the README's example does.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import team from '../../examples/team-schema.js';
import { type TestContext, addMember, createResource, seed } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { db, inResource } from './rows.fixture.js';

/** The seed with examples/team-schema.ts deployed, and alice's team: bob a writer, carol an admin, dave a reader. */
async function teamSeed(ctx: TestContext, users: string[]) {
  const s = await seed(ctx, users);
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: team });
  if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.body)}`);
  const teamId = await createResource(s.users.alice, 'team', 'Core');
  await addMember(s.users.alice, s.users.bob, teamId, 'writer');
  await addMember(s.users.alice, s.users.carol, teamId, 'admin');
  await addMember(s.users.alice, s.users.dave, teamId, 'reader');
  return { ...s, teamId };
}

const it = appTest({ users: ['alice', 'bob', 'carol', 'dave', 'visitor'], seed: teamSeed }).extend('teamId', async ({ s }) => s.teamId);

describe('examples/team-schema.ts through the row store', () => {
  it('member_events: a writer inserts over REST (uuid, bigint, jsonb default, timestamps), a reader reads over GraphQL', async ({ s, teamId }) => {
    const { bob, dave } = s.users;
    const memberId = randomUUID();
    const inserted = await db(bob, {
      scope: inResource(teamId),
      table: 'member_events',
      op: 'insert',
      values: { memberId, kind: 'joined', sequence: '9007199254740993' },
    });
    // Beyond 2^53 - 1 a bigint reads back as a decimal string (a number would lose digits).
    expect(inserted.status).toBe(200);
    expect(inserted.body.rows[0]).toEqual({
      id: expect.any(String),
      kind: 'joined',
      memberId,
      payload: {},
      sequence: '9007199254740993',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      _creatorId: bob.id,
      roomId: null,
    });
    // read: 'reader' is a threshold (docs/api.md §5.5): the writer who wrote it reads it too.
    expect((await db(bob, { scope: inResource(teamId), table: 'member_events', op: 'select' })).body.rows).toEqual([inserted.body.rows[0]]);
    const page = await dave.gql(`query($i: DbSelectInput!) { dbSelect(input: $i) { rows nextCursor } }`, {
      i: {
        scope: { kind: 'resource', resourceId: teamId },
        table: 'member_events',
        where: { kind: 'joined' },
        orderBy: { column: 'createdAt', direction: 'desc' },
      },
    });
    expect(page.errors?.[0]?.message).toBeUndefined();
    expect(page.data.dbSelect.rows).toEqual([inserted.body.rows[0]]);
    // update: 'none' and delete: 'none' hold for everyone, the owner included.
    const update = await db(s.users.alice, {
      scope: inResource(teamId),
      table: 'member_events',
      op: 'update',
      ids: [inserted.body.rows[0].id],
      values: { kind: 'x' },
    });
    expect([update.status, update.body.error]).toEqual([403, 'access_denied']);
  });

  it("member_notes: read: 'admin' admits admins and the owner, not writers; create too", async ({ s, teamId }) => {
    const { alice, bob, carol } = s.users;
    const note = await db(carol, {
      scope: inResource(teamId),
      table: 'member_notes',
      op: 'insert',
      values: { subjectId: randomUUID(), body: 'private' },
    });
    expect(note.status).toBe(200);
    expect((await db(carol, { scope: inResource(teamId), table: 'member_notes', op: 'select' })).body.rows).toHaveLength(1);
    expect((await db(alice, { scope: inResource(teamId), table: 'member_notes', op: 'select' })).body.rows).toHaveLength(1);
    expect((await db(bob, { scope: inResource(teamId), table: 'member_notes', op: 'select' })).status).toBe(403);
    expect(
      (await db(bob, { scope: inResource(teamId), table: 'member_notes', op: 'insert', values: { subjectId: randomUUID(), body: 'x' } })).status,
    ).toBe(403);
  });

  it('member_budgets: a unique uuid per team, bigint default, owner-only create', async ({ s, teamId }) => {
    const { alice, carol } = s.users;
    const memberId = randomUUID();
    const first = await db(alice, {
      scope: inResource(teamId),
      table: 'member_budgets',
      op: 'insert',
      values: { memberId, resetsAt: '2026-12-01T00:00:00Z' },
    });
    expect(first.body.rows[0]).toMatchObject({ memberId, limitCents: 0, resetsAt: '2026-12-01T00:00:00.000Z' });
    expect((await db(alice, { scope: inResource(teamId), table: 'member_budgets', op: 'insert', values: { memberId } })).body.error).toBe(
      'unique_violation',
    );
    expect((await db(carol, { scope: inResource(teamId), table: 'member_budgets', op: 'insert', values: { memberId: randomUUID() } })).status).toBe(
      403,
    );
  });

  it("member_presence: presence by upsert on unique(['memberId', 'device']), as the README's example", async ({ s, teamId }) => {
    const { bob, dave } = s.users;
    const memberId = randomUUID();
    const seen = (as: typeof bob, state: string) =>
      db(as, {
        scope: inResource(teamId),
        table: 'member_presence',
        op: 'upsert',
        values: { memberId, device: 'phone', state },
        onConflict: 'memberId,device',
      });
    const first = await seen(dave, 'online');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await seen(dave, 'away');
    expect(second.body.rows).toEqual([expect.objectContaining({ id: first.body.rows[0].id, state: 'away' })]);
    // bob reads dave's row but update is `creator`: refused, nothing changed.
    expect((await seen(bob, 'offline')).status).toBe(403);
    const rows = await db(bob, { scope: inResource(teamId), table: 'member_presence', op: 'select', where: { memberId } });
    expect(rows.body.rows.map((r: { state: string }) => r.state)).toEqual(['away']);
  });

  it('a club shares posts: a visitor’s first post (a GraphQL batch) auto-joins them as a writer', async ({ s }) => {
    const { alice, visitor } = s.users;
    const club = await createResource(alice, 'club', 'Readers');
    const res = await visitor.gql(`mutation($ops: [DbOperationInput!]!) { dbBatch(operations: $ops) { op rows } }`, {
      ops: [
        { scope: { kind: 'resource', resourceId: club }, table: 'posts', op: 'insert', values: { title: 'hello' } },
        { scope: { kind: 'user' }, table: 'posts', op: 'select' },
      ],
    });
    expect(res.errors?.[0]?.message).toBeUndefined();
    expect(res.data.dbBatch[0].rows).toEqual([expect.objectContaining({ title: 'hello', likes: 0, roomId: null })]);
    // The post is the visitor's own row, linked in.
    expect(res.data.dbBatch[1].rows).toEqual([expect.objectContaining({ title: 'hello' })]);
    expect((await visitor.get(`/v1/resources/${club}`)).body.currentMember).toEqual({ role: 'writer', state: 'active' });
    // read: 'reader' admits every role; the visitor joined as a writer and reads the club's posts.
    expect((await db(visitor, { scope: inResource(club), table: 'posts', op: 'select' })).body.rows).toEqual([
      expect.objectContaining({ title: 'hello' }),
    ]);
  });

  it('the declared index on member_notes(subjectId, createdAt) exists', async ({ ctx }) => {
    const defs = await ctx.database.prisma.$queryRaw<{ indexdef: string }[]>`
      SELECT indexdef FROM pg_indexes WHERE tablename = 'rows' AND indexdef LIKE '%member_notes%'`;
    expect(defs.map(d => d.indexdef)).toEqual([
      expect.stringContaining(`(resource_id, room_id, ((data ->> 'subjectId'::text)) COLLATE "C", created_at, id)`),
    ]);
  });
});
