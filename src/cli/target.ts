/**
 * Which server or database a command talks to, and saying so. HTTP commands talk to GATEHOUSE_URL;
 * the database commands (`dev-token create`, `wallet credit`) write where the configuration says:
 * DATABASE_URL, else DATA_DIR, through the server that holds DATA_DIR when one does. When
 * GATEHOUSE_URL is set and names another server than the one that would receive the write, they
 * stop: a token made in one database is no credential on a server that reads another.
 */
import type { Config } from '../config.js';
import { CliError, EXIT_USAGE, type Output } from './output.js';

export const DEFAULT_URL = 'http://127.0.0.1:4000';

export interface ServerUrl {
  /** Without a trailing slash. */
  url: string;
  /** Whether GATEHOUSE_URL set it (else gatehouse.json's "gateway", or the default). */
  explicit: boolean;
  /** Where the URL came from, as a note names it. */
  source: 'GATEHOUSE_URL' | 'gatehouse.json' | 'default';
}

/** The server: GATEHOUSE_URL, else the project file's `gateway` (when given), else the default. */
export function serverUrlOf(env: NodeJS.ProcessEnv, projectGateway?: string | null): ServerUrl {
  const set = env.GATEHOUSE_URL?.trim();
  const source = set ? 'GATEHOUSE_URL' : projectGateway ? 'gatehouse.json' : 'default';
  const url = (set || projectGateway || DEFAULT_URL).replace(/\/+$/, '');
  if (!URL.canParse(url)) throw new CliError('invalid_url', `${source === 'default' ? 'GATEHOUSE_URL' : source} is not a URL: ${url}`, EXIT_USAGE);
  return { url, explicit: !!set, source };
}

/** How a note names the server: its URL and where the URL came from. */
export const describeServer = ({ url, source }: ServerUrl) =>
  `${url} (${source === 'default' ? 'the default; set GATEHOUSE_URL for another' : source})`;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

/** Whether two URLs reach the same server: same scheme and port, and the same host or both loopback. */
export function sameServer(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  const host = (u: URL) => (LOOPBACK.has(u.hostname) || u.hostname.startsWith('127.') ? 'loopback' : u.hostname);
  return x.protocol === y.protocol && port(x) === port(y) && host(x) === host(y);
}

/** A PostgreSQL URL as a note may show it: no password. */
export function redactedDatabaseUrl(databaseUrl: string): string {
  if (!URL.canParse(databaseUrl)) return 'DATABASE_URL';
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.href;
}

/** What answers at `url`: its /healthz `database` kind, or null when nothing does (within a couple of seconds). */
export async function probeServer(url: string): Promise<{ database: string | null } | null> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    const body = (await res.json().catch(() => ({}))) as { database?: unknown };
    return { database: typeof body.database === 'string' ? body.database : null };
  } catch {
    return null;
  }
}

/** Where a database command writes: through the server holding DATA_DIR, or into a database it opens itself. */
export type DatabaseTarget = { kind: 'server'; url: string; pid: number; dataDir: string } | { kind: 'database'; description: string };

/**
 * The target of a database command, refusing when GATEHOUSE_URL names another server than the
 * one that would receive the write. `holderOf` finds the live server holding DATA_DIR and its URL.
 */
export async function databaseTarget(
  config: Config,
  env: NodeJS.ProcessEnv,
  holderOf: (dataDir: string) => Promise<{ pid: number; url: string } | null>,
  isMemoryDataDir: (dataDir: string) => boolean,
): Promise<DatabaseTarget> {
  const server = serverUrlOf(env);
  const refuse = (why: string, instead: string) =>
    new CliError(
      'server_mismatch',
      `${why} A token or credit made there would not be seen by the server at GATEHOUSE_URL=${server.url}. ${instead}`,
      EXIT_USAGE,
    );

  if (config.databaseUrl) {
    const description = `the PostgreSQL database ${redactedDatabaseUrl(config.databaseUrl)} (DATABASE_URL)`;
    if (server.explicit) {
      const answering = await probeServer(server.url);
      if (answering?.database === 'pglite') {
        throw refuse(
          `DATABASE_URL names ${redactedDatabaseUrl(config.databaseUrl)}, but the server at GATEHOUSE_URL runs on an embedded database.`,
          'Unset DATABASE_URL and set DATA_DIR to that server’s data directory.',
        );
      }
    }
    return { kind: 'database', description };
  }
  if (isMemoryDataDir(config.dataDir))
    return { kind: 'database', description: `an in-memory database (DATA_DIR=${config.dataDir}), gone when this command ends` };

  const holder = await holderOf(config.dataDir);
  if (holder) {
    if (server.explicit && !sameServer(holder.url, server.url)) {
      throw refuse(
        `DATA_DIR ${config.dataDir} is held by the server at ${holder.url} (pid ${holder.pid}), not the one GATEHOUSE_URL names.`,
        `Run this with the DATABASE_URL or DATA_DIR of the server at ${server.url}, or set GATEHOUSE_URL=${holder.url}.`,
      );
    }
    return { kind: 'server', url: holder.url, pid: holder.pid, dataDir: config.dataDir };
  }
  if (server.explicit && (await probeServer(server.url))) {
    throw refuse(
      `A server answers at GATEHOUSE_URL, but none holds DATA_DIR ${config.dataDir}: this command would write into a database that server does not read.`,
      'Run this with that server’s DATABASE_URL or DATA_DIR.',
    );
  }
  return { kind: 'database', description: `the embedded database in DATA_DIR ${config.dataDir} (no server holds it)` };
}

/** The note a database command ends with: where it wrote, and the GATEHOUSE_URL the next commands need. */
export function noteDatabaseTarget(out: Output, target: DatabaseTarget, env: NodeJS.ProcessEnv, what: string): void {
  if (target.kind === 'database') {
    out.note(`gatehouse: ${what} in ${target.description}.`);
    return;
  }
  out.note(`gatehouse: ${what} through the server at ${target.url} (pid ${target.pid}), which holds DATA_DIR ${target.dataDir}.`);
  const server = serverUrlOf(env);
  if (!sameServer(target.url, server.url)) out.note(`gatehouse: the other commands talk to GATEHOUSE_URL: export GATEHOUSE_URL=${target.url}`);
}
