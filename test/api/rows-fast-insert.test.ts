/**
 * The one-statement insert (src/rows/row-fast-insert.service.ts): whatever it meets that the
 * transaction path would refuse (a role the create rule does not admit, a removed member, a storage
 * payer in debt) changes nothing, charges nothing and is answered as the transaction path answers
 * it; racing a removal, every acknowledged insert has its row and its one charge, and no other.
 * Both stores.
 */
import { describe, expect } from 'vitest';
import { createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, duringRemoval, inResource, inStorageDebt, rowsSeed, warmedProject } from './rows.fixture.js';
import { chargeCount, ledgerSum } from '../helpers/ledger.js';
import { WRITE_LANE_APPLICATION } from '../../src/db/pg-lanes.js';
import { turnBatching } from '../../src/rows/row-turn-batch.service.js';

const available = await backends();
const onBackend = appTestOn<RowsSeed>(available, { users: ['alice', 'carol'], seed: rowsSeed });

describe.each(available)('one-statement insert on $name', backend => {
  const it = onBackend(backend)
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    /** A project of alice's with carol a writer, and carol's inserts there as the one statement (warmed: resource, budget and lease seen). */
    .extend('project', ({ s }) => warmedProject(s.users.alice, s.users.carol, 'One statement'))
    /** What carol's inserts left: her rows in the project and the insert charges she made. */
    .extend('written', async ({ prisma, s }) => {
      return async (project: string) => ({
        rows: await prisma.row.count({ where: { resourceId: project, creatorId: s.users.carol.id } }),
        charges: await chargeCount(prisma, { actorId: s.users.carol.id, kind: 'charge:rows.insert' }),
      });
    });

  const insert = (as: RowsSeed['users'][string], project: string, title: string) =>
    db(as, { scope: inResource(project), table: 'tasks', op: 'insert', values: { title } });

  it('a role the create rule does not admit, then a removal: refused as before, nothing written or charged', async ({ s, project, written }) => {
    const { alice, carol } = s.users;
    const before = await written(project);
    expect((await alice.post(`/v1/resources/${project}/setRole`, { userId: carol.id, role: 'reader' })).status).toBe(200);
    const asReader = await insert(carol, project, 'as reader');
    expect(asReader.status, JSON.stringify(asReader.body)).toBe(403);
    expect(asReader.body.error).toBe('access_denied');
    expect((await alice.post(`/v1/resources/${project}/remove`, { userId: carol.id })).status).toBe(200);
    const removed = await insert(carol, project, 'removed');
    expect(removed.status, JSON.stringify(removed.body)).toBe(404);
    expect(removed.body.error).toBe('resource_not_found');
    expect(await written(project)).toEqual(before);
    // A refusal gave the held charge back: the next insert elsewhere is paid as usual.
    const own = await createResource(carol, 'project', 'Own');
    expect((await insert(carol, own, 'mine')).status).toBe(200);
  });

  it('a storage payer in debt (the debit closed its open leases): 402 storage, nothing written or charged', async ({ ctx, s, project, written }) => {
    const before = await written(project);
    await inStorageDebt(ctx, s.developerId, async () => {
      const res = await insert(s.users.carol, project, 'in debt');
      expect(res.status, JSON.stringify(res.body)).toBe(402);
      expect(res.body).toMatchObject({ error: 'payment_required', reason: 'storage' });
      expect(await written(project)).toEqual(before);
    });
  });

  it('the resource changes owner (an heir): the payer found before is not trusted, the new one in debt answers 402 storage', async ({
    prisma,
    s,
    project,
    written,
  }) => {
    // One more insert as the one statement: its payer (the developer) is known from here on.
    expect((await insert(s.users.carol, project, 'payer known')).status).toBe(200);
    const before = await written(project);
    // A person's resource is paid for by that person: an heir whose wallet is in debt.
    const heir = 'usr_heir_in_debt';
    await prisma.principal.create({ data: { id: heir, kind: 'user', name: 'Heir' } });
    await prisma.wallet.create({ data: { holderId: heir, balanceMicros: -1_000_000n } });
    await prisma.resource.update({ where: { id: project }, data: { ownerPrincipal: heir } });
    const res = await insert(s.users.carol, project, 'after the heir');
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect(res.body).toMatchObject({ error: 'payment_required', reason: 'storage' });
    expect(await written(project)).toEqual(before);
    // Back to alice (a test user: the developer pays): found again, each insert written and charged once.
    await prisma.resource.update({ where: { id: project }, data: { ownerPrincipal: s.users.alice.id } });
    for (const title of ['again', 'and again']) expect((await insert(s.users.carol, project, title)).status).toBe(200);
    expect(await written(project)).toEqual({ rows: before.rows + 2, charges: before.charges + 2 });
  });

  it('a storage payer other than the charge’s, known from an earlier insert, falls into debt: 402 storage, nothing written or charged', async ({
    prisma,
    s,
    project,
    written,
  }) => {
    // The resource passes to a person, who then pays for its bytes; carol's inserts are the developer's to pay.
    const heir = 'usr_heir_solvent';
    await prisma.principal.create({ data: { id: heir, kind: 'user', name: 'Heir' } });
    await prisma.wallet.create({ data: { holderId: heir, balanceMicros: 1_000_000n } });
    await prisma.resource.update({ where: { id: project }, data: { ownerPrincipal: heir } });
    // The first finds the heir as the payer; the second checks the heir's wallet as the known payer.
    for (const title of ['heir found', 'heir known']) expect((await insert(s.users.carol, project, title)).status).toBe(200);
    const before = await written(project);
    await prisma.wallet.update({ where: { holderId: heir }, data: { balanceMicros: -1_000_000n } });
    const res = await insert(s.users.carol, project, 'heir in debt');
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect(res.body).toMatchObject({ error: 'payment_required', reason: 'storage' });
    expect(await written(project)).toEqual(before);
    await prisma.resource.update({ where: { id: project }, data: { ownerPrincipal: s.users.alice.id } });
  });

  it.runIf(backend.name === 'postgres')(
    'runs on the write lane: a connection of its own, named in pg_stat_activity',
    async ({ prisma, s, project }) => {
      expect((await insert(s.users.carol, project, 'on the lane')).status).toBe(200);
      const lane = await prisma.$queryRaw<{ query: string }[]>`
      SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${WRITE_LANE_APPLICATION}`;
      // pg_stat_activity keeps a statement's first kilobyte: the one statement opens with the member's
      // lock, a batch (rows-fast-batched.test.ts) with its calls.
      const opening = turnBatching.everyCall ? 'WITH i AS MATERIALIZED' : 'WITH mem AS MATERIALIZED';
      expect(
        lane.some(({ query }) => query.trimStart().startsWith(opening)),
        JSON.stringify(lane),
      ).toBe(true);
    },
  );

  it.runIf(backend.name === 'postgres')(
    'an insert that waits on a removal in flight sees it once committed: 404, nothing written or charged',
    async ({ ctx, s, project, written }) => {
      const before = await written(project);
      const answer = await duringRemoval(ctx, project, s.users.carol.id, () => insert(s.users.carol, project, 'waits'));
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect(await written(project)).toEqual(before);
    },
  );

  it('inserts racing the member’s removal: each acknowledged one has its row and one charge, the refused none', async ({
    ctx,
    prisma,
    s,
    project,
    written,
  }) => {
    const { alice, carol } = s.users;
    const before = await written(project);
    const inserts = Array.from({ length: 24 }, (_, i) => insert(carol, project, `race ${i}`));
    const removal = alice.post(`/v1/resources/${project}/remove`, { userId: carol.id });
    const [removed, ...results] = await Promise.all([removal, ...inserts]);
    expect(removed.status).toBe(200);
    for (const r of results) expect([200, 404], JSON.stringify(r.body)).toContain(r.status);
    const acknowledged = results.filter(r => r.status === 200).length;
    expect(await written(project)).toEqual({ rows: before.rows + acknowledged, charges: before.charges + acknowledged });
    // After the removal answered, carol writes nothing there.
    expect((await insert(carol, project, 'after')).status).toBe(404);
    // The books: once the leases closed, the balance is the ledger's sum moved by nothing else.
    const start = await ledgerSum(prisma, { developerId: s.developerId });
    await ctx.app.services.metering.closeWalletLeases();
    expect(await ledgerSum(prisma, { developerId: s.developerId })).toBe(start);
  });
});
