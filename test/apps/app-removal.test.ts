/**
 * Issue 28 item 6: undo for developers (docs/api.md §3.2). Resetting or deleting an environment and
 * deleting an app remove that data alone (rows, files and their blobs, resources, test users), for
 * the app's developer alone, and prod only with confirm=prod. Live row feeds hear the rows go.
 */
import { defineSchema } from 'gatehouse/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_RESOURCES, type TestContext, addMember, createResource, seed, startTestApp } from '../helpers/app.js';
import { type Subscription, snapshotOf, subscribe } from '../helpers/feeds.js';

const SCHEMA = defineSchema({
  tables: { notes: t => t.text('body').notNull() },
  files: { docs: { maxSize: '1MB' } },
  resources: { ...TEST_RESOURCES, board: r => r.shares('notes') },
});

let ctx: TestContext;

beforeAll(async () => {
  // Listening: the feed test subscribes over a WebSocket.
  ctx = await startTestApp({ listen: true });
});
afterAll(() => ctx?.close());

/** An app with `envs` deployed, each holding a test user's note, file and resource. */
async function populated(envs: string[]) {
  const s = await seed(ctx, []);
  const filled: Record<string, { token: string; userId: string; resourceId: string; deploymentId: string }> = {};
  for (const env of envs) {
    const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/${env}`, { schema: SCHEMA });
    expect(deployed.status).toBe(200);
    // Test users cannot be minted for prod: the prod data is written by a dev-env user's twin below.
    const mintEnv = env === 'prod' ? 'dev' : env;
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: `u-${env}`, env: mintEnv });
    expect(minted.status).toBe(200);
    const user = ctx.client(minted.body.token);
    const resourceId = await createResource(user, 'team', `Team in ${env}`);
    expect((await user.post('/v1/db/query', { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { body: env } })).status).toBe(200);
    const put = await ctx.fetch('/v1/files/me/docs/a.txt', {
      method: 'PUT',
      headers: { authorization: `Bearer ${minted.body.token}`, 'content-type': 'text/plain' },
      body: `bytes of ${env}`,
    });
    expect(put.status).toBe(201);
    filled[env] = { token: minted.body.token, userId: minted.body.user_id, resourceId, deploymentId: deployed.body.deploymentId };
  }
  return { s, filled };
}

const prisma = () => ctx.app.services.deps.prisma;

async function holdings(deploymentId: string) {
  const db = prisma();
  const [rows, files, resources] = await Promise.all([
    db.row.count({ where: { deploymentId } }),
    db.file.findMany({ where: { deploymentId }, select: { blobKey: true } }),
    db.resource.findMany({ where: { deploymentId }, select: { type: true } }),
  ]);
  return { rows, files: files.map(f => f.blobKey), resources: resources.map(r => r.type).sort() };
}

async function blobExists(key: string): Promise<boolean> {
  for await (const blob of ctx.app.services.files.blobs.list()) if (blob.key === key) return true;
  return false;
}

/** Blob deletion runs after commit, without being awaited: wait for it a little. */
async function gone(key: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!(await blobExists(key))) return true;
    await new Promise(resolve => setTimeout(resolve, 20));
  }
  return false;
}

describe('POST /dev/apps/:appId/environments/:env/reset', () => {
  it('empties that environment (rows, files and blobs, resources, test users) and keeps its schema and static resources; staging is untouched', async () => {
    const { s, filled } = await populated(['dev', 'staging']);
    const before = await holdings(filled.dev.deploymentId);
    expect(before.rows).toBe(1);
    expect(before.files).toHaveLength(1);
    expect(await blobExists(before.files[0])).toBe(true);
    const staging = await holdings(filled.staging.deploymentId);

    const reset = await s.developer.post(`/dev/apps/${s.appId}/environments/dev/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ appId: s.appId, environments: ['dev'], rows: 1, files: 1, resources: before.resources.length, testUsers: 1 });

    const after = await holdings(filled.dev.deploymentId);
    expect(after.rows).toBe(0);
    expect(after.files).toEqual([]);
    // The static resources come back, empty; the team is gone.
    expect(after.resources).toEqual(['_app', 'settings']);
    expect(await gone(before.files[0])).toBe(true);
    expect(await prisma().principal.findUnique({ where: { id: filled.dev.userId } })).toBeNull();
    // The test user's token no longer works.
    expect((await ctx.client(filled.dev.token).get('/v1/resources')).status).toBe(401);
    // The schema is still deployed: a new test user can start over.
    expect((await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'again', env: 'dev' })).status).toBe(200);

    // Staging: the same as before, its user still works.
    expect(await holdings(filled.staging.deploymentId)).toEqual(staging);
    expect(await blobExists(staging.files[0])).toBe(true);
    expect((await ctx.client(filled.staging.token).get(`/v1/resources/${filled.staging.resourceId}`)).status).toBe(200);
  });

  it('live row feeds hear every row go: their own rows, and a resource the rows were shared into', async () => {
    const { s, filled } = await populated(['dev']);
    const user = ctx.client(filled.dev.token);
    const boardId = await createResource(user, 'board', 'Board');
    const shared = await user.post('/v1/db/query', {
      scope: { kind: 'resource', resourceId: boardId },
      table: 'notes',
      op: 'insert',
      values: { body: 'pinned' },
    });
    expect(shared.status).toBe(200);
    const rowsLive = 'subscription($input: DbSelectInput!) { rowsLive(input: $input) { op row } }';
    const own = subscribe(ctx.url, filled.dev.token, rowsLive, { input: { scope: { kind: 'user' }, table: 'notes' } });
    const board = subscribe(ctx.url, filled.dev.token, rowsLive, { input: { scope: { kind: 'resource', resourceId: boardId }, table: 'notes' } });
    /** The next `count` events of a feed, each a delete: the ids deleted. */
    const deleted = async (feed: Subscription, count: number) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const { data, errors } = await feed.next();
        expect(errors).toBeUndefined();
        expect(data.rowsLive.op).toBe('delete');
        ids.push(data.rowsLive.row.id);
      }
      return ids.sort();
    };
    try {
      const ownRows = await snapshotOf<{ id: string }>(own);
      const boardRows = await snapshotOf<{ id: string }>(board);
      expect(ownRows.map(r => r.id)).toContain(shared.body.rows[0].id);
      expect(boardRows.map(r => r.id)).toEqual([shared.body.rows[0].id]);

      expect((await s.developer.post(`/dev/apps/${s.appId}/environments/dev/reset`)).status).toBe(200);
      expect(await deleted(own, ownRows.length)).toEqual(ownRows.map(r => r.id).sort());
      expect(await deleted(board, 1)).toEqual([shared.body.rows[0].id]);
      // Once each.
      expect(await own.quiet(200)).toBe(true);
    } finally {
      await Promise.all([own.dispose(), board.dispose()]);
    }
  });

  it('a rooms feed hears each of its grants go', async () => {
    const { s, filled } = await populated(['dev']);
    const teamId = filled.dev.resourceId;
    const owner = Object.assign(ctx.client(filled.dev.token), { id: filled.dev.userId });
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'member', env: 'dev' });
    const member = Object.assign(ctx.client(minted.body.token), { id: minted.body.user_id as string });
    await addMember(owner, member, teamId, 'writer');
    const room = await owner.post(`/v1/resources/${teamId}/rooms`, { name: 'Back room' });
    expect(room.status).toBe(200);
    expect((await owner.request('PUT', `/v1/resources/${teamId}/rooms/${room.body.id}/grants/${member.id}`, { role: 'reader' })).status).toBe(200);
    const feed = subscribe(ctx.url, minted.body.token, 'subscription { roomsLive { op row { resourceId roomId role } } }');
    try {
      expect(await snapshotOf(feed)).toEqual([{ resourceId: teamId, roomId: room.body.id, role: 'reader' }]);
      expect((await s.developer.post(`/dev/apps/${s.appId}/environments/dev/reset`)).status).toBe(200);
      // A delete carries the grant's identity, not its role (docs/api.md §6).
      expect(await feed.next()).toEqual({ data: { roomsLive: { op: 'delete', row: { resourceId: teamId, roomId: room.body.id, role: null } } } });
    } finally {
      await feed.dispose();
    }
  });

  it("another developer's app, an unknown app and an unknown environment are 404s that change nothing", async () => {
    const { s, filled } = await populated(['dev']);
    const other = await seed(ctx, []);
    const before = await holdings(filled.dev.deploymentId);

    const foreign = await other.developer.post(`/dev/apps/${s.appId}/environments/dev/reset`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('app_not_found');
    const missing = await other.developer.post('/dev/apps/app_missing/environments/dev/reset');
    expect(missing.body).toEqual({ error: 'app_not_found', message: foreign.body.message.replace(s.appId, 'app_missing') });
    const typo = await s.developer.post(`/dev/apps/${s.appId}/environments/dve/reset`);
    expect(typo.status).toBe(404);
    expect(typo.body.error).toBe('env_not_found');
    expect(typo.body.message).toContain('it has: dev');
    expect((await other.developer.request('DELETE', `/dev/apps/${s.appId}`)).status).toBe(404);
    expect((await other.developer.request('DELETE', `/dev/apps/${s.appId}/environments/dev`)).status).toBe(404);
    // A test user's token is no developer token.
    expect((await ctx.client(filled.dev.token).post(`/dev/apps/${s.appId}/environments/dev/reset`)).status).toBe(403);

    expect(await holdings(filled.dev.deploymentId)).toEqual(before);
  });
});

