/**
 * `gatehouse dev-token create`: the bootstrap. Minting needs a developer token, so the first one
 * is written straight into the database instead of going through the API.
 */
import { type Command, requireString } from '../command.js';
import { configFrom } from '../config.js';
import { usageError } from '../output.js';

export const devTokenCreate: Command = {
  name: 'dev-token create',
  summary: 'Create a developer (if new) and print a new developer token for it.',
  help: `Options:
  --developer <email>   The developer's email address (required).

Writes to the database directly (DATA_DIR or DATABASE_URL, as for 'serve'). The embedded database
(DATA_DIR) can be open in one process only: stop the server first, or use DATABASE_URL.
Prints only the token; with --json, { developerId, email, token }. The token is shown once.`,
  options: { developer: { type: 'string' } },
  async run({ values, env, out }) {
    // Loaded on demand so the commands that only talk HTTP do not compile the services.
    const { emailSchema } = await import('../../services/principals.js');
    const email = emailSchema.safeParse(requireString(values, 'developer'));
    if (!email.success) throw usageError(`--developer ${email.error.issues[0].message}.`);

    const config = configFrom(env);
    const [{ openDatabase }, { createServices }, { EventBus }] = await Promise.all([
      import('../../db/database.js'),
      import('../../services/index.js'),
      import('../../realtime/event-bus.js'),
    ]);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: config.migrateOnStart });
    try {
      const services = createServices({
        prisma: database.prisma,
        transaction: fn => database.transaction(fn),
        bus: EventBus.inProcess(),
        config,
        now: () => new Date(),
      });
      const created = await services.principals.createDeveloperToken(email.data);
      out.result(created, created.token);
    } finally {
      await database.close();
    }
  },
};
