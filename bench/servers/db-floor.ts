/**
 * Baseline (b), the DB floor: node:http answering `GET /resources/:id` with one query and nothing
 * else. PostgreSQL (DATABASE_URL): a prepared statement through a `pg` pool the size of
 * Gatehouse's. PGlite (DATA_DIR): one in-process PGlite query on the same data directory.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { openPGlite } from '../../src/db/pglite.js';
import { announce, closeServer, listen, main, onShutdown, sendJson } from './lifecycle.js';

const SQL = 'SELECT id, name FROM resources WHERE id = $1';
/** Gatehouse's PostgreSQL pool size (src/db/postgres.ts). */
const POOL_SIZE = 10;

type Query = (id: string) => Promise<unknown[]>;

async function openQuery(): Promise<{ query: Query; close: () => Promise<void> }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
    const statement = { name: 'bench_floor', text: SQL };
    return {
      query: async id => (await pool.query({ ...statement, values: [id] })).rows,
      close: () => pool.end(),
    };
  }
  const pglite = await openPGlite({ dataDir: process.env.DATA_DIR });
  return {
    query: async id => (await pglite.query(SQL, [id])).rows,
    close: () => pglite.close(),
  };
}

main(async () => {
  const db = await openQuery();
  const server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').slice('/resources/'.length));
    db.query(id).then(
      rows => (rows[0] ? sendJson(res, 200, rows[0]) : sendJson(res, 404, { error: 'not_found' })),
      error => sendJson(res, 500, { error: String(error) }),
    );
  });
  const url = await listen(server);
  onShutdown(async () => {
    await closeServer(server);
    await db.close();
  });
  announce({ url });
});
