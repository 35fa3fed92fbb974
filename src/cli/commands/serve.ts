/** `gatehouse serve`: runs the server until SIGINT or SIGTERM. */
import type { Command } from '../command.js';
import { databaseOptionsOf } from '../../config.js';
import type { App } from '../../server.js';
import { configFrom } from '../config.js';
import { addressInUse, runUntilSignal } from '../until-signal.js';

export const serve: Command = {
  name: 'serve',
  summary: 'Start the Gatehouse server (GraphQL at /graphql, REST shims, /healthz).',
  help: `Configured by environment variables: PORT (4000), HOST (127.0.0.1), DATA_DIR (./data, the
embedded database) or DATABASE_URL (PostgreSQL), PUBLIC_URL, MIGRATE_ON_START (true), LOG_LEVEL.
Stops cleanly on SIGINT or SIGTERM: connections are closed, then the database.`,
  async run({ env, out, io }) {
    const config = configFrom(env);
    // The database opens while the server's modules load: the embedded database's WebAssembly
    // compiles on other threads meanwhile (start-up, bench/startup.ts).
    const { openDatabase } = await import('../../db/database.js');
    const opening = openDatabase(databaseOptionsOf(config));
    // Its failure (say, DATA_DIR held by another process) is reported by buildApp, which awaits it.
    opening.catch(() => {});
    // Loaded on demand so the commands that only talk HTTP do not compile the whole server.
    const server = import('../../server.js');
    let app: App;
    try {
      app = await (await server).buildApp({ config, opening });
    } catch (error) {
      await opening.then(db => db.close()).catch(() => {});
      throw error;
    }
    let url: string;
    try {
      ({ url } = await app.start());
    } catch (error) {
      await app.stop();
      throw addressInUse(error, `${config.host}:${config.port}`, 'PORT');
    }
    out.result({ url }, `Gatehouse listening on ${url}`);
    await runUntilSignal(out, io, () => app.stop());
  },
};
