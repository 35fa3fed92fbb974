/** Spec 5.2: 60 s validation cache, introspection vs userinfo, single flight for concurrent misses. */
import { describe, expect, it } from 'vitest';
import type { Introspection } from '../../src/auth/provider-client.js';
import { createTokenValidator } from '../../src/auth/token-validator.js';

function fakeProvider(mode: 'introspection' | 'userinfo', answer: () => Introspection) {
  const calls = { introspect: 0, userinfo: 0 };
  return {
    calls,
    provider: {
      introspectionConfigured: mode === 'introspection',
      async introspect() {
        calls.introspect++;
        await new Promise(r => setTimeout(r, 20));
        return answer();
      },
      async userinfo() {
        calls.userinfo++;
        const a = answer();
        return a.active ? { sub: a.sub! } : null;
      },
    },
  };
}

describe('token validation', () => {
  it('5.2: concurrent misses for one token make one introspection call (single flight)', async () => {
    let now = Date.now();
    const { provider, calls } = fakeProvider('introspection', () => ({ active: true, sub: 'usr_1', client_id: 'cli_1', exp: Math.floor(now / 1000) + 3600 }));
    const validator = createTokenValidator(provider, () => new Date(now));
    const results = await Promise.all(Array.from({ length: 25 }, () => validator.validate('token-a')));
    expect(calls.introspect).toBe(1);
    expect(results.every(r => r?.sub === 'usr_1' && r.clientId === 'cli_1')).toBe(true);
    await validator.validate('token-b');
    expect(calls.introspect).toBe(2);
  });

  it('5.2 rule 1: results are cached for 60 seconds, then checked again', async () => {
    let now = Date.now();
    let active = true;
    const { provider, calls } = fakeProvider('introspection', () => (active ? { active: true, sub: 'usr_1', client_id: 'cli_1' } : { active: false }));
    const validator = createTokenValidator(provider, () => new Date(now));
    expect(await validator.validate('t')).not.toBeNull();
    active = false; // revoked upstream
    now += 59_000;
    expect(await validator.validate('t')).not.toBeNull();
    now += 2_000;
    expect(await validator.validate('t')).toBeNull();
    expect(calls.introspect).toBe(2);
  });

  it('an expired token is refused even while cached', async () => {
    let now = Date.now();
    const { provider } = fakeProvider('introspection', () => ({ active: true, sub: 'usr_1', exp: Math.floor(now / 1000) + 10 }));
    const validator = createTokenValidator(provider, () => new Date(now));
    expect(await validator.validate('t')).not.toBeNull();
    now += 11_000;
    expect(await validator.validate('t')).toBeNull();
  });

  it('5.2 rule 3: without an introspection credential, userinfo proves the user but not the app', async () => {
    const { provider, calls } = fakeProvider('userinfo', () => ({ active: true, sub: 'usr_9' }));
    const validator = createTokenValidator(provider, () => new Date());
    expect(validator.mode).toBe('userinfo');
    expect(await validator.validate('t')).toEqual({ sub: 'usr_9', clientId: null, expiresAt: null });
    expect(calls).toEqual({ introspect: 0, userinfo: 1 });
  });

  it('upstream failures are not cached', async () => {
    let fail = true;
    const provider = {
      introspectionConfigured: true,
      async introspect(): Promise<Introspection> {
        if (fail) throw new Error('down');
        return { active: true, sub: 'usr_1' };
      },
      async userinfo() {
        return null;
      },
    };
    const validator = createTokenValidator(provider, () => new Date());
    await expect(validator.validate('t')).rejects.toThrow('down');
    fail = false;
    expect(await validator.validate('t')).not.toBeNull();
  });
});
