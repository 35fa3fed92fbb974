/**
 * Issue #11: GraphiQL at /graphql outside production, its assets served by the gateway itself (no
 * CDN, so it works offline), with the CSRF header preset so a cookie session can run mutations, and
 * headers that neither block it nor let it be framed.
 */
import { describe, expect } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest();
let page: string;
let headers: Headers;

it.beforeAll(async ({ ctx }) => {
  const res = await ctx.fetch('/graphql', { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  headers = res.headers;
  page = await res.text();
});

describe('GraphiQL at /graphql', () => {
  it('is an HTML page with the playground inlined: no external script, stylesheet or font', () => {
    expect(headers.get('content-type')).toContain('text/html');
    expect(page).toContain('renderYogaGraphiQL');
    expect(page.length).toBeGreaterThan(100_000);
    const tags = [...page.matchAll(/<(script|link|img|iframe)\b[^>]*>/gi)].map(m => m[0]);
    expect(tags.filter(tag => /\b(src|href)\s*=\s*["']?(https?:)?\/\//i.test(tag))).toEqual([]);
    expect(page).not.toMatch(/unpkg\.com|jsdelivr\.net|cdnjs|esm\.sh/);
    expect(page).not.toMatch(/@import\s+url\(\s*["']?https?:/i);
  });

  it('presets the CSRF header and says where a bearer token goes', () => {
    const options = JSON.parse(/renderYogaGraphiQL\(\s*window\.document\.querySelector\('#root'\),\s*(\{.*\}),\s*\);/s.exec(page)?.[1] ?? '{}');
    expect(options.additionalHeaders).toEqual({ 'X-Service-Csrf': '1' });
    expect(JSON.parse(options.defaultHeaders)).toEqual({ 'X-Service-Csrf': '1' });
    expect(options.endpoint).toBe('/graphql');
    expect(options.credentials).toBe('same-origin');
    expect(options.shouldPersistHeaders).toBe(false);
    expect(options.defaultQuery).toContain('Authorization');
  });

  it('answers with headers that do not block it and do not let it be framed', () => {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    // The page runs an inline script and starts its editor workers from blob: URLs.
    expect(csp).toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toMatch(/worker-src[^;]*blob:/);
    expect(csp).toMatch(/connect-src[^;]*'self'/);
  });

  it('a JSON GraphQL request is still answered as GraphQL', async ({ ctx }) => {
    const res = await ctx.fetch('/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('in production', () => {
  it('there is no playground', async () => {
    const prod = await startTestApp({ env: { NODE_ENV: 'production' } });
    try {
      const res = await prod.fetch('/graphql', { headers: { accept: 'text/html' } });
      expect(await res.text()).not.toContain('renderYogaGraphiQL');
      expect(res.headers.get('content-type') ?? '').not.toContain('text/html');
    } finally {
      await prod.close();
    }
  });
});
