/**
 * Quotas per person and app (docs/api.md §9.6): resources a person owns (with their agents) and
 * agents they own in one app. The next create past a quota is 429 with a stable code and changes
 * nothing; racing creates never pass it; an agent counts against its owner. Runs on both stores.
 */
import { describe, expect } from 'vitest';
import type { Seed } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';

const available = await backends();
const onBackend = appTestOn(available, { app: { env: { MAX_RESOURCES_PER_PERSON: '3', MAX_AGENTS_PER_PERSON: '2' } }, users: ['anchor'] });

describe.each(available)('quotas per person and app on $name', backend => {
  let n = 0;
  const it = onBackend(backend)
    .extend('person', async ({ s }) => {
      return () => s.user(`person-${++n}`);
    })
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    .extend('ownedBy', async ({ prisma }) => {
      return (id: string) => prisma.membership.count({ where: { principalId: id, role: 'owner' } });
    });

  const create = (who: { post: Seed['users'][string]['post'] }, name = 'quota') => who.post('/v1/resources', { type: 'team', name });

  it('resources: the next create past MAX_RESOURCES_PER_PERSON is 429 too_many_resources; an agent counts against its owner', async ({
    ctx,
    s,
    person,
    ownedBy,
  }) => {
    const user = await person();
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await create(user)).body.id);
    const refused = await create(user);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'too_many_resources', limit: 3, message: expect.stringContaining('MAX_RESOURCES_PER_PERSON') });
    // Through an agent of theirs: the same person.
    const agent = await user.post('/v1/agents', { name: 'maker' });
    const viaAgent = await create(ctx.client(agent.body.token));
    expect(viaAgent.status).toBe(429);
    expect(viaAgent.body.error).toBe('too_many_resources');
    expect(await ownedBy(user.id)).toBe(3);
    expect(await ownedBy(agent.body.id)).toBe(0);
    // Another person has a quota of their own; a deleted resource gives its place back.
    expect((await create(await person())).status).toBe(200);
    await ctx.app.services.resourceDeletion.deleteAsOwner(user.id, s.appId, created[0]);
    expect((await create(ctx.client(agent.body.token))).status).toBe(200);
    expect((await create(user)).status).toBe(429);
  });

  it('resources: racing creates never pass the quota', async ({ person, ownedBy }) => {
    const user = await person();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(user, `race ${i}`)));
    expect(answers.map(a => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await ownedBy(user.id)).toBe(3);
  });

  it('agents: the next past MAX_AGENTS_PER_PERSON is 429 too_many_agents; deleting one frees its place', async ({ ctx, prisma, person }) => {
    const user = await person();
    const agents = [(await user.post('/v1/agents', { name: 'a' })).body, (await user.post('/v1/agents', { name: 'b' })).body];
    const refused = await user.post('/v1/agents', { name: 'c' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'too_many_agents', limit: 2, message: expect.stringContaining('DELETE /v1/agents/:id') });
    expect(await prisma.principal.count({ where: { ownerId: user.id } })).toBe(2);
    const listed = await user.get('/v1/agents');
    expect(listed.body.agents.map((a: { id: string; name: string }) => [a.id, a.name])).toEqual([
      [agents[0].id, 'a'],
      [agents[1].id, 'b'],
    ]);

    // Only the owner deletes an agent; another person's, or the agent itself, finds no such agent.
    const stranger = await person();
    for (const who of [stranger, ctx.client(agents[0].token)]) {
      const denied = await who.request('DELETE', `/v1/agents/${agents[0].id}`);
      expect(denied.status).toBe(404);
      expect(denied.body.error).toBe('user_not_found');
    }
    const deleted = await user.request('DELETE', `/v1/agents/${agents[0].id}`);
    expect(deleted.body).toEqual({ ok: true, transferred: [], deleted: [] });
    expect((await ctx.client(agents[0].token).get('/v1/resources')).status).toBe(401);
    expect(await prisma.principal.findUnique({ where: { id: agents[0].id } })).toBeNull();
    expect((await user.post('/v1/agents', { name: 'c' })).status).toBe(200);
  });

  it('agents: racing creates never pass the quota', async ({ prisma, person }) => {
    const user = await person();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => user.post('/v1/agents', { name: `racer ${i}` })));
    expect(answers.map(a => a.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await prisma.principal.count({ where: { ownerId: user.id } })).toBe(2);
  });
});
