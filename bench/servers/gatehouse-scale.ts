/**
 * Gatehouse for the scale benchmark (bench/scale.ts), on the database the parent chose
 * (DATABASE_URL, or a PGlite DATA_DIR), optionally with REDIS_URL for the two-instance rows.
 *
 * With --size N it migrates, then builds the app, deployment and users through the API, creates
 * one template of each bulk shape through the API and copies it N times with set-based SQL
 * (INSERT … SELECT … generate_series, seconds even at 100k), then ANALYZEs:
 *   (a) a `landlord` owning N rooms of the deployment; a `reader` who is a member of 10 rooms;
 *   (b) one team `crowd` with N members (plus --pairs admins who run invite/accept/remove);
 *   (c) one project holding N task rows over 10 rooms and the default room; the reader holds
 *       grants in 5 rooms (the requests of bench/rows.ts).
 * With --size 0 it only serves (a second instance on a database another child seeded).
 * --explain announces EXPLAIN (ANALYZE, BUFFERS) of the hot reads at this size.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { PrincipalCaller } from '../../src/core/caller.rules.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import type { Services } from '../../src/services.js';
import { startGatehouse } from './gatehouse-child.js';
import { BENCH_SCHEMA, type User, client, mapLimit } from './gatehouse-seed.js';
import { ROWS_BENCH_SCHEMA } from './rows-schema.js';
import { announce, main } from './lifecycle.js';

/** bench/servers/gatehouse-seed.ts's rooms and teams, and the row benchmarks' project owning `tasks`. */
export const SCALE_SCHEMA = {
  version: 1,
  tables: { ...BENCH_SCHEMA.tables, ...ROWS_BENCH_SCHEMA.tables },
  resources: { ...BENCH_SCHEMA.resources, ...ROWS_BENCH_SCHEMA.resources },
};

/** One owner (an admin of the crowd, the owner of `roomId`) and a would-be member. */
export interface ScalePair {
  owner: User;
  member: User;
  /** Empty without --pair-rooms. */
  roomId: string;
}

export interface ScaleSeed {
  size: number;
  reader: User;
  /** A room the reader joined (invited by `host`, accepted): the single-resource read. */
  sharedRoomId: string;
  /** Owns the shared room and the crowd. */
  host: User;
  /** An active member of the shared room whose role the feed rows toggle. */
  mover: User;
  /** Owns N rooms: the caller of the long (unpaged) list. */
  landlord: User;
  crowdId: string;
  crowdMembers: number;
  deploymentResources: number;
  projectId: string;
  /** A row in a room the reader holds a grant in: the primary-key read. */
  rowId: string;
  rows: number;
  pairs: ScalePair[];
  seedSeconds: number;
  /** Seconds per seeding step, to see where a slow seed went. */
  steps: Record<string, number>;
  explain?: Record<string, string[]>;
}

const ROOMS = 10;
const GRANTED_ROOMS = 5;

