/**
 * Issue 24 item 7: the live row feed's fan-out (src/rows/rows-live.service.ts). A change is judged
 * once per distinct subscriber and query, the roles it needs are read in one batch whatever the
 * number of subscriptions, the event loop gets turns between batches, and subscriptions per
 * resource are bounded (ROWS_LIVE_MAX_PER_RESOURCE, `too_many_row_feeds`).
 */
import { type Client as WsClient, createClient } from 'graphql-ws';
import { describe, expect, vi } from 'vitest';
import WebSocket from 'ws';
import { ROWS_LIVE_JUDGE_BATCH } from '../../src/rows/rows-live.service.js';
import { db, inResource, mine, rowsSeed } from '../api/rows.fixture.js';
import { addMember, createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { snapshotOf, subscribe, wsUrl } from '../helpers/feeds.js';

/** Every role lookup the row store and its feed make: one-principal (roomRoles) and batched (roomRolesOf). */
const lookups = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/rooms/rooms.service.js', async importOriginal => {
  const actual = await importOriginal<Record<string, (...args: unknown[]) => unknown>>();
  const counted =
    (fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      lookups.count++;
      return fn(...args);
    };
  return { ...actual, roomRoles: counted(actual.roomRoles), ...(actual.roomRolesOf ? { roomRolesOf: counted(actual.roomRolesOf) } : {}) };
});

const ROWS_LIVE = 'subscription($input: DbSelectInput!) { rowsLive(input: $input) { op row } }';

