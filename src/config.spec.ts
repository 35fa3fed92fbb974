import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, usdToMicros } from './config.js';

describe('gateway auth config', () => {
  it('defaults: embedded provider, secure cookies, $5 welcome credit, prod', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://gw.example.com' });
    expect(c.auth).toMatchObject({ issuer: undefined, embedded: true, cookieSecure: true, welcomeCreditMicros: 5_000_000n, gatewayEnv: 'prod', consentUrl: 'https://gw.example.com/auth/consent' });
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