describe('DELETE /dev/apps/:appId/environments/:env', () => {
  it('deletes the deployment with its data; the app and its other environments stay', async () => {
    const { s, filled } = await populated(['dev', 'staging']);
    const blob = (await holdings(filled.dev.deploymentId)).files[0];
    const deleted = await s.developer.request('DELETE', `/dev/apps/${s.appId}/environments/dev`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ appId: s.appId, environments: ['dev'], rows: 1, files: 1, testUsers: 1 });
    expect(await prisma().deployment.findUnique({ where: { id: filled.dev.deploymentId } })).toBeNull();
    expect(await gone(blob)).toBe(true);

    const apps = await s.developer.get('/dev/apps');
    expect(apps.body.apps.find((a: { id: string }) => a.id === s.appId).environments).toEqual(['staging']);
    expect((await holdings(filled.staging.deploymentId)).rows).toBe(1);
    // Gone means gone: a second delete is a 404, a test user cannot be minted there.
    expect((await s.developer.request('DELETE', `/dev/apps/${s.appId}/environments/dev`)).body.error).toBe('env_not_found');
    expect((await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'x', env: 'dev' })).body.error).toBe('env_not_deployed');
  });

  it('prod needs confirm=prod', async () => {
    const { s } = await populated(['dev', 'prod']);
    const refused = await s.developer.request('DELETE', `/dev/apps/${s.appId}/environments/prod`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('prod_confirmation_required');
    expect((await s.developer.post(`/dev/apps/${s.appId}/environments/prod/reset`)).body.error).toBe('prod_confirmation_required');
    expect((await s.developer.request('DELETE', `/dev/apps/${s.appId}`)).body.error).toBe('prod_confirmation_required');

    const deleted = await s.developer.request('DELETE', `/dev/apps/${s.appId}/environments/prod?confirm=prod`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.environments).toEqual(['prod']);
    expect((await s.developer.get('/dev/apps')).body.apps.find((a: { id: string }) => a.id === s.appId).environments).toEqual(['dev']);
  });
});

