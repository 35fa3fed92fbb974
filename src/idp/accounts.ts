/** Accounts of the embedded identity provider. The OIDC subject is the account's principal id. */
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { newId } from '../lib/secrets.js';
import { DUMMY_HASH, PASSWORD_MAX, PASSWORD_MIN, hashPassword, verifyPassword } from './passwords.js';

const email = z.string().trim().toLowerCase().email('Enter a valid email address.').max(254);
const password = z
  .string()
  .min(PASSWORD_MIN, `The password must have at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `The password must have at most ${PASSWORD_MAX} characters.`);
const displayName = z.string().trim().max(100, 'The display name must have at most 100 characters.');

export const invalidCredentials = () => new AppError('invalid_credentials', 401, 'Wrong email or password.');

/** Sign-in attempts per email in a window, counted before the password is checked (so parallel guesses count too). */
export const SIGN_IN_ATTEMPTS = { limit: 10, windowMs: 15 * 60 * 1000 } as const;
/** Rows of oidc_payloads (model, id = email), swept with the provider's other expired state. */
export const SIGN_IN_ATTEMPTS_MODEL = 'SignInAttempts';

function firstIssue(error: z.ZodError): AppError {
  return new AppError('invalid_argument', 400, error.issues[0]?.message ?? 'Invalid input.');
}

export function createAccountStore(prisma: PrismaClient) {
  /** One atomic statement: a window opens at the first attempt and counts until it closes. */
  async function countAttempt(address: string): Promise<{ count: number; until: Date }> {
    const now = new Date();
    const closes = new Date(now.getTime() + SIGN_IN_ATTEMPTS.windowMs);
    const [row] = await prisma.$queryRaw<{ count: number; until: Date }[]>`
      INSERT INTO oidc_payloads (model, id, payload, expires_at)
      VALUES (${SIGN_IN_ATTEMPTS_MODEL}, ${address}, '{"n":1}'::jsonb, ${closes})
      ON CONFLICT (model, id) DO UPDATE SET
        payload = CASE WHEN oidc_payloads.expires_at <= ${now} THEN '{"n":1}'::jsonb
                       ELSE jsonb_build_object('n', (oidc_payloads.payload->>'n')::int + 1) END,
        expires_at = CASE WHEN oidc_payloads.expires_at <= ${now} THEN EXCLUDED.expires_at ELSE oidc_payloads.expires_at END
      RETURNING (payload->>'n')::int AS count, expires_at AS until`;
    return row;
  }

  return {
    /** Creates the person (a user principal) and their account in one transaction. */
    async signUp(input: { email: unknown; password: unknown; displayName?: unknown }): Promise<{ principalId: string }> {
      const parsed = z.object({ email, password, displayName: displayName.optional() }).safeParse(input);
      if (!parsed.success) throw firstIssue(parsed.error);
      const { email: address, password: secret, displayName: name } = parsed.data;
      const passwordHash = await hashPassword(secret);
      const principalId = newId('usr');
      try {
        await prisma.$transaction([
          prisma.principal.create({ data: { id: principalId, kind: 'user', displayName: name || null } }),
          prisma.account.create({ data: { id: newId('acc'), email: address, passwordHash, principalId } }),
        ]);
      } catch (error) {
        if ((error as { code?: string }).code === 'P2002') {
          throw new AppError('email_taken', 409, 'An account with this email already exists: sign in instead.');
        }
        throw error;
      }
      return { principalId };
    },

    async signIn(input: { email: unknown; password: unknown }): Promise<{ principalId: string }> {
      const parsed = z.object({ email, password: z.string().max(PASSWORD_MAX) }).safeParse(input);
      if (!parsed.success) throw invalidCredentials();
      const address = parsed.data.email;
      const attempt = await countAttempt(address);
      if (attempt.count > SIGN_IN_ATTEMPTS.limit) {
        const seconds = Math.max(1, Math.ceil((attempt.until.getTime() - Date.now()) / 1000));
        const minutes = Math.ceil(seconds / 60);
        throw new AppError('too_many_attempts', 429, `Too many sign-in attempts for this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
          retryAfterSeconds: seconds,
        });
      }
      const account = await prisma.account.findUnique({ where: { email: address } });
      // Unknown emails cost one scrypt too, so timing does not tell which emails have accounts.
      const ok = await verifyPassword(parsed.data.password, account?.passwordHash ?? DUMMY_HASH);
      if (!account || !ok) throw invalidCredentials();
      await prisma.oidcPayload.deleteMany({ where: { model: SIGN_IN_ATTEMPTS_MODEL, id: address } });
      return { principalId: account.principalId };
    },

    async claims(sub: string) {
      const principal = await prisma.principal.findUnique({
        where: { id: sub },
        select: { id: true, kind: true, displayName: true, handle: true, account: { select: { email: true } } },
      });
      if (!principal || principal.kind !== 'user' || !principal.account) return null;
      return {
        sub: principal.id,
        name: principal.displayName ?? undefined,
        preferred_username: principal.handle ?? undefined,
        email: principal.account.email,
      };
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
