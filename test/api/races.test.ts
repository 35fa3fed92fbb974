/**
 * Concurrency is correctness: racing requests must leave the state of some serial order.
 * Each race runs against the embedded database and, where reachable, real PostgreSQL.
 */
import { describe, expect } from 'vitest';
import { createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';

const available = await backends();
/** Bursts of 50-60 requests (plus minting their users) run one at a time on PGlite: tens of seconds on a loaded 2-core machine. */
const BURST_TIMEOUT_MS = 120_000;
const onBackend = appTestOn(available, { users: ['owner', 'joiner'] });

describe.each(available)('races on $name', backend => {
  const it = onBackend(backend);

  it('concurrent joins leave one membership', async ({ ctx, s }) => {
    const id = await createResource(s.users.owner, 'forum', 'busy');
    const results = await Promise.all(Array.from({ length: 20 }, () => s.users.joiner.post(`/v1/resources/${id}/join`)));
    expect(results.map(r => r.status)).toEqual(Array(20).fill(200));
    const rows = await ctx.database.prisma.membership.findMany({ where: { resourceId: id } });
    expect(rows).toHaveLength(2);
    expect((await s.users.owner.get(`/v1/resources/${id}`)).body.memberCount).toBe(2);
  });

  it(
    'a link claimed by 50 clients at once is consumed exactly once',
    async ({ s }) => {
      const id = await createResource(s.users.owner, 'team', 'prize');
      const link = await s.users.owner.post(`/v1/resources/${id}/invite-link`, { role: 'reader' });
      const code = link.body.url.split('/_invite/')[1];
      const claimers = await Promise.all(Array.from({ length: 50 }, (_, i) => s.user(`claimer-${backend.name}-${i}`)));
      const results = await Promise.all(claimers.map(c => c.post('/v1/invite-links/claim', { code })));
      const winners = results.filter(r => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(results.filter(r => r.status === 410).every(r => r.body.error === 'invite_link_used')).toBe(true);
      expect(results.filter(r => r.status !== 200)).toHaveLength(49);
      expect((await s.users.owner.get(`/v1/resources/${id}`)).body.memberCount).toBe(2);
    },
    BURST_TIMEOUT_MS,
  );

  it(
    'the 50-pending cap holds under concurrent invites',
    async ({ ctx, s }) => {
      const id = await createResource(s.users.owner, 'team', 'capped');
      const invitees = await Promise.all(Array.from({ length: 60 }, (_, i) => s.user(`invitee-${backend.name}-${i}`)));
      const results = await Promise.all(invitees.map(u => s.users.owner.post(`/v1/resources/${id}/invite`, { userId: u.id })));
      expect(results.filter(r => r.status === 200)).toHaveLength(50);
      expect(results.filter(r => r.status === 409 && r.body.error === 'pending_limit')).toHaveLength(10);
      expect(await ctx.database.prisma.membership.count({ where: { resourceId: id, state: 'invited' } })).toBe(50);
    },
    BURST_TIMEOUT_MS,
  );

  it('racing setRole and remove on one member end in a serial outcome', async ({ ctx, s }) => {
    const id = await createResource(s.users.owner, 'team', 'contested');
    await s.users.owner.post(`/v1/resources/${id}/invite`, { userId: s.users.joiner.id });
    await s.users.joiner.post(`/v1/resources/${id}/accept`);
    const [setRole, remove] = await Promise.all([
      s.users.owner.post(`/v1/resources/${id}/setRole`, { userId: s.users.joiner.id, role: 'reader' }),
      s.users.owner.post(`/v1/resources/${id}/remove`, { userId: s.users.joiner.id }),
    ]);
    expect(remove.status).toBe(200);
    // setRole either ran first (200) or found no member (404); either way the member is gone.
    expect([200, 404]).toContain(setRole.status);
    const row = await ctx.database.prisma.membership.findUnique({
      where: { resourceId_principalId: { resourceId: id, principalId: s.users.joiner.id } },
    });
    expect(row).toBeNull();
    expect((await s.users.owner.get(`/v1/resources/${id}`)).body.memberCount).toBe(1);
  });

  it('memberCount equals the active rows after a burst of mixed transitions', async ({ ctx, s }) => {
    const id = await createResource(s.users.owner, 'forum', 'mixed');
    const people = await Promise.all(Array.from({ length: 15 }, (_, i) => s.user(`mix-${backend.name}-${i}`)));
    await Promise.all(people.map(p => p.post(`/v1/resources/${id}/join`)));
    await Promise.all(people.map((p, i) => (i % 3 === 0 ? p.post(`/v1/resources/${id}/leave`) : p.post(`/v1/resources/${id}/join`))));
    const active = await ctx.database.prisma.membership.count({ where: { resourceId: id, state: 'active' } });
    expect(active).toBe(11);
    expect((await s.users.owner.get(`/v1/resources/${id}`)).body.memberCount).toBe(active);
  });
});
