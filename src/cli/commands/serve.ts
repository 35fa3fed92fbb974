/** `gatehouse serve`: runs the server until SIGINT or SIGTERM. */
import type { Command } from '../command.js';
import { configFrom } from '../config.js';
import { CliError } from '../output.js';

export const serve: Command = {
  name: 'serve',
  summary: 'Start the Gatehouse server (GraphQL at /graphql, REST shims, /healthz).',
  help: `Configured by environment variables: PORT (4000), HOST (127.0.0.1), DATA_DIR (./data, the
embedded database) or DATABASE_URL (PostgreSQL), PUBLIC_URL, MIGRATE_ON_START (true), LOG_LEVEL.
Stops cleanly on SIGINT or SIGTERM: connections are closed, then the database.`,
  async run({ env, out }) {
    const config = configFrom(env);
    // Loaded on demand so the commands that only talk HTTP do not compile the whole server.
    const { buildApp } = await import('../../server.js');
    const app = await buildApp({ config });
    let url: string;
    try {
      ({ url } = await app.start());
    } catch (error) {
      await app.stop();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new CliError('address_in_use', `${config.host}:${config.port} is already in use. Set PORT to another port.`);
      }
      throw error;
    }
    out.result({ url }, `Gatehouse listening on ${url}`);

    let stopping = false;
    const signal = await new Promise<NodeJS.Signals>(resolve => {
      for (const name of ['SIGINT', 'SIGTERM'] as const) {
        process.on(name, () => {
          // A second signal while stopping means "now": do not wait for the database to close.
          if (stopping) process.exit(130);
          stopping = true;
          resolve(name);
        });
      }
    });
    out.note(`Received ${signal}, shutting down.`);
    await app.stop();
  },
};
