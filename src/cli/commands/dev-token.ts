/**
 * `gatehouse dev-token create`: the bootstrap. Minting needs a developer token, so the first one
 * is written straight into the database instead of going through the API; when a server holds the
 * embedded database, it asks that server through its loopback bootstrap endpoint instead.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, requireString } from '../command.js';
import { configFrom } from '../config.js';
import { type Config, databaseOptionsOf } from '../../config.js';
import { CliError, usageError } from '../output.js';
import { type DatabaseTarget, databaseTarget, noteDatabaseTarget } from '../target.js';

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

Uses the database configured as for 'serve' (DATABASE_URL, else DATA_DIR). When a Gatehouse server
runs on the same DATA_DIR, the token is created through that server (over loopback, with the
secret it keeps in DATA_DIR); otherwise the database is opened directly. With GATEHOUSE_URL set,
it refuses when the server there is not the one that reads that database (the token would not
work there). Says on stderr where the token was made.
Prints only the token; with --json, { developerId, email, token }. The token is shown once.`,
  options: { developer: { type: 'string' } },
  async run({ values, env, out }) {
    // Loaded on demand so the commands that only talk HTTP do not compile the services.
    const { emailSchema } = await import('../../principals/principals.service.js');
    const email = emailSchema.safeParse(requireString(values, 'developer'));
    if (!email.success) throw usageError(`--developer ${email.error.issues[0].message}.`);

    const config = configFrom(env);
    const target = await databaseTargetOf(config, env);
    let created: CreatedToken;
    if (target.kind === 'server') {
      const { BOOTSTRAP_PATH } = await import('../../apps/dev-bootstrap.routes.js');
      created = await postBootstrap<CreatedToken>(target, BOOTSTRAP_PATH, { developer: email.data });
      if (typeof created.token !== 'string') throw new CliError('bootstrap_unavailable', 'the server answered without a token.');
    } else created = await withServices(config, services => services.principals.createDeveloperToken(email.data));
    noteDatabaseTarget(out, target, env, `developer token for ${created.email} created`);
    out.result(created, created.token);
  },
};

/** Where a database command writes (target.ts), with the running server found through DATA_DIR's lock. */
export async function databaseTargetOf(config: Config, env: NodeJS.ProcessEnv): Promise<DatabaseTarget> {
  const { isMemoryDataDir } = await import('../../db/pglite.js');
  return databaseTarget(config, env, runningServer, isMemoryDataDir);
}

/**
 * The live server holding `dataDir` and its URL, waiting for one that is still starting to listen;
 * null when no live process holds it (the command opens the database itself).
 */
export async function runningServer(dataDir: string): Promise<{ pid: number; url: string } | null> {
  const { dataDirHolder } = await import('../../db/data-dir-lock.js');
  let holder = await dataDirHolder(dataDir);
  // A server that is still starting (migrating) records its URL once it listens.
  for (const deadline = Date.now() + STARTING_SERVER_WAIT_MS; holder && !holder.url && Date.now() < deadline; ) {
    await new Promise(resolve => setTimeout(resolve, 250));
    holder = await dataDirHolder(dataDir);
  }
  if (!holder) return null;
  if (!holder.url) {
    const who = `pid ${holder.pid}${holder.command ? ` (gatehouse ${holder.command})` : ''}`;
    throw new CliError(
      'data_dir_in_use',
      `DATA_DIR ${dataDir} is in use by ${who}, which serves no HTTP. Wait for it to finish or stop it (kill ${holder.pid}), then retry.`,
    );
  }
  return { pid: holder.pid, url: holder.url };
}

/** The server holding DATA_DIR, as the CLI found it through its lock file. */
export type RunningServer = { url: string; pid: number; dataDir: string };

/**
 * The secret a running server keeps in DATA_DIR for its bootstrap routes (`/dev/bootstrap/*`), its
 * header name, and how to name the server in messages.
 */
export async function bootstrapSecret(server: RunningServer): Promise<{ header: string; secret: string; who: string }> {
  const { BOOTSTRAP_SECRET_FILE, BOOTSTRAP_SECRET_HEADER } = await import('../../apps/dev-bootstrap.routes.js');
  const who = `the server at ${server.url} (pid ${server.pid})`;
  try {
    return { header: BOOTSTRAP_SECRET_HEADER, secret: (await readFile(path.join(server.dataDir, BOOTSTRAP_SECRET_FILE), 'utf8')).trim(), who };
  } catch (error) {
    throw new CliError(
      'bootstrap_unavailable',
      `${who} holds DATA_DIR ${server.dataDir} but left no ${BOOTSTRAP_SECRET_FILE} there (${(error as NodeJS.ErrnoException).code}). Run this command as the user that runs the server.`,
    );
  }
}

/** POSTs `body` to a bootstrap route (`/dev/bootstrap/*`) of the server holding DATA_DIR, with the secret it keeps there. */
export async function postBootstrap<T>(server: RunningServer, route: string, body: Record<string, unknown>): Promise<T> {
  const { header, secret, who } = await bootstrapSecret(server);
  let response: Response;
  try {
    response = await fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [header]: secret },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    throw new CliError('unreachable', `DATA_DIR ${server.dataDir} is held by ${who}, but it does not answer (${cause}).`);
  }
  const answer = (await response.json().catch(() => ({}))) as T & { error?: string; message?: string };
  if (!response.ok) {
    throw new CliError(answer.error ?? `http_${response.status}`, answer.message ?? `${who} answered ${response.status}.`);
  }
  return answer;
}

/** The services over the configured database, opened by this process (no server holds it); closed after `fn`. */
export async function withServices<T>(config: Config, fn: (services: import('../../services.js').Services) => Promise<T>): Promise<T> {
  const [{ openDatabase }, { createServices }, { EventBus }] = await Promise.all([
    import('../../db/database.js'),
    import('../../services.js'),
    import('../../bus/event-bus.js'),
  ]);
  const database = await openDatabase(databaseOptionsOf(config));
  try {
    const services = createServices({
      prisma: database.prisma,
      transaction: work => database.transaction(work),
      sql: database.sql,
      sqlWrites: database.sqlWrites,
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
