/**
 * docs/api.md §6 "Snapshot, then changes" (issue 25 item 10): a write racing the subscribe is seen
 * exactly once, in the snapshot or as a change, never lost and never twice, on every feed and on
 * both stores. Each round subscribes while a write commits (see `run` for the timings); then a
 * second write after `ready` proves the feed is live and bounds what it delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seed, type TestContext, addMember, createResource, startTestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { snapshotOf, subscribe } from '../helpers/feeds.js';
import { db, inResource, rowsSeed } from '../api/rows.fixture.js';

const ROUNDS = 15;
const ROLES = ['reader', 'writer'] as const;
const available = await backends();

type Row = Record<string, any>;

interface Race<W> {
  query: string;
  variables: Record<string, unknown>;
  token: string;
  /** The racing write of round `i`; answers what identifies its row. */
  write(i: number): Promise<W>;
  /** The write after `ready` (round `i`). */
  after(i: number): Promise<W>;
  /** Whether `row` shows the write that answered `written`. */
  shows(row: Row, written: W): boolean;
}

describe.each(available)('a write racing the subscribe, on $name', backend => {
  let ctx: TestContext;
  let s: Seed;

  beforeAll(async () => {
    ctx = await startTestApp({ database: await backend.create(), listen: true });
    s = await rowsSeed(ctx, ['alice', 'bob', 'carol']);
  }, 60_000);
  afterAll(() => ctx?.close());

  /**
   * Holds the next snapshot read (the feeds' one REPEATABLE READ transaction): `before` runs
   * before it starts, `inside` right after its first statement (the snapshot's pg_snapshot).
   */
  function holdNextSnapshot(hooks: { before?: () => Promise<unknown>; inside?: () => Promise<unknown> }) {
    const deps = ctx.app.services.deps;
    const original = deps.transaction;
    deps.transaction = (async (fn: (tx: any) => Promise<unknown>, options?: { isolationLevel?: string }) => {
      if (options?.isolationLevel !== 'RepeatableRead') return original(fn, options as never);
      deps.transaction = original;
      await hooks.before?.();
      return original(async tx => {
        if (!hooks.inside) return fn(tx);
        let first = true;
        const query = tx.$queryRawUnsafe.bind(tx);
        const held = new Proxy(tx, {
          get: (target, key) =>
            key === '$queryRawUnsafe'
              ? async (...args: unknown[]) => {
                  const result = await query(...(args as [string]));
                  if (first) {
                    first = false;
                    await hooks.inside!();
                  }
                  return result;
                }
              : Reflect.get(target, key),
        });
        return fn(held);
      }, options as never);
    }) as typeof deps.transaction;
  }

  /**
   * Runs ROUNDS rounds of `race` and checks each: the racing write seen exactly once, the later one
   * as a change. Rounds cycle through three timings of the write: a few ms around the subscribe;
   * committed after the feed listens and before its snapshot is read (the snapshot holds it and
   * its event must be dropped); and, on PostgreSQL, committed while the snapshot transaction is
   * open, after its pg_snapshot (the snapshot does not hold it and its event must be delivered).
   */
  async function run<W>(race: Race<W>) {
    for (let i = 0; i < ROUNDS; i++) {
      const timing = (['around', 'before-snapshot', 'inside-snapshot'] as const)[i % 3];
      let racing!: Promise<W>;
      const write = () => (racing = race.write(i));
      if (timing === 'before-snapshot') holdNextSnapshot({ before: () => write() });
      // PGlite runs one transaction at a time: a write cannot commit inside the snapshot's.
      if (timing === 'inside-snapshot' && backend.name === 'postgres') holdNextSnapshot({ inside: () => write() });
      const feed = subscribe(ctx.url, race.token, race.query, race.variables);
      if (timing === 'around' || (timing === 'inside-snapshot' && backend.name !== 'postgres')) {
        await new Promise(resolve => setTimeout(resolve, (i % 5) * 3));
        write();
      }
      const snapshot = await snapshotOf<Row>(feed);
      const written = await racing;
      const later = await race.after(i);
      const changes: { op: string; row: Row }[] = [];
      while (!changes.some(c => c.row && race.shows(c.row, later))) {
        const message = await feed.next();
        if (message.errors) throw new Error(JSON.stringify(message.errors));
        changes.push(Object.values(message.data!)[0] as { op: string; row: Row });
      }
      const seen = [...snapshot.filter(row => race.shows(row, written)), ...changes.filter(c => c.row && race.shows(c.row, written)).map(c => c.row)];
      expect(
        seen,
        `round ${i} (${timing}): the racing write, in the snapshot (${snapshot.length} rows) or the changes (${JSON.stringify(changes)})`,
      ).toHaveLength(1);
      await feed.dispose();
    }
  }

  it('membersLive: a role change', async () => {
    const { alice, bob, carol } = s.users;
    const id = await createResource(alice, 'team', 'Race roster');
    await addMember(alice, bob, id, 'admin');
    await addMember(alice, carol, id, 'admin');
    const setRole = async (userId: string, role: string) => {
      const res = await alice.post(`/v1/resources/${id}/setRole`, { userId, role });
      expect(res.status).toBe(200);
      return { userId, role };
    };
    await run({
      query: 'subscription($id: ID!) { membersLive(resourceId: $id) { op row { id userId role state } } }',
      variables: { id },
      token: alice.token!,
      write: i => setRole(bob.id, ROLES[i % 2]),
      after: i => setRole(carol.id, ROLES[i % 2]),
      shows: (row, w) => row.userId === w.userId && row.role === w.role,
    });
  });

  it('resourcesLive: a resource created (its owner row)', async () => {
    const { alice } = s.users;
    const create = async (i: number) => ({ resourceId: await createResource(alice, 'team', `Race ${i}`) });
    await run({
      query: 'subscription { resourcesLive { op row { id resourceId userId role state } } }',
      variables: {},
      token: alice.token!,
      write: create,
      after: create,
      shows: (row, w) => row.resourceId === w.resourceId,
    });
  });

  it('roomsLive: a grant changed', async () => {
    const { alice, bob } = s.users;
    const id = await createResource(alice, 'team', 'Race rooms');
    await addMember(alice, bob, id, 'writer');
    const rooms: string[] = [];
    for (const name of ['race', 'after']) rooms.push((await alice.post(`/v1/resources/${id}/rooms`, { name })).body.id as string);
    const grant = async (roomId: string, role: string) => {
      const res = await alice.request('PUT', `/v1/resources/${id}/rooms/${roomId}/grants/${bob.id}`, { role });
      expect(res.status).toBe(200);
      return { roomId, role };
    };
    await run({
      query: 'subscription { roomsLive { op row { resourceId roomId role } } }',
      variables: {},
      token: bob.token!,
      write: i => grant(rooms[0], ROLES[i % 2]),
      after: i => grant(rooms[1], ROLES[i % 2]),
      shows: (row, w) => row.roomId === w.roomId && row.role === w.role,
    });
  });

  it('rowsLive: a row inserted', async () => {
    const { alice, bob } = s.users;
    const project = await createResource(alice, 'project', 'Race rows');
    await addMember(alice, bob, project, 'writer');
    const insert = async (title: string) => {
      const res = await db(alice, { op: 'insert', scope: inResource(project), table: 'tasks', values: { title } });
      expect(res.status).toBe(200);
      return { id: res.body.rows[0].id as string };
    };
    await run({
      query: 'subscription($input: DbSelectInput!) { rowsLive(input: $input) { op row } }',
      variables: { input: { scope: { kind: 'resource', resourceId: project }, table: 'tasks' } },
      token: bob.token!,
      write: i => insert(`race ${i}`),
      after: i => insert(`after ${i}`),
      shows: (row, w) => row.id === w.id,
    });
  });
});
