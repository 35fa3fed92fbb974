/**
 * Linking a developer to a person for the console (docs/api.md §4.2, "Acting as a developer in the
 * console"): only a valid developer token links; one developer per person and one person per
 * developer; unlinking and deleting the person end the link.
 */
import { describe, expect } from 'vitest';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { seed } from '../helpers/app.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest();

const person = async (prisma: PrismaClient) => {
  const id = `person-${Math.random().toString(36).slice(2, 10)}`;
  await prisma.principal.create({ data: { id, kind: 'user' } });
  return id;
};
const email = () => `dev-${Math.random().toString(36).slice(2, 10)}@example.test`;

describe('developerLinks', () => {
  it('links the developer whose token is pasted; other tokens and revoked ones are refused', async ({ ctx }) => {
    const { services } = ctx.app;
    const { prisma } = services.deps;
    const me = await person(prisma);
    const s = await seed(ctx, ['tess']);
    await expect(services.developerLinks.linkDeveloper(me, s.users.tess.token!)).rejects.toMatchObject({ code: 'not_a_developer_token' });
    await expect(services.developerLinks.linkDeveloper(me, 'ghd_unknown')).rejects.toMatchObject({ code: 'not_a_developer_token' });

    const dev = await services.principals.createDeveloperToken(email());
    const linked = await services.developerLinks.linkDeveloper(me, ` ${dev.token}\n`);
    expect(linked).toMatchObject({ developerId: dev.developerId, email: dev.email });
    expect(await services.developerLinks.linkedDeveloper(me)).toMatchObject({ developerId: dev.developerId });

    await prisma.apiToken.updateMany({ where: { developerId: dev.developerId, kind: 'developer' }, data: { revokedAt: new Date() } });
    services.tokens.clearCache();
    const other = await person(prisma);
    await expect(services.developerLinks.linkDeveloper(other, dev.token)).rejects.toMatchObject({ code: 'not_a_developer_token' });
  });

  it('one developer per person (a new link replaces it), one person per developer; unlink and account deletion end it', async ({ ctx }) => {
    const { services } = ctx.app;
    const { prisma } = services.deps;
    const [me, someoneElse] = [await person(prisma), await person(prisma)];
    const first = await services.principals.createDeveloperToken(email());
    const second = await services.principals.createDeveloperToken(email());

    await services.developerLinks.linkDeveloper(me, first.token);
    await services.developerLinks.linkDeveloper(me, second.token);
    expect(await services.developerLinks.linkedDeveloper(me)).toMatchObject({ developerId: second.developerId });
    expect((await prisma.developer.findUniqueOrThrow({ where: { id: first.developerId } })).principalId).toBeNull();

    await expect(services.developerLinks.linkDeveloper(someoneElse, second.token)).rejects.toMatchObject({ code: 'developer_already_linked' });
    expect(await services.developerLinks.linkedDeveloper(someoneElse)).toBeNull();

    expect(await services.developerLinks.unlinkDeveloper(me)).toBe(true);
    expect(await services.developerLinks.unlinkDeveloper(me)).toBe(false);
    await services.developerLinks.linkDeveloper(someoneElse, second.token);
    await services.accountDeletion.deleteAccount(someoneElse, 'delete my account');
    expect((await prisma.developer.findUniqueOrThrow({ where: { id: second.developerId } })).principalId).toBeNull();
  });
});
