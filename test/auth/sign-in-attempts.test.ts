/** The embedded provider's sign-in throttle is one atomic statement: parallel guesses cannot slip past it on either backend. */
import { describe, expect, it } from 'vitest';
import { SIGN_IN_ATTEMPTS, createAccountStore } from '../../src/idp/accounts.js';
import { backends } from '../helpers/backends.js';

const available = await backends();

describe.each(available)('sign-in attempts on $name', backend => {
  it(`counts ${SIGN_IN_ATTEMPTS.limit} attempts per email and window however many arrive at once`, async () => {
    const database = await backend.create();
    try {
      const accounts = createAccountStore(database.prisma);
      await accounts.signUp({ email: 'Parallel@Example.test', password: 'correct horse' });
      const guesses = await Promise.allSettled(Array.from({ length: 15 }, () => accounts.signIn({ email: 'parallel@example.test', password: 'wrong guess' })));
      const codes = guesses.map(g => (g.status === 'rejected' ? (g.reason as { code: string }).code : 'signed_in')).sort();
      expect(codes).toEqual([...Array(SIGN_IN_ATTEMPTS.limit).fill('invalid_credentials'), ...Array(5).fill('too_many_attempts')]);
      // Another email is not affected.
      await accounts.signUp({ email: 'other@example.test', password: 'correct horse' });
      expect(await accounts.signIn({ email: 'other@example.test', password: 'correct horse' })).toEqual({ principalId: expect.stringMatching(/^usr_/) });
    } finally {
      await database.close();
    }
  }, 60_000);
});
