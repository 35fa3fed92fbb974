/**
 * GET /metrics (README "Metrics"): who may scrape it (loopback outside production, the bearer
 * METRICS_TOKEN, a listener of its own on METRICS_PORT, refused in production without either),
 * request counters that move with requests and are labelled by route pattern (bounded, whatever
 * the raw paths), and a 402 refusal counted by reason.
 */
import { defineSchema } from 'gatehouse/schema';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_RESOURCES, type TestContext, seed, startTestApp } from '../helpers/app.js';

const SCHEMA = defineSchema({ tables: { notes: t => t.text('title').notNull() }, resources: TEST_RESOURCES });
const TOKEN = 'metrics-token-0123456789abcdef0123456789';

let open: TestContext[] = [];
afterEach(async () => {
  await Promise.all(open.map(ctx => ctx.close()));
  open = [];
});

async function app(env: Record<string, string> = {}, listen = false) {
  const ctx = await startTestApp({ env, listen });
  open.push(ctx);
  return ctx;
}

async function scrape(ctx: TestContext, headers: Record<string, string> = {}) {
  const res = await ctx.fetch('/metrics', { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every(label => line.includes(label))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('GET /metrics', () => {
  it('outside production: served to loopback callers, refused when a proxy forwarded the request from elsewhere', async () => {
    const ctx = await app();
    const ok = await scrape(ctx);
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
    expect(ok.text).toContain('# TYPE gatehouse_http_request_duration_seconds histogram');
    expect(ok.text).toContain('gatehouse_db_connections{state="max"} 1');
    const forwarded = await scrape(ctx, { 'x-forwarded-for': '203.0.113.9' });
    expect(forwarded.status).toBe(403);
    expect(JSON.parse(forwarded.text).error).toBe('loopback_only');
  });

  it('with METRICS_TOKEN: the bearer token is required, compared whole', async () => {
    const ctx = await app({ METRICS_TOKEN: TOKEN });
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: TOKEN },
    ]) {
      const refused = await scrape(ctx, headers);
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text).error).toBe('metrics_unauthorized');
    }
    expect((await scrape(ctx, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('in production without a token or port it is refused; METRICS=0 has no route', async () => {
    const production = await app({ NODE_ENV: 'production' });
    const refused = await scrape(production);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error).toBe('metrics_token_required');
    const off = await app({ METRICS: '0' });
    expect((await scrape(off)).status).toBe(404);
  });

  it('with METRICS_PORT: served on its own loopback listener only, not on the public port', async () => {
    const ctx = await startTestApp({ env: { METRICS_PORT: '0' } });
    open.push(ctx);
    const { metricsUrl } = await ctx.app.start();
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const own = await fetch(metricsUrl!);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('gatehouse_websocket_sockets 0');
    expect((await scrape(ctx)).status).toBe(404);
  });

  it('requests counted by route pattern and status (bounded labels); a 402 refusal counted by reason', async () => {
    const ctx = await app();
    const s = await seed(ctx, ['alice']);
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: SCHEMA })).status).toBe(200);
    const alice = s.users.alice;
    const before = (await scrape(ctx)).text;

    // Ten raw paths, one route; ten unknown paths, one label.
    for (let i = 0; i < 10; i++) {
      expect((await alice.get(`/v1/resources/res_missing_${i}`)).status).toBe(404);
      expect((await ctx.fetch(`/nowhere/${i}`)).status).toBe(404);
    }
    const insert = (title: string) => alice.post('/v1/db/query', { scope: { kind: 'user' }, table: 'notes', op: 'insert', values: { title } });
    expect((await insert('first')).status).toBe(200);
    const { spentUsd } = (await s.developer.get('/dev/budgets')).body.apps[0].envs[0];
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/budgets/dev`, { usd: spentUsd })).status).toBe(200);
    const refused = await insert('over budget');
    expect(refused.status).toBe(402);

    const after = (await scrape(ctx)).text;
    const count = (text: string, labels: Record<string, string>) => sample(text, 'gatehouse_http_request_duration_seconds_count', labels);
    const resourceRoute = after
      .split('\n')
      .find(line => line.startsWith('gatehouse_http_request_duration_seconds_count') && line.includes('res_missing'));
    expect(resourceRoute).toBeUndefined();
    expect(
      count(after, { route: '/v1/resources/:id', method: 'GET', status: '404' }) -
        count(before, { route: '/v1/resources/:id', method: 'GET', status: '404' }),
    ).toBe(10);
    expect(count(after, { route: '(no route)', status: '404' }) - count(before, { route: '(no route)', status: '404' })).toBe(10);
    expect(count(after, { route: '/v1/db/query', method: 'POST', status: '402' })).toBe(1);
    expect(count(after, { route: '/v1/db/query', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('/nowhere/');
    const reason = { reason: 'env_budget' };
    expect(sample(after, 'gatehouse_metering_refusals_total', reason) - sample(before, 'gatehouse_metering_refusals_total', reason)).toBe(1);
    // The database's use and waits are there (PGlite: one connection).
    expect(after).toMatch(/gatehouse_db_waits_total \d+/);
    expect(after).toMatch(/gatehouse_db_waiting \d+/);
  }, 60_000);
});
