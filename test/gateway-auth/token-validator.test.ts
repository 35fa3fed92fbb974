/** docs/api.md §1.3: 60 s validation cache, introspection vs userinfo, single flight for concurrent misses. */
import { KeyObject, sign as cryptoSign } from 'node:crypto';
import { CompactSign, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/errors.js';
import type { Introspection } from '../../src/gateway-auth/provider-client.service.js';
import { createTokenValidator } from '../../src/gateway-auth/token-validator.service.js';

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
  it('docs/api.md §1.3, rule 1: concurrent misses for one token make one introspection call (single flight)', async () => {
    const now = Date.now();
    const { provider, calls } = fakeProvider('introspection', () => ({
      active: true,
      sub: 'usr_1',
      client_id: 'cli_1',
      exp: Math.floor(now / 1000) + 3600,
    }));
    const validator = createTokenValidator(provider, () => new Date(now));
    const results = await Promise.all(Array.from({ length: 25 }, () => validator.validate('token-a')));
    expect(calls.introspect).toBe(1);
    expect(results.every(r => r?.sub === 'usr_1' && r.clientId === 'cli_1')).toBe(true);
    await validator.validate('token-b');
    expect(calls.introspect).toBe(2);
  });

  it('docs/api.md §1.3, rule 1: results are cached for 60 seconds, then checked again', async () => {
    let now = Date.now();
    let active = true;
    const { provider, calls } = fakeProvider('introspection', () =>
      active ? { active: true, sub: 'usr_1', client_id: 'cli_1' } : { active: false },
    );
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

  it('docs/api.md §1.3, rule 3: without an introspection credential, userinfo proves the user but not the app', async () => {
    const { provider, calls } = fakeProvider('userinfo', () => ({ active: true, sub: 'usr_9' }));
    const validator = createTokenValidator(provider, () => new Date());
    expect(validator.mode).toBe('userinfo');
    expect(await validator.validate('t')).toEqual({ sub: 'usr_9', source: 'userinfo', clientId: null, expiresAt: null });
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

describe('JWT access tokens (verified against the JWKS, no provider call per token)', () => {
  const issuer = 'https://gatehouse.test/idp';
  const audience = 'https://gatehouse.test';

  async function rig(alg = 'RS256') {
    const { publicKey, privateKey } = await generateKeyPair(alg);
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg, use: 'sig' };
    const fetches = { jwks: 0 };
    let jwksUp = true;
    const jwksFetch = (async () => {
      fetches.jwks++;
      if (!jwksUp) throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ keys: [jwk] }), { headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    const { provider, calls } = fakeProvider('introspection', () => ({ active: false }));
    let now = Date.now();
    const validator = createTokenValidator(provider, () => new Date(now), {
      jwt: { jwksUri: () => `${issuer}/jwks`, issuer, audience, fetch: jwksFetch },
    });
    const sign = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
      new SignJWT({ client_id: 'cli_1', ...claims })
        .setProtectedHeader({ alg, kid: 'k1', typ: 'at+jwt', ...header })
        .setIssuer((claims.iss as string | undefined) ?? issuer)
        .setAudience((claims.aud as string | string[] | undefined) ?? audience)
        .setSubject((claims.sub as string | undefined) ?? 'usr_1')
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(now / 1000) + 300)
        .sign(privateKey);
    return { validator, calls, fetches, sign, privateKey, setJwks: (up: boolean) => (jwksUp = up), advance: (ms: number) => (now += ms) };
  }

  it('a valid JWT validates with no introspection call; the keys are fetched once', async () => {
    const { validator, calls, fetches, sign } = await rig();
    const first = await validator.validate(await sign());
    expect(first).toEqual({ sub: 'usr_1', source: 'jwt', clientId: 'cli_1', expiresAt: expect.any(Number) });
    expect(await validator.validate(await sign({ jti: 'another' }))).toMatchObject({ sub: 'usr_1' });
    expect(calls.introspect).toBe(0);
    expect(fetches.jwks).toBe(1);
  });

  it('refuses a tampered, foreign-audience, ID-token-typed or expired JWT, without asking the provider', async () => {
    const { validator, calls, sign, advance } = await rig();
    const good = await sign();
    const [h, p, sig] = good.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'usr_2' })).toString('base64url')}.${sig}`;
    expect(await validator.validate(tampered)).toBeNull();
    expect(await validator.validate(await sign({ aud: 'https://other.test' }))).toBeNull();
    expect(await validator.validate(await sign({}, { typ: 'JWT' }))).toBeNull(); // e.g. an ID token
    const expiring = await sign();
    advance(301_000);
    expect(await validator.validate(expiring)).toBeNull();
    expect(calls.introspect).toBe(0);
  });

  it('end() (logout) refuses a JWT until it expires; forget() only drops the cached answer', async () => {
    const { validator, sign, advance } = await rig();
    const [ended, forgotten] = [await sign({ jti: 'a' }), await sign({ jti: 'b' })];
    expect(await validator.validate(ended)).not.toBeNull();
    validator.end(ended);
    validator.forget(forgotten);
    expect(await validator.validate(ended)).toBeNull();
    expect(await validator.validate(forgotten)).not.toBeNull();
    advance(61_000); // past the validation cache: still refused
    expect(await validator.validate(ended)).toBeNull();
  });

  it('an opaque token is still introspected', async () => {
    const { validator, calls } = await rig();
    expect(await validator.validate('opaque-token-value')).toBeNull();
    expect(calls.introspect).toBe(1);
  });

  it('keys that cannot be fetched are a 502, not a refusal, and are not cached', async () => {
    const { validator, sign, setJwks } = await rig();
    const token = await sign();
    setJwks(false);
    const error = await validator.validate(token).catch(e => e);
    expect(isAppError(error) && error.code).toBe('provider_unavailable');
    setJwks(true);
    expect(await validator.validate(token)).toMatchObject({ sub: 'usr_1' });
  });

  it('checks what jose checks: typ forms, audience lists, issuer, subject, nbf, alg and crit', async () => {
    const { validator, sign, privateKey } = await rig();
    expect(await validator.validate(await sign({}, { typ: 'application/AT+JWT' }))).toMatchObject({ sub: 'usr_1' });
    expect(await validator.validate(await sign({ aud: ['https://other.test', audience] }))).toMatchObject({ sub: 'usr_1' });
    expect(await validator.validate(await sign({ iss: 'https://evil.test/idp' }))).toBeNull();
    expect(await validator.validate(await sign({ sub: '' }))).toBeNull();
    expect(await validator.validate(await sign({ nbf: Math.floor(Date.now() / 1000) + 60 }))).toBeNull();
    // Claims exactly as given (SignJWT would set iat and exp itself).
    const raw = (claims: Record<string, unknown>) =>
      new CompactSign(
        new TextEncoder().encode(JSON.stringify({ iss: issuer, aud: audience, sub: 'usr_1', exp: Math.floor(Date.now() / 1000) + 300, ...claims })),
      )
        .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
        .sign(privateKey);
    expect(await validator.validate(await raw({}))).toMatchObject({ sub: 'usr_1' });
    expect(await validator.validate(await raw({ iat: 'yesterday' }))).toBeNull();
    expect(await validator.validate(await raw({ exp: 'never' }))).toBeNull();
    expect(await validator.validate(await raw({ exp: undefined }))).toBeNull();
    expect(await validator.validate(await raw({ sub: 42 }))).toBeNull();
    // A critical extension this verifier does not know (jose will not sign one: signed by hand).
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${b64({ alg: 'RS256', kid: 'k1', typ: 'at+jwt', crit: ['x-private'], 'x-private': 1 })}.${b64({ iss: issuer, aud: audience, sub: 'usr_1', exp: Math.floor(Date.now() / 1000) + 300 })}`;
    const signature = cryptoSign('sha256', Buffer.from(input), KeyObject.from(privateKey as CryptoKey)).toString('base64url');
    expect(await validator.validate(`${input}.${signature}`)).toBeNull();
    // alg none: the signature part is empty; and a header that is not JSON.
    const [, payload] = (await sign()).split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: 'k1' })).toString('base64url')}.${payload}.`;
    expect(await validator.validate(`${none}AAAA`)).toBeNull();
    expect(await validator.validate(`bm90LWpzb24.${payload}.AAAA`)).toBeNull();
    // Signed by the right key but with another algorithm than the key's (RS256 key, PS256 header).
    const ps = await new SignJWT({ client_id: 'cli_1' })
      .setProtectedHeader({ alg: 'PS256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject('usr_1')
      .setExpirationTime('5m')
      .sign(privateKey as CryptoKey)
      .catch(() => null);
    if (ps) expect(await validator.validate(ps)).toBeNull();
  });

  it.each(['ES256', 'PS256', 'EdDSA'])('verifies %s-signed tokens too', async alg => {
    const { validator, sign } = await rig(alg);
    const token = await sign();
    expect(await validator.validate(token)).toMatchObject({ sub: 'usr_1', source: 'jwt' });
    const [h, p, sig] = token.split('.');
    const flipped = `${sig.slice(0, -2)}${sig.at(-2) === 'A' ? 'B' : 'A'}${sig.at(-1)}`;
    expect(await validator.validate(`${h}.${p}.${flipped}`)).toBeNull();
  });
});
