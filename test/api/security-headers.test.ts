/**
 * Response hardening: `X-Content-Type-Options: nosniff` on every response (JSON from the shims,
 * the gateway and Yoga alike), and no HTML page of ours can be framed: `X-Frame-Options: DENY` and
 * a CSP with `frame-ancestors 'none'`, merged into a page's own CSP when it brings one.
 */
import { describe, expect } from 'vitest';
import { withFrameAncestors } from '../../src/http/responses.js';
import type { TestContext } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice'] });

/** A GET with an explicit Host header (a hosted app origin): app.fetch passes it through as sent. */
async function getWithHost(ctx: TestContext, path: string, host: string): Promise<{ status: number; headers: Headers }> {
  const res = await ctx.fetch(path, { headers: { host } });
  await res.arrayBuffer();
  return { status: res.status, headers: res.headers };
}

const expectUnframeable = (headers: { get(name: string): string | null } | Record<string, unknown>) => {
  const get = (name: string) =>
    'get' in headers && typeof headers.get === 'function' ? headers.get(name) : (headers as Record<string, unknown>)[name];
  expect(get('x-frame-options')).toBe('DENY');
  expect(get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(get('x-content-type-options')).toBe('nosniff');
};

describe('JSON responses are never sniffed', () => {
  it('REST, gateway and health answers', async ({ s }) => {
    for (const path of ['/healthz', '/v1/resources', '/v1/nothing', '/auth/session']) {
      const res = await s.users.alice.get(path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it("Yoga's GraphQL answers, success and error", async ({ s }) => {
    const ok = await s.users.alice.request('POST', '/graphql', { query: '{ me { id } }' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    const bad = await s.users.alice.request('POST', '/graphql', { query: '{ nope }' });
    expect(bad.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('HTML pages cannot be framed', () => {
  it('the consent page keeps its script nonce and gains frame-ancestors', async ({ ctx }) => {
    const res = await ctx.fetch('/auth/consent?consent_challenge=abc');
    expect(res.status).toBe(200);
    expectUnframeable(res.headers);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
  });

  it('the invite page on a hosted app origin', async ({ ctx, s }) => {
    const res = await getWithHost(ctx, '/_invite/not-a-code', new URL(s.origin).host);
    expect(res.status).toBe(404);
    expectUnframeable(res.headers);
  });

  it("the embedded provider's own pages rendered by the gateway's helper", async ({ ctx }) => {
    const res = await ctx.fetch('/idp/interaction/unknown-uid');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('text/html');
    expectUnframeable(res.headers);
  });

  it('merges frame-ancestors into a CSP, replacing a weaker one', () => {
    expect(withFrameAncestors(undefined)).toContain("frame-ancestors 'none'");
    expect(withFrameAncestors("default-src 'self'; frame-ancestors *")).toBe("default-src 'self'; frame-ancestors 'none'");
  });
});
