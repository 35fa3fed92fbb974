/** The embedded provider's sign-in throttle is one atomic statement: parallel guesses cannot slip past it on either backend. */
import { describe, expect, it } from 'vitest';
import { SIGN_IN_ATTEMPTS, createAccountStore } from '../../src/identity-provider/accounts.js';
import { addressKey } from '../../src/http/client-ip.js';
import { backends } from '../helpers/backends.js';

const available = await backends();

describe.each(available)('sign-in attempts on $name', backend => {
  it(`counts ${SIGN_IN_ATTEMPTS.limit} attempts per email and window however many arrive at once`, async () => {
    const database = await backend.create();
    try {
      const accounts = createAccountStore(database.prisma);
      await accounts.signUp({ email: 'Parallel@Example.test', password: 'correct horse' });
      const guesses = await Promise.allSettled(
        Array.from({ length: 15 }, () => accounts.signIn({ email: 'parallel@example.test', password: 'wrong guess' })),
      );
      const codes = guesses.map(g => (g.status === 'rejected' ? (g.reason as { code: string }).code : 'signed_in')).sort();
      expect(codes).toEqual([...Array(SIGN_IN_ATTEMPTS.limit).fill('invalid_credentials'), ...Array(5).fill('too_many_attempts')]);
      // Another email is not affected.
      await accounts.signUp({ email: 'other@example.test', password: 'correct horse' });
      expect(await accounts.signIn({ email: 'other@example.test', password: 'correct horse' })).toEqual({
        principalId: expect.stringMatching(/^usr_/),
      });
    } finally {
      await database.close();
    }
  }, 60_000);

  it('counts per address and in all, across distinct emails and sign-ups, however many arrive at once', async () => {
    const database = await backend.create();
    try {
      const accounts = createAccountStore(database.prisma, { perIp: 5, global: 8 });
      const outcome = (results: PromiseSettledResult<unknown>[]) =>
        results.map(r => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok')).sort();
      // 400 distinct emails from one address was the attack: 5 get an answer, the rest wait.
      const spray = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0
            ? accounts.signUp({ email: `new${i}@example.test`, password: 'correct horse', ip: '192.0.2.1' })
            : accounts.signIn({ email: `victim${i}@example.test`, password: 'guess', ip: '192.0.2.1' }),
        ),
      );
      const codes = outcome(spray);
      expect(codes.filter(c => c === 'too_many_attempts')).toHaveLength(7);
      const limited = spray.find(
        r => r.status === 'rejected' && (r.reason as { code: string }).code === 'too_many_attempts',
      ) as PromiseRejectedResult;
      expect(limited.reason.status).toBe(429);
      expect(limited.reason.details.retryAfterSeconds).toBeGreaterThan(14 * 60);
      // Other addresses share the global budget of 8 a minute: 3 more get through, then everyone waits.
      const others = outcome(
        await Promise.allSettled(
          Array.from({ length: 5 }, (_, i) => accounts.signIn({ email: `x${i}@example.test`, password: 'guess', ip: `198.51.100.${i}` })),
        ),
      );
      expect(others).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'too_many_attempts', 'too_many_attempts']);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('client address keys', () => {
  it('IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 per /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
