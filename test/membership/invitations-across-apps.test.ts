/**
 * GET /v1/me/invitations lists a person's invitations in every app through the membership
 * service, by the same rule as the per-deployment `invitations` (docs/api.md §2.1): unexpired, none across
 * a block in either direction, and in one query (no block lookup per row).
 */
import { describe, expect, vi } from 'vitest';
import { createResource, seed } from '../helpers/app.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest();

describe('membership.invitationsAcrossApps', () => {
  it('lists unexpired invites across apps, none across a block either way, in one query', async ({ ctx }) => {
    const a = await seed(ctx, ['owner', 'blocked', 'blocker']);
    const b = await seed(ctx, ['owner']);
    const { prisma } = ctx.app.services.deps;
    const me = `person-${Math.random().toString(36).slice(2, 10)}`;
    await prisma.principal.create({ data: { id: me, kind: 'user' } });
    const now = ctx.app.services.deps.now();
    const later = new Date(now.getTime() + 60_000);
    const invite = async (resourceId: string, invitedBy: string, expiresAt: Date, createdAt: Date) =>
      prisma.membership.create({ data: { resourceId, principalId: me, role: 'reader', state: 'invited', invitedBy, expiresAt, createdAt } });

    const inA = await createResource(a.users.owner, 'team', 'In A');
    const inB = await createResource(b.users.owner, 'team', 'In B');
    const expired = await createResource(a.users.owner, 'team', 'Expired');
    const byBlocked = await createResource(a.users.blocked, 'team', 'From someone I block');
    const byBlocker = await createResource(a.users.blocker, 'team', 'From someone who blocks me');
    await invite(inA, a.users.owner.id, later, new Date(now.getTime() - 2_000));
    await invite(inB, b.users.owner.id, later, new Date(now.getTime() - 1_000));
    await invite(expired, a.users.owner.id, new Date(now.getTime() - 1), now);
    await invite(byBlocked, a.users.blocked.id, later, now);
    await invite(byBlocker, a.users.blocker.id, later, now);
    await prisma.block.create({ data: { blockerId: me, blockedId: a.users.blocked.id } });
    await prisma.block.create({ data: { blockerId: a.users.blocker.id, blockedId: me } });

    const perRowLookups = vi.spyOn(prisma.block, 'findFirst');
    const queries = vi.spyOn(ctx.app.services.deps.sql.getExecutor(), 'executeQuery');
    const list = await ctx.app.services.membership.invitationsAcrossApps(me);
    expect(perRowLookups).not.toHaveBeenCalled();
    expect(queries).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();

    expect(list).toEqual([
      {
        appId: b.appId,
        appName: 'Test app',
        env: 'dev',
        resourceId: inB,
        type: 'team',
        name: 'In B',
        role: 'reader',
        invitedBy: b.users.owner.id,
        expiresAt: later,
      },
      {
        appId: a.appId,
        appName: 'Test app',
        env: 'dev',
        resourceId: inA,
        type: 'team',
        name: 'In A',
        role: 'reader',
        invitedBy: a.users.owner.id,
        expiresAt: later,
      },
    ]);
  });
});
