/**
 * What one row write costs the database (issue 27 item 1): the statements a single insert, update
 * and delete by filter (one each, with a case the one statement leaves to the transaction path), upsert (inserting, then updating), and a 100-row insert send to PostgreSQL, recorded at the driver
 * (pg's Client.query, which Prisma's adapter and the SQL layer both go through). Bounds, not exact
 * lists, so a refactor that adds a round trip to the hot write path fails here.
 * GATEHOUSE_PRINT_STATEMENTS=1 prints each list.
 */
import pg from 'pg';
import { afterEach, describe, expect } from 'vitest';
import { addMember, createResource } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { type RowsSeed, db, inResource, rowsSeed } from './rows.fixture.js';

const postgres = (await backends()).filter(b => b.name === 'postgres');
const onBackend = appTestOn<RowsSeed>(postgres, { users: ['alice', 'carol'], seed: rowsSeed });

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const original = pg.Client.prototype.query as unknown as Query;

/** The statements sent while `fn` runs, as their text (first line, collapsed), appended to `seen` as they go. */
async function statementsOf(fn: () => Promise<unknown>, seen: string[] = []): Promise<string[]> {
  (pg.Client.prototype as unknown as { query: Query }).query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '?');
    seen.push(text.replace(/\s+/g, ' ').trim());
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    (pg.Client.prototype as unknown as { query: Query }).query = original;
  }
  if (process.env.GATEHOUSE_PRINT_STATEMENTS === '1') console.log(`${seen.length} statements:\n  ${seen.map(s => s.slice(0, 200)).join('\n  ')}`);
  return seen;
}

