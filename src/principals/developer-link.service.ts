/**
 * Acting as a developer in the console (docs/api.md §4.2): a person signed in to the console proves
 * they hold a developer's token once, by pasting it; the developer is then linked to that person,
 * and the person's dashboard session acts as that developer on GraphQL's developer fields. An email
 * alone never links: the embedded provider does not verify addresses.
 */
import type { Bound } from '../core/bind-deps.js';
import type { ServiceDeps } from '../core/deps.js';
import { fail } from '../errors.js';
import type { TokenService } from '../gateway-auth/tokens.service.js';

type LinkDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'now'> & { tokens: TokenService };

export interface LinkedDeveloper {
  developerId: string;
  email: string;
  linkedAt: Date;
}

const notADeveloperToken = () =>
  fail('not_a_developer_token', 'That is not a valid developer token: paste one that `gatehouse dev-token create` or `gatehouse login` printed.');

/** The developer the person's dashboard session acts as, or null. */
export async function linkedDeveloper(deps: Pick<LinkDeps, 'prisma'>, personId: string): Promise<LinkedDeveloper | null> {
  const row = await deps.prisma.developer.findUnique({ where: { principalId: personId }, select: { id: true, email: true, linkedAt: true } });
  return row ? { developerId: row.id, email: row.email, linkedAt: row.linkedAt ?? new Date(0) } : null;
}

/**
 * Links the developer whose token this is to the person (the token is checked as any bearer is:
 * hashed, compared in constant time, not revoked nor expired). A person links one developer: a
 * new link replaces theirs. A developer already linked to someone else stays theirs until unlinked.
 */
export async function linkDeveloper(deps: LinkDeps, personId: string, token: string): Promise<LinkedDeveloper> {
  const { caller } = await deps.tokens.check(token.trim());
  if (caller?.type !== 'developer') throw notADeveloperToken();
  const linkedAt = deps.now();
  const row = await deps.transaction(async tx => {
    const developer = await tx.developer.findUniqueOrThrow({ where: { id: caller.developerId }, select: { principalId: true } });
    if (developer.principalId && developer.principalId !== personId) {
      throw fail('developer_already_linked', 'This developer is linked to another person: they must unlink it in their console first.');
    }
    await tx.developer.updateMany({ where: { principalId: personId, NOT: { id: caller.developerId } }, data: { principalId: null, linkedAt: null } });
    return tx.developer.update({ where: { id: caller.developerId }, data: { principalId: personId, linkedAt }, select: { id: true, email: true } });
  });
  return { developerId: row.id, email: row.email, linkedAt };
}

/** Ends the link: the dashboard session no longer acts as a developer. Idempotent. */
export async function unlinkDeveloper(deps: Pick<LinkDeps, 'prisma'>, personId: string): Promise<boolean> {
  const { count } = await deps.prisma.developer.updateMany({ where: { principalId: personId }, data: { principalId: null, linkedAt: null } });
  return count > 0;
}

export const developerLinkOperations = { linkedDeveloper, linkDeveloper, unlinkDeveloper };

export type DeveloperLinkService = Bound<typeof developerLinkOperations>;
