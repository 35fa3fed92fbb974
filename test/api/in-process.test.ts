/**
 * `App.fetch` runs the whole request pipeline in-process (the fetch entry, no listening socket),
 * routed by the Host of the URL, several Set-Cookie headers kept apart, and SSE streamed as written.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type Seed, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { MEMBERS_LIVE } from '../helpers/feeds.js';

const it = appTest({ users: ['alice', 'bob'] });

/** POST /graphql asking for the roster of `id` as server-sent events. */
const rosterStream = (token: string, id: string, signal: AbortSignal) =>
  new Request('http://gatehouse.test/graphql', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: MEMBERS_LIVE, variables: { id } }),
    signal,
  });

describe('App.fetch', () => {
  it('answers without ever listening on a port', async ({ ctx, s }) => {
    const res = await ctx.app.fetch(new Request('http://gatehouse.test/healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, status: 'ok', database: 'pglite', bus: { kind: 'memory', ok: true } });
    expect((await s.users.alice.gql('{ me { id } }')).data.me.id).toBe(s.users.alice.id);
    expect(ctx.app.server.listening).toBe(false);
  });

  it('routes by the Host of the URL: a registered app origin is a hosted mount', async ({ ctx, s }) => {
    const hosted = await ctx.app.fetch(new Request(`${s.origin}/_osg/auth/session`));
    expect(hosted.status).toBe(200);
    expect(await hosted.json()).toEqual({ authenticated: false });
    // The gateway's own host serves no /_osg routes.
    const own = await ctx.app.fetch(new Request('http://gatehouse.test/_osg/auth/session'));
    expect(own.status).toBe(404);
  });

  it('keeps several Set-Cookie headers apart, and sends the request body', async ({ ctx }) => {
    const res = await ctx.app.fetch(
      new Request('http://gatehouse.test/auth/logout', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-csrf': '1' },
        body: JSON.stringify({}),
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.getSetCookie().map(c => c.split('=')[0])).toEqual(['gh_session', 'gh_client', 'gh_refresh']);
  });

  it('streams a subscription over SSE as events happen', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'In-process SSE');
    const controller = new AbortController();
    const res = await ctx.app.fetch(rosterStream(alice.token!, id, controller.signal));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    await ctx.attached(`member:${id}`);
    await alice.post(`/v1/resources/${id}/invite`, { userId: bob.id });
    let text = '';
    while (!text.includes('"op"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`"userId":"${bob.id}"`);
    await reader.cancel();
    // Cancelling the body ends the server's side of the stream: the feed stops listening at once,
    // with no further event on the topic (src/feeds/shared-subscribe.service.ts).
    await expect.poll(() => ctx.app.services.deps.bus.hasListeners(`member:${id}`), { timeout: 5000 }).toBe(false);
    expect(ctx.app.server.listening).toBe(false);
  });

  it("ends the server's side of an SSE stream when the caller aborts, as a closed connection does", async ({ ctx, s }) => {
    const id = await createResource(s.users.alice, 'team', 'Aborted SSE');
    const controller = new AbortController();
    const res = await ctx.app.fetch(rosterStream(s.users.alice.token!, id, controller.signal));
    const reader = res.body!.getReader();
    await ctx.attached(`member:${id}`);
    controller.abort();
    await expect.poll(() => ctx.app.services.deps.bus.hasListeners(`member:${id}`), { timeout: 5000 }).toBe(false);
    // What was already written (the opening ping) can still be read; then the stream ends.
    let reads = 0;
    while (!(await reader.read()).done) expect(++reads).toBeLessThan(5);
  });
});

describe('an SSE stream refused past WS_MAX_SOCKETS_PER_PRINCIPAL', () => {
  let capped: TestContext;
  let erin: Seed['users'][string];

  beforeAll(async () => {
    capped = await startTestApp({ env: { WS_MAX_SOCKETS_PER_PRINCIPAL: '1' } });
    erin = (await seed(capped, ['erin'])).users.erin;
  });
  afterAll(() => capped.close());

  it('leaves no feed listening behind it', async () => {
    const id = await createResource(erin, 'team', 'Capped');
    const open = async () => {
      const controller = new AbortController();
      const res = await capped.app.fetch(rosterStream(erin.token!, id, controller.signal));
      return { controller, reader: res.body!.getReader() };
    };
    const first = await open();
    await capped.attached(`member:${id}`);
    const refused = await open();
    let text = '';
    while (!text.includes('too_many_sockets')) text += new TextDecoder().decode((await refused.reader.read()).value);
    // With the one live stream gone, nothing listens: the refused one attached nothing that stayed.
    first.controller.abort();
    await expect.poll(() => capped.app.services.deps.bus.hasListeners(`member:${id}`), { timeout: 5000 }).toBe(false);
  });
});
