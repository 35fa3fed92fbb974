/**
 * Gatehouse seeded for the row-store benchmark (bench/rows.ts), on the database the parent chose:
 * a members-only `project` owning `tasks`; one resource with --rooms rooms holding --rows rows
 * between them (written through POST /v1/db/query, 100 per request); a member holding reader
 * grants in --grants of the rooms. Announces the member's token, a row id for the primary-key
 * read and the page query's EXPLAIN ANALYZE.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { PrincipalCaller } from '../../src/core/caller.rules.js';
import { startGatehouse } from './gatehouse-child.js';
import { announce, main } from './lifecycle.js';
import { ROWS_BENCH_SCHEMA } from './rows-schema.js';

export interface RowsBenchSeed {
  /** The member's test-session token (grants in `grants` rooms). */
  token: string;
  resourceId: string;
  rooms: string[];
  /** A row in one of the member's rooms: the primary-key read. */
  rowId: string;
  rowRoom: string;
  rows: number;
  grants: number;
  /** EXPLAIN (ANALYZE, BUFFERS) of the resource-scoped page of 50 and of the primary-key read. */
  explainPage: string[];
  explainPk: string[];
  seedSeconds: number;
}

main(async () => {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      rooms: { type: 'string', default: '100' },
      grants: { type: 'string', default: '10' },
    },
  });
  const [rowCount, roomCount, grantCount] = [Number(values.rows), Number(values.rooms), Number(values.grants)];
  const { app, url } = await startGatehouse();
  const started = Date.now();

  const call = async <T = any>(token: string, method: string, path: string, body: unknown): Promise<T> => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`seed: ${method} ${path} -> ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const tag = randomBytes(4).toString('hex');
  const developer = await app.services.principals.createDeveloperToken(`bench-rows-${tag}@example.test`);
  const created = await call(developer.token, 'POST', '/dev/apps', { name: 'Rows bench', origins: [`https://rows-${tag}.example.test`] });
  const deployed = await call(developer.token, 'PUT', `/dev/apps/${created.id}/deployments/dev`, { schema: ROWS_BENCH_SCHEMA });
  const user = async (name: string) => {
    const minted = await call(developer.token, 'POST', `/dev/apps/${created.id}/test-users`, { name, env: 'dev' });
    return { id: minted.user_id as string, token: minted.token as string };
  };
  const [owner, member] = [await user('owner'), await user('member')];
  const resourceId = (await call(owner.token, 'POST', '/v1/resources', { type: 'project', name: 'Big project' })).id as string;
  await call(owner.token, 'POST', `/v1/resources/${resourceId}/invite`, { userId: member.id, role: 'writer' });
  await call(member.token, 'POST', `/v1/resources/${resourceId}/accept`, {});

  const rooms: string[] = [];
  for (let i = 0; i < roomCount; i++) {
    const room = (await call(owner.token, 'POST', `/v1/resources/${resourceId}/rooms`, { name: `Room ${i}` })).id as string;
    rooms.push(room);
    // The owner writes the rows, so holds a grant everywhere; the member reads `grants` rooms.
    await call(owner.token, 'PUT', `/v1/resources/${resourceId}/rooms/${room}/grants/${encodeURIComponent(owner.id)}`, { role: 'admin' });
    if (i < grantCount)
      await call(owner.token, 'PUT', `/v1/resources/${resourceId}/rooms/${room}/grants/${encodeURIComponent(member.id)}`, { role: 'reader' });
  }

  // Round-robin over the rooms, 100 rows per request, a few requests at a time.
  const perRequest = 100;
  const requests = Math.ceil(rowCount / perRequest);
  let next = 0;
  let rowId = '';
  const worker = async () => {
    while (next < requests) {
      const i = next++;
      const room = rooms[i % rooms.length];
      const values = Array.from({ length: Math.min(perRequest, rowCount - i * perRequest) }, (_, j) => ({
        title: `task ${i}-${j}`,
        priority: (i * perRequest + j) % 1000,
      }));
      const answer = await call(owner.token, 'POST', '/v1/db/query', {
        scope: { kind: 'resource', resourceId, roomId: room },
        table: 'tasks',
        op: 'insert',
        values,
      });
      if (i === 0) rowId = answer.rows[50].id;
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  // Statistics, as autovacuum would gather on a running PostgreSQL.
  await app.database.prisma.$executeRawUnsafe('ANALYZE');

  const caller: PrincipalCaller = {
    type: 'principal',
    principal: { id: member.id, kind: 'user', ownerId: null },
    deployment: { id: deployed.deploymentId, appId: created.id, env: 'dev' },
    credential: 'test_session',
    payer: null,
  };
  const scope = { kind: 'resource', resourceId };
  const explainPage = await app.services.rows.explain(caller, { op: 'select', scope, table: 'tasks', limit: 50 }, { analyze: true });
  const explainPk = await app.services.rows.explain(caller, { op: 'select', scope, table: 'tasks', ids: [rowId] }, { analyze: true });
  const seed: RowsBenchSeed = {
    token: member.token,
    resourceId,
    rooms,
    rowId,
    rowRoom: rooms[0],
    rows: rowCount,
    grants: grantCount,
    explainPage,
    explainPk,
    seedSeconds: (Date.now() - started) / 1000,
  };
  announce({ url, database: app.database.describe(), seed });
});
