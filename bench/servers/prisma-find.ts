/**
 * Baseline (c): node:http answering `GET /resources/:id` with one Prisma `findUnique`, through
 * Gatehouse's own `openDatabase` (adapter-pg for DATABASE_URL, the PGlite adapter for DATA_DIR).
 */
import { createServer } from 'node:http';
import { openDatabase } from '../../src/db/database.js';
import { announce, closeServer, listen, main, onShutdown, sendJson } from './lifecycle.js';

main(async () => {
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR, migrate: false });
  const server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').slice('/resources/'.length));
    db.prisma.resource.findUnique({ where: { id }, select: { id: true, name: true } }).then(
      row => (row ? sendJson(res, 200, row) : sendJson(res, 404, { error: 'not_found' })),
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
