/** `gatehouse serve`: runs the server until SIGINT or SIGTERM. */
import type { Command } from '../command.js';
import { databaseOptionsOf } from '../../config.js';
import type { App } from '../../server.js';
import { configFrom } from '../config.js';
import { logger } from '../../lib/logger.js';
import { reclaimStartupMemory } from '../../lib/memory.js';
import { addressInUse, runUntilSignal } from '../until-signal.js';

const STARTUP_RECLAIM_DELAY_MS = 1000;

export const serve: Command = {
  name: 'serve',
  summary: 'Start the Gatehouse server (GraphQL at /graphql, REST shims, /healthz).',
  help: `Configured by environment variables: PORT (4000), HOST (127.0.0.1), DATA_DIR (./data, the
embedded database) or DATABASE_URL (PostgreSQL), PUBLIC_URL, MIGRATE_ON_START (true), LOG_LEVEL.
Stops cleanly on SIGINT or SIGTERM: connections are closed, then the database.`,
  async run({ env, out, io }) {
    const config = configFrom(env);
    // Measured, not derived: without a timer pending until the server is up, the main thread
    // waited about 150 ms on V8's worker (compiling PGlite's hot WebAssembly functions) between
    // listening and answering the first request: a restart took 1.0 s against 0.83 s
    // (bench/startup.ts, bench/README.md). A timer that does nothing avoids the wait.
    const keepAlive = setInterval(() => {}, 1000);
    let app: App;
    let url: string;
    try {
      // The database opens while the server's modules load: the embedded database's WebAssembly
      // compiles on other threads meanwhile (start-up, bench/startup.ts).
      const { openDatabase } = await import('../../db/database.js');
      // A first start prepares a data directory for seconds: say what it is doing meanwhile.
      const opening = openDatabase({ ...databaseOptionsOf(config), onProgress: message => out.note(message) });
      // Its failure (say, DATA_DIR held by another process) is reported by buildApp, which awaits it.
      opening.catch(() => {});
      // Loaded on demand so the commands that only talk HTTP do not compile the whole server.
      const server = import('../../server.js');
      try {
        app = await (await server).buildApp({ config, opening });
      } catch (error) {
        await opening.then(db => db.close()).catch(() => {});
        throw error;
      }
      try {
        ({ url } = await app.start());
      } catch (error) {
        await app.stop();
        throw addressInUse(error, `${config.host}:${config.port}`, 'PORT');
      }
    } finally {
      clearInterval(keepAlive);
    }
    const { entrypoints, entrypointLines } = await import('../../http/landing-page.js');
    const links = entrypoints(url, { graphiql: config.nodeEnv !== 'production' });
    out.result({ url, ...links }, [`Gatehouse listening on ${url} (${app.database.describe()})`, ...entrypointLines(links)]);
    // Once the REST operations have compiled (a turn each, right after listening): start-up's garbage back to the system.
    setTimeout(() => {
      const { ms, freedMB } = reclaimStartupMemory();
      logger.debug({ ms, freedMB }, 'start-up memory reclaimed');
    }, STARTUP_RECLAIM_DELAY_MS).unref();
    await runUntilSignal(out, io, () => app.stop());
  },
};