main(async () => {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1000' },
      pairs: { type: 'string', default: '100' },
      explain: { type: 'boolean', default: false },
      /** Each pair owner creates a room of its own (the two-instance transitions; the crowd needs none). */
      'pair-rooms': { type: 'boolean', default: false },
    },
  });
  const size = Number(values.size);
  const { app, config, url } = await startGatehouse();
  const redis = Boolean(config.redisUrl);
  if (size === 0) return announce({ url, database: app.database.describe(), redis });

  const started = Date.now();
  const steps: Record<string, number> = {};
  let stepStart = started;
  const step = (name: string) => {
    const now = Date.now();
    steps[name] = (now - stepStart) / 1000;
    stepStart = now;
  };
  const prisma = app.database.prisma;
  const call = client(url);
  const tag = randomBytes(4).toString('hex');
  const developer = await app.services.principals.createDeveloperToken(`bench-scale-${tag}@example.test`);
  const created = await call<{ id: string }>(developer.token, 'POST', '/dev/apps', {
    name: 'Scale bench',
    origins: [`https://scale-${tag}.example.test`],
  });
  const deployed = await call<{ deploymentId: string }>(developer.token, 'PUT', `/dev/apps/${created.id}/deployments/dev`, { schema: SCALE_SCHEMA });
  // Test users straight from the service the route calls: ~200 of them, the HTTP round trip was most of the seed.
  const user = async (name: string): Promise<User> => {
    const minted = await app.services.apps.mintTestUser(developer.developerId, created.id, { name, env: 'dev' });
    return { id: minted.user_id, token: minted.token };
  };
  const createResource = async (owner: User, type: string, name: string) =>
    (await call<{ id: string }>(owner.token, 'POST', '/v1/resources', { type, name })).id;
  const join = async (owner: User, resourceId: string, member: User, role?: string) => {
    await call(owner.token, 'POST', `/v1/resources/${resourceId}/invite`, { userId: member.id, ...(role ? { role } : {}) });
    await call(member.token, 'POST', `/v1/resources/${resourceId}/accept`, {});
  };

  const [reader, host, mover, landlord, crowdTemplate] = await Promise.all(['reader', 'host', 'mover', 'landlord', 'crowd-0'].map(user));

  // (a) The reader's rooms, as bench/servers/gatehouse-seed.ts builds them; the landlord's N rooms.
  const sharedRoomId = await createResource(host, 'room', 'Shared room');
  await join(host, sharedRoomId, reader);
  await join(host, sharedRoomId, mover);
  for (let i = 1; i < 10; i++) await createResource(reader, 'room', `Room ${i}`);
  for (let i = 0; i < 3; i++) await createResource(reader, 'team', `Team ${i}`);
  step('api: app, users, reader rooms');
  const landlordRoom = await createResource(landlord, 'room', 'Rented room 0');
  await prisma.$executeRaw`
    INSERT INTO resources (id, deployment_id, type, name, visibility, discoverable, static_slug, owner_principal, member_count, created_at)
    SELECT ${`res_scale_${tag}_`} || i, deployment_id, type, 'Rented room ' || i, visibility, discoverable, NULL, owner_principal, 1,
           created_at - i * interval '1 second'
    FROM resources, generate_series(1, ${size - 1}::int) AS i WHERE id = ${landlordRoom}`;
  await prisma.$executeRaw`
    INSERT INTO memberships (resource_id, principal_id, role, state, invited_by, expires_at, created_at, updated_at)
    SELECT ${`res_scale_${tag}_`} || i, principal_id, role, state, invited_by, expires_at, created_at - i * interval '1 second', updated_at
    FROM memberships, generate_series(1, ${size - 1}::int) AS i WHERE resource_id = ${landlordRoom} AND principal_id = ${landlord.id}`;
  step('sql: N resources');

  // (b) The crowd: the host, a template member joined through the API, N - 2 copies of it.
  const crowdId = await createResource(host, 'team', 'Crowd');
  await join(host, crowdId, crowdTemplate);
  const crowdPrefix = crowdTemplate.id.slice(0, -1);
  await prisma.$executeRaw`
    INSERT INTO principals (id, kind, owner_id, name, handle, display_name, handle_issued, onboarded_at, created_at)
    SELECT ${crowdPrefix} || i, kind, owner_id, 'crowd-' || i, NULL, display_name, handle_issued, onboarded_at, created_at
    FROM principals, generate_series(1, ${size - 2}::int) AS i WHERE id = ${crowdTemplate.id}`;
  await prisma.$executeRaw`
    INSERT INTO memberships (resource_id, principal_id, role, state, invited_by, expires_at, created_at, updated_at)
    SELECT resource_id, ${crowdPrefix} || i, role, state, invited_by, expires_at, created_at + i * interval '1 millisecond', updated_at
    FROM memberships, generate_series(1, ${size - 2}::int) AS i WHERE resource_id = ${crowdId} AND principal_id = ${crowdTemplate.id}`;

  // Pairs: each owner is an admin of the crowd (and with --pair-rooms owns a room: the two-instance transitions), so
  // invites on the crowd are spread over many inviters (at most one pending each, far from the cap).
  step('sql: N members');
  const pairs = await mapLimit(Number(values.pairs), 16, async i => {
    const [owner, member] = [await user(`owner-${i}`), await user(`member-${i}`)];
    return { owner, member, roomId: values['pair-rooms'] ? await createResource(owner, 'room', `Pair room ${i}`) : '' };
  });
  if (pairs.length > 0) {
    await prisma.$executeRaw`
      INSERT INTO memberships (resource_id, principal_id, role, state, invited_by, expires_at, created_at, updated_at)
      SELECT ${crowdId}, owner_id, 'admin', 'active', ${host.id}, NULL, now(), now() FROM unnest(${pairs.map(p => p.owner.id)}::text[]) AS owner_id`;
  }
  await prisma.$executeRaw`
    UPDATE resources SET member_count = (SELECT count(*) FROM memberships WHERE resource_id = ${crowdId} AND state = 'active') WHERE id = ${crowdId}`;

  // (c) The project: 10 rooms, the reader holding grants in 5; one row through the API, N - 1 copies
  // spread over the rooms and the default room, older than the template row.
  step('api: pairs');
  const projectId = await createResource(host, 'project', 'Big project');
  await join(host, projectId, reader, 'writer');
  const rooms: string[] = [];
  for (let i = 0; i < ROOMS; i++) {
    const room = (await call<{ id: string }>(host.token, 'POST', `/v1/resources/${projectId}/rooms`, { name: `Room ${i}` })).id;
    rooms.push(room);
    // The host writes the template row in room 0: an owner too needs a grant in a room.
    if (i === 0) await call(host.token, 'PUT', `/v1/resources/${projectId}/rooms/${room}/grants/${encodeURIComponent(host.id)}`, { role: 'admin' });
    if (i < GRANTED_ROOMS)
      await call(host.token, 'PUT', `/v1/resources/${projectId}/rooms/${room}/grants/${encodeURIComponent(reader.id)}`, { role: 'reader' });
  }
  const inserted = await call<{ rows: { id: string }[] }>(host.token, 'POST', '/v1/db/query', {
    scope: { kind: 'resource', resourceId: projectId, roomId: rooms[0] },
    table: 'tasks',
    op: 'insert',
    values: [{ title: 'task 0', priority: 0 }],
  });
  const rowId = inserted.rows[0].id;
  step('api: project, rooms, grants, template row');
  const slots = [...rooms, null];
  await prisma.$executeRaw`
    INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
    SELECT gen_random_uuid(), deployment_id, table_name, creator_id, resource_id, (${slots}::text[])[1 + i % ${slots.length}::int],
           jsonb_set(jsonb_set(data, '{title}', to_jsonb('task ' || i)), '{priority}', to_jsonb(i % 1000)),
           created_at - i * interval '1 second', updated_at - i * interval '1 second'
    FROM rows, generate_series(1, ${size - 1}::int) AS i WHERE id = ${rowId}::uuid`;

  // Statistics, as autovacuum would gather on a running server: without them the planner guesses.
  step('sql: N rows');
  await prisma.$executeRawUnsafe('ANALYZE');
  step('analyze');
  const count = async (sql: TemplateStringsArray, ...params: unknown[]) => Number((await prisma.$queryRaw<{ n: bigint }[]>(sql, ...params))[0].n);
  const seed: ScaleSeed = {
    size,
    reader,
    sharedRoomId,
    host,
    mover,
    landlord,
    crowdId,
    crowdMembers: await count`SELECT count(*) AS n FROM memberships WHERE resource_id = ${crowdId}`,
    deploymentResources: await count`SELECT count(*) AS n FROM resources WHERE deployment_id = ${deployed.deploymentId}`,
    projectId,
    rowId,
    rows: await count`SELECT count(*) AS n FROM rows WHERE resource_id = ${projectId}`,
    pairs,
    seedSeconds: (Date.now() - started) / 1000,
    steps,
  };
  if (values.explain) {
    const caller: PrincipalCaller = {
      type: 'principal',
      principal: { id: reader.id, kind: 'user', ownerId: null },
      deployment: { id: deployed.deploymentId, appId: created.id, env: 'dev' },
      credential: 'test_session',
      payer: null,
    };
    seed.explain = await explainHotReads(prisma, app.services, caller, seed);
  }
  announce({ url, database: app.database.describe(), redis, seed });
});

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the reads the benchmark loads. The row store explains its own
 * SQL; the resource and roster reads are copies of src/membership/resources.service.ts and membership.service.ts
 * as of this file (they may drift while those are rewritten: compare before trusting a plan).
 */
