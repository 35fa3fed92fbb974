/** `gatehouse migrate`: applies pending migrations to the configured database and names them. */
import type { Command } from '../command.js';
import { configFrom } from '../config.js';
import { usageError } from '../output.js';

export const migrate: Command = {
  name: 'migrate',
  summary: 'Apply pending database migrations (DATABASE_URL, or the embedded database in DATA_DIR).',
  help: `Applies the migrations shipped with Gatehouse that the database has not recorded yet, in order,
and prints their names; with --json, { applied: [...] }. 'serve' also does this on start unless
MIGRATE_ON_START=false. The embedded database (DATA_DIR) can be open in one process only: stop
the server first.`,
  async run({ env, out }) {
    const config = configFrom(env);
    // Loaded on demand so the commands that only talk HTTP do not load the schema engine.
    const [{ applyMigrations }, { isMemoryDataDir, openPGlite }] = await Promise.all([
      import('../../db/migrations.js'),
      import('../../db/pglite.js'),
    ]);
    let applied: string[];
    if (config.databaseUrl) {
      applied = await applyMigrations({ databaseUrl: config.databaseUrl });
    } else {
      if (isMemoryDataDir(config.dataDir)) {
        throw usageError(`DATA_DIR=${config.dataDir} is an in-memory database; there is nothing to migrate.`);
      }
      const pglite = await openPGlite({ dataDir: config.dataDir });
      try {
        applied = await applyMigrations({ pglite });
      } finally {
        await pglite.close();
      }
    }
    out.result(
      { applied },
      applied.length ? [`Applied ${applied.length} migration(s):`, ...applied.map(name => `  ${name}`)] : 'The database is up to date.',
    );
  },
};
