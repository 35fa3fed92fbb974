/**
 * `gatehouse dev-token create`: the bootstrap. Minting needs a developer token, so the first one
 * is written straight into the database instead of going through the API; when a server holds the
 * embedded database, it asks that server through its loopback bootstrap endpoint instead.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, requireString } from '../command.js';
import { configFrom } from '../config.js';
import { databaseOptionsOf } from '../../config.js';
import { CliError, usageError } from '../output.js';

interface CreatedToken {
  developerId: string;
  email: string;
  token: string;
}

/** How long to wait for a server that holds DATA_DIR but does not listen yet (it may be migrating). */
const STARTING_SERVER_WAIT_MS = 30_000;

export const devTokenCreate: Command = {
  name: 'dev-token create',
  summary: 'Create a developer (if new) and print a new developer token for it.',
  help: `Options:
  --developer <email>   The developer's email address (required).

Uses the database configured as for 'serve' (DATA_DIR or DATABASE_URL). When a Gatehouse server
runs on the same DATA_DIR, the token is created through that server (over loopback, with the
secret it keeps in DATA_DIR); otherwise the database is opened directly.
Prints only the token; with --json, { developerId, email, token }. The token is shown once.`,
  options: { developer: { type: 'string' } },
  async run({ values, env, out }) {
    // Loaded on demand so the commands that only talk HTTP do not compile the services.
    const { emailSchema } = await import('../../services/principals.js');
    const email = emailSchema.safeParse(requireString(values, 'developer'));
    if (!email.success) throw usageError(`--developer ${email.error.issues[0].message}.`);

    const config = configFrom(env);
    const { isMemoryDataDir } = await import('../../db/pglite.js');
    if (!config.databaseUrl && !isMemoryDataDir(config.dataDir)) {
      const { BOOTSTRAP_PATH } = await import('../../rest/dev-bootstrap.js');
      const created = await throughRunningServer<CreatedToken>(config.dataDir, BOOTSTRAP_PATH, { developer: email.data });
      if (created && typeof created.token !== 'string') throw new CliError('bootstrap_unavailable', 'the server answered without a token.');
      if (created) return out.result(created, created.token);
    }

    const created = await withServices(config, services => services.principals.createDeveloperToken(email.data));
    out.result(created, created.token);
  },
};

/**
 * POSTs `body` to a bootstrap route (`/dev/bootstrap/*`) of the server holding `dataDir`, with the
 * secret it keeps there; null when no live process holds it (the caller opens the database itself).
 */
export async function throughRunningServer<T>(dataDir: string, route: string, body: Record<string, unknown>): Promise<T | null> {
  const [{ dataDirHolder }, { BOOTSTRAP_SECRET_FILE, BOOTSTRAP_SECRET_HEADER }] = await Promise.all([
    import('../../db/data-dir-lock.js'),
    import('../../rest/dev-bootstrap.js'),
  ]);
  let holder = await dataDirHolder(dataDir);
  // A server that is still starting (migrating) records its URL once it listens.
  for (const deadline = Date.now() + STARTING_SERVER_WAIT_MS; holder && !holder.url && Date.now() < deadline; ) {
    await new Promise(resolve => setTimeout(resolve, 250));
    holder = await dataDirHolder(dataDir);
  }
  if (!holder) return null;
  const who = `pid ${holder.pid}${holder.command ? ` (gatehouse ${holder.command})` : ''}`;
  if (!holder.url) {
    throw new CliError(
      'data_dir_in_use',
      `DATA_DIR ${dataDir} is in use by ${who}, which serves no HTTP. Wait for it to finish or stop it (kill ${holder.pid}), then retry.`,
    );
  }
  let secret: string;
  try {
    secret = (await readFile(path.join(dataDir, BOOTSTRAP_SECRET_FILE), 'utf8')).trim();
  } catch (error) {
    throw new CliError(
      'bootstrap_unavailable',
      `the server holding DATA_DIR ${dataDir} (${who}) left no ${BOOTSTRAP_SECRET_FILE} there (${(error as NodeJS.ErrnoException).code}). Run this command as the user that runs the server.`,
    );
  }
  let response: Response;
  try {
    response = await fetch(`${holder.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BOOTSTRAP_SECRET_HEADER]: secret },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    throw new CliError('unreachable', `DATA_DIR ${dataDir} is held by ${who}, but its server at ${holder.url} does not answer (${cause}).`);
  }
  const answer = (await response.json().catch(() => ({}))) as T & { error?: string; message?: string };
  if (!response.ok) {
    throw new CliError(answer.error ?? `http_${response.status}`, answer.message ?? `the server at ${holder.url} answered ${response.status}.`);
  }
  return answer;
}

/** The services over the configured database, opened by this process (no server holds it); closed after `fn`. */
export async function withServices<T>(
  config: import('../../config.js').Config,
  fn: (services: import('../../services/index.js').Services) => Promise<T>,
): Promise<T> {
  const [{ openDatabase }, { createServices }, { EventBus }] = await Promise.all([
    import('../../db/database.js'),
    import('../../services/index.js'),
    import('../../realtime/event-bus.js'),
  ]);
  const database = await openDatabase(databaseOptionsOf(config));
  try {
    const services = createServices({
      prisma: database.prisma,
      transaction: work => database.transaction(work),
      sqlTransaction: fn => database.sqlTransaction(fn),
      query: database.query,
      bus: EventBus.inProcess(),
      config,
      now: () => new Date(),
    });
    return await fn(services);
  } finally {
    await database.close();
  }
}
