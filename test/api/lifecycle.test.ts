/**
 * Lifecycle policies (docs/api.md §12): onMemberRemove on leave, remove and resource deletion,
 * hidden links reappearing on every way back in, and account deletion with each onOwnerDelete.
 * Rows and links are written straight through Prisma: this suite tests what the policies do to
 * the store, whatever API wrote it.
 */
import { randomUUID } from 'node:crypto';
import { defineSchema, type OwnerDeletePolicy, type ResourceBuilder, type TableBuilder } from 'gatehouse/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/secrets.js';
import type { MembershipEvent } from '../../src/bus/event-bus.js';
import { type Seed, type TestContext, addMember, createResource, seed, startTestApp } from '../helpers/app.js';

/** A table with one text column and the onOwnerDelete policy under test. */
const table = (onOwnerDelete: OwnerDeletePolicy) => (t: TableBuilder) => t.text('body').onOwnerDelete(onOwnerDelete);
const type = (visibility: 'members' | 'unlisted') => (r: ResourceBuilder) =>
  r
    .visibility(visibility)
    .defaultRole('writer')
    // One shared table per onMemberRemove policy, one owned table per onOwnerDelete policy.
    .shares('notes', share => share.onMemberRemove('remove'))
    .shares('posts', share => share.onMemberRemove('hide'))
    .shares('photos', share => share.onMemberRemove('retain'))
    .owns(`${visibility}_tasks`)
    .owns(`${visibility}_comments`)
    .owns(`${visibility}_logs`);
const SCHEMA = defineSchema({
  tables: {
    notes: table('remove'),
    posts: table('tombstone'),
    photos: table('retain'),
    members_tasks: table('remove'),
    members_comments: table('tombstone'),
    members_logs: table('retain'),
    unlisted_tasks: table('remove'),
    unlisted_comments: table('tombstone'),
    unlisted_logs: table('retain'),
  },
  resources: { team: type('members'), club: type('unlisted') },
});

