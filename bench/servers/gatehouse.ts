/**
 * Gatehouse itself, as the CLI would start it (buildApp + loadConfig), on the database the
 * parent chose (DATABASE_URL, or a PGlite DATA_DIR), seeded before it announces its URL.
 * Flags: --rooms (the reader's rooms), --teams, --pairs (membership-cycle pairs).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';
import { seedGatehouse } from './gatehouse-seed.js';
import { announce, main, onShutdown } from './lifecycle.js';

main(async () => {
  const { values } = parseArgs({
    options: {
      rooms: { type: 'string', default: '10' },
      teams: { type: 'string', default: '3' },
      pairs: { type: 'string', default: '100' },
    },
  });
  const config = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATA_DIR || 'memory://',
    PORT: '0',
    HOST: '127.0.0.1',
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
  announce({ url, database: app.database.describe(), seed });
});
