import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadIdpConfig, usdToMicros } from './config.js';

describe('gateway auth config', () => {
  it('defaults: embedded provider, secure cookies, $5 welcome credit, prod', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://gw.example.com' });
    expect(c.auth).toMatchObject({
      issuer: undefined,
      embedded: true,
      cookieSecure: true,
      welcomeCreditMicros: 5_000_000n,
      gatewayEnv: 'prod',
      consentUrl: 'https://gw.example.com/auth/consent',
    });
  });

  it('parses dollars exactly', () => {
    expect(usdToMicros('2.5')).toBe(2_500_000n);
    expect(usdToMicros('0.000001')).toBe(1n);
    expect(loadConfig({ WELCOME_CREDIT_USD: '0' }).auth.welcomeCreditMicros).toBe(0n);
  });

  it('refuses half an introspection credential, COOKIE_SECURE=0 in production and a bad amount', () => {
    expect(() => loadConfig({ OIDC_INTROSPECTION_CLIENT_ID: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({ COOKIE_SECURE: '0', NODE_ENV: 'production' })).toThrow(/COOKIE_SECURE/);
    expect(() => loadConfig({ WELCOME_CREDIT_USD: '-1' })).toThrow(/WELCOME_CREDIT_USD/);
  });
});

describe('GATEWAY_HOSTS', () => {
  it('unset: null (the loopback names and the bound addresses); set: its trimmed entries', () => {
    expect(loadConfig({}).gatewayHosts).toBeNull();
    expect(loadConfig({ GATEWAY_HOSTS: ' gw.internal , alias.test:8443,' }).gatewayHosts).toEqual(['gw.internal', 'alias.test:8443']);
  });

  it('refuses an entry that is not a host name, naming it', () => {
    expect(() => loadConfig({ GATEWAY_HOSTS: 'gw.internal,https://alias.test' })).toThrow(/GATEWAY_HOSTS: "https:\/\/alias.test" is not a host name/);
  });
});

describe('ROWS_MAX_WRITES_PER_CALL', () => {
  it('defaults by database: 200 on the embedded one (one connection for everyone), 20000 on PostgreSQL; a value wins', () => {
    expect(loadConfig({}).rows.maxWritesPerCall).toBe(200);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/gatehouse' }).rows.maxWritesPerCall).toBe(20_000);
    expect(loadConfig({ ROWS_MAX_WRITES_PER_CALL: '1000' }).rows.maxWritesPerCall).toBe(1000);
    expect(() => loadConfig({ ROWS_MAX_WRITES_PER_CALL: '0' })).toThrow(/ROWS_MAX_WRITES_PER_CALL/);
  });
});

describe('standalone provider config (gatehouse idp)', () => {
  const required = {
    DATABASE_URL: 'postgres://db/gatehouse',
    OIDC_CONSENT_URL: 'https://gw.example.com/auth/consent',
    OIDC_INTROSPECTION_CLIENT_ID: 'gatehouse-gateway',
    OIDC_INTROSPECTION_CLIENT_SECRET: 'sixteen-chars-or-more',
    OIDC_ADMIN_TOKEN: 'sixteen-chars-or-more',
  };

  it('defaults to port 4444 with the issuer at its own address', () => {
    expect(loadIdpConfig(required)).toMatchObject({ port: 4444, issuer: 'http://127.0.0.1:4444', gatewayClient: { clientId: 'gatehouse-gateway' } });
    expect(loadIdpConfig({ ...required, IDP_ISSUER: 'https://id.example.com/' }).issuer).toBe('https://id.example.com');
  });

  it('names every missing variable, and refuses the embedded database', () => {
    expect(() => loadIdpConfig({})).toThrow(/DATABASE_URL[\s\S]*OIDC_CONSENT_URL[\s\S]*OIDC_INTROSPECTION_CLIENT_ID[\s\S]*OIDC_ADMIN_TOKEN/);
    expect(() => loadIdpConfig({ ...required, DATABASE_URL: './data' })).toThrow(/DATABASE_URL: must be a postgres/);
  });

  it('OIDC_IDENTITY_URL belongs to an external issuer', () => {
    expect(() => loadConfig({ OIDC_IDENTITY_URL: 'https://id.example.com' })).toThrow(/OIDC_IDENTITY_URL: only meaningful with OIDC_ISSUER/);
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_IDENTITY_URL: 'https://id.example.com/' }).auth.identityUrl).toBe(
      'https://id.example.com',
    );
  });
});

describe('request bodies answered before they were read (DRAIN_MAX_*)', () => {
  it('defaults to 64 MiB and 30 s, takes seconds as a decimal, and names a bad value', () => {
    expect(loadConfig({}).drain).toEqual({ maxBytes: 64 * 1024 * 1024, maxMs: 30_000 });
    expect(loadConfig({ DRAIN_MAX_BYTES: '0', DRAIN_MAX_SECONDS: '0.5' }).drain).toEqual({ maxBytes: 0, maxMs: 500 });
    expect(() => loadConfig({ DRAIN_MAX_BYTES: '-1' })).toThrow(/DRAIN_MAX_BYTES/);
    expect(() => loadConfig({ DRAIN_MAX_SECONDS: 'soon' })).toThrow(/DRAIN_MAX_SECONDS/);
  });
});