async function explainHotReads(
  prisma: PrismaClient,
  services: Services,
  caller: PrincipalCaller,
  seed: ScaleSeed,
): Promise<Record<string, string[]>> {
  const plan = async (query: ReturnType<typeof sqlOf>) =>
    (await prisma.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN (ANALYZE, BUFFERS) ${query.text}`, ...query.values)).map(
      line => Object.values(line)[0],
    );
  const list = (principal: string) =>
    sqlOf(
      `SELECT r.id, r.type, r.name, r.visibility, r.discoverable, r.member_count, r.created_at, m.role::text AS role, m.state::text AS state
       FROM memberships m JOIN resources r ON r.id = m.resource_id
       WHERE m.principal_id = $1 AND m.state = 'active' AND r.deployment_id = $2 AND r.type = 'room'
       ORDER BY r.created_at DESC, r.id DESC`,
      [principal, caller.deployment.id],
    );
  const scope = { kind: 'resource', resourceId: seed.projectId };
  return {
    'a1 resource by id': await plan(
      sqlOf(
        `SELECT r.*, m.role::text AS role, m.state::text AS state, m.expires_at
         FROM resources r LEFT JOIN memberships m ON m.resource_id = r.id AND m.principal_id = $1 WHERE r.id = $2`,
        [seed.reader.id, seed.sharedRoomId],
      ),
    ),
    'a2 list (reader, 10 rooms)': await plan(list(seed.reader.id)),
    'a3 list (landlord, N rooms)': await plan(list(seed.landlord.id)),
    'b1 members (crowd)': await plan(
      sqlOf(
        `SELECT r.deployment_id, r.visibility::text AS visibility, me.state::text AS caller_state,
                m.principal_id AS user_id, m.role::text AS role, m.state::text AS state, p.kind::text AS kind,
                p.owner_id, o.handle AS owner_handle, o.display_name AS owner_display_name
         FROM resources r
         LEFT JOIN memberships me ON me.resource_id = r.id AND me.principal_id = $1
         LEFT JOIN memberships m ON m.resource_id = r.id AND (m.state = 'active' OR m.expires_at > now())
         LEFT JOIN principals p ON p.id = m.principal_id
         LEFT JOIN principals o ON o.id = p.owner_id
         WHERE r.id = $2
         ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'writer' THEN 2 ELSE 3 END, m.created_at, m.principal_id`,
        [seed.host.id, seed.crowdId],
      ),
    ),
    'c1 primary-key read': await services.rows.explain(caller, { op: 'select', scope, table: 'tasks', ids: [seed.rowId] }, { analyze: true }),
    'c2 page of 50': await services.rows.explain(caller, { op: 'select', scope, table: 'tasks', limit: 50 }, { analyze: true }),
  };
}

function sqlOf(text: string, values: unknown[]) {
  return { text, values };
}