/** The one-statement write's first words (row-fast-insert.sql.ts, row-fast-write.sql.ts). */
const ONE_STATEMENT = /^WITH mem AS MATERIALIZED \( SELECT r\.id, pg_current_xact_id/;

/**
 * A project of alice's with carol a writer, each with two tasks there at the priority given. Warm:
 * the caller's token, the deployment and the resource are cached after the first call, and
 * metering's budget and lease are seen committed after the second.
 */
async function warmProject(s: RowsSeed, name: string, priority: { alice: number; carol: number }): Promise<string> {
  const { alice, carol } = s.users;
  const p = await createResource(alice, 'project', name);
  await addMember(alice, carol, p, 'writer');
  for (const as of ['alice', 'carol'] as const)
    for (const title of ['warm', 'warmer'])
      expect((await db(s.users[as], { scope: inResource(p), table: 'tasks', op: 'insert', values: { title, priority: priority[as] } })).status).toBe(
        200,
      );
  return p;
}

afterEach(() => {
  (pg.Client.prototype as unknown as { query: Query }).query = original;
});

describe.each(postgres)('statements of one row write on $name', backend => {
  const it = onBackend(backend);

  it('insert, update and delete by filter, upsert, 100-row insert', async ({ s }) => {
    const { alice, carol } = s.users;
    const p = await warmProject(s, 'Stmts', { alice: 0, carol: 0 });
    const scope = inResource(p);

    const insert = await statementsOf(async () => {
      const res = await db(carol, { scope, table: 'tasks', op: 'insert', values: { title: 't', priority: 1 } });
      expect(res.status).toBe(200);
    });
    const update = await statementsOf(async () => {
      const res = await db(carol, { scope, table: 'tasks', op: 'update', where: { priority: 1 }, values: { title: 'u' } });
      expect(res.body.rows).toHaveLength(1);
    });
    const upsertOf = (state: string) =>
      statementsOf(async () => {
        const res = await db(carol, {
          scope,
          table: 'presence',
          op: 'upsert',
          values: { member: 'c', device: 'd', state },
          onConflict: ['member', 'device'],
        });
        expect(res.body.rows).toEqual([expect.objectContaining({ state })]);
      });
    const keyed = await statementsOf(async () => {
      const res = await db(carol, { scope, table: 'tasks', op: 'insert', values: { title: 'k', ref: '018f0000-0000-7000-8000-0000000000aa' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    const upsert = await upsertOf('on');
    const upsertAgain = await upsertOf('off');
    const remove = await statementsOf(async () => {
      const res = await db(alice, { scope, table: 'tasks', op: 'delete', where: { priority: 1 } });
      expect(res.body.rows).toHaveLength(1);
    });
    const many = await statementsOf(async () => {
      const values = Array.from({ length: 100 }, (_, i) => ({ title: `m${i}`, priority: 5 }));
      const res = await db(carol, { scope, table: 'tasks', op: 'insert', values });
      expect(res.body.rows).toHaveLength(100);
    });
    // A member's insert is one statement, its charge and storage check included (row-fast-insert.sql.ts).
    expect(insert).toHaveLength(1);
    expect(many).toHaveLength(1);
    expect(insert[0]).toMatch(/^WITH mem AS/);
    // A member's update or delete by filter is one statement too: the resource's and the
    // membership's locks, the rows matched and written, the charge and storage check with them
    // (row-fast-write.sql.ts).
    // The storage payer an earlier write there found is passed in: no joins to find it again.
    for (const write of [insert, update, remove]) expect(write[0]).not.toMatch(/JOIN apps/);
    // That payer, a developer this process has seen credited, has no starting credit due: the
    // storage check leaves out the ledger lookup for it (storageCreditDue).
    for (const write of [insert, update, remove]) expect(write[0]).not.toMatch(/once_key/);
    for (const write of [update, remove]) {
      expect(write).toHaveLength(1);
      expect(write[0]).toMatch(/^WITH mem AS MATERIALIZED .*FOR UPDATE OF r.*wallet_charges.*(UPDATE|DELETE FROM) rows/);
    }
    // An upsert whose key finds its row, by a member who wrote there before: the update of that
    // row as one statement (row-fast-write.service.ts, upsertUpdate).
    expect(upsertAgain).toHaveLength(1);
    expect(upsertAgain[0]).toMatch(/^WITH mem AS MATERIALIZED .*FOR UPDATE OF r.*wallet_charges.*UPDATE rows/);
    // One whose key finds none: that statement matched nothing and wrote and charged nothing; then
    // the transaction path: the facts, its key's values locked in the same statement (before the
    // statement that reads the rows, so it sees a racing upsert's committed row); the row found and
    // updated or inserted, the call's charge and storage check with it (row-upsert.service.ts); COMMIT.
    expect(upsert).toHaveLength(4);
    expect(upsert[0]).toMatch(ONE_STATEMENT);
    expect(upsert[1]).toMatch(/FROM resources r WHERE .*FOR KEY SHARE.*pg_advisory_xact_lock/);
    expect(upsert[2]).toMatch(/^WITH t AS MATERIALIZED .*INSERT INTO rows .*wallet_charges/);
    // The storage payer the writes before found is passed in here too, its credit settled.
    for (const write of [upsert[0], upsert[2], upsertAgain[0]]) expect(write).not.toMatch(/JOIN apps|once_key/);
    // An insert that sets a unique key (the transaction path), by a member who wrote there before:
    // the facts with the key's lock (no statement of its own), the check that no row holds it, the
    // insert, the charge with its storage check, COMMIT.
    expect(keyed).toHaveLength(5);
    expect(keyed[0]).toMatch(/FROM resources r WHERE .*FOR KEY SHARE.*pg_advisory_xact_lock/);
    expect(keyed[1]).toMatch(/^SELECT EXISTS/);
    expect(keyed[2]).toMatch(/^INSERT INTO rows/);
    // Its charge's storage check takes the payer the writes before found, its credit settled.
    expect(keyed[3]).toMatch(/^WITH cov AS MATERIALIZED .*wallet_charges/);
    expect(keyed[3]).not.toMatch(/JOIN apps|once_key/);
    expect([...insert, ...update, ...upsert, ...upsertAgain, ...remove, ...many].filter(text => /^BEGIN/i.test(text))).toEqual([]);
    // The developer pays for these writes and for the resource's bytes, and holds the lease they
    // are charged to: that open lease proves its headroom, so no storage check reads the wallet
    // (payerHoldsLease).
    for (const write of [insert[0], update[0], remove[0], upsert[0], upsert[2], upsertAgain[0], keyed[3]]) expect(write).not.toMatch(/FROM wallets/);
  });

  it('an update the one statement does not judge (a unique key changed) or refuses (a row the rule does not admit) takes the transaction path', async ({
    s,
  }) => {
    const { carol } = s.users;
    const p = await warmProject(s, 'Fallback', { alice: 1, carol: 2 });
    const scope = inResource(p);
    const ref = '018f0000-0000-7000-8000-000000000001';
    const keyed = await statementsOf(async () => {
      const res = await db(carol, { scope, table: 'tasks', op: 'update', where: { priority: 2, title: 'warm' }, values: { ref } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.rows).toEqual([expect.objectContaining({ title: 'warm', ref })]);
    });
    // The facts (BEGIN with them), the unique key's lock, the rows, their write, the charge, COMMIT: no one-statement attempt.
    expect(keyed.filter(text => ONE_STATEMENT.test(text))).toEqual([]);
    expect(keyed).toContain('COMMIT');
    const refused = await statementsOf(async () => {
      const res = await db(carol, { scope, table: 'tasks', op: 'update', where: { priority: 1 }, values: { title: 'not mine' } });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error).toBe('access_denied');
    });
    // The one statement found alice's rows and wrote nothing; the transaction path answered the refusal and rolled back.
    // (A lease's statements may run meanwhile: the list is searched, not indexed.)
    expect(refused.filter(text => ONE_STATEMENT.test(text))).toHaveLength(1);
    expect(refused).toContain('ROLLBACK');
  });

  it('a payer writing past its lease: the charge that leaves it low grants the successor beside the writes, and every insert stays one statement', async ({
    s,
  }) => {
    const { carol } = s.users;
    const p = await warmProject(s, 'Renewal', { alice: 0, carol: 0 });
    const scope = inResource(p);
    let inserts = 0;
    let afterGrant = -1;
    const statements: string[] = [];
    await statementsOf(async () => {
      // Back to back, each a few milliseconds: the sweep (every 100 ms) would notice a lease running low only after it ran out.
      while (afterGrant < 20 && inserts < 400) {
        const res = await db(carol, { scope, table: 'tasks', op: 'insert', values: { title: `w${inserts}`, priority: 3 } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        inserts++;
        if (afterGrant >= 0) afterGrant++;
        else if (statements.some(text => /^insert into "wallet_leases"/i.test(text))) afterGrant = 0;
      }
    }, statements);
    expect(afterGrant).toBeGreaterThanOrEqual(20);
    // The successor's grant (its own transaction) ran while the writes went on; none wrote its rows in a transaction.
    expect(statements.filter(text => ONE_STATEMENT.test(text))).toHaveLength(inserts);
    expect(statements.filter(text => /insert into "?rows"?/i.test(text) && !ONE_STATEMENT.test(text))).toEqual([]);
  });

  it("a non-member's insert into a resource others write to makes no one-statement attempt (its timing tells nothing)", async ({ s }) => {
    const { alice, carol } = s.users;
    const closed = await createResource(alice, 'project', 'Closed');
    for (const title of ['a', 'b'])
      expect((await db(alice, { scope: inResource(closed), table: 'tasks', op: 'insert', values: { title } })).status).toBe(200);
    const statements = await statementsOf(async () => {
      const res = await db(carol, { scope: inResource(closed), table: 'tasks', op: 'insert', values: { title: 'not mine' } });
      expect(res.status).toBe(404);
    });
    expect(statements.filter(text => ONE_STATEMENT.test(text))).toEqual([]);
  });

  it("a first write to a public resource auto-joins: the call runs again on Prisma's transaction", async ({ ctx, s }) => {
    const { alice, carol } = s.users;
    const forum = await createResource(alice, 'forum', 'Open');
    const statements = await statementsOf(async () => {
      const res = await db(carol, { scope: inResource(forum), table: 'posts', op: 'insert', values: { body: 'hello' } });
      expect(res.status).toBe(200);
    });
    // The driver transaction rolled back before writing anything; the row is written once.
    expect(statements.filter(text => /^ROLLBACK/i.test(text))).toHaveLength(1);
    expect(await ctx.database.prisma.row.count({ where: { resourceId: forum } })).toBe(1);
    const member = await ctx.database.prisma.membership.findUnique({
      where: { resourceId_principalId: { resourceId: forum, principalId: carol.id } },
    });
    expect(member).toMatchObject({ state: 'active', role: 'writer' });
  });
});