describe('DELETE /dev/apps/:appId', () => {
  it('deletes the app, every environment, test users, budgets and origins; other apps are untouched', async () => {
    const { s, filled } = await populated(['dev', 'staging']);
    const bystander = await populated(['dev']);
    const bystanderBefore = await holdings(bystander.filled.dev.deploymentId);
    const blobs = [...(await holdings(filled.dev.deploymentId)).files, ...(await holdings(filled.staging.deploymentId)).files];

    const deleted = await s.developer.request('DELETE', `/dev/apps/${s.appId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      appId: s.appId,
      environments: ['dev', 'staging'],
      rows: 2,
      files: 2,
      resources: expect.any(Number),
      testUsers: 2,
    });

    const db = prisma();
    expect(await db.app.findUnique({ where: { id: s.appId } })).toBeNull();
    expect(await db.deployment.count({ where: { appId: s.appId } })).toBe(0);
    expect(await db.principal.count({ where: { id: { startsWith: `test:${s.appId}:` } } })).toBe(0);
    expect(await db.budget.count({ where: { appId: s.appId } })).toBe(0);
    expect(await db.appOrigin.count({ where: { appId: s.appId } })).toBe(0);
    for (const key of blobs) expect(await gone(key)).toBe(true);
    expect(await ctx.app.services.apps.appOfOrigin(s.origin)).toBeNull();
    expect((await s.developer.get('/dev/apps')).body.apps).toEqual([]);

    expect(await holdings(bystander.filled.dev.deploymentId)).toEqual(bystanderBefore);
    expect((await ctx.client(bystander.filled.dev.token).get(`/v1/resources/${bystander.filled.dev.resourceId}`)).status).toBe(200);
  });
});

describe('stored bytes', () => {
  it('are no longer counted for the removed environment (the at-rest settlement bills the kept one only)', async () => {
    const { s } = await populated(['dev']);
    const kept = await populated(['dev']);
    const day = new Date(Date.now() + 2 * 86_400_000);
    const reset = await s.developer.post(`/dev/apps/${s.appId}/environments/dev/reset`);
    expect(reset.status).toBe(200);
    await ctx.app.services.metering.settleStorage(day);
    const billed = (developerId: string) => prisma().walletEntry.count({ where: { developerId, kind: 'storage' } });
    // The same data, not reset, is billed: the count of the reset one is a real zero.
    expect(await billed(kept.s.developerId)).toBe(1);
    expect(await billed(s.developerId)).toBe(0);
  });
});
