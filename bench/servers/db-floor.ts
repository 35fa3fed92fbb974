/**
 * Baseline (b), the DB floor: node:http answering `GET /resources/:id` with one query and nothing
 * else. PostgreSQL (DATABASE_URL): a prepared statement through a `pg` pool the size of
 * Gatehouse's. PGlite (DATA_DIR): one in-process PGlite query on the same data directory.
 * Baseline (b'), the floor insert: `POST /rows` with a JSON body `{ deploymentId, tableName,
 * creatorId, resourceId, data }` answered by one prepared INSERT into the row store's table
 * (the same columns Gatehouse writes for a resource's row), RETURNING the new id. With `data` a
 * list, (b'''), the floor's 100-row insert: one prepared INSERT ... SELECT of every item, as
 * Gatehouse's statement reads them, RETURNING the new ids.
 * Baseline (b''), the floor list: `GET /resources?principal=&deployment=&type=` answered by one
 * prepared query of the same page Gatehouse's `GET /v1/resources?type=` reads (the caller's
 * active memberships' resources of that type, newest first, ten and one more to tell whether a
 * page follows), as `{ resources, nextCursor: null }`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { openPGlite } from '../../src/db/pglite.js';
import { newRowId } from '../../src/rows/row-id.service.js';
import { announce, closeServer, listen, main, onShutdown, sendJson } from './lifecycle.js';

const SQL = 'SELECT id, name FROM resources WHERE id = $1';
// Ids as Gatehouse makes them (UUIDv7, newRowId): a random one lands anywhere in the primary key's
// index, where Gatehouse's land at its right edge, and would make the floor slower than it is.
const INSERT =
  'INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, data, created_at, updated_at) ' +
  'VALUES ($6::uuid, $1, $2, $3, $4, $5, now(), now()) RETURNING id';
const INSERT_MANY =
  'INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, data, created_at, updated_at) ' +
  'SELECT (x.value ->> 0)::uuid, $1, $2, $3, $4, x.value -> 1, now(), now() FROM jsonb_array_elements($5::jsonb) AS x RETURNING id';
const LIST =
  'SELECT r.id, r.deployment_id, r.type, r.name, r.visibility, r.discoverable, r.member_count, r.created_at, m.role, m.state, m.expires_at ' +
  'FROM memberships m JOIN resources r ON r.id = m.resource_id ' +
  "WHERE m.principal_id = $1 AND m.state = 'active' AND r.deployment_id = $2 AND r.type = $3 " +
  'ORDER BY r.created_at DESC, r.id DESC LIMIT 11';
const LIST_PAGE = 10;
/** Gatehouse's PostgreSQL pool size (src/db/postgres.ts). */
const POOL_SIZE = 10;

type Query = (id: string) => Promise<unknown[]>;
type Insert = (values: unknown[]) => Promise<unknown[]>;
type List = (values: string[]) => Promise<unknown[]>;

async function openQuery(): Promise<{ query: Query; insert: Insert; insertMany: Insert; list: List; close: () => Promise<void> }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
    const statement = { name: 'bench_floor', text: SQL };
    const insert = { name: 'bench_floor_insert', text: INSERT };
    const insertMany = { name: 'bench_floor_insert_many', text: INSERT_MANY };
    const list = { name: 'bench_floor_list', text: LIST };
    return {
      query: async id => (await pool.query({ ...statement, values: [id] })).rows,
      insert: async values => (await pool.query({ ...insert, values })).rows,
      insertMany: async values => (await pool.query({ ...insertMany, values })).rows,
      list: async values => (await pool.query({ ...list, values })).rows,
      close: () => pool.end(),
    };
  }
  const pglite = await openPGlite({ dataDir: process.env.DATA_DIR });
  return {
    query: async id => (await pglite.query(SQL, [id])).rows,
    insert: async values => (await pglite.query(INSERT, values)).rows,
    insertMany: async values => (await pglite.query(INSERT_MANY, values)).rows,
    list: async values => (await pglite.query(LIST, values)).rows,
    close: () => pglite.close(),
  };
}

main(async () => {
  const db = await openQuery();
  const server = createServer((req, res) => {
    if (req.method === 'POST') return insertRow(req, res);
    if (req.url?.startsWith('/resources?')) return listRows(req, res);
    const id = decodeURIComponent((req.url ?? '').slice('/resources/'.length));
    db.query(id).then(
      rows => (rows[0] ? sendJson(res, 200, rows[0]) : sendJson(res, 404, { error: 'not_found' })),
      error => sendJson(res, 500, { error: String(error) }),
    );
  });
  function listRows(req: IncomingMessage, res: ServerResponse) {
    const query = new URL(req.url ?? '', 'http://floor').searchParams;
    db.list([query.get('principal') ?? '', query.get('deployment') ?? '', query.get('type') ?? '']).then(
      // An empty page means a wrong seed or query: answered as a failure, not measured as a read.
      rows =>
        rows.length ? sendJson(res, 200, { resources: rows.slice(0, LIST_PAGE), nextCursor: null }) : sendJson(res, 404, { error: 'not_found' }),
      error => sendJson(res, 500, { error: String(error) }),
    );
  }
  function insertRow(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const many = Array.isArray(body.data);
      const head = [body.deploymentId, body.tableName, body.creatorId, body.resourceId];
      const written = many
        ? db.insertMany([...head, JSON.stringify(body.data.map((data: unknown) => [newRowId(), data]))])
        : db.insert([...head, JSON.stringify(body.data), newRowId()]);
      written.then(
        rows => sendJson(res, 200, many ? { ids: rows.map(row => (row as { id: string }).id) } : rows[0]),
        error => sendJson(res, 500, { error: String(error) }),
      );
    });
  }
  const url = await listen(server);
  onShutdown(async () => {
    await closeServer(server);
    await db.close();
  });
  announce({ url });
});
