/** Accounts of the embedded identity provider. The OIDC subject is the account's principal id. */
import { z } from 'zod';
import { type AppError, fail } from '../errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { newId } from '../lib/secrets.js';
import { DUMMY_HASH, PASSWORD_MAX, PASSWORD_MIN, hashPassword, verifyPassword } from './passwords.js';

const email = z.string().trim().toLowerCase().email('Enter a valid email address.').max(254);
const password = z
  .string()
  .min(PASSWORD_MIN, `The password must have at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `The password must have at most ${PASSWORD_MAX} characters.`);
const displayName = z.string().trim().max(100, 'The display name must have at most 100 characters.');

/** The one answer to every refused credential, sign-up on a taken email included (no account enumeration). */
export const invalidCredentials = () => fail('invalid_credentials', 'Wrong email or password.');

/** Sign-in attempts per email in a window, counted before the password is checked (so parallel guesses count too). */
export const SIGN_IN_ATTEMPTS = { limit: 10, windowMs: 15 * 60 * 1000 } as const;
/** Rows of oidc_payloads (model, id = email), swept with the provider's other expired state. */
export const SIGN_IN_ATTEMPTS_MODEL = 'SignInAttempts';
/** Per client address and for the whole provider: same table, same atomic counter (README "Storage"). */
export const SIGN_IN_IP_MODEL = 'SignInAttemptsIp';
export const SIGN_IN_GLOBAL_MODEL = 'SignInAttemptsGlobal';

export interface SignInThrottle {
  /** Sign-in and sign-up attempts per client address in 15 minutes. */
  perIp: number;
  /** Sign-in and sign-up attempts across all clients per minute: caps the password-hashing load. */
  global: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottle = { perIp: 50, global: 300 };
export const SIGN_IN_IP_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_GLOBAL_WINDOW_MS = 60 * 1000;

function firstIssue(error: z.ZodError): AppError {
  return fail('invalid_argument', error.issues[0]?.message ?? 'Invalid input.');
}

function tooMany(until: Date, what: string): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  const wait =
    seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
  return fail('too_many_attempts', `Too many sign-in attempts ${what}. Try again in ${wait}.`, { retryAfterSeconds: seconds });
}

export function createAccountStore(prisma: PrismaClient, throttle: SignInThrottle = DEFAULT_SIGN_IN_THROTTLE) {
  /** One atomic statement: a window opens at the first attempt and counts until it closes (shared by every instance). */
  async function countAttempt(model: string, key: string, windowMs: number): Promise<{ count: number; until: Date }> {
    const now = new Date();
    const closes = new Date(now.getTime() + windowMs);
    const [row] = await prisma.$queryRaw<{ count: number; until: Date }[]>`
      INSERT INTO oidc_payloads (model, id, payload, expires_at)
      VALUES (${model}, ${key}, '{"n":1}'::jsonb, ${closes})
      ON CONFLICT (model, id) DO UPDATE SET
        payload = CASE WHEN oidc_payloads.expires_at <= ${now} THEN '{"n":1}'::jsonb
                       ELSE jsonb_build_object('n', (oidc_payloads.payload->>'n')::int + 1) END,
        expires_at = CASE WHEN oidc_payloads.expires_at <= ${now} THEN EXCLUDED.expires_at ELSE oidc_payloads.expires_at END
      RETURNING (payload->>'n')::int AS count, expires_at AS until`;
    return row;
  }

  /**
   * Before any password is hashed: the client address first (one address cannot use up the
   * global budget once it is over its own), then the global bucket. Sign-ups count too.
   */
  async function admit(ip: string | undefined) {
    if (ip) {
      const byIp = await countAttempt(SIGN_IN_IP_MODEL, ip, SIGN_IN_IP_WINDOW_MS);
      if (byIp.count > throttle.perIp) throw tooMany(byIp.until, 'from this network');
    }
    const all = await countAttempt(SIGN_IN_GLOBAL_MODEL, 'all', SIGN_IN_GLOBAL_WINDOW_MS);
    if (all.count > throttle.global) throw tooMany(all.until, 'right now');
  }

  /** The per-email count, then one scrypt whether or not the account exists (timing tells nothing). */
  async function checkPassword(address: string, secret: string): Promise<{ principalId: string }> {
    const attempt = await countAttempt(SIGN_IN_ATTEMPTS_MODEL, address, SIGN_IN_ATTEMPTS.windowMs);
    if (attempt.count > SIGN_IN_ATTEMPTS.limit) throw tooMany(attempt.until, 'for this email');
    const account = await prisma.account.findUnique({ where: { email: address } });
    const ok = await verifyPassword(secret, account?.passwordHash ?? DUMMY_HASH);
    if (!account || !ok) throw invalidCredentials();
    await prisma.oidcPayload.deleteMany({ where: { model: SIGN_IN_ATTEMPTS_MODEL, id: address } });
    return { principalId: account.principalId };
  }

  return {
    /**
     * Creates the person (a user principal) and their account in one transaction. On a taken
     * email it never says so: it is a sign-in with the given password (the account's owner goes
     * on exactly as after a fresh sign-up; anyone else gets the one "Wrong email or password"),
     * counted against that email's sign-in limit.
     */
    async signUp(input: { email: unknown; password: unknown; displayName?: unknown; ip?: string }): Promise<{ principalId: string }> {
      const parsed = z.object({ email, password, displayName: displayName.optional() }).safeParse(input);
      if (!parsed.success) throw firstIssue(parsed.error);
      await admit(input.ip);
      const { email: address, password: secret, displayName: name } = parsed.data;
      if (await prisma.account.findUnique({ where: { email: address }, select: { id: true } })) return checkPassword(address, secret);
      const passwordHash = await hashPassword(secret);
      const principalId = newId('usr');
      try {
        await prisma.$transaction([
          prisma.principal.create({ data: { id: principalId, kind: 'user', displayName: name || null } }),
          prisma.account.create({ data: { id: newId('acc'), email: address, passwordHash, principalId } }),
        ]);
      } catch (error) {
        // Taken between the look-up and the insert: the same answer as above.
        if ((error as { code?: string }).code === 'P2002') return checkPassword(address, secret);
        throw error;
      }
      return { principalId };
    },

    async signIn(input: { email: unknown; password: unknown; ip?: string }): Promise<{ principalId: string }> {
      const parsed = z.object({ email, password: z.string().max(PASSWORD_MAX) }).safeParse(input);
      if (!parsed.success) throw invalidCredentials();
      await admit(input.ip);
      return checkPassword(parsed.data.email, parsed.data.password);
    },

    async claims(sub: string) {
      const principal = await prisma.principal.findUnique({
        where: { id: sub },
        select: { id: true, kind: true, displayName: true, handle: true, account: { select: { email: true } } },
      });
      if (principal?.kind !== 'user' || !principal.account) return null;
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
