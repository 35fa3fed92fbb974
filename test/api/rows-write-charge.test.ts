/**
 * An update or delete by filter of a resource's own rows records its charge in the statement that
 * writes the rows (src/rows/row-fast-write.sql.ts, else src/rows/row-targets.service.ts
 * writeOwnedTargets on the transaction path): a write refused after that
 * statement (a row the rule does not let the caller update) changes nothing and charges nothing; an
 * update that adds bytes while the storage payer is in debt answers 402 storage, as before; a delete
 * adds none and is charged as usual; racing updates are each charged exactly once. Both stores.
 */
import { describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, inStorageDebt, racedAndBooked, rowsSeed } from './rows.fixture.js';
import { chargeCount } from '../helpers/ledger.js';

const available = await backends();
const onBackend = appTestOn<RowsSeed>(available, { users: ['alice', 'carol'], seed: rowsSeed });

describe.each(available)('a write charged in its own statement on $name', backend => {
  const it = onBackend(backend)
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    /** A project of alice's with carol a writer; each has a task there (priority 1 alice's, 2 carol's), and the charges are warm. */
    .extend('project', async ({ s }) => {
      const { alice, carol } = s.users;
      const id = await createResource(alice, 'project', 'Charged writes');
      await addMember(alice, carol, id, 'writer');
      for (const [as, priority] of [
        [alice, 1],
        [carol, 2],
      ] as const) {
        for (const title of ['warm', 'warmer'])
          expect((await db(as, { scope: inResource(id), table: 'tasks', op: 'insert', values: { title, priority } })).status).toBe(200);
        expect((await db(as, { scope: inResource(id), table: 'tasks', op: 'update', where: { priority }, values: { title: 'warm' } })).status).toBe(
          200,
        );
      }
      return id;
    })
    /** The project's tasks by title, and the update and delete charges each user made. */
    .extend('state', async ({ prisma, s }) => {
      return async (project: string) => {
        const rows = await prisma.row.findMany({ where: { resourceId: project }, select: { data: true, creatorId: true } });
        const charges = async (actorId: string, kind: string) => chargeCount(prisma, { actorId, kind: `charge:rows.${kind}` });
        return {
          titles: rows.map(r => (r.data as { title: string }).title).sort(),
          carolUpdates: await charges(s.users.carol.id, 'update'),
          aliceDeletes: await charges(s.users.alice.id, 'delete'),
        };
      };
    });

  const update = (as: RowsSeed['users'][string], project: string, priority: number, title: string) =>
    db(as, { scope: inResource(project), table: 'tasks', op: 'update', where: { priority }, values: { title } });

  it('an update of a row the rule refuses: 403 after the statement, nothing written, nothing charged', async ({ s, project, state }) => {
    const before = await state(project);
    const res = await update(s.users.carol, project, 1, 'not mine');
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toBe('access_denied');
    expect(await state(project)).toEqual(before);
    // The charge held for it was given back: carol's own update is paid and charged once.
    expect((await update(s.users.carol, project, 2, 'mine')).status).toBe(200);
    expect(await state(project)).toMatchObject({ carolUpdates: before.carolUpdates + 1 });
  });

  it('a storage payer in debt: an update answers 402 storage and changes nothing, charges nothing', async ({ ctx, s, project, state }) => {
    const before = await state(project);
    await inStorageDebt(ctx, s.developerId, async () => {
      const res = await update(s.users.carol, project, 2, 'in debt');
      expect(res.status, JSON.stringify(res.body)).toBe(402);
      expect(res.body).toMatchObject({ error: 'payment_required', reason: 'storage' });
      expect(await state(project)).toEqual(before);
    });
  });

  it('the resource changes owner (an heir in debt) after its payer was found: an update answers 402 storage, changes and charges nothing', async ({
    prisma,
    s,
    project,
    state,
  }) => {
    // An insert as the one statement finds the payer (the developer: alice is a test user) for the writes after it.
    expect((await db(s.users.carol, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title: 'payer known' } })).status).toBe(
      200,
    );
    const before = await state(project);
    const heir = 'usr_heir_in_debt';
    await prisma.principal.create({ data: { id: heir, kind: 'user', name: 'Heir' } });
    await prisma.wallet.create({ data: { holderId: heir, balanceMicros: -1_000_000n } });
    await prisma.resource.update({ where: { id: project }, data: { ownerPrincipal: heir } });
    const res = await update(s.users.carol, project, 2, 'after the heir');
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect(res.body).toMatchObject({ error: 'payment_required', reason: 'storage' });
    expect(await state(project)).toEqual(before);
    await prisma.resource.update({ where: { id: project }, data: { ownerPrincipal: s.users.alice.id } });
    expect((await update(s.users.carol, project, 2, 'alice again')).status).toBe(200);
    expect(await state(project)).toMatchObject({ carolUpdates: before.carolUpdates + 1 });
  });

  it('a delete by filter: the rows gone and one charge', async ({ s, project, state }) => {
    const before = await state(project);
    const removed = await db(s.users.alice, { scope: inResource(project), table: 'tasks', op: 'delete', where: { priority: 1 } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.rows).toHaveLength(2);
    expect(await state(project)).toMatchObject({ titles: ['warm', 'warm'], aliceDeletes: before.aliceDeletes + 1 });
  });

  it('racing updates of one row: each acknowledged one charged exactly once, and the balance moves by the ledger', async ({
    ctx,
    s,
    project,
    state,
  }) => {
    const before = await state(project);
    const results = await racedAndBooked(ctx, s.developerId, 16, i => update(s.users.carol, project, 2, `race ${i}`));
    expect(await state(project)).toMatchObject({ carolUpdates: before.carolUpdates + results.length });
  });
});