/** One socket carrying many subscriptions; resolves once every one of them has its snapshot (`ready`). */
async function manyFeeds(url: string, token: string, inputs: Record<string, unknown>[]) {
  const client: WsClient = createClient({
    url: wsUrl(url),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const received: Record<string, unknown>[][] = inputs.map(() => []);
  const ready = inputs.map(
    (input, i) =>
      new Promise<void>((resolve, reject) =>
        client.subscribe<{ rowsLive: { op: string; row: Record<string, unknown> } }>(
          { query: ROWS_LIVE, variables: { input } },
          {
            next: ({ data, errors }) => {
              if (errors) return reject(new Error(JSON.stringify(errors)));
              if (data!.rowsLive.op === 'ready') resolve();
              else received[i].push(data!.rowsLive);
            },
            error: reject,
            complete: () => {},
          },
        ),
      ),
  );
  await Promise.all(ready);
  return { received, dispose: () => client.dispose() };
}

const it = appTest({ app: { listen: true, env: { ROWS_LIVE_MAX_PER_RESOURCE: '70' } }, users: ['alice', 'bob', 'carol'], seed: rowsSeed });

describe('rowsLive fan-out', () => {
  it('reads the roles one change needs in one batch, however many subscriptions, and delivers to every one', async ({ ctx, s }) => {
    const { alice, bob, carol } = s.users;
    const project = await createResource(alice, 'project', 'Fan-out');
    await addMember(alice, bob, project, 'writer');
    await addMember(alice, carol, project, 'writer');
    const input = { scope: { kind: 'resource', resourceId: project }, table: 'tasks' };
    const insert = async (title: string) =>
      expect((await db(alice, { op: 'insert', scope: inResource(project), table: 'tasks', values: { title } })).status).toBe(200);

    // What an insert costs in role lookups with nobody watching (the write's own).
    await insert('unwatched');
    lookups.count = 0;
    await insert('unwatched again');
    const writeOnly = lookups.count;

    // Three people, twenty subscriptions each, all on this resource.
    const feeds = await Promise.all(
      [alice, bob, carol].map(user =>
        manyFeeds(
          ctx.url,
          user.token!,
          Array.from({ length: 20 }, () => input),
        ),
      ),
    );
    const judged = ctx.app.services.liveRows.stats().judgements;
    lookups.count = 0;
    await insert('watched');
    await vi.waitFor(() => {
      for (const feed of feeds)
        for (const events of feed.received) expect(events.some(e => (e.row as { title?: string }).title === 'watched')).toBe(true);
    });
    // One batched lookup for the three subscribers; one judgement each (not one per subscription).
    expect(lookups.count - writeOnly).toBe(1);
    expect(ctx.app.services.liveRows.stats().judgements - judged).toBe(3);
    for (const feed of feeds) await feed.dispose();
  });

  it('gives the event loop turns between batches of judgements', async ({ ctx, s }) => {
    const { alice } = s.users;
    // More distinct queries than one batch judges: each its own group.
    const inputs = Array.from({ length: ROWS_LIVE_JUDGE_BATCH + 10 }, (_, i) => ({ scope: mine, table: 'notes', where: { title: `note ${i}` } }));
    const sockets: Awaited<ReturnType<typeof manyFeeds>>[] = [];
    for (let i = 0; i < inputs.length; i += 90) sockets.push(await manyFeeds(ctx.url, alice.token!, inputs.slice(i, i + 90)));
    const stats = ctx.app.services.liveRows;
    const before = stats.stats().judgements;
    // Judging a user's own rows reads nothing: without a yield the whole change would be judged
    // before any other callback ran. This one runs at the first turn the fan-out gives back.
    let judgedAtFirstTurn = -1;
    const unlisten = ctx.app.services.deps.bus.listen(`rows:${s.deploymentId}:notes`, () => {
      setImmediate(() => {
        judgedAtFirstTurn = stats.stats().judgements - before;
      });
    });
    expect((await db(alice, { op: 'insert', scope: mine, table: 'notes', values: { title: 'note 3' } })).status).toBe(200);
    await vi.waitFor(() => expect(sockets[0].received[3]).toHaveLength(1));
    await vi.waitFor(() => expect(stats.stats().judgements - before).toBe(inputs.length));
    unlisten();
    expect(judgedAtFirstTurn).toBeGreaterThan(0);
    expect(judgedAtFirstTurn).toBeLessThan(inputs.length);
    for (const socket of sockets) await socket.dispose();
  });

  it('a delete carries the row id only, not its columns (issue 25 item 11)', async ({ ctx, s }) => {
    const { alice } = s.users;
    const project = await createResource(alice, 'project', 'Deletes');
    const socket = await manyFeeds(ctx.url, alice.token!, [{ scope: { kind: 'resource', resourceId: project }, table: 'tasks' }]);
    const [feed] = socket.received;
    const inserted = await db(alice, { op: 'insert', scope: inResource(project), table: 'tasks', values: { title: 'gone soon' } });
    const id = inserted.body.rows[0].id;
    expect((await db(alice, { op: 'delete', scope: inResource(project), table: 'tasks', ids: [id] })).status).toBe(200);
    await vi.waitFor(() => expect(feed).toHaveLength(2));
    expect(feed[0]).toMatchObject({ op: 'insert', row: { id, title: 'gone soon' } });
    expect(feed[1]).toEqual({ op: 'delete', row: { id } });
    await socket.dispose();
  });

  it('bounds the subscriptions on one resource: the next is too_many_row_feeds (429)', async ({ ctx, s }) => {
    const { alice } = s.users;
    const project = await createResource(alice, 'project', 'Bounded');
    const input = { scope: { kind: 'resource', resourceId: project }, table: 'tasks' };
    const held = await manyFeeds(
      ctx.url,
      alice.token!,
      Array.from({ length: 70 }, () => input),
    );
    const refused = subscribe(ctx.url, alice.token!, ROWS_LIVE, { input });
    expect((await refused.next()).errors?.[0].extensions).toMatchObject({ code: 'too_many_row_feeds', status: 429 });
    await refused.dispose();
    // Closing them makes room again (once the server has seen the socket close).
    await held.dispose();
    await vi.waitFor(async () => {
      const again = subscribe(ctx.url, alice.token!, ROWS_LIVE, { input });
      try {
        expect(await snapshotOf(again)).toEqual([]);
      } finally {
        await again.dispose();
      }
    });
  });
});
