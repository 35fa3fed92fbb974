/**
 * Row-store indexes (docs/api.md §11.6), on the embedded database and PostgreSQL: declared
 * `index([...])`es become partial expression indexes at deploy (and go when the schema drops
 * them), and the reads that matter are planned on indexes, never a scan of `rows`.
 */
import { describe, expect } from 'vitest';
import type { PrincipalCaller } from '../../src/core/caller.rules.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/lib/secrets.js';
import { type TestContext, addMember, createResource, startTestApp } from '../helpers/app.js';
import { sql, sqlOf } from '../../src/db/sql.js';
import { holdersOf } from '../../src/rows/row-unique.service.js';
import { backends } from '../helpers/backends.js';
import { appTestOn } from '../helpers/fixtures.js';
import { ROWS_SCHEMA, inResource, mine, rowsSeed } from './rows.fixture.js';

const available = await backends();
const SEED_TIMEOUT_MS = 180_000;
const onBackend = appTestOn(available, { users: ['owner', 'member'], seed: rowsSeed });

describe.each(available)('row indexes on $name', backend => {
  /** indexes(prefix): the definitions of this deployment's indexes of that kind (declared-column: x, unique keys: u). */
  const indexes = (ctx: TestContext, deploymentId: string, kind: 'x' | 'u') =>
    ctx.database.prisma.$queryRaw<{ indexdef: string }[]>`
      SELECT indexdef FROM pg_indexes WHERE tablename = 'rows' AND indexname LIKE ${`rows\\_${kind}\\_%`} AND indexdef LIKE ${`%'${deploymentId}'%`}`;
  /** declared(): the definitions of this deployment's declared-column indexes. */
  const it = onBackend(backend).extend('declared', async ({ ctx, s }) => {
    return async () => (await indexes(ctx, s.deploymentId, 'x')).map(r => r.indexdef);
  });

  it('a deploy turns each declared index into partial expression indexes; a redeploy drops the ones it no longer declares', async ({
    s,
    declared,
  }) => {
    const defs = await declared();
    // notes(title): resource rows (shared tables' retained copies) and users' own rows; tasks(priority), tasks(done, due):
    // resource rows only (inline); tasks(createdAt) is the built-in index's.
    expect(defs).toHaveLength(4);
    const tasks = defs.filter(d => d.includes("'tasks'"));
    expect(tasks).toHaveLength(2);
    expect(tasks.every(d => d.includes('(resource_id, room_id, ') && d.includes('resource_id IS NOT NULL'))).toBe(true);
    expect(tasks.some(d => d.includes("'priority'::text))::numeric"))).toBe(true);
    expect(
      defs
        .filter(d => d.includes("'notes'"))
        .map(d => d.match(/USING btree \((\w+),/)?.[1])
        .sort(),
    ).toEqual(['creator_id', 'resource_id']);

    const schema = structuredClone(ROWS_SCHEMA);
    schema.tables.tasks.indexes = [['createdAt'], ['priority']];
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema })).status).toBe(200);
    const after = await declared();
    expect(after).toHaveLength(3);
    expect(after.some(d => d.includes("'due'"))).toBe(false);
    expect((await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: ROWS_SCHEMA })).status).toBe(200);
    expect(await declared()).toHaveLength(4);
  });

  it(
    'resource pages, user pages and declared-column reads are planned on indexes (EXPLAIN, 40,000 rows)',
    async ({ ctx, s }) => {
      const { owner, member } = s.users;
      const project = await createResource(owner, 'project', 'big');
      const other = await createResource(owner, 'project', 'noise');
      await addMember(owner, member, project, 'writer');
      const rooms = Array.from({ length: 20 }, () => newId('room'));
      await ctx.database.prisma.room.createMany({ data: rooms.map(id => ({ id, resourceId: project, name: id, updatedAt: new Date() })) });
      await ctx.database.prisma.roomGrant.createMany({
        data: rooms
          .slice(0, 3)
          .map(roomId => ({ roomId, resourceId: project, principalId: member.id, role: 'writer' as const, updatedAt: new Date() })),
      });
      const fill = (resourceId: string, creator: string, table: string) => ctx.database.prisma.$executeRaw`
        INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
        SELECT gen_random_uuid(), ${s.deploymentId}, ${table}, ${creator}, ${resourceId},
          CASE WHEN g % 21 = 0 THEN NULL ELSE (ARRAY[${Prisma.join(rooms)}])[g % 20 + 1] END,
          jsonb_build_object('title', 't' || g, 'priority', g % 97, 'done', g % 2 = 0), now() - g * interval '1 second', now()
        FROM generate_series(1, 10000) AS g`;
      await fill(project, owner.id, 'tasks');
      await fill(other, owner.id, 'tasks');
      await ctx.database.prisma.$executeRaw`
        INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
        SELECT gen_random_uuid(), ${s.deploymentId}, 'notes', CASE WHEN g % 10 = 0 THEN ${member.id} ELSE ${owner.id} END, NULL, NULL,
          jsonb_build_object('title', 'n' || g), now() - g * interval '1 second', now()
        FROM generate_series(1, 20000) AS g`;
      await ctx.database.prisma.$executeRawUnsafe('ANALYZE rows');

      const caller: PrincipalCaller = {
        type: 'principal',
        principal: { id: member.id, kind: 'user', ownerId: null },
        deployment: { id: s.deploymentId, appId: s.appId, env: 'dev' },
        credential: 'test_session',
        // The minting developer pays for a test session's reads (docs/api.md §14).
        payer: s.developerId,
      };
      const explain = async (input: Record<string, unknown>) => (await ctx.app.services.rows.explain(caller, { op: 'select', ...input })).join('\n');

      const page = await explain({ scope: inResource(project), table: 'tasks', limit: 50 });
      expect(page).toContain('rows_resource_id_table_name_room_id_created_at_id_idx');
      expect(page).not.toMatch(/Seq Scan on rows/);

      const room = await explain({ scope: inResource(project, rooms[0]), table: 'tasks', limit: 50 });
      expect(room).toContain('rows_resource_id_table_name_room_id_created_at_id_idx');
      expect(room).not.toMatch(/Seq Scan on rows/);

      const own = await explain({ scope: mine, table: 'notes', limit: 50 });
      expect(own).toMatch(/rows_deployment_id_table_name_creator_id_created_at_id_idx|rows_x_/);
      expect(own).not.toMatch(/Seq Scan on rows/);

      const byPriority = await explain({ scope: inResource(project), table: 'tasks', where: { priority: 42 }, orderBy: { column: 'priority' } });
      expect(byPriority).toMatch(/rows_x_/);
      expect(byPriority).not.toMatch(/Seq Scan on rows/);

      // `in` is one array parameter (= ANY), which the same index serves.
      const inList = await explain({
        scope: inResource(project),
        table: 'tasks',
        where: { priority: { in: [1, 42, 96] } },
        orderBy: { column: 'priority' },
      });
      expect(inList).toMatch(/rows_x_/);
      expect(inList).toMatch(/= ANY/);
      expect(inList).not.toMatch(/Seq Scan on rows/);

      const real = await ctx.app.services.rows.query(caller, { op: 'select', scope: inResource(project), table: 'tasks', limit: 50 });
      expect(real.rows).toHaveLength(50);
      const readable = new Set([null, ...rooms.slice(0, 3)]);
      expect(real.rows!.every(r => readable.has(r.roomId as string | null))).toBe(true);
    },
    SEED_TIMEOUT_MS,
  );

  it('a deploy gives each unique key an index led by its scope, which the unique check is planned on', async ({ ctx, s }) => {
    const defs = (await indexes(ctx, s.deploymentId, 'u')).map(r => r.indexdef);
    const on = (table: string) => defs.filter(d => d.includes(`'${table}'`)).map(d => d.match(/USING btree \((.*)\) WHERE/)?.[1]);
    // notes (a top-level table shared into resources): both scopes; tables a resource owns: the resource's.
    expect(on('notes').sort()).toEqual([`creator_id, ((data ->> 'slug'::text)) COLLATE "C"`, `resource_id, ((data ->> 'slug'::text)) COLLATE "C"`]);
    expect(on('presence')).toEqual([`resource_id, ((data ->> 'member'::text)) COLLATE "C", ((data ->> 'device'::text)) COLLATE "C"`]);
    expect(on('tasks')).toHaveLength(1);

    // The check an insert, update or upsert makes (holdersOf), at some thousand rows of one resource in many rooms.
    const { owner } = s.users;
    const project = await createResource(owner, 'project', 'unique');
    const rooms = Array.from({ length: 20 }, () => newId('room'));
    await ctx.database.prisma.room.createMany({ data: rooms.map(id => ({ id, resourceId: project, name: id, updatedAt: new Date() })) });
    await ctx.database.prisma.$executeRaw`
      INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
      SELECT gen_random_uuid(), ${s.deploymentId}, 'presence', ${owner.id}, ${project}, (ARRAY[${Prisma.join(rooms)}])[g % 20 + 1],
        jsonb_build_object('member', 'm' || g, 'device', 'd' || g), now(), now()
      FROM generate_series(1, 5000) AS g`;
    await ctx.database.prisma.$executeRawUnsafe('ANALYZE rows');
    const binding = { name: 'presence', table: ROWS_SCHEMA.tables.presence, kind: 'owned' as const, override: null };
    const check = holdersOf(s.deploymentId, binding, { kind: 'resource', id: project }, ['member', 'device'], { member: 'm7', device: 'd7' }, []);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT EXISTS (${check})`.execute(sqlOf(ctx.database.prisma));
    const plan = rows.map(r => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/rows_u_/);
    expect(plan).not.toMatch(/Seq Scan on rows/);
    await ctx.database.prisma.row.deleteMany({ where: { resourceId: project } });
  });

  it('a server builds at start the indexes a deployment made before them lacks, and only those', async ({ ctx, s }) => {
    const built = () =>
      ctx.database.prisma.$queryRaw<{ name: string; oid: number }[]>`
        SELECT c.relname AS name, c.oid::int AS oid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname LIKE 'rows\\__\\_%' AND pg_get_expr(i.indpred, i.indrelid) LIKE ${`%'${s.deploymentId}'%`}`;
    const names = async () => (await built()).map(r => r.name).sort();
    const kept = (await built()).filter(index => !index.name.startsWith('rows_u_'));
    const deployed = await names();
    expect(deployed.filter(name => name.startsWith('rows_u_')).length).toBeGreaterThan(0);
    // A deployment from before the unique keys had indexes: theirs are not there.
    const lacking = deployed.filter(name => name.startsWith('rows_u_'));
    for (const name of lacking) await ctx.database.prisma.$executeRawUnsafe(`DROP INDEX ${name}`);
    expect(await names()).toEqual(deployed.filter(name => !lacking.includes(name)));

    const started = await startTestApp({ database: ctx.database, listen: true });
    try {
      await expect.poll(names, { timeout: 20_000, interval: 100 }).toEqual(deployed);
    } finally {
      await started.app.stop();
    }
    // The indexes that were there are the same ones, not built again.
    expect((await built()).filter(index => !index.name.startsWith('rows_u_'))).toEqual(expect.arrayContaining(kept));
    const { rows: invalid } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname LIKE 'rows\\__\\_%' AND NOT i.indisvalid`.execute(sqlOf(ctx.database.prisma));
    expect(invalid[0].n).toBe(0);
  });
});