describe('lifecycle policies', () => {
  let ctx: TestContext;
  let s: Seed;
  let deploymentId: string;
  let n = 0;

  beforeAll(async () => {
    ctx = await startTestApp();
    s = await seed(ctx, ['owner']);
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: SCHEMA });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    deploymentId = deployed.body.deploymentId;
  });
  afterAll(() => ctx.close());

  const db = () => ctx.database.prisma;
  const person = () => s.user(`person-${++n}`);

  function row(tableName: string, creatorId: string, place: { resourceId?: string; roomId?: string } = {}) {
    return db().row.create({
      data: {
        id: randomUUID(),
        deploymentId,
        tableName,
        creatorId,
        resourceId: place.resourceId ?? null,
        roomId: place.roomId ?? null,
        data: { body: `${tableName} by ${creatorId}` },
      },
    });
  }
  const link = (rowId: string, resourceId: string, linkedBy: string, roomId: string | null = null) =>
    db().rowLink.create({ data: { rowId, resourceId, roomId, linkedBy } });
  const bodyOf = (r: { data: unknown }) => (r.data as { body: string }).body;
  const linkOf = (rowId: string, resourceId: string) => db().rowLink.findUnique({ where: { rowId_resourceId: { rowId, resourceId } } });
  const room = (resourceId: string) => db().room.create({ data: { id: newId('room'), resourceId, name: `room ${++n}` } });
  const grant = (roomId: string, resourceId: string, principalId: string) =>
    db().roomGrant.create({ data: { roomId, resourceId, principalId, role: 'writer' } });

  /** A member with one linked row per shared table (posts and photos in a room), a grant, and the owner's own link. */
  async function memberWithLinks(kind: 'team' | 'club' = 'team') {
    const member = await person();
    const id = await createResource(s.users.owner, kind, `${kind} ${++n}`);
    await addMember(s.users.owner, member, id, 'writer');
    const side = await room(id);
    await grant(side.id, id, member.id);
    const notes = await row('notes', member.id);
    const posts = await row('posts', member.id);
    const photos = await row('photos', member.id);
    await link(notes.id, id, member.id);
    await link(posts.id, id, member.id, side.id);
    await link(photos.id, id, member.id, side.id);
    const ownersNote = await row('notes', s.users.owner.id);
    await link(ownersNote.id, id, s.users.owner.id);
    return { member, id, side, notes, posts, photos, ownersNote };
  }

  describe('onMemberRemove', () => {
    it.each(['leave', 'remove'] as const)('§12: %s applies remove, hide and retain per shared table; originals untouched', async how => {
      const { member, id, side, notes, posts, photos, ownersNote } = await memberWithLinks();
      const res =
        how === 'leave'
          ? await member.post(`/v1/resources/${id}/leave`)
          : await s.users.owner.post(`/v1/resources/${id}/remove`, { userId: member.id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      expect(await linkOf(notes.id, id)).toBeNull(); // remove: the link is dropped
      expect(await linkOf(posts.id, id)).toMatchObject({ hidden: true, roomId: side.id }); // hide
      expect(await linkOf(photos.id, id)).toBeNull(); // retain: the link goes, a copy stays
      const copies = await db().row.findMany({ where: { resourceId: id, tableName: 'photos' } });
      expect(copies).toHaveLength(1);
      expect(copies[0]).toMatchObject({ roomId: side.id, creatorId: member.id, data: photos.data, createdAt: photos.createdAt });
      expect(copies[0].id).not.toBe(photos.id);
      // The member's originals are never touched.
      for (const original of [notes, posts, photos]) {
        expect(await db().row.findUnique({ where: { id: original.id } })).toEqual(original);
      }
      // Someone else's link stays; the member's grants went with the membership.
      expect(await linkOf(ownersNote.id, id)).toMatchObject({ hidden: false });
      expect(await db().roomGrant.count({ where: { resourceId: id, principalId: member.id } })).toBe(0);
    });

    it('§12: a pending member who is withdrawn had no links to act on, and a leave with none is a no-op', async () => {
      const member = await person();
      const id = await createResource(s.users.owner, 'team', 'quiet');
      await addMember(s.users.owner, member, id, 'reader');
      expect((await member.post(`/v1/resources/${id}/leave`)).status).toBe(200);
      expect(await db().rowLink.count({ where: { resourceId: id } })).toBe(0);
    });

    it.each(['accept', 'join', 'claim', 'auto-join'] as const)(
      '§12: hidden links reappear on rejoin by %s; retained copies are not given back',
      async path => {
        const { member, id, notes, posts, photos } = await memberWithLinks(path === 'join' || path === 'auto-join' ? 'club' : 'team');
        expect((await member.post(`/v1/resources/${id}/leave`)).status).toBe(200);
        expect(await linkOf(posts.id, id)).toMatchObject({ hidden: true });

        if (path === 'accept') await addMember(s.users.owner, member, id, 'writer');
        if (path === 'join') expect((await member.post(`/v1/resources/${id}/join`)).status).toBe(200);
        if (path === 'claim') {
          const created = await s.users.owner.post(`/v1/resources/${id}/invite-link`, { role: 'writer' });
          const code = created.body.url.split('/_invite/')[1];
          expect((await member.post('/v1/invite-links/claim', { code })).status).toBe(200);
        }
        if (path === 'auto-join') {
          // The first write by a non-member of a public resource joins them (docs/api.md §5.2).
          const write = await member.post('/v1/db/query', {
            scope: { kind: 'resource', resourceId: id },
            table: 'notes',
            op: 'insert',
            values: [{ body: 'back' }],
          });
          expect(write.status, JSON.stringify(write.body)).toBe(200);
          expect(await db().membership.findUnique({ where: { resourceId_principalId: { resourceId: id, principalId: member.id } } })).toMatchObject({
            state: 'active',
          });
        }

        expect(await linkOf(posts.id, id)).toMatchObject({ hidden: false });
        expect(await linkOf(notes.id, id)).toBeNull();
        expect(await linkOf(photos.id, id)).toBeNull();
        expect(await db().row.count({ where: { resourceId: id, tableName: 'photos' } })).toBe(1);
      },
    );

    it('§12: an invite that is only pending does not bring hidden links back', async () => {
      const { member, id, posts } = await memberWithLinks();
      await member.post(`/v1/resources/${id}/leave`);
      expect((await s.users.owner.post(`/v1/resources/${id}/invite`, { userId: member.id })).status).toBe(200);
      expect(await linkOf(posts.id, id)).toMatchObject({ hidden: true });
    });

    it('§12: links of a table the type no longer shares are dropped (the default)', async () => {
      const member = await person();
      const id = await createResource(s.users.owner, 'team', 'legacy');
      await addMember(s.users.owner, member, id, 'writer');
      // members_tasks is owned, not shared: a link of it is what a schema change could leave behind.
      const stray = await row('members_tasks', member.id);
      await link(stray.id, id, member.id);
      await member.post(`/v1/resources/${id}/leave`);
      expect(await linkOf(stray.id, id)).toBeNull();
      expect(await db().row.findUnique({ where: { id: stray.id } })).not.toBeNull();
    });
  });

  describe('resource deletion', () => {
    it('§12: removes rooms, grants, resource-owned rows, retained copies and links (hidden too) in one go; creators keep their rows', async () => {
      const { member, id, side, notes, posts, photos, ownersNote } = await memberWithLinks();
      const task = await row('members_tasks', s.users.owner.id, { resourceId: id, roomId: side.id });
      const stayer = await person();
      await addMember(s.users.owner, stayer, id, 'writer');
      const leaverPost = await row('posts', stayer.id);
      await link(leaverPost.id, id, stayer.id, side.id);
      await stayer.post(`/v1/resources/${id}/leave`); // a hidden link
      await s.users.owner.post(`/v1/resources/${id}/remove`, { userId: member.id }); // a retained copy, a hidden link

      const events: MembershipEvent[] = [];
      const unsubscribe = ctx.app.services.deps.bus.subscribe(e => e.row.resourceId === id && events.push(e));
      await expect(ctx.app.services.resourceDeletion.deleteAsOwner(s.users.owner.id, s.appId, id)).resolves.toEqual({ ok: true });
      unsubscribe();

      expect(await db().resource.findUnique({ where: { id } })).toBeNull();
      expect(await db().room.count({ where: { resourceId: id } })).toBe(0);
      expect(await db().roomGrant.count({ where: { resourceId: id } })).toBe(0);
      expect(await db().row.count({ where: { resourceId: id } })).toBe(0);
      expect(await db().rowLink.count({ where: { resourceId: id } })).toBe(0);
      expect(await db().row.findUnique({ where: { id: task.id } })).toBeNull();
      for (const original of [notes, posts, photos, ownersNote, leaverPost]) {
        expect(await db().row.findUnique({ where: { id: original.id } })).toEqual(original);
      }
      expect(events.map(e => [e.op, e.row.userId])).toEqual([['delete', s.users.owner.id]]);
    });
  });

  describe('account deletion', () => {
    const confirm = { confirm: 'delete my account' };
    /**
     * What the dashboard route runs for its signed-in user (test users have no dashboard session;
     * the route itself is exercised with a real one in test/gateway-auth/hosted.test.ts).
     */
    const deleteAccount = (user: { id: string }) => ctx.app.services.accountDeletion.deleteAccount(user.id, confirm.confirm);

    it('§12: refuses without the exact confirmation, and an agent, changing nothing', async () => {
      const user = await person();
      for (const phrase of [undefined, '', 'yes', 'Delete my account', 42]) {
        await expect(ctx.app.services.accountDeletion.deleteAccount(user.id, phrase)).rejects.toMatchObject({
          code: 'confirmation_required',
          status: 400,
          message: expect.stringContaining('"delete my account"'),
        });
      }
      const agent = await user.post('/v1/agents', { name: 'helper' });
      await expect(deleteAccount({ id: agent.body.id })).rejects.toMatchObject({ code: 'agents_cannot_delete_accounts', status: 403 });
      expect(await db().principal.count({ where: { id: { in: [user.id, agent.body.id] } } })).toBe(2);
      expect((await user.get('/v1/resources')).status).toBe(200);
    });

    it('§12, §4.2: no app credential deletes an account (the dashboard session only), with or without the phrase', async () => {
      const user = await person();
      const owned = await createResource(user, 'team', 'kept');
      const agent = await user.post('/v1/agents', { name: 'helper' });
      for (const caller of [user, ctx.client(agent.body.token)]) {
        for (const body of [confirm, {}]) {
          const rest = await caller.request('DELETE', '/v1/me', body);
          expect(rest.status, JSON.stringify(rest.body)).toBe(403);
          expect(rest.body.error).toBe('dashboard_session_required');
        }
        const gql = await caller.gql('mutation { deleteMyAccount(confirm: "delete my account") { ok } }');
        expect(gql.errors[0].extensions).toMatchObject({ code: 'dashboard_session_required', status: 403 });
      }
      expect(await db().principal.count({ where: { id: { in: [user.id, agent.body.id] } } })).toBe(2);
      expect(await db().resource.count({ where: { id: owned } })).toBe(1);
    });

    it('§12: applies each onOwnerDelete to own, linked and resource rows, leaves every resource and ends every credential', async () => {
      const { owner } = s.users;
      const user = await person();
      const heir = await person();
      const bystander = await person();

      // `mine`: the user owns it, a person admin inherits it (the user's own agent admin does not).
      const mine = await createResource(user, 'team', 'inherited');
      await addMember(user, heir, mine, 'admin');
      const agent = await user.post('/v1/agents', { name: 'bot' });
      expect((await user.post(`/v1/resources/${mine}/invite`, { userId: agent.body.id, role: 'admin' })).body.state).toBe('active');
      await addMember(user, bystander, mine, 'writer');
      // `orphan`: the user owns it and nobody there is an admin: deleted with everything in it.
      const orphan = await createResource(user, 'club', 'orphaned');
      expect((await bystander.post(`/v1/resources/${orphan}/join`)).status).toBe(200);
      const orphanRow = await row('unlisted_tasks', bystander.id, { resourceId: orphan });
      // `theirs`: the user is a writer in the owner's team, with a room.
      const theirs = await createResource(owner, 'team', 'joined');
      await addMember(owner, user, theirs, 'writer');
      const side = await room(theirs);
      await grant(side.id, theirs, user.id);
      // `left`: the user left it earlier under `hide`; `pending`: an invite the user never answered.
      const left = await createResource(owner, 'team', 'left');
      await addMember(owner, user, left, 'writer');
      const pending = await createResource(owner, 'team', 'pending');
      await owner.post(`/v1/resources/${pending}/invite`, { userId: user.id });

      // remove: own rows (linked or not) and rows created in a resource go.
      const note = await row('notes', user.id);
      await link(note.id, theirs, user.id);
      const task = await row('members_tasks', user.id, { resourceId: theirs });
      // tombstone: a linked own row stays (linked), an unlinked one goes, a resource row stays authorless.
      const post = await row('posts', user.id);
      await link(post.id, theirs, user.id, side.id);
      const lonelyPost = await row('posts', user.id);
      const hiddenPost = await row('posts', user.id);
      await link(hiddenPost.id, left, user.id);
      await user.post(`/v1/resources/${left}/leave`);
      expect(await linkOf(hiddenPost.id, left)).toMatchObject({ hidden: true });
      const comment = await row('members_comments', user.id, { resourceId: theirs });
      // retain: a linked own row becomes a copy in each resource, a resource row stays authorless.
      const photo = await row('photos', user.id);
      await link(photo.id, theirs, user.id, side.id);
      await link(photo.id, mine, user.id);
      const log = await row('members_logs', user.id, { resourceId: theirs });
      // The agent's rows are the account's rows too.
      const agentNote = await row('notes', agent.body.id);
      // Other people's rows are untouched.
      const othersNote = await row('notes', owner.id);
      await link(othersNote.id, theirs, owner.id);

      // Sign-in state of the embedded provider, the account's and someone else's.
      await db().account.create({
        data: { id: newId('acc'), email: `${user.id}@example.test`.replace(/:/g, '-'), passwordHash: 'x', principalId: user.id },
      });
      for (const [model, id, accountId] of [
        ['Session', 'sess-user', user.id],
        ['Grant', 'grant-user', user.id],
        ['AccessToken', 'at-user', user.id],
        ['RefreshToken', 'rt-user', user.id],
        ['Session', 'sess-other', owner.id],
      ]) {
        await db().oidcPayload.create({ data: { model, id, payload: { accountId } } });
      }
      await db().oidcPayload.create({ data: { model: 'RememberedConsent', id: `${user.id} client_a`, payload: {} } });
      await db().oidcPayload.create({ data: { model: 'RememberedConsent', id: `${owner.id} client_a`, payload: {} } });
      await db().block.create({ data: { blockerId: user.id, blockedId: bystander.id } });

      const events: MembershipEvent[] = [];
      const unsubscribe = ctx.app.services.deps.bus.subscribe(e => events.push(e));
      const res = await deleteAccount(user);
      unsubscribe();
      expect(res).toEqual({ ok: true, transferred: [{ resourceId: mine, ownerId: heir.id }], deleted: [orphan] });

      const gone = async (id: string) => expect(await db().row.findUnique({ where: { id } })).toBeNull();
      // remove
      await gone(note.id);
      await gone(task.id);
      await gone(agentNote.id);
      expect(await linkOf(note.id, theirs)).toBeNull();
      // tombstone
      expect(await db().row.findUnique({ where: { id: post.id } })).toMatchObject({ creatorId: null, data: post.data, resourceId: null });
      expect(await linkOf(post.id, theirs)).toMatchObject({ hidden: false, roomId: side.id });
      await gone(lonelyPost.id);
      await gone(hiddenPost.id); // its only link was hidden, and can never come back
      expect(await db().row.findUnique({ where: { id: comment.id } })).toMatchObject({ creatorId: null, data: comment.data, resourceId: theirs });
      // retain
      await gone(photo.id);
      const photoCopies = await db().row.findMany({
        where: { tableName: 'photos', data: { equals: { body: bodyOf(photo) } } },
        orderBy: { resourceId: 'asc' },
      });
      expect(photoCopies.map(c => [c.resourceId, c.roomId, c.creatorId]).sort()).toEqual(
        [
          [mine, null, null],
          [theirs, side.id, null],
        ].sort(),
      );
      expect(await db().row.findUnique({ where: { id: log.id } })).toMatchObject({ creatorId: null, resourceId: theirs });
      // Read through the row store: the content stays in the resource, with no author id.
      await db().roomGrant.create({ data: { roomId: side.id, resourceId: theirs, principalId: owner.id, role: 'reader' } });
      const read = async (tableName: string) => {
        const res = await owner.post('/v1/db/query', { scope: { kind: 'resource', resourceId: theirs }, table: tableName, op: 'select' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.rows;
      };
      expect(await read('posts')).toEqual([expect.objectContaining({ id: post.id, body: bodyOf(post), _creatorId: null, roomId: side.id })]);
      expect(await read('photos')).toEqual([expect.objectContaining({ body: bodyOf(photo), _creatorId: null, roomId: side.id })]);
      expect((await read('notes')).map((r: { id: string }) => r.id)).toEqual([othersNote.id]);
      // Nothing anywhere names the account or its agent any more; other people's rows are as they were.
      expect(await db().row.count({ where: { creatorId: { in: [user.id, agent.body.id] } } })).toBe(0);
      expect(await db().row.findUnique({ where: { id: othersNote.id } })).toEqual(othersNote);
      expect(await linkOf(othersNote.id, theirs)).not.toBeNull();

      // Resources: inherited by the person admin, the heirless one deleted, the rest left.
      const mineMembers = await db().membership.findMany({ where: { resourceId: mine }, orderBy: { principalId: 'asc' } });
      expect(mineMembers.map(m => [m.principalId, m.role]).sort()).toEqual(
        [
          [heir.id, 'owner'],
          [bystander.id, 'writer'],
        ].sort(),
      );
      expect(await db().resource.findUnique({ where: { id: mine } })).toMatchObject({ memberCount: 2, ownerPrincipal: heir.id });
      expect((await heir.get(`/v1/resources/${mine}`)).body.currentMember).toEqual({ role: 'owner', state: 'active' });
      expect(await db().resource.findUnique({ where: { id: orphan } })).toBeNull();
      await gone(orphanRow.id);
      expect(await db().membership.count({ where: { principalId: { in: [user.id, agent.body.id] } } })).toBe(0);
      expect(await db().resource.findUnique({ where: { id: theirs } })).toMatchObject({ memberCount: 1 });
      expect(await db().roomGrant.count({ where: { principalId: user.id } })).toBe(0);

      // Feeds: everyone removed got their delete, the heir their promotion, the orphan's members theirs.
      const seen = events.map(e => `${e.op} ${e.row.resourceId} ${e.row.userId}`);
      expect(seen).toEqual(
        expect.arrayContaining([
          `update ${mine} ${heir.id}`,
          `delete ${mine} ${user.id}`,
          `delete ${mine} ${agent.body.id}`,
          `delete ${orphan} ${user.id}`,
          `delete ${orphan} ${bystander.id}`,
          `delete ${theirs} ${user.id}`,
          `delete ${pending} ${user.id}`,
        ]),
      );
      expect(seen).toHaveLength(7);

      // Credentials: Gatehouse tokens (the user's and the agent's), provider state, the sign-in account.
      expect((await user.get('/v1/resources')).status).toBe(401);
      expect((await ctx.client(agent.body.token).get('/v1/resources')).status).toBe(401);
      expect(await db().apiToken.count({ where: { principalId: { in: [user.id, agent.body.id] } } })).toBe(0);
      expect(await db().principal.count({ where: { id: { in: [user.id, agent.body.id] } } })).toBe(0);
      expect(await db().account.count({ where: { principalId: user.id } })).toBe(0);
      const payloads = await db().oidcPayload.findMany({
        where: { model: { in: ['Session', 'Grant', 'AccessToken', 'RefreshToken', 'RememberedConsent'] } },
      });
      expect(payloads.map(p => p.id).sort()).toEqual(['sess-other', `${owner.id} client_a`].sort());
      expect(await db().block.count({ where: { blockerId: user.id } })).toBe(0);
    });

    it('§12: a transition in flight for an account deleted meanwhile is 404 user_not_found, never a 500', async () => {
      const user = await person();
      const club = await createResource(s.users.owner, 'club', 'late');
      // The caller as resolved before the deletion (a request past its credential check).
      const ghost = {
        type: 'principal' as const,
        principal: { id: user.id, kind: 'user' as const, ownerId: null },
        deployment: { id: deploymentId, appId: s.appId, env: 'dev' },
        credential: 'test_session' as const,
        payer: null,
      };
      expect((await deleteAccount(user)).ok).toBe(true);
      await expect(ctx.app.services.membership.join(ghost, club)).rejects.toMatchObject({ code: 'user_not_found', status: 404 });
      expect(await db().membership.count({ where: { resourceId: club } })).toBe(1);
    });

    it('§12: a user who owns nothing just leaves; the answer lists no resources', async () => {
      const user = await person();
      const id = await createResource(s.users.owner, 'club', 'open');
      expect((await user.post(`/v1/resources/${id}/join`)).status).toBe(200);
      expect(await deleteAccount(user)).toEqual({ ok: true, transferred: [], deleted: [] });
      expect(await db().membership.count({ where: { resourceId: id } })).toBe(1);
      expect((await user.gql('{ resources { id } }')).errors[0].extensions.code).toBe('invalid_token');
    });
  });
});
