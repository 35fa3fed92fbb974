/**
 * An upsert into a resource's own table finds and updates, or inserts, its row in one statement
 * with the call's charge (src/rows/row-upsert.service.ts, upsertOwnedTarget): a row found that the
 * rule does not let the caller update answers 403 with nothing written or charged; a key taken
 * outside the caller's reach answers 409 as an insert would, nothing charged; a storage payer in
 * debt answers 402 storage; the insert and update paths are each charged once; racing upserts of
 * one key leave one row and charge each call once. Both stores.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, inStorageDebt, racedAndBooked, rowsSeed } from './rows.fixture.js';
import { chargeCount } from '../helpers/ledger.js';

const available = await backends();
const onBackend = appTestOn<RowsSeed>(available, { users: ['alice', 'carol'], seed: rowsSeed });

type User = RowsSeed['users'][string];

const upsert = (as: User, project: string, table: string, values: unknown, onConflict: unknown) =>
  db(as, { scope: inResource(project), table, op: 'upsert', values, onConflict });

const presence = (as: User, project: string, member: string, seen: number) =>
  upsert(as, project, 'presence', { member, device: 'd', seen }, ['member', 'device']);

describe.each(available)('an upsert charged in its own statement on $name', backend => {
  const it = onBackend(backend)
    /** A project of alice's with carol a writer; each has upserted a presence row (member: their name), and the charges are warm. */
    .extend('project', async ({ s }) => {
      const { alice, carol } = s.users;
      const id = await createResource(alice, 'project', 'Charged upserts');
      await addMember(alice, carol, id, 'writer');
      for (const [as, member] of [
        [alice, 'alice'],
        [carol, 'carol'],
      ] as const)
        for (const seen of [1, 2]) expect((await presence(as, id, member, seen)).status).toBe(200);
      return id;
    })
    /** The project's rows (table, key and what they hold), and carol's upsert charges. */
    .extend('state', async ({ ctx, s }) => {
      const prisma = ctx.database.prisma;
      return async (project: string) => {
        const rows = await prisma.row.findMany({
          where: { resourceId: project },
          select: { id: true, tableName: true, data: true, creatorId: true },
        });
        return {
          rows: rows.map(r => JSON.stringify([r.tableName, r.id, r.creatorId, r.data])).sort(),
          carolUpserts: await chargeCount(prisma, { actorId: s.users.carol.id, kind: 'charge:rows.upsert' }),
        };
      };
    });

  it('the insert path and the update path: each written and charged once', async ({ s, project, state }) => {
    const { carol } = s.users;
    const before = await state(project);
    const inserted = await presence(carol, project, 'new', 1);
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    expect(inserted.body.rows).toEqual([expect.objectContaining({ member: 'new', seen: 1, _creatorId: carol.id, roomId: null })]);
    const afterInsert = await state(project);
    expect(afterInsert.rows).toHaveLength(before.rows.length + 1);
    expect(afterInsert.carolUpserts).toBe(before.carolUpserts + 1);

    const updated = await upsert(carol, project, 'presence', { member: 'new', device: 'd', state: 'away', seen: null }, 'member,device');
    expect(updated.body.rows).toEqual([expect.objectContaining({ id: inserted.body.rows[0].id, state: 'away', seen: null })]);
    const afterUpdate = await state(project);
    expect(afterUpdate.rows).toHaveLength(afterInsert.rows.length);
    expect(afterUpdate.carolUpserts).toBe(afterInsert.carolUpserts + 1);

    // Several values in one call, one found and one new: one charge.
    const both = await upsert(
      carol,
      project,
      'presence',
      [
        { member: 'new', device: 'd', seen: 5 },
        { member: 'newer', device: 'd', seen: 6 },
      ],
      ['member', 'device'],
    );
    expect(both.body.rows.map((r: { id: string; seen: number }) => [r.id === inserted.body.rows[0].id, r.seen])).toEqual([
      [true, 5],
      [false, 6],
    ]);
    expect(await state(project)).toMatchObject({ carolUpserts: afterUpdate.carolUpserts + 1 });
  });

  it('a row found that the rule does not let the caller update: 403, nothing written, nothing charged', async ({ s, project, state }) => {
    const before = await state(project);
    // presence is updated by its creator only; carol reads alice's row.
    const res = await presence(s.users.carol, project, 'alice', 9);
    expect([res.status, res.body.error], JSON.stringify(res.body)).toEqual([403, 'access_denied']);
    expect(res.body.message).toMatch(/update on presence/);
    expect(await state(project)).toEqual(before);
    // The charge held for it was given back: carol's own upsert is paid and charged once.
    expect((await presence(s.users.carol, project, 'carol', 9)).status).toBe(200);
    expect(await state(project)).toMatchObject({ carolUpserts: before.carolUpserts + 1 });
  });

  it('a key taken outside the caller’s reach: 409 unique_violation as an insert answers, nothing charged', async ({ s, project, state }) => {
    const { alice, carol } = s.users;
    // handles are read by their creator only: carol cannot see alice's.
    expect((await db(alice, { scope: inResource(project), table: 'handles', op: 'insert', values: { name: 'taken', note: 'alice' } })).status).toBe(
      200,
    );
    const before = await state(project);
    const asInsert = await db(carol, { scope: inResource(project), table: 'handles', op: 'insert', values: { name: 'taken', note: 'carol' } });
    const asUpsert = await upsert(carol, project, 'handles', { name: 'taken', note: 'carol' }, 'name');
    expect([asUpsert.status, asUpsert.body.error]).toEqual([409, 'unique_violation']);
    expect(asUpsert.body).toEqual(asInsert.body);
    expect(await state(project)).toEqual(before);
    // A free key inserts, charged once.
    const free = await upsert(carol, project, 'handles', { name: 'free', note: 'carol' }, 'name');
    expect(free.body.rows).toEqual([expect.objectContaining({ name: 'free', _creatorId: carol.id })]);
    expect(await state(project)).toMatchObject({ carolUpserts: before.carolUpserts + 1 });
  });

  it('a storage payer in debt: an upsert, inserting or updating, answers 402 storage and changes nothing, charges nothing', async ({
    ctx,
    s,
    project,
    state,
  }) => {
    const before = await state(project);
    await inStorageDebt(ctx, s.developerId, async () => {
      for (const member of ['carol', 'in debt']) {
        const res = await presence(s.users.carol, project, member, 7);
        expect(res.status, JSON.stringify(res.body)).toBe(402);
        expect(res.body).toMatchObject({ error: 'payment_required', reason: 'storage' });
        expect(await state(project)).toEqual(before);
      }
    });
  });

  it('racing upserts of one key: one row, each acknowledged call charged exactly once, and the balance moves by the ledger', async ({
    ctx,
    s,
    project,
    state,
  }) => {
    const before = await state(project);
    const results = await racedAndBooked(ctx, s.developerId, 16, i => presence(s.users.carol, project, 'race', i));
    expect(new Set(results.map(r => r.body.rows[0].id)).size).toBe(1);
    const after = await state(project);
    expect(after.rows).toHaveLength(before.rows.length + 1);
    expect(after.carolUpserts).toBe(before.carolUpserts + results.length);
  });
});
