/**
 * Gatehouse itself, as the CLI would start it (buildApp + loadConfig), on the database the
 * parent chose (DATABASE_URL, or a PGlite DATA_DIR), seeded and analyzed before it announces
 * its URL.
 * Flags: --rooms (the reader's rooms), --teams, --pairs (transition-cycle pairs).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';
import { seedGatehouse } from './gatehouse-seed.js';
import { announce, freePort, main, onShutdown } from './lifecycle.js';

main(async () => {
  const { values } = parseArgs({
    options: {
      rooms: { type: 'string', default: '10' },
      teams: { type: 'string', default: '3' },
      pairs: { type: 'string', default: '100' },
    },
  });
  // Requests must arrive on the public host, as an app's API calls do (other hosts are looked up
  // as app-hosted origins): the port is chosen before the config is built.
  const port = await freePort();
  const config = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATA_DIR || 'memory://',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.LOG_LEVEL || 'error',
  });
  const app = await buildApp({ config });
  onShutdown(() => app.stop());
  const { url } = await app.start();
  const seed = await seedGatehouse(url, app.services, {
    rooms: Number(values.rooms),
    teams: Number(values.teams),
    pairs: Number(values.pairs),
  });
  // Statistics for the seeded tables, as autovacuum would gather on a running PostgreSQL: without
  // them the planner guesses one row per table and picks plans no steady-state server would.
  await app.database.prisma.$executeRawUnsafe('ANALYZE');
  announce({ url, database: app.database.describe(), seed });
});
